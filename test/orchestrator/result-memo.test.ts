/**
 * The result memo end to end, with real ripgrep on temp repositories: a repeat of the same task on
 * the same files is answered without a search; an edit, a new file, another option or `--no-cache`
 * recompute; a run over files written moments ago is not kept.
 */
import { readFileSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheFileFor, cacheStats } from '../../src/cache/store.js';
import type { Logger } from '../../src/core/log.js';
import type { RetrieveOptions } from '../../src/core/options.js';
import { retrieve } from '../../src/orchestrator/loop.js';
import { createRetriever } from '../../src/orchestrator/retriever.js';
import type { ProgressEvent, RetrieveResult } from '../../src/core/types.js';
import { loggingRg } from '../helpers/logging-rg.js';
import { useTempRepos, type TempRepo } from '../helpers/make-repo.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const repo = useTempRepos();
const tempDir = useTempDirs('ctxloop-memo-');
const TASK = 'sendInvoice fails when the customer has no billing address';
const FILES = {
  'src/billing/invoice.ts': 'export function sendInvoice(customer: Customer) {\n  const address = customer.billingAddress;\n  return mail(address, render(customer));\n}\n',
  'src/billing/render.ts': 'export function render(customer: Customer): string {\n  return `Invoice for ${customer.name}`;\n}\n',
  'src/routes/checkout.ts': "import { sendInvoice } from '../billing/invoice';\nexport function checkout(customer: Customer) {\n  sendInvoice(customer);\n}\n",
  'docs/billing.md': 'Invoices are sent to the billing address of the customer.\n',
};

/** Every file (and git's exclude file) an hour old: settled, so a result over them may be kept. */
function settled(files: Record<string, string> = FILES): TempRepo {
  const r = repo(files);
  settle(r, [...Object.keys(files), join('.git', 'info', 'exclude')]);
  return r;
}

function settle(r: TempRepo, paths: string[], at = Date.now() - 3_600_000): void {
  for (const path of paths) {
    try {
      utimesSync(join(r.root, path), new Date(at), new Date(at));
    } catch {
      // git wrote no exclude file: nothing to settle
    }
  }
}

function debugLines(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, debug: (m) => lines.push(m), info() {}, warn() {}, error() {} };
}

async function setup(files?: Record<string, string>): Promise<{ r: TempRepo; rg: Awaited<ReturnType<typeof loggingRg>>; options: RetrieveOptions }> {
  const r = settled(files);
  const rg = await loggingRg(tempDir());
  return { r, rg, options: { root: r.root, cache: tempDir(), provider: 'offline', env: { CTXLOOP_RG: rg.path } } };
}

describe('the result memo', () => {
  it('answers a repeat of the same task on the same files from the cache, without searching', async () => {
    const { r, rg, options } = await setup();
    const cold = await retrieve(TASK, options);
    expect(cold.files[0]?.path).toBe('src/billing/invoice.ts');
    expect(rg.searches()).toBeGreaterThan(0);
    expect((await cacheStats(options.cache as string, r.root)).entries.results).toBe(1);

    rg.reset();
    const logger = debugLines();
    const warm = await retrieve(TASK, { ...options, logger });
    expect(warm).toEqual(cold);
    expect(rg.searches()).toBe(0);
    expect(logger.lines).toContain('result: kept from an earlier run (same task, options and files)');
  });

  it('takes a kept result whose score is not a number (a damaged store) as a miss, and computes it again', async () => {
    const { r, rg, options } = await setup();
    const cold = await retrieve(TASK, options);
    const store = await cacheFileFor(options.cache as string, r.root);
    writeFileSync(store, readFileSync(store, 'utf8').replace(/"score":[\d.]+/, '"score":null'));
    rg.reset();
    const again = await retrieve(TASK, options);
    expect(rg.searches()).toBeGreaterThan(0);
    expect(again.files).toEqual(cold.files);
  });

  it("hands each call its own result: one caller's edits to it reach no later call, and a kept result still tells progress `pack`", async () => {
    const { rg, options } = await setup();
    const retriever = createRetriever(options);
    const first = await retriever.retrieve(TASK);
    const shown = structuredClone(first);
    first.files.length = 0;
    first.task = 'edited by the caller';
    const events: ProgressEvent[] = [];
    rg.reset();
    const again = await retriever.retrieve(TASK, { onProgress: (event) => events.push(event) });
    expect(rg.searches()).toBe(0);
    expect(again).toEqual(shown);
    again.candidates.reverse();
    expect(await retriever.retrieve(TASK)).toEqual(shown);
    expect(events).toEqual([{ type: 'pack', files: shown.files.length, tokens: shown.tokens }]);
  });

  it('recomputes after an edit, and the edit is in the result', async () => {
    const { r, rg, options } = await setup();
    await retrieve(TASK, options);
    r.write('src/billing/render.ts', 'export function render(customer: Customer): string {\n  return sendInvoice(customer.billingAddress);\n}\n');
    settle(r, ['src/billing/render.ts'], Date.now() - 60_000);
    rg.reset();
    const edited = await retrieve(TASK, options);
    expect(rg.searches()).toBeGreaterThan(0);
    const render = [...edited.files, ...edited.candidates].find((f) => f.path === 'src/billing/render.ts');
    expect(render?.reason).toMatch(/sendInvoice|billing|address/);
  });

  it('recomputes when a file is added, and finds it', async () => {
    const { r, rg, options } = await setup();
    await retrieve(TASK, options);
    r.write('src/billing/address.ts', 'export function checkBillingAddress(customer: Customer) {\n  return customer.billingAddress !== undefined;\n}\n');
    settle(r, ['src/billing/address.ts'], Date.now() - 60_000);
    rg.reset();
    const added = await retrieve(TASK, options);
    expect(rg.searches()).toBeGreaterThan(0);
    expect([...added.files, ...added.candidates].map((f) => f.path)).toContain('src/billing/address.ts');
  });

  it('misses when an option that decides the result changes, or the task does', async () => {
    const { rg, options } = await setup();
    await retrieve(TASK, options);
    for (const other of [{ ...options, budget: 4000 }, { ...options, maxCycles: 1 }, { ...options, exclude: ['docs/**'] }, { ...options, withContent: true }]) {
      rg.reset();
      await retrieve(TASK, other);
      expect(rg.searches()).toBeGreaterThan(0);
    }
    rg.reset();
    await retrieve(`${TASK}.`, options);
    expect(rg.searches()).toBeGreaterThan(0);
  });

  it('is not used with --no-cache', async () => {
    const { rg, options } = await setup();
    const noCache = { ...options, cache: false as const };
    await retrieve(TASK, noCache);
    rg.reset();
    await retrieve(TASK, noCache);
    expect(rg.searches()).toBeGreaterThan(0);
  });

  it('keeps no result over files written moments ago: a second write in the same clock tick would go unseen', async () => {
    const { r, rg, options } = await setup();
    r.write('src/billing/render.ts', `${FILES['src/billing/render.ts']}// touched\n`);
    await retrieve(TASK, options);
    expect((await cacheStats(options.cache as string, r.root)).entries.results).toBe(0);
    rg.reset();
    await retrieve(TASK, options);
    expect(rg.searches()).toBeGreaterThan(0);
  });

  it('sees two directories swapped whose files keep their size and times: only the inode tells the files apart', async () => {
    const files = {
      'alpha/limit.ts': 'export function quuxMillis(n: number) {\n  return n * 1000;\n}\n',
      'beta/limit.ts': 'export function quuxSecnds(n: number) {\n  return n / 1000;\n}\n',
    };
    const { r, options } = await setup(files);
    // the same mtime and (set in one clock tick, as one `touch` of both does) the same ctime
    const [a, b] = [join(r.root, 'alpha/limit.ts'), join(r.root, 'beta/limit.ts')];
    const at = new Date(Date.now() - 3_600_000);
    for (let i = 0; i < 50 && !(i > 0 && statSync(a).ctimeMs === statSync(b).ctimeMs); i++) {
      utimesSync(a, at, at);
      utimesSync(b, at, at);
    }
    expect(statSync(a).ctimeMs).toBe(statSync(b).ctimeMs);
    const task = 'quuxMillis returns the wrong value';
    expect((await retrieve(task, options)).files.map((f) => f.path)).toEqual(['alpha/limit.ts']);
    renameSync(join(r.root, 'alpha'), join(r.root, 'tmp'));
    renameSync(join(r.root, 'beta'), join(r.root, 'alpha'));
    renameSync(join(r.root, 'tmp'), join(r.root, 'beta'));
    // the kept result, then the facts and the search index, served alpha/limit.ts as it was
    expect((await retrieve(task, options)).files.map((f) => f.path)).toEqual(['beta/limit.ts']);
    expect((await retrieve(`why does ${task}`, options)).files.map((f) => f.path)).toEqual(['beta/limit.ts']);
  });

  it('sees an edit that keeps the size and is given its old modification time back (`touch -r`): the change time moved', async () => {
    const { r, rg, options } = await setup();
    const reasonOf = (result: RetrieveResult): string | undefined => [...result.files, ...result.candidates].find((f) => f.path === 'src/billing/render.ts')?.reason;
    const cold = await retrieve(TASK, options);
    const path = join(r.root, 'src/billing/render.ts');
    const { mtime, size } = statSync(path);
    const edited = 'export function render(c: Customer): string {\n  return sendInvoice(c.billingAddress);\n}\n';
    r.write('src/billing/render.ts', `${edited.trimEnd()}${' '.repeat(size - edited.length)}\n`);
    utimesSync(path, mtime, mtime);
    expect(statSync(path).size).toBe(size);
    rg.reset();
    const warm = await retrieve(TASK, options);
    expect(rg.searches()).toBeGreaterThan(0);
    expect(reasonOf(cold)).not.toMatch(/address/);
    expect(reasonOf(warm)).toMatch(/address/);
  });
});
