/**
 * A bound on what one content scan makes rg print in a very large repository. A task made of
 * common words (value, name, data, type…) has rg print nearly every identifier of every file:
 * at 100,000 files that is tens of millions of lines, seconds of reading and hundreds of
 * megabytes of postings. So once the listing says the repository is large, a sample of its files
 * is scanned for the same terms first; if the terms would print more than `MAX_DENSITY` matches
 * a file, the commonest are left out of the scan until the rest fit. A term left out is one most
 * files hold: its idf is near zero, and it keeps the document frequency the sample estimates, so
 * it still weighs as the common word it is. Smaller repositories are never sampled.
 */
import { isAbortError, throwIfAborted } from '../core/errors.js';
import { searchPrefix } from '../core/text.js';
import { createLineMatcher } from './collect.js';
import { commonArgs, pathArgs, runRg } from './rg-process.js';
import { MAX_LINES_PER_FILE, scanPatterns, type ScanRun, type ScanTerms } from './scan.js';
import { keyOfKeyword, keyOfLiteral, keyOfSymbol, termsOf, withoutKeys, type TermKey } from './term-index.js';

/** Listed files from which a scan is bounded. */
export const LARGE_REPOSITORY = 20_000;
/** Files sampled to estimate each term's load. */
export const SAMPLE_FILES = 1_000;
/**
 * Term occurrences a listed file may cost on average, over all the scan's terms. Tasks written
 * as issues stay near 10–45 at 100,000 files of mixed code; a list of common words passes 200.
 */
export const MAX_DENSITY = 64;

/** What the sample found of each term: occurrences (capped per file as the scan caps them) and files. */
export interface TermLoad {
  sampled: number;
  occurrences: Map<TermKey, number>;
  files: Map<TermKey, number>;
}

/** Every `k`-th file by a hash of its path (FNV-1a): the same files for the same listing, spread over its directories. */
export function sampleOf(files: readonly string[], size = SAMPLE_FILES): string[] {
  if (files.length <= size) return [...files];
  const every = Math.ceil(files.length / size);
  return files.filter((path) => hashOf(path) % every === 0);
}

function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * What `terms` make rg print in `paths` (the scan's own patterns and flags): each printed
 * identifier counts for every term whose search text it holds (the matches that are not the
 * term, `import` for `port`, cost as much as those that are), and a file counts for each term
 * it really holds (as the scan reads identifiers).
 */
export async function sampleLoad(run: Omit<ScanRun, 'terms' | 'paths'>, paths: readonly string[], terms: ScanTerms): Promise<TermLoad> {
  const load: TermLoad = { sampled: paths.length, occurrences: new Map(), files: new Map() };
  const patterns = scanPatterns(terms);
  if (paths.length === 0 || patterns.length === 0) return load;
  const needles = [
    ...terms.keywords.map((k) => ({ key: keyOfKeyword(k), text: searchPrefix(k).toLowerCase(), fold: true })),
    ...terms.literals.map((l) => ({ key: keyOfLiteral(l), text: l.toLowerCase(), fold: true })),
    ...terms.symbols.map((s) => ({ key: keyOfSymbol(s), text: s, fold: false })),
  ];
  const match = createLineMatcher(terms);
  const memo = new Map<string, { causes: TermKey[]; holds: TermKey[] }>();
  const read = (fragment: string): { causes: TermKey[]; holds: TermKey[] } => {
    let found = memo.get(fragment);
    if (!found) {
      const folded = fragment.toLowerCase();
      const joined = folded.replace(/[_$]/g, '');
      const causes = needles.filter((n) => (n.fold ? folded.includes(n.text) || joined.includes(n.text) : fragment.includes(n.text))).map((n) => n.key);
      const line = match(fragment);
      const holds = line ? [...[...line.keywords.keys()].map(keyOfKeyword), ...line.literals.map(keyOfLiteral), ...line.symbols.map(keyOfSymbol)] : [];
      memo.set(fragment, (found = { causes, holds }));
    }
    return found;
  };
  let held = new Set<TermKey>();
  const endFile = (): void => {
    for (const key of held) load.files.set(key, (load.files.get(key) ?? 0) + 1);
    held = new Set();
  };
  const count = (fragment: string): void => {
    const { causes, holds } = read(fragment);
    for (const key of causes) load.occurrences.set(key, (load.occurrences.get(key) ?? 0) + 1);
    for (const key of holds) held.add(key);
  };
  const args = [...commonArgs(run), '--only-matching', '--no-line-number', '--with-filename', '--heading', '--null', '--max-count', String(MAX_LINES_PER_FILE), '-f', '-', ...pathArgs(paths)];
  await runRg({ ...run, args, stdin: `${patterns.join('\n')}\n` }, (line) => {
    const nul = line.indexOf('\0');
    if (nul >= 0) {
      endFile();
      count(line.slice(nul + 1));
    } else if (line === '') endFile();
    else count(line);
  });
  endFile();
  return load;
}

export interface Bounded {
  kept: ScanTerms;
  /** Terms left out, with the number of listed files each is estimated to be in. */
  leftOut: Array<{ key: TermKey; kind: keyof ScanTerms; value: string; docFreq: number }>;
}

/**
 * The terms kept: lightest first while the estimated occurrences a file stay within
 * `maxDensity`; the rest are left out. Nothing is left out when all fit.
 */
export function boundTerms(terms: ScanTerms, load: TermLoad, listed: number, maxDensity = MAX_DENSITY): Bounded {
  const sampled = Math.max(load.sampled, 1);
  const density = (key: TermKey): number => (load.occurrences.get(key) ?? 0) / sampled;
  const leftOut: Bounded['leftOut'] = [];
  let total = 0;
  // Keywords of one search prefix (a pair term and its first word) make rg print the same
  // identifiers: charged once, and kept or left out together.
  const decided = new Map<string, boolean>();
  for (const [key, term] of termsOf(terms).sort(([a], [b]) => density(a) - density(b))) {
    const printed = term.kind === 'keywords' ? `k:${searchPrefix(term.value)}` : key;
    let kept = decided.get(printed);
    if (kept === undefined) {
      kept = total + density(key) <= maxDensity;
      if (kept) total += density(key);
      decided.set(printed, kept);
    }
    if (!kept) leftOut.push({ key, ...term, docFreq: Math.min(listed, Math.round(((load.files.get(key) ?? 0) / sampled) * listed)) });
  }
  // in the order the query gave them: the scan's patterns are built in that order
  return { kept: withoutKeys(terms, new Set(leftOut.map((t) => t.key))), leftOut };
}

export interface BoundedScan {
  terms: ScanTerms;
  /** The scope's listing: says whether the repository is large, and what to sample. */
  listing: Promise<{ files: readonly string[] }>;
  /** One content scan of the scope for `terms`, stopped by `signal`. */
  scan: (terms: ScanTerms, signal: AbortSignal | undefined) => Promise<void>;
  /** What `terms` make rg print in `paths` alone (`sampleLoad`). */
  sample: (paths: string[], terms: ScanTerms) => Promise<TermLoad>;
  /** Forgets what a stopped scan recorded. */
  reset: () => void;
  signal?: AbortSignal | undefined;
  /** @default LARGE_REPOSITORY */
  large?: number;
  /** @default MAX_DENSITY */
  maxDensity?: number;
}

/**
 * Runs the scan at once and, alongside it, the sample once the listing is in. If the sample
 * leaves terms out before the scan is done, the scan is stopped, what it recorded forgotten,
 * and the scan run again with the terms kept. Returns the terms left out (none, mostly). A
 * sample that fails bounds nothing: the scan goes on.
 */
export async function scanWithinBudget(run: BoundedScan): Promise<Bounded['leftOut']> {
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  run.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    let done = false;
    const first = run.scan(run.terms, stop.signal).finally(() => (done = true));
    first.catch(() => undefined); // awaited below, whichever way the race goes
    const verdict = await Promise.race([first.then(() => undefined), measure(run).catch(() => undefined)]);
    if (!verdict || verdict.leftOut.length === 0 || done) {
      await first;
      return [];
    }
    stop.abort();
    await first.catch((error: unknown) => {
      if (!isAbortError(error)) throw error;
    });
    throwIfAborted(run.signal);
    run.reset();
    await run.scan(verdict.kept, run.signal);
    return verdict.leftOut;
  } finally {
    run.signal?.removeEventListener('abort', onAbort);
  }
}

async function measure(run: BoundedScan): Promise<Bounded | undefined> {
  const { files } = await run.listing;
  if (files.length <= (run.large ?? LARGE_REPOSITORY)) return undefined;
  const paths = sampleOf(files);
  const load = await run.sample(paths, run.terms);
  return boundTerms(run.terms, load, files.length, run.maxDensity);
}
