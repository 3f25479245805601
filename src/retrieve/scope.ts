/**
 * Turns the `scope` option (root-relative directories or files) into what to walk, refusing
 * anything that leaves the root.
 */
import type { Stats } from 'node:fs';
import { lstat, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, posix, relative } from 'node:path';
import { toPosix } from '../core/files.js';
import { isInsideRoot } from '../core/inside.js';
import { UsageError } from '../core/errors.js';

export interface ScopeEntries {
  /** Root-relative directories to walk; `['']` is the whole root. */
  dirs: string[];
  /** Root-relative regular files named directly, with their sizes. */
  files: Array<{ path: string; size: number }>;
}

export async function resolveScopeEntries(root: string, scope: readonly string[]): Promise<ScopeEntries> {
  await assertDirectory(root);
  if (scope.length === 0) return { dirs: [''], files: [] };
  const realRoot = await realpath(root);
  const entries: ScopeEntries = { dirs: [], files: [] };
  for (const raw of scope) {
    const path = normalizeScopePath(root, raw);
    if (path === '') return { dirs: [''], files: [] };
    const stats = await lstatOrUndefined(join(root, path));
    if (!stats) throw new UsageError('bad_scope', `scope "${raw}" not found under ${root} (give a root-relative directory or file)`);
    // a symlink is never followed, here or in a parent directory: its target may lie outside the root
    if (stats.isSymbolicLink() || !isInsideRoot(realRoot, await realpath(join(root, path)))) continue;
    if (stats.isDirectory()) entries.dirs.push(path);
    else if (stats.isFile()) entries.files.push({ path, size: stats.size });
    else throw new UsageError('bad_scope', `scope "${raw}" is not a directory or a regular file`);
  }
  return entries;
}

/** `./src/auth/` → `src/auth`; '' for the root itself. */
export function normalizeScopePath(root: string, raw: string): string {
  const given = isAbsolute(raw) ? relative(root, raw) : raw;
  const path = posix.normalize(toPosix(given.trim())).replace(/\/+$/, '');
  if (path === '.' || path === '') return '';
  if (path === '..' || path.startsWith('../') || posix.isAbsolute(path)) {
    throw new UsageError('bad_scope', `scope "${raw}" is outside the root ${root} (give a path under the root)`);
  }
  return path;
}

async function assertDirectory(root: string): Promise<void> {
  let stats: Stats | undefined;
  try {
    stats = await stat(root);
  } catch {
    stats = undefined;
  }
  if (!stats?.isDirectory()) throw new UsageError('root_not_found', `root ${root} is not a directory (pass an existing repository root)`);
}

async function lstatOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await lstat(path);
  } catch {
    // missing or unreadable: reported by the caller as a bad scope
    return undefined;
  }
}

/** Every directory above a scope entry (root included as ''): where the .gitignore files that apply to it live. */
export function ancestorDirs(entries: ScopeEntries): string[] {
  const out = new Set<string>();
  for (const path of [...entries.dirs, ...entries.files.map((f) => f.path)]) {
    if (path === '') continue;
    const parts = path.split('/');
    for (let i = 0; i < parts.length; i++) out.add(parts.slice(0, i).join('/'));
  }
  return [...out];
}
