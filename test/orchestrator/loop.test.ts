import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retrieve } from '../../src/orchestrator/loop.js';
import type { ProgressEvent, Score } from '../../src/core/types.js';
import type { RetrieveOptions } from '../../src/core/options.js';
import type { EvalInput, Evaluator, Searcher } from '../../src/core/deps.js';
import { createSearcher } from '../../src/retrieve/dispatch.js';
import { createOfflineEvaluator } from '../../src/evaluate/offline/index.js';
import { makeRepo, type TempRepo } from '../helpers/make-repo.js';

/** A repository where `requestTimeout` is used in many files but assigned in one. */
function timeoutRepo(): TempRepo {
  const files: Record<string, string> = {
    'src/config/defaults.ts': [
      "import { readEnv } from '../util/env';",
      '',
      'export function loadDefaults(settings: Settings): Settings {',
      "  settings.requestTimeout = Number(readEnv('TIMEOUT') ?? 30_000);",
      '  settings.retries = 3;',
      '  return settings;',
      '}',
    ].join('\n'),
    'src/util/env.ts': 'export function readEnv(name: string): string | undefined {\n  return process.env[name];\n}\n',
    'README.md': '# app\n\nThe requestTimeout setting is documented here. requestTimeout requestTimeout requestTimeout.\n',
  };
  for (const name of ['client', 'server', 'worker', 'proxy', 'queue', 'cron']) {
    files[`src/${name}/${name}.ts`] = [
      `export function run${name}(settings: Settings) {`,
      `  const timer = setTimeout(abort, settings.requestTimeout);`,
      `  log('requestTimeout', settings.requestTimeout);`,
      `  if (elapsed > settings.requestTimeout) throw new Error('timeout');`,
      '}',
    ].join('\n');
  }
  return makeRepo(files);
}

describe('retrieve (real ripgrep, real files)', () => {
  let repo: TempRepo;
  beforeAll(() => {
    repo = timeoutRepo();
  });
  afterAll(() => repo.cleanup());

  it('ranks the file that assigns a concept first when the task asks where it is created', async () => {
    const result = await retrieve('Where is requestTimeout set? It seems to be created with the wrong default.', { root: repo.root, cache: false });
    const ranking = [...result.files.map((f) => f.path), ...result.candidates.map((c) => c.path)];
    expect(ranking[0]).toBe('src/config/defaults.ts');
    expect(result.provider).toBe('offline');
    expect(result.files[0]?.regions.length).toBeGreaterThan(0);
    expect(result.files.every((f) => f.score >= 0.7)).toBe(true);
  });

  it('reads a task pasted from a terminal as its text: colours and control characters gone', async () => {
    const plain = await retrieve('loadDefaults calls readEnv', { root: repo.root, cache: false, maxCycles: 1 });
    const pasted = await retrieve('\x1b[1mloadDefaults\x1b[22m calls \x1b[36mreadEnv\x1b[39m', { root: repo.root, cache: false, maxCycles: 1 });
    expect(pasted.task).toBe('loadDefaults calls readEnv');
    expect(pasted.files.map((f) => f.path)).toEqual(plain.files.map((f) => f.path));
  });

  it('does not search a cache kept inside the repository', async () => {
    const cache = join(repo.root, '.ctxloop-cache');
    try {
      const task = 'loadDefaults calls readEnv';
      await retrieve(task, { root: repo.root, cache, maxCycles: 1 });
      expect(readdirSync(cache).length).toBeGreaterThan(0);
      // the second run, after a change elsewhere, searches again and the first run's cache files are no candidates
      writeFileSync(join(repo.root, 'src/util/extra.ts'), 'export const readEnvLater = 1;\n');
      const again = await retrieve(`${task} later`, { root: repo.root, cache, maxCycles: 1 });
      const seen = [...again.files.map((f) => f.path), ...again.candidates.map((c) => c.path)];
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.filter((p) => p.startsWith('.ctxloop-cache/'))).toEqual([]);
    } finally {
      rmSync(cache, { recursive: true, force: true });
      rmSync(join(repo.root, 'src/util/extra.ts'), { force: true });
    }
  });

  it('does not search a cache kept in the root itself (--cache .): its files were candidates, packed at 0.3', async () => {
    const r = makeRepo({ 'src/auth.ts': 'export function verifyEmail(token) { return parseExpiry(token) }\nexport function parseExpiry(t) { return 1 }\n' });
    try {
      const task = 'email verification token expiry parseExpiry';
      await retrieve(task, { root: r.root, cache: r.root, threshold: 0.3 });
      expect(readdirSync(r.root).filter((name) => name.endsWith('.json')).length).toBeGreaterThan(1);
      const again = await retrieve(`${task} again`, { root: r.root, cache: r.root, threshold: 0.3 });
      expect([...again.files.map((f) => f.path), ...again.candidates.map((c) => c.path)]).toEqual(['src/auth.ts']);
    } finally {
      r.cleanup();
    }
  });

  it('does not search a relative cache inside the repository, written from a subdirectory (its files were packed)', async () => {
    const r = makeRepo({ 'src/auth.ts': 'export function verifyEmail(token) { return parseExpiry(token) }\nexport function parseExpiry(t) { return 1 }\n' });
    const cwd = process.cwd();
    try {
      // a library caller in src/ with `cache: 'cc'` (or CTXLOOP_CACHE=cc): the cache is written to src/cc
      process.chdir(join(r.root, 'src'));
      const task = 'email verification token expiry parseExpiry';
      await retrieve(task, { root: r.root, cache: 'cc', threshold: 0.3 });
      expect(readdirSync(join(r.root, 'src', 'cc')).length).toBeGreaterThan(0);
      const again = await retrieve(`${task} again`, { root: r.root, cache: 'cc', threshold: 0.3 });
      expect([...again.files.map((f) => f.path), ...again.candidates.map((c) => c.path)]).toEqual(['src/auth.ts']);
    } finally {
      process.chdir(cwd);
      r.cleanup();
    }
  });

  it('leaves out only the cache directory itself, not every directory of its name (src/cache/ was hidden by --cache cache)', async () => {
    const r = makeRepo({ 'src/cache/store.ts': 'export function flushStoreEntries() {\n  return 1;\n}\n' });
    try {
      const result = await retrieve('flushStoreEntries in src/cache/store.ts', { root: r.root, cache: join(r.root, 'cache') });
      expect(result.files.map((f) => f.path)).toEqual(['src/cache/store.ts']);
    } finally {
      r.cleanup();
    }
  });

  it('is not failed by the caller\'s callbacks: a progress callback that throws or rejects, a logger that throws', async () => {
    const plain = await retrieve('loadDefaults calls readEnv', { root: repo.root, cache: false, maxCycles: 1 });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const fails = () => {
        throw new Error('caller bug');
      };
      const throwing = await retrieve('loadDefaults calls readEnv', { root: repo.root, cache: false, maxCycles: 1, onProgress: fails, logger: { debug: fails, info: fails, warn: fails, error: fails } });
      const rejecting = await retrieve('loadDefaults calls readEnv', { root: repo.root, cache: false, maxCycles: 1, onProgress: async () => Promise.reject(new Error('caller bug')) });
      await new Promise((resolve) => setTimeout(resolve, 50));
      for (const result of [throwing, rejecting]) expect(result.files.map((f) => f.path)).toEqual(plain.files.map((f) => f.path));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('refuses a task that is not a string as no_task, for a JavaScript caller', async () => {
    for (const task of [42, undefined, null]) await expect(retrieve(task as unknown as string, { root: repo.root, cache: false })).rejects.toMatchObject({ code: 'no_task' });
  });

  it('is deterministic', async () => {
    const task = 'requestTimeout is ignored by the worker';
    const a = await retrieve(task, { root: repo.root, cache: false });
    const b = await retrieve(task, { root: repo.root, cache: false });
    const strip = (r: typeof a) => ({ ...r, cycles: r.cycles.map((c) => ({ ...c, ms: 0 })) });
    expect(strip(b)).toEqual(strip(a));
  });

  it('runs at most max-cycles and reports progress for each stage', async () => {
    const events: ProgressEvent[] = [];
    const result = await retrieve('loadDefaults calls readEnv', { root: repo.root, cache: false, maxCycles: 1, onProgress: (e) => events.push(e) });
    expect(result.cycles).toHaveLength(1);
    expect(events.map((e) => e.type)).toEqual(['plan', 'dispatch', 'evaluate', 'refine', 'pack']);
  });

  it('times each stage on its own: the evaluate event counts the evaluation, not the dispatch before it', async () => {
    // a clock that moves only when a stage says so: the dispatch takes 1000 ms, the evaluation 30 ms
    let now = 0;
    const offline = createOfflineEvaluator();
    const slow: Evaluator = {
      ...offline,
      async evaluate(input: EvalInput, signal?: AbortSignal) {
        now += 30;
        return offline.evaluate(input, signal);
      },
    };
    const real = createSearcher();
    const searcher: Searcher = {
      ...real,
      async search(request, signal) {
        now += 1000;
        return real.search(request, signal);
      },
    };
    const events: ProgressEvent[] = [];
    await retrieve('loadDefaults calls readEnv', { root: repo.root, cache: false, maxCycles: 1, onProgress: (e) => events.push(e) }, { evaluator: slow, searcher, clock: { now: () => now } });
    const dispatch = events.find((e) => e.type === 'dispatch');
    const evaluate = events.find((e) => e.type === 'evaluate');
    expect(dispatch && 'ms' in dispatch ? dispatch.ms : undefined).toBe(1000);
    expect(evaluate && 'ms' in evaluate ? evaluate.ms : undefined).toBe(30);
  });

  it("gives each later cycle's evaluator the verdicts of the cycle before, and the first none", async () => {
    const offline = createOfflineEvaluator();
    const seen: Array<{ previous: readonly Score[] | undefined; scores: Score[] }> = [];
    const recording: Evaluator = {
      ...offline,
      async evaluate(input: EvalInput, signal?: AbortSignal) {
        const output = await offline.evaluate(input, signal);
        seen.push({ previous: input.previous, scores: output.scores });
        return output;
      },
    };
    // `readEnv` is called by the strong file but defined elsewhere: a gap that keeps the loop going.
    const result = await retrieve('loadDefaults sets requestTimeout from the environment', { root: repo.root, cache: false, maxCycles: 3 }, { evaluator: recording });
    expect(result.cycles.length).toBeGreaterThan(1);
    // the loop's own pre-ranking also runs the offline scorer, so look at the evaluator's calls only
    expect(seen[0]!.previous ?? []).toEqual([]);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.previous).toEqual(seen[i - 1]!.scores);
  });

  it('keeps the pack within the budget', async () => {
    const result = await retrieve('requestTimeout', { root: repo.root, cache: false, budget: 120, withContent: true });
    expect(result.tokens).toBeLessThanOrEqual(120);
  });

  it('returns an empty, honest result when nothing is relevant', async () => {
    const result = await retrieve('zzqx flibbertigibbet wobblewort', { root: repo.root, cache: false });
    expect(result.files).toEqual([]);
    expect(result.tokens).toBe(0);
  });

  it('refuses a missing root and an empty task with usage errors', async () => {
    await expect(retrieve('x', { root: `${repo.root}/nope`, cache: false })).rejects.toMatchObject({ code: 'root_not_found' });
    await expect(retrieve('   ', { root: repo.root, cache: false })).rejects.toMatchObject({ code: 'no_task' });
    await expect(retrieve('x', { root: repo.root, cache: false, threshold: 2 })).rejects.toMatchObject({ name: 'UsageError' });
    await expect(retrieve('x', { root: repo.root, cache: false, scope: ['../'] })).rejects.toMatchObject({ code: 'bad_scope' });
  });

  it('refuses options of the wrong kind from JavaScript as usage errors, not TypeErrors from inside the run', async () => {
    const cases: Array<[unknown, RegExp]> = [
      ['root', /^options must be an object \(got string\)$/],
      [[1, 2], /^options must be an object \(got an array\)$/],
      [{ root: 5 }, /^root must be a directory path \(got number\)$/],
      [{ roots: 'x' }, /^roots must be an array of/],
      [{ roots: [{ label: 'a' }] }, /^roots must be an array of/],
      [{ root: repo.root, signal: { aborted: false } }, /^signal must be an AbortSignal \(got object\)$/],
      [{ root: repo.root, onProgress: 'log' }, /^onProgress must be a function/],
      [{ root: repo.root, logger: 1 }, /^logger must be an object/],
      // a mistyped name was dropped, and the run went on with the default
      [{ root: repo.root, budjet: 400 }, /^options: unknown option "budjet", did you mean budget\?$/],
      [{ root: repo.root, withContents: true }, /^options: unknown option "withContents", did you mean withContent\?$/],
      [{ root: repo.root, colour: 'red' }, /^options: unknown option "colour"$/],
      // read as no options: the run searched the working directory and wrote the default cache
      [Promise.resolve({ root: repo.root, cache: false }), /^options is a Promise: await it, and pass the object it gives$/],
      [new WeakRef({ root: repo.root }), /^options must be a plain object \(got a WeakRef\)$/],
      [Object.assign(new Error('x'), { root: repo.root, cache: false }), /^options must be a plain object \(got an Error\)$/],
      [new Date(), /^options must be a plain object \(got a Date\)$/],
      [revoked(), /^options is a revoked Proxy$/],
    ];
    for (const [options, message] of cases) {
      const error = await retrieve('requestTimeout', options as RetrieveOptions).catch((e: unknown) => e);
      expect(error, String(message)).toMatchObject({ name: 'UsageError', code: 'bad_option', message: expect.stringMatching(message) });
    }
    const { trace } = await import('../../src/orchestrator/call-trace.js');
    const { locate } = await import('../../src/orchestrator/locate.js');
    await expect(trace('requestTimeout', null as unknown as object)).rejects.toMatchObject({ name: 'UsageError', message: 'options must be an object (got null)' });
    await expect(locate('Error: x', { root: 5 } as unknown as object)).rejects.toMatchObject({ name: 'UsageError', message: 'root must be a directory path (got number)' });
    await expect(trace('requestTimeout', { root: repo.root, dept: 2 } as unknown as object)).rejects.toMatchObject({ name: 'UsageError', message: 'options: unknown option "dept", did you mean depth?' });
    await expect(locate('Error: x', { root: repo.root, histroyDepth: 5 } as unknown as object)).rejects.toMatchObject({ name: 'UsageError', message: 'options: unknown option "histroyDepth", did you mean historyDepth?' });
    // one call's options handed to another: each reads what it knows
    const shared: RetrieveOptions & { depth: number } = { root: repo.root, cache: false, budget: 400, depth: 2 };
    await expect(locate('Error: x', shared)).resolves.toMatchObject({ candidates: expect.any(Array) });
  });

  it('refuses settings no file name, system call or string can hold, and globs that invert a filter, naming the field', async () => {
    const cases: Array<[RetrieveOptions, RegExp]> = [
      // a NUL reached spawn: "this is a bug" and a stack
      [{ include: ['*.ts\0'] }, /^options: include\.0: must not hold a NUL character/],
      [{ exclude: ['a\0b'] }, /^options: exclude\.0: must not hold a NUL character/],
      [{ cache: 'a\0b' }, /^options: cache: /],
      [{ scope: ['src\0'] }, /^options: scope\.0: must not hold a NUL character/],
      // a 693 MB file read whole: "Cannot create a string longer than 0x1fffffe8 characters"
      [{ maxFileSize: 2_000_000_000 }, /^options: maxFileSize: /],
      // `!x` is every path but x to rg and picomatch: an exclude that emptied the result
      [{ exclude: ['!nothing'] }, /^options: exclude\.0: a glob may not start with "!" \(it would mean every path but that one\): include what you would keep/],
      [{ include: [' !*.md'] }, /^options: include\.0: a glob may not start with "!".*: exclude what you would leave out/],
      // each path is tested against each glob: 21,759 of them froze a run for minutes, deaf to Ctrl-C
      [{ exclude: Array.from({ length: 201 }, (_, i) => `q${i}/**`) }, /^options: exclude: /],
      // each scope entry is an argument to rg: 60,000 of them failed every rg with `spawn E2BIG`, "a bug in ctxloop"
      [{ scope: Array.from({ length: 1001 }, (_, i) => `src/f${i}.ts`) }, /^options: scope: /],
      [{ scope: Array.from({ length: 100 }, (_, i) => `src/${String(i).padStart(1400, 'x')}.ts`) }, /^options: scope: scope entries may hold 128 KB of paths together/],
      // a 252 MB file under the old bound (256 MB) took 3.95 GB of memory
      [{ maxFileSize: 16 * 1024 * 1024 + 1 }, /^options: maxFileSize: /],
      // printed raw on stderr: `provider: openai (gpt` and a forged line of its own
      [{ model: 'gpt\nx' }, /^options: model: must not hold a line break or control character/],
      [{ model: 'gpt\u001b[2J' }, /^options: model: must not hold a line break or control character/],
      [{ env: { CTXLOOP_MODEL: 'gpt\u2028x' } }, /^environment: model: must not hold a line break or control character/],
    ];
    for (const [options, message] of cases) {
      const error = await retrieve('requestTimeout', { root: repo.root, cache: false, ...options }).catch((e: unknown) => e);
      expect(error, String(message)).toMatchObject({ name: 'UsageError', code: 'bad_option', message: expect.stringMatching(message) });
    }
    const within = await retrieve('requestTimeout', { root: repo.root, cache: false, exclude: Array.from({ length: 200 }, (_, i) => `q${i}/**`), maxFileSize: 16 * 1024 * 1024 });
    expect(within.files.length + within.candidates.length).toBeGreaterThan(0);
  });

  it('lets many calls share one signal without Node warning of a listener leak, and still stops them all on abort', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      const shared = new AbortController();
      const runs = Array.from({ length: 8 }, (_, i) => retrieve(`requestTimeout ${i}`, { root: repo.root, cache: false, maxCycles: 1, signal: shared.signal }));
      expect((await Promise.all(runs)).every((r) => r.files.length + r.candidates.length > 0)).toBe(true);
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
      expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
      const stopped = Promise.allSettled(Array.from({ length: 8 }, (_, i) => retrieve(`requestTimeout again ${i}`, { root: repo.root, cache: false, signal: shared.signal })));
      shared.abort();
      for (const run of await stopped) expect(run).toMatchObject({ status: 'rejected', reason: { code: 'aborted' } });
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('stops on abort', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(retrieve('requestTimeout', { root: repo.root, cache: false, signal: controller.signal })).rejects.toMatchObject({ code: 'aborted' });
  });
});

describe('retrieve on ctxloop itself', () => {
  it('ranks the packer first for "where is the token budget enforced?"', async () => {
    const root = new URL('../..', import.meta.url).pathname;
    const result = await retrieve('where is the token budget enforced?', { root, cache: false });
    const ranking = [...result.files.map((f) => f.path), ...result.candidates.map((c) => c.path)];
    // On the task's words alone the packer, the Markdown renderer and the MCP server tie; the
    // server also names `token_budget` (an alias of its option), which the title's pair
    // `token budget` finds: the packer is first or second.
    expect(ranking.slice(0, 2)).toContain('src/pack/pack.ts');
  });
});

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

describe('retrieve: a commit the task names', () => {
  const git = (cwd: string, ...args: string[]): string => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8' }).trim();

  it('ranks a file that commit changed above one that only shares more of the words', async () => {
    const repo = makeRepo({
      'src/server.ts': 'export function serve() {\n  // handler support: the handler runs each request\n  return handler(handler);\n}\n',
      'src/client.ts': 'export function connect() {\n  return handler;\n}\n',
      'src/other.ts': 'export const other = 1;\n',
    });
    try {
      git(repo.root, 'add', '-A');
      git(repo.root, 'commit', '-q', '-m', 'first');
      writeFileSync(join(repo.root, 'src/client.ts'), 'export function connect() {\n  return undefined;\n}\n');
      git(repo.root, 'commit', '-q', '-am', 'drop the handler from the client');
      // as a person writes it: the shortest prefix from 9 characters with a letter and a digit
      // (an all-digit `--short=9` prefix, one commit in 70, is a number, not a hash, to the planner)
      const full = git(repo.root, 'rev-parse', 'HEAD');
      let length = 9;
      while (!/[a-f]/.test(full.slice(0, length)) || !/[0-9]/.test(full.slice(0, length))) length++;
      const hash = full.slice(0, length);
      const ranked = async (task: string): Promise<Array<{ path: string; reason: string }>> => {
        const result = await retrieve(task, { root: repo.root, cache: false });
        return [...result.files, ...result.candidates].map((f) => ({ path: f.path, reason: f.reason }));
      };
      // without the hash the words decide
      expect((await ranked('Restore handler support'))[0]?.path).toBe('src/server.ts');
      const named = await ranked(`Restore handler support\n\n${hash} was a bit aggressive.`);
      expect(named[0]?.path).toBe('src/client.ts');
      expect(named[0]?.reason).toContain(`changed by ${hash}, which the task names`);
      // a hash of no commit here changes nothing
      expect((await ranked('Restore handler support\n\nabcdef1234 was a bit aggressive.'))[0]?.path).toBe('src/server.ts');
    } finally {
      repo.cleanup();
    }
  });
});
