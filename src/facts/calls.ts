import type { Def, Source } from './source.js';

const MAX_CALLS = 500;

/** Words followed by `(` that are syntax, not calls, across the supported languages. */
const NOT_CALLS = new Set(
  (
    'if else elif elsif for foreach while do switch case return function catch try finally throw throws sizeof typeof alignof ' +
    'decltype offsetof instanceof void delete in of is not and or with assert yield await async lambda def fn func fun ' +
    'unless until when defined super this self __attribute__ __declspec static_assert using lock fixed ' +
    'synchronized guard where elseif except raise del global nonlocal pass import require_once include_once include export ' +
    'from as new let var const struct class enum union typedef template operator noexcept alignas nameof checked unchecked pub ' +
    'int char short long float double signed unsigned bool void'
  ).split(' '),
);

/** Anchored at a word start: from inside a long word each position scanned to its end (a 200 kB identifier took 22 s). */
const CALL = /(?<![\w$])([A-Za-z_$][\w$]*)[ \t]*\(/g;

/**
 * Names called in the file: identifiers directly followed by `(` (so `obj.name(` gives `name`),
 * read from masked text (calls in comments and strings don't count), without keywords and
 * without the names of definitions on their own header line. In order of first appearance.
 */
export function findCalls(src: Source, defs: readonly Def[]): string[] {
  const headers = new Set(defs.map((d) => `${d.header}:${d.name.replace(/^~/, '')}`));
  const seen = new Set<string>();
  let line = 0;
  let lineEnd = src.lineStart[1] ?? Infinity;
  for (const m of src.text.matchAll(CALL)) {
    const name = m[1]!;
    if (NOT_CALLS.has(name) || seen.has(name)) continue;
    while (m.index >= lineEnd) {
      line++;
      lineEnd = src.lineStart[line + 1] ?? Infinity;
    }
    if (headers.has(`${line}:${name}`)) continue;
    seen.add(name);
    if (seen.size >= MAX_CALLS) break;
  }
  return [...seen];
}
