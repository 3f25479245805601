import { lstat, open } from 'node:fs/promises';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { tokenize } from '../core/text.js';
import { runGit } from './git.js';

/** Files larger than this are left out, as ctxloop's own search does. */
export const MAX_FILE_SIZE = 1_000_000;
/** A NUL byte in this many leading bytes marks a binary file. */
const BINARY_PROBE = 8192;

/** A file's content terms; null when the file is skipped (oversized or binary). */
export type ContentTerms = { terms: Map<string, number>; length: number } | null;

/** One searchable file: its content terms plus the terms of its path. */
export interface Document {
  path: string;
  content: NonNullable<ContentTerms>;
  pathTerms: Map<string, number>;
  /** Terms in content and path together. */
  length: number;
}

/** Content terms by blob id, for one checkout root at a time (tasks of a repository share most blobs). */
export interface DocumentCache {
  root: string | undefined;
  blobs: Map<string, ContentTerms>;
}

export function createDocumentCache(): DocumentCache {
  return { root: undefined, blobs: new Map() };
}

/**
 * The documents of a checkout: files `git ls-files` lists, less symlinks, submodules, files absent
 * from the work tree (sparse), oversized and binary files.
 */
export async function readDocuments(root: string, cache: DocumentCache = createDocumentCache()): Promise<Document[]> {
  if (cache.root !== root) {
    cache.root = root;
    cache.blobs.clear();
  }
  const listing = await runGit(['ls-files', '-s', '-z'], { cwd: root });
  const limit = pLimit(16);
  const jobs: Array<Promise<Document | undefined>> = [];
  for (const entry of listing.split('\0')) {
    const tab = entry.indexOf('\t');
    if (tab < 0) continue;
    const [mode, blob] = entry.slice(0, tab).split(' ');
    // 120000 is a symlink (it may leave the root), 160000 a submodule: neither is a file here.
    if (!blob || mode === '120000' || mode === '160000') continue;
    const path = entry.slice(tab + 1);
    jobs.push(limit(async () => toDocument(path, await readContentTerms(root, path, blob, cache))));
  }
  return (await Promise.all(jobs)).filter((doc): doc is Document => doc !== undefined);
}

function toDocument(path: string, content: ContentTerms | undefined): Document | undefined {
  if (!content) return undefined;
  const pathTerms = countTerms(tokenize(path));
  let length = content.length;
  for (const count of pathTerms.values()) length += count;
  return { path, content, pathTerms, length };
}

/** undefined: not in the work tree (left out of a sparse checkout, or removed); never cached. */
async function readContentTerms(root: string, path: string, blob: string, cache: DocumentCache): Promise<ContentTerms | undefined> {
  if (cache.blobs.has(blob)) return cache.blobs.get(blob) ?? null;
  const full = join(root, path);
  const info = await lstat(full).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  let content: ContentTerms = null;
  if (info.size <= MAX_FILE_SIZE) {
    const bytes = await readBytes(full);
    if (bytes === undefined) return undefined;
    if (!bytes.subarray(0, BINARY_PROBE).includes(0)) {
      const terms = tokenize(bytes.toString('utf8'));
      content = { terms: countTerms(terms), length: terms.length };
    }
  }
  cache.blobs.set(blob, content);
  return content;
}

async function readBytes(path: string): Promise<Buffer | undefined> {
  const handle = await open(path, 'r').catch(() => undefined);
  if (!handle) return undefined;
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

export function countTerms(terms: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}
