/**
 * The caches end to end, with real ripgrep on temp repositories: a warm repeat makes no pass over
 * the repository, an edit is seen (and only the edited file is scanned again), a broken cache is
 * rebuilt with a warning, and two runs sharing a cache at once both get the right result.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cacheFileFor, cacheStats } from '../../src/cache/store.js';
import { clearCache } from '../../src/cache/admin.js';
import { silentLogger, type Logger } from '../../src/core/log.js';
import { resolveRgPath } from '../../src/retrieve/rg-path.js';
import type { RetrieveOptions } from '../../src/core/options.js';
import type { RetrieveResult } from '../../src/core/types.js';
import { retrieve } from '../../src/orchestrator/loop.js';
import { SNAPSHOT_FORMAT } from '../../src/retrieve/snapshot.js';
import { loggingRg } from '../helpers/logging-rg.js';
import { useTempRepos, type TempRepo } from '../helpers/make-repo.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const repo = useTempRepos();
const tempDir = useTempDirs('ctxloop-warm-');
const TASK = 'sendInvoice fails when the customer has no billing address';
const RUNNER = fileURLToPath(new URL('./fixtures/run-retrieve.ts', import.meta.url));

/** A small repository whose files are an hour old, so their stats are settled and can be trusted. */
function billingRepo(): TempRepo {
  const r = repo({
    'src/billing/invoice.ts': 'export function sendInvoice(customer: Customer) {\n  const address = customer.billingAddress;\n  return mail(address, render(customer));\n}\n',
    'src/billing/render.ts': 'export function render(customer: Customer): string {\n  return `Invoice for ${customer.name}`;\n}\n',
    'src/routes/checkout.ts': "import { sendInvoice } from '../billing/invoice';\nexport function checkout(customer: Customer) {\n  sendInvoice(customer);\n}\n",
    'src/customers/address.ts': 'export interface BillingAddress {\n  street: string;\n  city: string;\n}\n',
    'docs/billing.md': 'Invoices are sent to the billing address of the customer.\n',
  });
  settle(r, ['src/billing/invoice.ts', 'src/billing/render.ts', 'src/routes/checkout.ts', 'src/customers/address.ts', 'docs/billing.md']);
  return r;
}

function settle(r: TempRepo, paths: string[], at = Date.now() - 3_600_000): void {
  for (const path of paths) utimesSync(join(r.root, path), new Date(at), new Date(at));
}

const isFullScan = (args: string): boolean => args.includes('--only-matching') && args.endsWith(' -- .');

function recording(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, debug() {}, info() {}, warn: (m) => warnings.push(m), error() {} };
}

describe('a warm run', () => {
  it('makes no pass over the repository, and an edited file is scanned again alone, its change seen', async () => {
    const r = billingRepo();
    const cache = tempDir();
    const rg = await loggingRg(tempDir());
    const options: RetrieveOptions = { root: r.root, cache, provider: 'offline', env: { CTXLOOP_RG: rg.path } };

    const cold = await retrieve(TASK, options);
    expect(cold.files[0]?.path).toBe('src/billing/invoice.ts');
    expect(rg.runs().some(isFullScan)).toBe(true);
    expect((await cacheStats(cache, r.root)).blobs.search).toBeGreaterThan(0);

    rg.reset();
    const warm = await retrieve(TASK, options);
    expect(warm.files).toEqual(cold.files);
    expect(warm.candidates).toEqual(cold.candidates);
    expect(rg.runs().filter(isFullScan)).toEqual([]);

    // The definition moves to a new file; the old one only calls it now.
    r.write('src/billing/invoice.ts', "import { sendInvoice as send } from './send';\nexport const invoice = (c: Customer) => send(c);\n");
    r.write('src/billing/send.ts', 'export function sendInvoice(customer: Customer) {\n  const address = customer.billingAddress;\n  if (!address) throw new Error("no billing address");\n  return mail(address);\n}\n');
    settle(r, ['src/billing/invoice.ts', 'src/billing/send.ts'], Date.now() - 60_000);
    rg.reset();
    const edited = await retrieve(TASK, options);
    expect(edited.files[0]?.path).toBe('src/billing/send.ts');
    expect(rg.runs().filter(isFullScan)).toEqual([]);
    const rescans = rg.runs().filter((args) => args.includes('--only-matching') && args.includes('src/billing/send.ts'));
    expect(rescans.length).toBeGreaterThan(0);
    expect(rescans[0]).toContain('src/billing/invoice.ts');
    expect(rescans[0]).not.toContain('src/billing/render.ts');
  });

  it('keeps no index from a run where rg could not read a file: made readable again (its times unchanged), the file is found', async () => {
    const r = billingRepo();
    const cache = tempDir();
    const real = await resolveRgPath(process.env, silentLogger);
    const dir = tempDir();
    const locked = join(dir, 'locked');
    // ripgrep that, while `locked` exists, cannot read src/routes/checkout.ts (as chmod 000 does to a user's run): only its content names the task's terms
    const wrapper = join(dir, 'rg.sh');
    writeFileSync(wrapper, `#!/bin/sh\ncase "$*" in *--only-matching*) scan=1 ;; *) scan= ;; esac\nif [ -e '${locked}' ] && [ -n "$scan" ]; then\n  '${real}' --glob '!src/routes/checkout.ts' "$@"\n  code=$?\n  echo "rg: src/routes/checkout.ts: Permission denied (os error 13)" >&2\n  [ $code -le 1 ] && exit 2\n  exit $code\nfi\nexec '${real}' "$@"\n`);
    chmodSync(wrapper, 0o755);
    writeFileSync(locked, '');
    const logger = recording();
    const options: RetrieveOptions = { root: r.root, cache, provider: 'offline', env: { CTXLOOP_RG: wrapper }, logger };
    const unreadable = await retrieve(TASK, options);
    const found = (result: RetrieveResult): string[] => [...result.files, ...result.candidates].map((f) => f.path);
    expect(found(unreadable)).not.toContain('src/routes/checkout.ts');
    expect(logger.warnings.some((w) => /ripgrep skipped some files/.test(w))).toBe(true);
    rmSync(locked);
    // the same terms (another wording, so no result kept from before answers it)
    const readable = await retrieve(`${TASK}!`, options);
    expect(found(readable)).toContain('src/routes/checkout.ts');
  });

  it('sees an edit that keeps the file size: its modification time says it changed', async () => {
    const r = billingRepo();
    const cache = tempDir();
    const options: RetrieveOptions = { root: r.root, cache, provider: 'offline' };
    await retrieve(TASK, options);
    // Same length, touched now: too recent to trust, so it is scanned again and the edit is seen.
    const before = readFileSync(join(r.root, 'src/billing/render.ts'), 'utf8');
    r.write('src/billing/render.ts', before.replace('Invoice for', 'sendInvoice'));
    const again = await retrieve(TASK, options);
    expect(again.candidates.map((c) => c.path).concat(again.files.map((f) => f.path))).toContain('src/billing/render.ts');
  });
});

describe('a broken cache', () => {
  it('is rebuilt with a warning when the store, or the search index beside it, is truncated or of another shape', async () => {
    const r = billingRepo();
    const reference = await retrieve(TASK, { root: r.root, cache: false, provider: 'offline' });
    for (const [store, index] of [
      ['{"version":2,"root":"x","facts":{', '{"v":1,"key":'],
      [JSON.stringify({ version: 99, entries: [] }), JSON.stringify({ v: 1, key: 'other', files: 3 })],
    ] as const) {
      const cache = tempDir();
      await retrieve(TASK, { root: r.root, cache, provider: 'offline' });
      const file = await cacheFileFor(cache, r.root);
      writeFileSync(file, store);
      writeFileSync(file.replace(/\.json$/, '.search.json'), index);
      const logger = recording();
      const result = await retrieve(TASK, { root: r.root, cache, provider: 'offline', logger });
      expect(result.files).toEqual(reference.files);
      expect(logger.warnings.some((w) => /unreadable|unexpected shape/.test(w))).toBe(true);
      // rebuilt: the next run reads both back without a word
      const quiet = recording();
      expect((await retrieve(TASK, { root: r.root, cache, provider: 'offline', logger: quiet })).files).toEqual(reference.files);
      expect(quiet.warnings).toEqual([]);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ version: 2 });
    }
  });

  it('takes no count from a search index holding one that is not a count, and keeps no result scored from it', async () => {
    const r = billingRepo();
    const cache = tempDir();
    const options: RetrieveOptions = { root: r.root, cache, provider: 'offline' };
    const reference = await retrieve(TASK, { ...options, cache: false });
    await retrieve('sendInvoice render', options);
    const index = (await cacheFileFor(cache, r.root)).replace(/\.json$/, '.search.json');
    for (const forged of ['"1"', '1e308', '-4', '2.5']) {
      writeFileSync(index, readFileSync(index, 'utf8').replace(/"n":\[(\d+)/g, `"n":[${forged}`));
      // the same task twice: the second is answered from the result the first kept, if it kept one
      for (let run = 0; run < 2; run++) {
        const result = await retrieve(TASK, options);
        for (const file of [...result.files, ...result.candidates]) expect(Number.isFinite(file.score)).toBe(true);
        expect(result.files.map((f) => [f.path, f.score])).toEqual(reference.files.map((f) => [f.path, f.score]));
      }
    }
  });

  it.runIf(process.platform === 'linux')('is bypassed when a cache file is a FIFO (a read waited on it for ever: retrieve, cache stats and cache clear hung)', async () => {
    const r = billingRepo();
    const cache = tempDir();
    const options: RetrieveOptions = { root: r.root, cache, provider: 'offline' };
    const cold = await retrieve(TASK, options);
    for (const name of readdirSync(cache).filter((n) => n.endsWith('.json'))) {
      rmSync(join(cache, name));
      execFileSync('mkfifo', [join(cache, name)]);
    }
    const logger = recording();
    const again = await retrieve(`${TASK}.`, { ...options, logger });
    expect(again.files).toEqual(cold.files);
    expect(logger.warnings.some((w) => /not a regular file/.test(w))).toBe(true);
    expect((await cacheStats(cache, r.root)).exists).toBe(true);
    await clearCache(cache);
  });

  it('is bypassed with one warning when it cannot be written, and the result is the same', async () => {
    const r = billingRepo();
    const reference = await retrieve(TASK, { root: r.root, cache: false, provider: 'offline' });
    // A directory under a regular file cannot be created, whoever runs the test.
    const blocker = join(tempDir(), 'file');
    writeFileSync(blocker, '');
    const logger = recording();
    const result = await retrieve(TASK, { root: r.root, cache: join(blocker, 'cache'), provider: 'offline', logger });
    expect(result.files).toEqual(reference.files);
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toMatch(/continuing without saving the cache/);
  });
});

describe('two runs at once on one cache', () => {
  it('both get the result a run alone gets, and leave a valid cache', async () => {
    const r = billingRepo();
    const cache = tempDir();
    const reference = await retrieve(TASK, { root: r.root, cache: false, provider: 'offline' });
    const expected = { files: reference.files.map((f) => [f.path, f.score]), candidates: reference.candidates.map((c) => c.path), warnings: [] };
    const run = (): Promise<{ stdout: string }> => promisify(execFile)(process.execPath, ['--import', 'tsx', RUNNER, r.root, cache, TASK], { cwd: process.cwd() });
    for (let round = 0; round < 2; round++) {
      const outputs = await Promise.all([run(), run()]);
      for (const { stdout } of outputs) expect(JSON.parse(stdout)).toEqual(expected);
    }
    const file = await cacheFileFor(cache, r.root);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ version: 2 });
    expect(JSON.parse(readFileSync(file.replace(/\.json$/, '.search.json'), 'utf8'))).toMatchObject({ v: SNAPSHOT_FORMAT });
    expect(readdirSync(cache).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
