/**
 * The fallback listing, for when ripgrep cannot list (it crashed, hung, or printed garbage):
 * the searchable files under a root (fast-glob): every regular file in scope, minus
 * .gitignore'd paths (the `ignore` package), the built-in skips, and the user's include/exclude
 * globs. Slower than `rg --files` on very large trees (every path is tested against every rule).
 * Symbolic links are never followed nor listed: a link's target, when it is inside the root,
 * is listed under its own path; when it is outside, it is out of bounds. Files are not read.
 * Directories that are surely skipped (vendored, gitignored without `!` rules, excluded) are
 * pruned from the walk, so the files in them are not counted in `skipped`.
 */
import type { Readable } from 'node:stream';
import fg, { type Entry } from 'fast-glob';
import type { SearchScope } from '../core/deps.js';
import { compileIgnoreRules, readIgnoreFiles, type IgnoreRules } from './ignore.js';
import { PRUNED_DIRS, skipReason } from './filters.js';
import { createPathMatcher, normalizeGlob } from './match.js';
import { ancestorDirs, resolveScopeEntries, type ScopeEntries } from './scope.js';

export { MAX_RULE_CHARS, MAX_RULES, notAppliedRules } from './ignore.js';

export interface ListedFile {
  /** Root-relative POSIX path. */
  path: string;
  size: number;
}

export interface GlobList {
  /** Sorted by path. */
  files: ListedFile[];
  /** Files passed over, by reason (`ignored`, `excluded`, and the built-in skip reasons). */
  skipped: Record<string, number>;
  /** Ignore rules not applied (`compileIgnoreRules`): past the bound, or `unsafeRules`. */
  droppedRules: number;
  /** Of `droppedRules`: too long, or matched in exponential time. */
  unsafeRules: number;
  /** Set when the walk stopped at its bound (`MAX_WALKED` files): the rest of the tree is not listed. */
  stoppedAt?: number;
}

/**
 * Files the fallback walk gathers at most (about 2.7 kB each with their stats): walking a whole
 * machine (`/proc` and all) it gathered 1.6 million until the heap ran out, a V8 crash after 72 s.
 * Four times the largest repositories this tool is measured on.
 */
export const MAX_WALKED = 400_000;

const WALK = { dot: true, onlyFiles: true, followSymbolicLinks: false, suppressErrors: true, unique: true } as const;

export async function listFilesByGlob(scope: SearchScope, maxWalked = MAX_WALKED): Promise<GlobList> {
  const { root } = scope;
  const entries = await resolveScopeEntries(root, scope.scope);
  const rules = await loadIgnoreRules(root, entries);
  const excluded = createPathMatcher(scope.exclude, { matchParents: true });
  const included = scope.include.length > 0 ? createPathMatcher(scope.include, { matchParents: true }) : () => true;
  const walk: Readable = fg.stream(entries.dirs.map(walkPattern), {
    ...WALK,
    cwd: root,
    stats: true,
    ignore: [...pruneGlobs(), ...rules.pruneGlobs, ...scope.exclude.flatMap(excludePruneGlobs)],
  }) as Readable;
  const walked: ListedFile[] = [];
  let stopped = false;
  for await (const entry of walk as AsyncIterable<Entry>) {
    if (walked.length >= maxWalked) {
      stopped = true;
      walk.destroy();
      break;
    }
    walked.push({ path: entry.path, size: entry.stats?.size ?? 0 });
  }
  const candidates = [...walked, ...entries.files];
  const skipped: Record<string, number> = {};
  const kept = new Map<string, ListedFile>();
  for (const file of candidates) {
    const reason = rules.ignores(file.path) ? 'ignored' : (skipReason(file.path, file.size, scope.maxFileSize) ?? (excluded(file.path) ? 'excluded' : undefined));
    if (reason) skipped[reason] = (skipped[reason] ?? 0) + 1;
    else if (included(file.path)) kept.set(file.path, file);
  }
  const files = [...kept.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, skipped, droppedRules: rules.dropped, unsafeRules: rules.unsafe, ...(stopped ? { stoppedAt: maxWalked } : {}) };
}

/**
 * The .gitignore files that apply to the scope: those above each scope entry and those inside
 * the walked directories. The search for nested ones is pruned by the root's own rules unless a
 * nested file re-includes something (`!`), in which case it is repeated without that pruning.
 */
async function loadIgnoreRules(root: string, entries: ScopeEntries): Promise<IgnoreRules> {
  const above = ancestorDirs(entries).map((dir) => (dir === '' ? '.gitignore' : `${dir}/.gitignore`));
  const rootRules = compileIgnoreRules(await readIgnoreFiles(root, ['.gitignore']));
  const findNested = (prune: string[]): Promise<string[]> =>
    fg(entries.dirs.map((dir) => (dir === '' ? '**/.gitignore' : `${fg.escapePath(dir)}/**/.gitignore`)), { ...WALK, cwd: root, ignore: [...pruneGlobs(), ...prune] });
  let nested = await findNested(rootRules.pruneGlobs);
  let rules = compileIgnoreRules(await readIgnoreFiles(root, unique([...above, ...nested])));
  if (rules.hasNegation && rootRules.pruneGlobs.length > 0) {
    nested = await findNested([]);
    rules = compileIgnoreRules(await readIgnoreFiles(root, unique([...above, ...nested])));
  }
  return rules;
}

/** fast-glob ignore patterns that keep the walk out of vendored and secret directories. */
function pruneGlobs(): string[] {
  return PRUNED_DIRS.map((dir) => `**/${dir}/**`);
}

function walkPattern(dir: string): string {
  return dir === '' ? '**' : `${fg.escapePath(dir)}/**`;
}

/** A directory matching an exclude glob is not entered (same reading as `createPathMatcher`). */
function excludePruneGlobs(glob: string): string[] {
  const g = normalizeGlob(glob).replace(/\/$/, '');
  if (!g || g.startsWith('!')) return [];
  return g.includes('/') ? [`${g}/**`] : [`**/${g}/**`];
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
