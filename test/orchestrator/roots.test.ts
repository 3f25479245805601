/** One task over several repositories: real ripgrep on two temp repositories. */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isUsageError } from '../../src/core/errors.js';
import { retrieve } from '../../src/orchestrator/loop.js';
import { labelRoots, rootsAtOnce, scopeFor } from '../../src/orchestrator/roots.js';
import { createRetriever } from '../../src/orchestrator/retriever.js';
import { createSearcher } from '../../src/retrieve/dispatch.js';
import type { Searcher } from '../../src/core/deps.js';
import { useTempRepos } from '../helpers/make-repo.js';

const makeRepo = useTempRepos();

const TASK = 'submitLogin gets a 500 from handleLogin when the password is empty';

/** An API that defines `handleLogin`, and a web app whose `submitLogin` posts to it. */
function twoRepos() {
  const api = makeRepo({
    'src/server/login.ts': "export function handleLogin(req: Request) {\n  if (!req.password) throw new Error('password required');\n  return { ok: true };\n}\n",
    'src/server/health.ts': 'export function health() {\n  return { status: "up" };\n}\n',
    'docs/notes.md': '# Notes\n\nNothing about logins.\n',
  });
  const web = makeRepo({
    'src/pages/login.ts': "export async function submitLogin(form: { password: string }) {\n  return fetch('/api/login', { method: 'POST', body: JSON.stringify(form) });\n}\n",
    'src/pages/home.ts': 'export function renderHome() {\n  return "<h1>home</h1>";\n}\n',
  });
  return { api, web };
}

describe('retrieve over several roots', () => {
  it('labels every path with its root and ranks both roots together', async () => {
    const { api, web } = twoRepos();
    const result = await retrieve(TASK, { roots: [{ label: 'api', path: api.root }, { label: 'web', path: web.root }], cache: false });
    const paths = result.files.map((f) => f.path);
    expect(paths).toContain('api:src/server/login.ts');
    expect(paths).toContain('web:src/pages/login.ts');
    for (const path of [...paths, ...result.candidates.map((c) => c.path)]) expect(path).toMatch(/^(api|web):/);
    expect(result.root).toBe(realpathSync(api.root));
    expect(result.roots).toEqual([
      { label: 'api', path: realpathSync(api.root) },
      { label: 'web', path: realpathSync(web.root) },
    ]);
    // Each root's cycles are in the trace, under its label.
    expect(new Set(result.cycles.map((c) => c.root))).toEqual(new Set(['api', 'web']));
    // Regions are read from the right root: line 1 of the API file defines handleLogin.
    const apiFile = result.files.find((f) => f.path === 'api:src/server/login.ts')!;
    expect(apiFile.regions[0]).toMatchObject({ start: 1, symbol: 'handleLogin' });
  });

  it('runs a dozen roots without Node\'s listener-leak warning (printed on stderr, even under --quiet, past ten roots)', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const roots = Array.from({ length: 12 }, (_, i) => ({ label: `r${i}`, path: twoRepos().api.root }));
      const result = await retrieve(TASK, { roots, cache: false, maxCycles: 1, signal: new AbortController().signal });
      expect(result.roots).toHaveLength(12);
      await new Promise((done) => setImmediate(done)); // warnings are emitted on the next tick
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('runs at most rootsAtOnce() roots\' loops at a time, every root still answered', async () => {
    // Sixteen large roots at once on two cores ran every content scan out of its time.
    const real = createSearcher();
    let inFlight = 0;
    let most = 0;
    const searcher: Searcher = {
      listFiles: (scope, signal) => real.listFiles(scope, signal),
      statFiles: (scope, signal) => real.statFiles!(scope, signal),
      async search(request, signal) {
        most = Math.max(most, ++inFlight);
        try {
          // long enough that every root would be searching at once without a bound
          await new Promise((done) => setTimeout(done, 20));
          return await real.search(request, signal);
        } finally {
          inFlight--;
        }
      },
    };
    const count = rootsAtOnce() + 4;
    const roots = Array.from({ length: count }, (_, i) => ({ label: `r${i}`, path: twoRepos().api.root }));
    const result = await createRetriever({ cache: false, maxCycles: 1 }, { searcher }).retrieve(TASK, { roots });
    expect(result.roots).toHaveLength(count);
    expect(new Set(result.files.map((f) => f.path.split(':')[0]))).toEqual(new Set(roots.map((r) => r.label)));
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(rootsAtOnce());
  });

  it('shares one budget across the roots', async () => {
    const { api, web } = twoRepos();
    const roots = [{ label: 'api', path: api.root }, { label: 'web', path: web.root }];
    const roomy = await retrieve(TASK, { roots, cache: false });
    const tight = await retrieve(TASK, { roots, cache: false, budget: 100 });
    // Both files fit 8,000 tokens together but not 100: one budget for all roots, not one each.
    expect(roomy.tokens).toBeGreaterThan(100);
    expect(tight.tokens).toBeLessThanOrEqual(100);
    expect(tight.files[0]!.path).toBe(roomy.files[0]!.path);
  });

  it('ranks a root the same as a run over it alone', async () => {
    const { api, web } = twoRepos();
    const both = await retrieve(TASK, { roots: [{ label: 'api', path: api.root }, { label: 'web', path: web.root }], cache: false });
    const alone = await retrieve(TASK, { root: api.root, cache: false });
    const fromApi = [...both.files, ...both.candidates].filter((f) => f.path.startsWith('api:')).map((f) => [f.path.slice('api:'.length), f.score]);
    expect(fromApi).toEqual([...alone.files, ...alone.candidates].map((f) => [f.path, f.score]));
  });

  it('drops a gap that another root closes: a symbol called in one root and defined in the other', async () => {
    const { api, web } = twoRepos();
    const alone = await retrieve(TASK, { root: api.root, cache: false });
    expect(alone.gaps).toContain('where is submitLogin defined?');
    const both = await retrieve(TASK, { roots: [{ label: 'api', path: api.root }, { label: 'web', path: web.root }], cache: false });
    expect(both.gaps.join('\n')).not.toMatch(/submitLogin|handleLogin/);
  });

  it('takes the directory name as the label when none is given', async () => {
    const { api, web } = twoRepos();
    const result = await retrieve(TASK, { roots: [{ path: api.root }, { path: web.root }], cache: false });
    const names = result.roots!.map((r) => r.label);
    expect(names).toEqual([api.root.split('/').pop(), web.root.split('/').pop()]);
    expect(result.files[0]!.path.startsWith(`${names[0]}:`) || result.files[0]!.path.startsWith(`${names[1]}:`)).toBe(true);
  });

  it('applies a labelled scope to its root only', async () => {
    const { api, web } = twoRepos();
    const result = await retrieve(TASK, { roots: [{ label: 'api', path: api.root }, { label: 'web', path: web.root }], scope: ['api:docs'], cache: false });
    const paths = [...result.files, ...result.candidates].map((f) => f.path);
    expect(paths.filter((p) => p.startsWith('api:')).every((p) => p.startsWith('api:docs/'))).toBe(true);
    expect(paths).toContain('web:src/pages/login.ts');
  });

  it.each([
    [[{ label: 'api', path: '.' }, { label: 'api', path: '..' }], /two roots have the label "api"/],
    [[{ label: 'my api', path: '.' }], /bad root label "my api"/],
    [[{ label: 'a:b', path: '.' }], /bad root label/],
    [[], /roots is empty/],
    // each root is its own listing and scan: 1,000 of them took 29 s and 320 MB
    [Array.from({ length: 65 }, (_, i) => ({ label: `r${i}`, path: `/tmp/r${i}` })), /^roots holds 65 directories, at most 64 are searched for one task/],
  ])('refuses %j with a one-line usage error', (roots, message) => {
    let error: unknown;
    try {
      labelRoots({ roots });
    } catch (e) {
      error = e;
    }
    expect(isUsageError(error)).toBe(true);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it('refuses root and roots together, a missing directory, and the same directory twice', async () => {
    const { api } = twoRepos();
    await expect(retrieve(TASK, { root: api.root, roots: [{ path: api.root }] })).rejects.toThrow(/either root or roots/);
    await expect(retrieve(TASK, { roots: [{ label: 'a', path: api.root }, { label: 'b', path: join(api.root, 'nope') }], cache: false })).rejects.toMatchObject({ code: 'root_not_found' });
    await expect(retrieve(TASK, { roots: [{ label: 'a', path: api.root }, { label: 'b', path: join(api.root, 'src', '..') }], cache: false })).rejects.toThrow(/same directory/);
  });

  it('refuses a root inside another, either way round (its files were listed, scored and packed twice)', async () => {
    const { api } = twoRepos();
    for (const roots of [[{ label: 'all', path: api.root }, { label: 'src', path: join(api.root, 'src') }], [{ label: 'src', path: join(api.root, 'src') }, { label: 'all', path: api.root }]]) {
      const error = await retrieve(TASK, { roots, cache: false }).catch((e: unknown) => e);
      expect(isUsageError(error)).toBe(true);
      expect((error as Error).message).toMatch(/^root src \(.*\/src\) lies inside root all \(.*\): roots must not nest$/);
    }
    // a sibling sharing the prefix is no overlap
    const { api: other } = twoRepos();
    expect((await retrieve(TASK, { roots: [{ label: 'a', path: api.root }, { label: 'b', path: other.root }], cache: false })).roots).toHaveLength(2);
  });
});

describe('scopeFor', () => {
  it('gives a root its own labelled entries and every plain one', () => {
    const scope = ['api:src', 'web:lib', 'shared', 'api:'];
    expect(scopeFor(scope, 'api', ['api', 'web'])).toEqual(['src', 'shared', '.']);
    expect(scopeFor(scope, 'web', ['api', 'web'])).toEqual(['lib', 'shared']);
    expect(scopeFor(undefined, 'web', ['api', 'web'])).toBeUndefined();
  });
});
