import { writeFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runGit } from './git.js';

/**
 * Paths of the commit's tree whose blobs the object store lacks. Some mirrors leave out their
 * largest files; a plain checkout of such a tree fails, so these paths are left out of it.
 */
export async function findMissingBlobs(cwd: string, commit: string): Promise<string[]> {
  const tree = await runGit(['ls-tree', '-r', '-z', commit], { cwd });
  const pathsById = new Map<string, string[]>();
  for (const entry of tree.split('\0')) {
    // "<mode> SP <type> SP <id> TAB <path>"; submodules (type commit) need no object here.
    const tab = entry.indexOf('\t');
    if (tab < 0) continue;
    const [, type, id] = entry.slice(0, tab).split(' ');
    if (type !== 'blob' || !id) continue;
    const paths = pathsById.get(id) ?? [];
    paths.push(entry.slice(tab + 1));
    pathsById.set(id, paths);
  }
  if (pathsById.size === 0) return [];
  const report = await runGit(['cat-file', '--batch-check'], { cwd, input: [...pathsById.keys()].join('\n') + '\n' });
  const missing: string[] = [];
  for (const line of report.split('\n')) {
    const [id, verdict] = line.split(' ');
    if (verdict === 'missing' && id) missing.push(...(pathsById.get(id) ?? []));
  }
  return missing.sort();
}

/**
 * Writes non-cone sparse-checkout patterns: everything but `excluded`. Always on (just `/*` when
 * nothing is excluded), so moving between commits re-applies the patterns to the whole tree.
 */
export async function writeSparsePatterns(gitDir: string, excluded: string[]): Promise<void> {
  const file = join(gitDir, 'info', 'sparse-checkout');
  const text = ['/*', ...excluded.map((path) => `!/${escapePattern(path)}`)].join('\n') + '\n';
  const current = await readFile(file, 'utf8').catch(() => '');
  if (current !== text) await writeFile(file, text);
}

// gitignore syntax: wildcards and backslashes are literal only when escaped, trailing spaces too.
function escapePattern(path: string): string {
  return path.replace(/[\\*?[\]]/g, '\\$&').replace(/ +$/, (spaces) => spaces.replace(/ /g, '\\ '));
}
