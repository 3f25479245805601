import { identifierTerms, identifiersOf, isCodeLike, KEYWORDS, MAX_TASK_CHARS, stem, STOPWORDS, wholeTerm } from '../core/text.js';
import type { Query } from '../core/types.js';
import { blankIssueComments } from '../core/issue-comments.js';
import { createRangeTest, exampleFenceRanges } from './fences.js';
import { findMentions } from './mentions.js';
import { urlNoiseRanges, urlRanges } from './urls.js';
import { roundTo } from '../core/numbers.js';

const MAX_KEYWORDS = 48;
const MAX_SYMBOLS = 24;

/** Term weights by where a term came from: named code outweighs prose. */
const WEIGHT = {
  codeWhole: 1.0,
  codePart: 0.55,
  prose: 0.35,
  /** Terms in the first line (an issue's title) say what it is about. */
  titleBoost: 1.35,
  /** Names seen only inside the reporter's example blocks: often their own (`my_table`), not the repository's. */
  exampleOnly: 0.3,
} as const;

/**
 * Two title words side by side (`read respons`), found only as one identifier's adjacent parts:
 * what a title identifier's part weighs, as the code writes the two words as one name.
 */
const PAIR_WEIGHT = WEIGHT.codePart * WEIGHT.titleBoost;

/** Pair terms taken from the title at most. */
const MAX_PAIRS = 6;

/**
 * Task → first query. Identifiers (backticked, CamelCase, snake_case, dotted), quoted strings,
 * paths and stack frames come first; salient prose words after, with less weight.
 */
export function planQuery(task: string): Query {
  // Control characters (a binary task, a terminal dump) separate words; they are never part of one.
  // A run of 512+ characters without a space (base64, a minified line, a pasted blob) names
  // nothing to search for, and would cost the path and identifier patterns quadratic time.
  const raw = task
    .slice(0, MAX_TASK_CHARS)
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]+/g, ' ')
    .replace(/\S{512,}/g, ' ');
  const text = blankIssueComments(raw);
  const mentions = findMentions(text);
  const title = text.split('\n', 1)[0] ?? '';
  const backticked = new Set([...text.matchAll(/`([^`\n]{1,120})`/g)].flatMap((m) => identifiersOf(m[1]!)));

  const weights = new Map<string, number>();
  const order: string[] = [];
  const add = (term: string, weight: number): void => {
    if (term.length < 2 || /^[0-9]+$/.test(term)) return;
    const prev = weights.get(term);
    if (prev === undefined) order.push(term);
    // Repeats add a little: a term named five times matters more than one named once.
    weights.set(term, prev === undefined ? weight : Math.min(prev + weight * 0.25, Math.max(prev, weight) * 1.6));
  };

  const symbols = new Set<string>();
  for (const symbol of mentions.frameSymbols) symbols.add(symbol);

  const titleIds = new Set(identifiersOf(title));
  const examples = exampleFenceRanges(text);
  // Words seen only in a URL's path weigh like those seen only in examples: user names and page names mostly.
  const isWeak = createRangeTest([...examples, ...urlRanges(text)]);
  // a URL's host, query and fragment, and a code host's page names (`blob`, the owner), name no code at all
  const isNoise = createRangeTest(urlNoiseRanges(text));
  const identifiers = [...text.matchAll(/[\p{L}_$][\p{L}\p{M}\p{N}_$]*/gu)].filter((m) => !isHashLike(m[0], text[m.index - 1]) && !isNoise(m.index));
  const outsideExamples = new Set(identifiers.filter((m) => !isWeak(m.index)).map((m) => m[0]));
  for (const match of identifiers) {
    const id = match[0];
    const inTitle = (titleIds.has(id) ? WEIGHT.titleBoost : 1) * (outsideExamples.has(id) ? 1 : WEIGHT.exampleOnly);
    // A language keyword in backticks (`new Foo`) is not a symbol to look for; it stays a word.
    const code = !KEYWORDS.has(id) && (backticked.has(id) || isCodeLike(id));
    if (code) {
      if (id.length >= 3) symbols.add(id);
      const [first, ...parts] = identifierTerms(id);
      if (first === undefined) continue;
      if (parts.length > 0) {
        add(first, WEIGHT.codeWhole * inTitle);
        for (const part of parts) if (!STOPWORDS.has(part)) add(part, WEIGHT.codePart * inTitle);
      } else {
        add(first, WEIGHT.codeWhole * inTitle);
      }
    } else {
      const word = id.toLowerCase();
      if (word.length < 3 || STOPWORDS.has(word)) continue;
      // a language keyword only in code examples (`const x = …`) is their syntax, not the task's topic
      if (KEYWORDS.has(id) && !outsideExamples.has(id)) continue;
      add(stem(word), WEIGHT.prose * inTitle);
    }
  }

  const keywords = order
    .map((term, index) => ({ term, weight: weights.get(term)!, index }))
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .slice(0, MAX_KEYWORDS);

  // not in a URL or an example: a page's or the reporter's own names
  const pairs = titlePairs(title, (index) => isWeak(index) || isNoise(index)).map((term) => ({ term, weight: PAIR_WEIGHT }));
  return {
    keywords: [...keywords, ...pairs].map((k) => k.term),
    weights: Object.fromEntries([...keywords, ...pairs].map((k) => [k.term, roundTo(k.weight, 3)])),
    literals: mentions.literals.slice(0, 12),
    symbols: [...symbols].slice(0, MAX_SYMBOLS),
    paths: mentions.paths.slice(0, 24),
    patterns: [],
    excludes: [],
    focusAreas: [],
  };
}

/**
 * Each two prose words of the title side by side (no punctuation between), neither a stopword,
 * as pair terms (`read respons` of "Read response even if…"): a compound the code may name as
 * one identifier (`readResponseHeaders`). Words written as code carry their own terms.
 */
function titlePairs(title: string, skip: (index: number) => boolean): string[] {
  const out: string[] = [];
  const words = [...title.matchAll(/[\p{L}_$][\p{L}\p{M}\p{N}_$]*|\S/gu)];
  for (let i = 1; i < words.length && out.length < MAX_PAIRS; i++) {
    const [a, b] = [words[i - 1]![0], words[i]![0]];
    if (!isPairWord(a) || !isPairWord(b) || skip(words[i - 1]!.index) || skip(words[i]!.index)) continue;
    const pair = `${stem(a.toLowerCase())} ${stem(b.toLowerCase())}`;
    if (!out.includes(pair)) out.push(pair);
  }
  return out;
}

/** A prose word of ASCII letters: the content scan's patterns read identifiers in ASCII, and a pair must be found alone as with its words. */
function isPairWord(word: string): boolean {
  const lower = word.toLowerCase();
  return /^[A-Za-z]{3,}$/.test(word) && !isCodeLike(word) && !STOPWORDS.has(lower) && !KEYWORDS.has(lower);
}

/**
 * Commit hashes, `git describe` suffixes and hex ids (`a6fe3473…`, `gf94a9d4`, the `d3d2750` of
 * `6d3d2750`): identifiers by shape, but naming no code.
 */
function isHashLike(id: string, before: string | undefined): boolean {
  if (before !== undefined && /[0-9]/.test(before)) return true;
  return /^g?[0-9a-f]{6,}$/.test(id) && /[0-9]/.test(id);
}

/** The whole-identifier term of a symbol, as the tokenizer produces it. */
export function symbolTerm(symbol: string): string {
  return wholeTerm(symbol);
}
