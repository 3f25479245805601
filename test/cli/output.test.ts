import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { RetrieveOptions } from '../../src/core/options.js';
import { SearchError } from '../../src/core/errors.js';
import { UNREAD_REASON } from '../../src/core/pack-text.js';
import { Collector, fakeRun, makeIo, sampleResult } from './fake-io.js';
import { writeOutput } from '../../src/cli/write.js';

const ANSI = /\u001B\[/;

/** A run that talks the way the orchestrator does: logs at every level and reports progress. */
const chattyRun = () =>
  fakeRun((_task, options: RetrieveOptions) => {
    options.logger?.info('provider: offline (no model configured)');
    options.logger?.warn('ANTHROPIC_API_KEY rejected, using offline');
    options.logger?.debug('rg --json -F verifyemail');
    options.onProgress?.({ type: 'dispatch', cycle: 1, candidates: 142, ms: 120 });
    options.onProgress?.({ type: 'evaluate', cycle: 1, scored: 142, kept: 4, ms: 90 });
    options.onProgress?.({ type: 'refine', cycle: 1, gaps: ['where is x defined?'], stop: true, why: 'enough files' });
    options.onProgress?.({ type: 'pack', files: 2, tokens: 1840 });
    return sampleResult();
  });

describe('stdout carries the result and nothing else', () => {
  it('--json: parseable JSON, exactly the contract, progress only on stderr', async () => {
    const io = makeIo();
    expect(await main(['retrieve', '--task', 't', '--json', '--verbose'], io, chattyRun())).toBe(0);
    expect(JSON.parse(io.stdout.text)).toEqual(sampleResult());
    expect(io.stdout.text).toBe(`${JSON.stringify(sampleResult(), null, 2)}\n`);
    expect(io.stderr.text).toContain('cycle 1: 142 candidates, 4 kept (210 ms)');
  });

  it('--json: fields outside the contract are not printed', async () => {
    const io = makeIo();
    const run = fakeRun(() => Object.assign(sampleResult(), { internalTrace: [1, 2] }));
    await main(['retrieve', '--task', 't', '--json'], io, run);
    expect(Object.keys(JSON.parse(io.stdout.text))).not.toContain('internalTrace');
  });

  it('--json failure: the error object on stdout, the message on stderr', async () => {
    const io = makeIo();
    const run = fakeRun(() => {
      throw new SearchError('rg_not_found', 'ripgrep binary not found');
    });
    expect(await main(['retrieve', '--task', 't', '--format', 'json'], io, run)).toBe(1);
    expect(JSON.parse(io.stdout.text)).toEqual({ error: { code: 'rg_not_found', message: 'ripgrep binary not found' } });
    expect(io.stderr.text).toBe('ctxloop: ripgrep binary not found\n');
  });

  it('--format paths: one packed file a line, no candidates', async () => {
    const io = makeIo();
    await main(['retrieve', '--task', 't', '--format', 'paths'], io, fakeRun());
    expect(io.stdout.text).toBe('src/auth/verify.ts\nsrc/auth/tokens.py\n');
  });

  it('md (the default): file headers, regions and fenced code', async () => {
    const io = makeIo();
    await main(['retrieve', '--task', 't'], io, fakeRun());
    expect(io.stdout.text).toContain('## src/auth/verify.ts (score 0.93)');
    expect(io.stdout.text).toContain('```typescript\n40\texport function verifyEmail(token: string) {\n41\t  return check(token);\n42\t}\n…\n60\texport const TTL = 3600;\n```');
    expect(io.stdout.text).not.toMatch(ANSI);
  });

  it('md shows a file name holding an escape sequence without it; JSON and paths keep the name', async () => {
    const path = 'src/\u001b]0;owned\u0007x.ts';
    const result = sampleResult();
    const packed = { ...result, files: [{ ...result.files[0]!, path }], candidates: [{ path: `${path}.bak`, score: 0.5, reason: 'r' }] };
    const md = makeIo();
    await main(['retrieve', '--task', 't'], md, fakeRun(() => packed));
    expect(md.stdout.text).toContain('## src/\uFFFD]0;owned\uFFFDx.ts (score 0.93)');
    expect(md.stdout.text).toContain('- src/\uFFFD]0;owned\uFFFDx.ts.bak (0.50)');
    expect(md.stdout.text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    const paths = makeIo();
    await main(['retrieve', '--task', 't', '--format', 'paths'], paths, fakeRun(() => packed));
    expect(paths.stdout.text).toBe(`${path}\n`);
    // on a terminal the name's escape would run: shown as U+FFFD there too
    const terminal = makeIo({ stdoutTty: true });
    await main(['retrieve', '--task', 't', '--format', 'paths'], terminal, fakeRun(() => packed));
    expect(terminal.stdout.text).toBe('src/\uFFFD]0;owned\uFFFDx.ts\n');
  });

  it('a large JSON result through a slow pipe arrives whole', async () => {
    const big = sampleResult({
      candidates: Array.from({ length: 3000 }, (_, i) => ({ path: `src/generated/module-${i}.ts`, score: 0.1, reason: 'a long reason '.repeat(3) })),
    });
    const io = makeIo();
    io.stdout = new Collector(false, { highWaterMark: 1024, delay: 1 });
    expect(await main(['retrieve', '--task', 't', '--json'], io, fakeRun(() => big))).toBe(0);
    expect(io.stdout.text.length).toBeGreaterThan(200_000);
    expect(JSON.parse(io.stdout.text).candidates).toHaveLength(3000);
  });
});

describe('stderr by level', () => {
  const stderrFor = async (flags: string[], tty = false, env: Record<string, string> = {}) => {
    const io = makeIo({ stderrTty: tty, env });
    expect(await main(['retrieve', '--task', 't', ...flags], io, chattyRun())).toBe(0);
    return io.stderr.text;
  };

  it('default, not a terminal: provider, warnings and the summary; no cycle lines, no debug', async () => {
    const text = await stderrFor([]);
    expect(text).toContain('provider: offline');
    expect(text).toContain('warning: ANTHROPIC_API_KEY rejected');
    expect(text).toContain('2 files, 1840 tokens, provider offline, 1 cycle');
    expect(text).not.toContain('cycle 1:');
    expect(text).not.toContain('debug:');
  });

  it('default on a terminal: a line per cycle', async () => {
    expect(await stderrFor([], true)).toContain('cycle 1: 142 candidates, 4 kept');
  });

  it('--quiet: nothing but errors', async () => {
    expect(await stderrFor(['--quiet'])).toBe('');
  });

  it('--verbose: cycle lines, per-stage detail and debug logs', async () => {
    const text = await stderrFor(['--verbose']);
    expect(text).toContain('cycle 1: 142 candidates, 4 kept (210 ms)');
    expect(text).toContain('cycle 1 dispatch: 142 candidates (120 ms)');
    expect(text).toContain('cycle 1 refine: stop (enough files); gaps: where is x defined?');
    expect(text).toContain('pack: 2 files, 1840 tokens');
    expect(text).toContain('debug: rg --json -F verifyemail');
  });

  it('colour only on a terminal, never with NO_COLOR, TERM=dumb or --no-color', async () => {
    expect(await stderrFor([])).not.toMatch(ANSI);
    expect(await stderrFor([], true)).toMatch(ANSI);
    expect(await stderrFor([], true, { NO_COLOR: '1' })).not.toMatch(ANSI);
    expect(await stderrFor([], true, { TERM: 'dumb' })).not.toMatch(ANSI);
    expect(await stderrFor(['--no-color'], true)).not.toMatch(ANSI);
  });

  it('says so on stderr when no file reached the threshold, and still exits 0', async () => {
    const io = makeIo();
    const run = fakeRun(() => sampleResult({ files: [] }));
    expect(await main(['retrieve', '--task', 't', '--format', 'paths'], io, run)).toBe(0);
    expect(io.stdout.text).toBe('');
    expect(io.stderr.text).toContain('warning: no file reached the threshold (best candidate: src/db/schema.ts, 0.55)');
  });

  it('says which files reached the threshold but could not be read, not that none reached it', async () => {
    const io = makeIo();
    const run = fakeRun(() => sampleResult({ files: [], candidates: [{ path: 'src/noread.ts', score: 0.95, reason: `${UNREAD_REASON}; defines verifyThing` }] }));
    expect(await main(['retrieve', '--task', 't', '--format', 'paths'], io, run)).toBe(0);
    expect(io.stderr.text).toContain('warning: src/noread.ts scored 0.95 but could not be read to be packed (deleted, unreadable or replaced since the search)');
    expect(io.stderr.text).toContain('warning: no file was packed: those that reached the threshold could not be read');
    expect(io.stderr.text).not.toContain('no file reached the threshold');
  });

  it('says the budget, not the threshold, when files reached it but none fit', async () => {
    const io = makeIo();
    const run = fakeRun(() => sampleResult({ files: [], cut: [{ path: 'src/huge.ts', tokens: 250_000 }] }));
    expect(await main(['retrieve', '--task', 't', '--format', 'paths'], io, run)).toBe(0);
    expect(io.stderr.text).toContain('warning: no file fit the token budget (the first cut: src/huge.ts, 250000 tokens); raise --budget to have it');
    expect(io.stderr.text).not.toContain('threshold');
  });
});

describe('writeOutput', () => {
  it('treats a closed reader (EPIPE) as the end, not an error', async () => {
    const stream = new Collector();
    stream._write = (_chunk, _encoding, callback) => callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    await expect(writeOutput('x'.repeat(200_000), stream)).resolves.toBeUndefined();
  });

  it('rejects on any other write error, as ours, in one line', async () => {
    const stream = new Collector();
    stream._write = (_chunk, _encoding, callback) => callback(Object.assign(new Error('disk full\nmore'), { code: 'ENOSPC' }));
    await expect(writeOutput('x', stream)).rejects.toMatchObject({ code: 'fs_error', message: 'cannot write the output: disk full' });
  });
});
