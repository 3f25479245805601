/**
 * The searchable files under a root: what `rg --files` lists with the flags the content search
 * uses (so .gitignore, nested .gitignore, .git/info/exclude, hidden files, the size limit and
 * symlinks are read exactly as the search reads them), minus the built-in skips and the user's
 * include/exclude globs, within the scope. Files are not read. ripgrep walks the tree: the
 * walk and the ignore rules cost about a second at 100,000 files, where a JavaScript walk
 * testing every path against every rule of a few hundred nested .gitignore files took minutes.
 */
import { existsSync, lstatSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { SearchScope } from '../core/deps.js';
import { SearchError } from '../core/errors.js';
import { toPosix } from '../core/files.js';
import type { Logger } from '../core/log.js';
import { ripgrepPruneGlobs, skipReason } from './filters.js';
import { createPathMatcher } from './match.js';
import { commonArgs, runRg, unsafeIgnoreFile, wasStuckIn } from './rg-process.js';
import { resolveScopeEntries, type ScopeEntries } from './scope.js';

export interface FileList {
  /** Root-relative POSIX paths, sorted. */
  files: string[];
  /** Mean size in bytes of the listed files: exact up to `SIZE_SAMPLE` files, from an even sample beyond. */
  avgSize: number;
  /**
   * Files passed over, by reason (`excluded` and the built-in skip reasons). What rg leaves out
   * unseen is not counted: ignored, oversized, and everything under vendored directories.
   */
  skipped: Record<string, number>;
}

export interface ListContext {
  rgPath: string;
  logger: Logger;
  signal?: AbortSignal | undefined;
  /** Milliseconds rg may take to list. */
  timeout?: number | undefined;
}

/** Files whose size is read for `avgSize`: enough for a mean, cheap at any repository size. */
export const SIZE_SAMPLE = 2000;

export async function listSearchableFiles(scope: SearchScope, context: ListContext): Promise<FileList> {
  const { root } = scope;
  const entries = await resolveScopeEntries(root, scope.scope);
  const inScope = createScopeTest(entries);
  const excluded = createPathMatcher(scope.exclude, { matchParents: true });
  const included = scope.include.length > 0 ? createPathMatcher(scope.include, { matchParents: true }) : () => true;
  const skipped: Record<string, number> = {};
  const files: string[] = [];
  // rg reads the .gitignore files it lists by: where one stopped it, the fallback listing (regular ignore files only) lists
  if (wasStuckIn(root)) throw new SearchError('search_failed', `ripgrep was stuck on a named pipe or a device in ${root} before: listing without it`);
  const unsafe = unsafeIgnoreFile(root);
  if (unsafe !== undefined) context.logger.warn(`${unsafe} is not a regular file of at most 16 MB inside the root: no .gitignore rules are applied`);
  const args = [...commonArgs({ iglobs: ripgrepPruneGlobs(), globs: [], maxFileSize: scope.maxFileSize, root }), '--files', '--null'];
  const onNotes = (lines: readonly string[]): void => warnOfIgnoreRules(root, lines, context.logger);
  await runRg({ rgPath: context.rgPath, root, args, separator: '\0', logger: context.logger, signal: context.signal, timeout: context.timeout, onNotes }, (record) => {
    if (record === '') return;
    // `--null` ends every path with NUL: a line break in a record is not rg's list, unless a file is named so
    if (record.includes('\n') && !isFile(join(root, record))) throw new SearchError('search_failed', `ripgrep printed something other than its file list: ${JSON.stringify(record.slice(0, 80))}`);
    // a name that is not UTF-8 reads with U+FFFD in it, a path no file has: it cannot be read or packed
    if (record.includes('\uFFFD') && !existsSync(join(root, record))) {
      skipped.undecodable_name = (skipped.undecodable_name ?? 0) + 1;
      return;
    }
    const path = toPosix(record);
    if (!inScope(path)) return;
    // Sizes are not known here: rg's --max-filesize already left oversized files out.
    const reason = skipReason(path, 0, Number.POSITIVE_INFINITY) ?? (excluded(path) ? 'excluded' : undefined);
    if (reason) skipped[reason] = (skipped[reason] ?? 0) + 1;
    else if (included(path)) files.push(path);
  });
  if (skipped.undecodable_name) context.logger.warn(`${skipped.undecodable_name} file name(s) under ${root} are not valid UTF-8: those files are not searched`);
  files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { files, avgSize: await sampleMeanSize(root, files), skipped };
}

/**
 * What rg says of the ignore files while listing, as warnings: a rule it cannot parse (that rule
 * alone is dropped) and, worse, a rule too large to compile ("error building NFA": rg then drops
 * the whole file, without naming it, and lists what it ignores). The content scans read the same
 * files and would say the same again: the listing speaks for them.
 */
function warnOfIgnoreRules(root: string, lines: readonly string[], logger: Logger): void {
  for (const line of lines) {
    const said = line.replace(/^rg: /, '');
    const shown = said.length > 300 ? `${said.slice(0, 299)}…` : said;
    if (/error building NFA/.test(said)) logger.warn(`an ignore file under ${root} holds a rule too large for ripgrep to compile (${shown}): none of that file's rules are applied, so the files it ignores are searched`);
    else if (/error parsing glob/.test(said)) {
      // The file and line, not the rule: a nested .gitignore may be a link to a file outside the
      // root (rg follows it), whose line would be printed here (`password = …`).
      const where = /^(.{1,300}?): line (\d+): error parsing glob/.exec(said);
      logger.warn(where ? `${where[1]}: line ${where[2]}: an ignore rule ripgrep cannot parse is not applied` : 'an ignore rule ripgrep cannot parse is not applied');
    }
  }
}

/** A regular file (not followed through a link) at `path`; false for anything else or nothing. */
function isFile(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}

function createScopeTest(entries: ScopeEntries): (path: string) => boolean {
  if (entries.dirs.includes('')) return () => true;
  const files = new Set(entries.files.map((f) => f.path));
  const prefixes = entries.dirs.map((d) => `${d}/`);
  return (path) => files.has(path) || prefixes.some((p) => path.startsWith(p));
}

/** Mean size of every file, or of `SIZE_SAMPLE` files evenly spread over the sorted list. */
async function sampleMeanSize(root: string, files: readonly string[]): Promise<number> {
  if (files.length === 0) return 0;
  const step = Math.max(1, files.length / SIZE_SAMPLE);
  const sample: string[] = [];
  for (let i = 0; i < files.length; i += step) sample.push(files[Math.floor(i)]!);
  const sizes = await Promise.all(sample.map((path) => stat(join(root, path)).then((s) => s.size, () => undefined)));
  const known = sizes.filter((s): s is number => s !== undefined);
  return known.length === 0 ? 0 : known.reduce((sum, s) => sum + s, 0) / known.length;
}
