/**
 * Test repositories of a given size for `bench:perf`, made of real source: the public
 * repositories under `--mirrors` (bare git mirrors, `<owner>+<name>/repo`) are exported once into
 * a pool; a repository of N files takes whole pool repositories, smallest first, and past the
 * pool's size adds mutated copies of it (`copies/cK/…`) in which about a third of the
 * identifiers carry a suffix of their copy, so copies are not byte-identical and the rare words
 * of a task match in the original alone. Generated repositories are kept and reused.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export interface PoolRepo {
  /** `owner+name`, the mirror's folder name. */
  name: string;
  /** Files, root-relative to the repository, sorted. */
  files: string[];
}

/** Text files only are mutated; larger ones are copied as they are. */
const MUTATE_MAX_BYTES = 256 * 1024;
const GENERATOR_VERSION = 1;

/**
 * Exports the HEAD of every mirror (of those named in `only`, when given: `owner+name`) into
 * `<work>/pool/<name>` (once) and lists its files.
 */
export async function assemblePool(mirrors: string, work: string, only?: ReadonlySet<string>): Promise<PoolRepo[]> {
  const names = (await readdir(mirrors, { withFileTypes: true }))
    .filter((d) => d.isDirectory() && (!only || only.has(d.name)) && existsSync(join(mirrors, d.name, 'repo')))
    .map((d) => d.name)
    .sort();
  const pool: PoolRepo[] = [];
  for (const name of names) {
    const dir = join(work, 'pool', name);
    const done = `${dir}.done`;
    if (!existsSync(done)) {
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true });
      await exportHead(join(mirrors, name, 'repo'), dir);
      await writeFile(done, '');
    }
    pool.push({ name, files: await listFiles(dir) });
  }
  return pool;
}

/**
 * Writes the HEAD tree of a bare mirror into `into`, blob by blob through one `git cat-file
 * --batch`: some mirrors lack their largest blobs, which are skipped (so is every symlink and
 * submodule).
 */
async function exportHead(gitDir: string, into: string): Promise<void> {
  const tree = await runGit(gitDir, ['ls-tree', '-r', '-z', 'HEAD']);
  const blobs = tree
    .toString('utf8')
    .split('\0')
    .filter(Boolean)
    .map((line) => {
      const [meta, path] = line.split('\t') as [string, string];
      const [mode, type, oid] = meta.split(' ') as [string, string, string];
      return { mode, type, oid, path };
    })
    .filter((b) => b.type === 'blob' && b.mode !== '120000');
  const out = await runGit(gitDir, ['cat-file', '--batch'], blobs.map((b) => b.oid).join('\n') + '\n');
  let at = 0;
  for (const blob of blobs) {
    const eol = out.indexOf(10, at);
    const header = out.subarray(at, eol).toString('utf8');
    at = eol + 1;
    if (header.endsWith(' missing')) continue;
    const size = Number(header.split(' ')[2]);
    const target = join(into, blob.path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, out.subarray(at, at + size));
    at += size + 1;
  }
}

function runGit(gitDir: string, args: string[], input?: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const git = spawn('git', ['--git-dir', gitDir, ...args], { stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'inherit'] });
    const chunks: Buffer[] = [];
    git.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
    git.on('error', reject);
    git.on('close', (code) => (code === 0 ? resolve(Buffer.concat(chunks)) : reject(new Error(`git ${args[0]} exited ${String(code)} in ${gitDir}`))));
    if (input !== undefined) git.stdin?.end(input);
  });
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath ?? (e as unknown as { path: string }).path, e.name).slice(dir.length + 1))
    .sort();
}

/** Pool repositories in the order a repository of N files takes them: smallest first. */
export function orderPool(pool: readonly PoolRepo[]): PoolRepo[] {
  return [...pool].sort((a, b) => a.files.length - b.files.length || (a.name < b.name ? -1 : 1));
}

export interface GeneratedRepo {
  root: string;
  files: number;
  /** Pool repositories present whole and unmutated (their tasks apply). */
  whole: string[];
}

/** Builds (or reuses) a repository of exactly `size` files under `<work>/repos/<size>`. */
export async function generateRepo(pool: readonly PoolRepo[], work: string, size: number): Promise<GeneratedRepo> {
  const ordered = orderPool(pool);
  const root = join(work, 'repos', String(size));
  const plan = planFiles(ordered, size);
  const stamp = createHash('sha1').update(JSON.stringify({ GENERATOR_VERSION, size, pool: ordered.map((r) => [r.name, r.files.length]) })).digest('hex');
  const done = `${root}.done`;
  const whole = wholeRepos(ordered, size);
  if (existsSync(done) && (await readFile(done, 'utf8')) === stamp) return { root, files: plan.length, whole };
  await rm(root, { recursive: true, force: true });
  for (const item of plan) {
    const from = join(work, 'pool', item.repo, item.path);
    const to = join(root, item.target);
    await mkdir(dirname(to), { recursive: true });
    if (item.copy === 0) await copyFile(from, to);
    else await writeFile(to, await mutate(from, item.copy));
  }
  await writeFile(done, stamp);
  return { root, files: plan.length, whole };
}

interface PlannedFile {
  repo: string;
  path: string;
  target: string;
  /** 0 = the original; K = the K-th mutated copy. */
  copy: number;
}

function planFiles(ordered: readonly PoolRepo[], size: number): PlannedFile[] {
  const out: PlannedFile[] = [];
  for (let copy = 0; out.length < size; copy++) {
    for (const repo of ordered) {
      for (const path of repo.files) {
        if (out.length >= size) return out;
        out.push({ repo: repo.name, path, target: copy === 0 ? `${repo.name}/${path}` : `copies/c${copy}/${repo.name}/${path}`, copy });
      }
    }
    if (copy > 1000) throw new Error('the pool is empty');
  }
  return out;
}

function wholeRepos(ordered: readonly PoolRepo[], size: number): string[] {
  const out: string[] = [];
  let taken = 0;
  for (const repo of ordered) {
    taken += repo.files.length;
    if (taken > size) break;
    out.push(repo.name);
  }
  return out;
}

async function mutate(file: string, copy: number): Promise<Buffer | string> {
  const bytes = await readFile(file);
  if (bytes.length > MUTATE_MAX_BYTES || bytes.includes(0)) return bytes;
  return bytes.toString('utf8').replace(/[A-Za-z_][A-Za-z0-9_]{3,}/g, (word) => (mutates(word, copy) ? `${word}_c${copy}` : word));
}

/** About a third of the distinct words of a copy, the same ones in every file of that copy. */
function mutates(word: string, copy: number): boolean {
  let h = copy * 2654435761;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
  return (h >>> 0) % 3 === 0;
}

/** Size on disk of a generated repository, for the report. */
export async function sizeOf(root: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name))).size;
  }
  return total;
}
