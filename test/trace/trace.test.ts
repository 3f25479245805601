import { describe, expect, it } from 'vitest';
import { trace } from '../../src/orchestrator/call-trace.js';
import { locate } from '../../src/orchestrator/locate.js';
import type { TraceNode } from '../../src/core/types.js';
import { useTempRepos } from '../helpers/make-repo.js';

const makeRepo = useTempRepos();

/** A Python program whose call chain runs through three files: main → step_one → step_two → step_three → finish. */
const CHAIN = {
  'app/main.py': ['from app.a import step_one', '', '', 'def main():', '    print(step_one(1))', '', '', 'if __name__ == "__main__":', '    main()', ''].join('\n'),
  'app/a.py': ['from app.b import step_two', '', '', 'def step_one(x):', '    # begin the chain', '    y = x + 1', '    return step_two(y)', ''].join('\n'),
  'app/b.py': ['from app.c import step_three', '', '', 'def step_two(y):', '    return step_three(y * 2)', ''].join('\n'),
  'app/c.py': ['def step_three(z):', '    if z > 100:', '        return z', '    return finish(z)', '', '', 'def finish(z):', '    return str(z)', ''].join('\n'),
  'README.md': 'step_one starts the chain; step_two(y) and step_three(z) follow.\n',
};

/** One path down a tree: each node's (symbol file:line, called at line). */
function chainOf(node: TraceNode | undefined, way: 'callers' | 'callees'): string[] {
  const out: string[] = [];
  for (let n = node; n; n = n[way]?.[0]) out.push(`${n.symbol} ${n.file}:${n.line}${n.callLine === undefined ? '' : ` @${n.callLine}`}`);
  return out;
}

describe('trace (real ripgrep, real files)', () => {
  it('follows callees three hops down, across files, with the line of each call', async () => {
    const repo = makeRepo(CHAIN);
    const result = await trace('step_one', { root: repo.root, cache: false, direction: 'callees', depth: 3 });
    expect(result.definitions).toHaveLength(1);
    expect(chainOf(result.definitions[0], 'callees')).toEqual(['step_one app/a.py:4', 'step_two app/b.py:4 @7', 'step_three app/c.py:1 @5', 'finish app/c.py:7 @4']);
    // `str` and `print` are called but defined nowhere in the repository: no node for them.
    expect(result.definitions[0]!.callees!.map((n) => n.symbol)).toEqual(['step_two']);
    expect(result.truncated).toBe(false);
  });

  it('traces a name in another script, as retrieve finds it', async () => {
    const repo = makeRepo({ 'app/a.py': 'def получить(x):\n    return x\n\n\ndef main():\n    return получить(1)\n' });
    const result = await trace('получить', { root: repo.root, cache: false, direction: 'callers' });
    expect(result.definitions.map((d) => `${d.file}:${d.line}`)).toEqual(['app/a.py:1']);
    expect((result.definitions[0]!.callers ?? []).map((c) => c.symbol)).toEqual(['main']);
  });

  it('refuses roots (retrieve\'s option) from a JavaScript caller instead of searching the working directory', async () => {
    const repo = makeRepo(CHAIN);
    const roots = [{ path: repo.root }] as unknown;
    await expect(trace('step_one', { cache: false, roots } as Parameters<typeof trace>[1])).rejects.toMatchObject({ code: 'bad_option', message: 'trace() and locate() search one repository: roots is an option of retrieve()' });
    await expect(locate('Error: x\n    at step_one (app/a.py:4:1)', { cache: false, roots } as Parameters<typeof locate>[1])).rejects.toMatchObject({ code: 'bad_option' });
  });

  it('refuses what is no symbol name in one short line: not a string, too long', async () => {
    await expect(trace(undefined as unknown as string, { cache: false })).rejects.toMatchObject({ code: 'bad_option', message: 'the symbol must be a string (got undefined)' });
    await expect(trace('a'.repeat(100_000), { cache: false })).rejects.toMatchObject({ message: 'not a symbol name: 100000 characters' });
    const long = await trace('-'.repeat(100_000), { cache: false }).catch((e: Error) => e);
    expect((long as Error).message.length).toBeLessThan(200);
  });

  it('finds the one definition of a name that more files call than one search keeps', async () => {
    const files: Record<string, string> = { 'zz/def.ts': 'export function beta(x: number) {\n  return x;\n}\n' };
    for (let i = 1; i <= 420; i++) files[`src/u${i}.ts`] = `export const v${i} = beta(${i});\n`;
    const repo = makeRepo(files);
    const result = await trace('beta', { root: repo.root, cache: false, direction: 'callees' });
    expect(result.definitions.map((d) => `${d.file}:${d.line}`)).toEqual(['zz/def.ts:1']);
  });

  it('past the files a wide search reads (5,000): finds a definition in a file named after it, and says when it found none', async () => {
    const files: Record<string, string> = { 'src/hub.ts': 'export function hub(n: number) {\n  return n + 1;\n}\n', 'lib/wheel.ts': 'export function spoke(n: number) {\n  return n;\n}\n' };
    for (let i = 1; i <= 5000; i++) files[`callers/c${i}.ts`] = `import { hub } from '../src/hub'; import { spoke } from '../lib/wheel';\nexport function caller${i}() { return hub(${i}) + spoke(${i}); }\n`;
    const repo = makeRepo(files);
    const found = await trace('hub', { root: repo.root, cache: false, direction: 'callees' });
    expect(found.definitions.map((d) => `${d.file}:${d.line}`)).toEqual(['src/hub.ts:1']);
    // `spoke` lives in a file of another name: found, or the result says the search was cut (it said nothing)
    const missed = await trace('spoke', { root: repo.root, cache: false, direction: 'callees' });
    expect(missed.definitions.length > 0 || missed.truncated).toBe(true);
  }, 60_000);

  it('follows callers three hops up, and a README mentioning the names is no caller', async () => {
    const repo = makeRepo(CHAIN);
    const result = await trace('step_three', { root: repo.root, cache: false, direction: 'callers', depth: 3 });
    expect(chainOf(result.definitions[0], 'callers')).toEqual(['step_three app/c.py:1', 'step_two app/b.py:4 @5', 'step_one app/a.py:4 @7', 'main app/main.py:4 @5']);
    expect(JSON.stringify(result)).not.toContain('README');
  });

  it('stops at the depth asked: the last hop is listed but not expanded', async () => {
    const repo = makeRepo(CHAIN);
    const result = await trace('step_one', { root: repo.root, cache: false, direction: 'callees', depth: 1 });
    const [child] = result.definitions[0]!.callees!;
    expect(child).toMatchObject({ symbol: 'step_two', file: 'app/b.py' });
    expect(child!.callees).toBeUndefined();
  });

  it('reports a cycle between two files and cuts it there', async () => {
    const repo = makeRepo({
      'src/ping.ts': ["import { pong } from './pong';", '', 'export function ping(n: number): number {', '  if (n <= 0) return 0;', '  return pong(n - 1);', '}', ''].join('\n'),
      'src/pong.ts': ["import { ping } from './ping';", '', 'export const pong = (n: number): number => {', '  return ping(n) + 1;', '};', ''].join('\n'),
    });
    const result = await trace('ping', { root: repo.root, cache: false, direction: 'callees', depth: 5 });
    const pong = result.definitions[0]!.callees![0]!;
    expect(pong).toMatchObject({ symbol: 'pong', file: 'src/pong.ts', line: 3, callLine: 5 });
    expect(pong.callees).toEqual([{ symbol: 'ping', file: 'src/ping.ts', line: 3, kind: 'function', callLine: 4, cycle_detected: true }]);
  });

  it('reports a one-line recursion as a cycle (the call on the definition\'s own line was taken for its head)', async () => {
    const repo = makeRepo({ 'src/a.ts': 'export function self(n: number): number { return n <= 0 ? 0 : self(n - 1); }\nexport function user() { return self(3); }\nexport function plain(x: number) { return x; }\n' });
    const root = (await trace('self', { root: repo.root, cache: false, direction: 'both', depth: 2 })).definitions[0]!;
    expect(root.callees).toEqual([expect.objectContaining({ symbol: 'self', cycle_detected: true })]);
    expect(root.callers!.map((n) => `${n.symbol}${n.cycle_detected ? ' (cycle)' : ''}`)).toEqual(['self (cycle)', 'user']);
    // a one-line definition that does not call itself is no caller of itself
    const plain = (await trace('plain', { root: repo.root, cache: false, direction: 'both', depth: 1 })).definitions[0]!;
    expect(plain.callers ?? []).toEqual([]);
    expect(plain.callees ?? []).toEqual([]);
  });

  it('reports direct recursion as a cycle in both directions, and finds the other callers', async () => {
    const repo = makeRepo({
      'server/fact.go': ['package server', '', 'func fact(n int) int {', '\tif n <= 1 {', '\t\treturn 1', '\t}', '\treturn n * fact(n-1)', '}', '', 'func (s *Server) Handle(x int) int {', '\treturn fact(x)', '}', ''].join('\n'),
    });
    const result = await trace('fact', { root: repo.root, cache: false, direction: 'both', depth: 2 });
    const root = result.definitions[0]!;
    expect(root.callees).toEqual([expect.objectContaining({ symbol: 'fact', cycle_detected: true })]);
    expect(root.callers!.map((n) => `${n.symbol}${n.cycle_detected ? ' (cycle)' : ''}`)).toEqual(['fact (cycle)', 'Handle']);
    expect(root.callers![1]).toMatchObject({ file: 'server/fact.go', line: 10, callLine: 11, kind: 'method' });
  });

  it('gives an empty result for a symbol defined nowhere, and refuses what is not a name', async () => {
    const repo = makeRepo(CHAIN);
    expect((await trace('no_such_function', { root: repo.root, cache: false })).definitions).toEqual([]);
    await expect(trace('', { root: repo.root, cache: false })).rejects.toMatchObject({ code: 'bad_option', message: 'no symbol given' });
    await expect(trace('a b', { root: repo.root, cache: false })).rejects.toMatchObject({ code: 'bad_option' });
    await expect(trace('step_one', { root: repo.root, cache: false, depth: 0 })).rejects.toMatchObject({ code: 'bad_option' });
  });
});
