/**
 * The evidence lines of a candidate: the scan said which terms each matched line holds, the
 * most telling lines are chosen on that, and only those lines are read from the file.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Hit } from '../core/types.js';
import { MAX_HIT_TEXT, selectHits } from './collect.js';

const decoder = new TextDecoder('utf-8', { fatal: false });
const NEWLINE = 0x0a;

/**
 * Hits of one file from its per-line terms: the best lines (most distinct terms, then earliest)
 * in line order, with their text (invalid UTF-8 replaced, CR and trailing blanks dropped, cut
 * to `MAX_HIT_TEXT`). A file that cannot be read any more gives no hits.
 */
export async function readHits(root: string, path: string, lines: ReadonlyMap<number, string[]>): Promise<Hit[]> {
  const chosen = selectHits([...lines].map(([line, terms]) => ({ line, terms })));
  if (chosen.length === 0) return [];
  let bytes: Buffer;
  try {
    bytes = await readFile(join(root, path));
  } catch {
    // vanished or unreadable since the scan: no evidence lines, the counts still stand
    return [];
  }
  const hits: Hit[] = [];
  let line = 1;
  let start = 0;
  for (const { line: wanted, terms } of chosen) {
    while (line < wanted && start <= bytes.length) {
      const end = bytes.indexOf(NEWLINE, start);
      start = end === -1 ? bytes.length + 1 : end + 1;
      line++;
    }
    if (start > bytes.length) break;
    const end = bytes.indexOf(NEWLINE, start);
    const text = decoder.decode(bytes.subarray(start, end === -1 ? bytes.length : end)).replace(/\r$/, '');
    hits.push({ line: wanted, text: text.trimEnd().slice(0, MAX_HIT_TEXT).trimEnd(), terms });
  }
  return hits;
}
