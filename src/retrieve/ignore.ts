/**
 * .gitignore semantics for globbed paths, through the `ignore` package. Every .gitignore under
 * the root (and .git/info/exclude) is rewritten into one root-level rule list, deeper files
 * last, so a nested rule applies relative to its directory and overrides its parents' rules,
 * as in git. Rules from directories above the root are not read here, as ripgrep runs with
 * `--no-ignore-parent`: those of a git worktree the root lies inside apply to either listing
 * (`parent-ignore.ts`).
 */
import { lstat, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import ignore from 'ignore';
import { globstarsOf, MAX_GLOB_WILDCARDS, wildcardsOf } from '../core/glob-hazard.js';
import { isInsideRoot } from '../core/inside.js';
import { withRegularFile } from '../core/regular-file.js';
import { MAX_IGNORE_FILE } from './rg-process.js';

export interface IgnoreFile {
  /** Root-relative POSIX directory the rules belong to; '' for the root. */
  dir: string;
  content: string;
}

export interface IgnoreRules {
  /** Whether a root-relative file path is ignored (by a rule or through an ignored parent). */
  ignores(path: string): boolean;
  /**
   * fast-glob ignore patterns for directories that are surely ignored, so the walk does not
   * enter them. Empty when any rule is a negation: `!` may re-include what a pattern excludes.
   */
  pruneGlobs: string[];
  /** True when some rule re-includes (`!pattern`). */
  hasNegation: boolean;
  /** Rules applied (at most `MAX_RULES`). */
  count: number;
  /** Rules past `MAX_RULES` (the deepest files' last) or longer than `MAX_RULE_CHARS`, not applied; a file not read counts one. */
  dropped: number;
  /** Of `dropped`: the rules too long, or matched in exponential time (`backtracks`), wherever they stood. */
  unsafe: number;
}

/**
 * Rules applied at most. Every listed path is tested against every rule (the `ignore` package
 * runs them in turn), so thirty generated 1 MB `.gitignore` files took the fallback listing past
 * the heap limit: it crashed. Hand-written ignore files of a whole monorepo stay far below.
 */
export const MAX_RULES = 2000;
/**
 * Characters of a rule at most. No path is longer (Linux's PATH_MAX), and the `ignore` package
 * compiles a longer one into a regular expression V8 refuses ("too large"): the fallback listing
 * threw on the first path it tested. rg cannot compile such a rule either (`list.ts` warns).
 */
export const MAX_RULE_CHARS = 4096;
/** `**` segments a rule the fallback applies may hold (three took 7.5 ms a path 80 directories deep). */
const MAX_RULE_GLOBSTARS = 3;
/**
 * A rule the `ignore` package would match in exponential time: it tests each of a path's
 * directories against a regex that backtracks over the ways the rule's `**` segments and `*`s
 * split the path (four `**` took 0.1 s a path 80 directories deep, five 1.4 s, seven minutes,
 * deaf to Ctrl-C). rg matches such rules in linear time; the fallback listing leaves them out.
 */
function backtracks(rule: string): boolean {
  return globstarsOf(rule) > MAX_RULE_GLOBSTARS || wildcardsOf(rule) > MAX_GLOB_WILDCARDS;
}

/** Rules turned into walk-pruning globs at most (they only save time). */
const MAX_PRUNE_GLOBS = 500;

/** Ignore files read, and those left unread once `MAX_RULES` rules were in (`readIgnoreFiles`). */
export interface IgnoreFiles {
  files: IgnoreFile[];
  unread: number;
}

/**
 * Reads the given .gitignore files (root-relative) and .git/info/exclude, shallow ones first (the
 * order `compileIgnoreRules` applies them in), one at a time, until they hold `MAX_RULES` rules:
 * the files after are not read. Read all at once, 300 generated 1 MB files (500,000 rules each)
 * took the fallback listing past the heap limit. Unreadable files are skipped.
 */
export async function readIgnoreFiles(root: string, gitignores: readonly string[]): Promise<IgnoreFiles> {
  const sources = [{ dir: '', file: '.git/info/exclude' }, ...gitignores.map((file) => ({ dir: dirOf(file), file }))].sort((a, b) => depthOf(a.dir) - depthOf(b.dir));
  const realRoot = await realpath(root).catch(() => root);
  const files: IgnoreFile[] = [];
  let rules = 0;
  for (const [i, { dir, file }] of sources.entries()) {
    if (rules >= MAX_RULES) return { files, unread: sources.length - i };
    const content = await readIgnoreFile(realRoot, join(root, file));
    if (content === undefined) continue;
    files.push({ dir, content });
    rules += parseLines(content).length;
  }
  return { files, unread: 0 };
}

/**
 * Bytes read of an ignore file at most: its first `MAX_RULES` rules are far inside. A larger file
 * is still one, up to the size past which rg does not read it either (`MAX_IGNORE_FILE`: a
 * hostile repository's multi-gigabyte `.gitignore`); the listing used to drop any file over
 * 1 MB whole, while rg applied it.
 */
const MAX_IGNORE_READ = 1_000_000;

async function readIgnoreFile(realRoot: string, path: string): Promise<string | undefined> {
  try {
    // lstat: a .gitignore that is a symlink, a FIFO or a device is not read; neither is one
    // reached through a linked directory (`.git` pointing elsewhere) nor an oversized one
    const info = await lstat(path);
    if (!info.isFile() || info.size > MAX_IGNORE_FILE) return undefined;
    const real = await realpath(path);
    if (!isInsideRoot(realRoot, real)) return undefined;
    return await readHead(path, MAX_IGNORE_READ);
  } catch {
    // missing or unreadable: git would not apply it either
    return undefined;
  }
}

/**
 * One rule list from many ignore files: info/exclude and shallow files first, so deeper rules
 * win. `dropped` counts the rules not applied, and each file `readIgnoreFiles` left unread as one.
 */
export function compileIgnoreRules({ files, unread }: IgnoreFiles): IgnoreRules {
  const ordered = [...files].sort((a, b) => depthOf(a.dir) - depthOf(b.dir));
  const rules: string[] = [];
  let dropped = unread;
  let unsafe = 0;
  for (const file of ordered) {
    for (const line of parseLines(file.content)) {
      if (line.length > MAX_RULE_CHARS || backtracks(line)) unsafe++;
      else if (rules.length < MAX_RULES) rules.push(rebaseRule(line, file.dir));
      else dropped++;
    }
  }
  dropped += unsafe;
  const matcher = ignore({ ignorecase: false }).add(rules);
  const hasNegation = rules.some((rule) => rule.startsWith('!'));
  return {
    ignores: (path) => matcher.ignores(path),
    pruneGlobs: hasNegation ? [] : rules.flatMap(toPruneGlob).slice(0, MAX_PRUNE_GLOBS),
    hasNegation,
    count: rules.length,
    dropped,
    unsafe,
  };
}

/** What a warning says of the rules `compileIgnoreRules` did not apply, by why (`dropped` > 0). */
export function notAppliedRules(dropped: number, unsafe: number): string {
  const past = dropped - unsafe;
  const why = [
    ...(past > 0 ? [`${past} past the first ${MAX_RULES} (the deepest files' last)`] : []),
    ...(unsafe > 0 ? [`${unsafe} longer than ${MAX_RULE_CHARS} characters or with more than three ** or four * (matched in exponential time)`] : []),
  ];
  return `${dropped} rule(s) not applied: ${why.join('; ')}`;
}

/**
 * The first `max` bytes of a regular file as text, cut after its last whole line when there is
 * more (`withRegularFile`: should the path have become a FIFO since `lstat`, it is refused, not waited on).
 */
function readHead(path: string, max: number): Promise<string> {
  return withRegularFile(path, async (file) => {
    const buffer = Buffer.alloc(max + 1);
    const { bytesRead } = await file.read(buffer, 0, max + 1, 0);
    if (bytesRead <= max) return buffer.toString('utf8', 0, bytesRead);
    const lastLine = buffer.lastIndexOf(0x0a, max - 1);
    return buffer.toString('utf8', 0, lastLine < 0 ? 0 : lastLine);
  });
}

function parseLines(content: string): string[] {
  return content
    .split(/\r?\n/)
    .map((line) => line.replace(/\r$/, ''))
    .filter((line) => line.trim() !== '' && !line.startsWith('#'));
}

/**
 * Rewrites a rule of `dir/.gitignore` to apply from the root: a pattern with a slash is
 * anchored to its directory, one without matches at any depth below it.
 */
export function rebaseRule(line: string, dir: string): string {
  if (dir === '') return line;
  const negative = line.startsWith('!');
  // trailing spaces are no part of a rule unless escaped: `build/ ` is `build/`, not anchored
  const body = (negative ? line.slice(1) : line).replace(/(^|[^\\])[ \t]+$/, '$1');
  const anchored = body.replace(/\/+$/, '').includes('/');
  // the directory's own name is literal: `pkg[v2]` or `#drafts` read as a class or a comment
  const base = dir.replace(/[\\[\]*?!# ]/g, '\\$&');
  const rebased = anchored ? `${base}/${body.replace(/^\/+/, '')}` : `${base}/**/${body}`;
  return (negative ? '!' : '') + rebased;
}

/** Rules using only plain names, `*` and whole-segment `**` translate safely into fast-glob syntax. */
const SIMPLE_RULE = /^[A-Za-z0-9._\-/*]+$/;

function toPruneGlob(rule: string): string[] {
  const body = rule.trimEnd().replace(/\/+$/, '');
  if (!body || !SIMPLE_RULE.test(body) || body.split('/').some((s) => s.includes('**') && s !== '**')) return [];
  return body.includes('/') ? [`${body.replace(/^\/+/, '')}/**`] : [`**/${body}/**`];
}

function dirOf(file: string): string {
  const slash = file.lastIndexOf('/');
  return slash < 0 ? '' : file.slice(0, slash);
}

function depthOf(dir: string): number {
  return dir === '' ? 0 : dir.split('/').length;
}
