import { createHash } from 'node:crypto';
import type { Query } from './types.js';
import { own } from './records.js';
import { roundTo } from './numbers.js';

/** Version of the facts extractor: bump it whenever its output changes, so cached facts are re-read. */
export const FACTS_VERSION = 5;

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** JSON with object keys sorted at every level, so equal inputs give equal text. */
export function stableStringify(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${stableStringify(value[k]!)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The one key function: hex sha1 of the stable JSON of plain, serializable inputs. Every cache
 * key is built here, so what a key depends on is visible in one call.
 */
export function cacheKey(layer: string, inputs: { [key: string]: Json }): string {
  return createHash('sha1').update(stableStringify({ layer, ...inputs })).digest('hex');
}

export interface ScoreKeyInput {
  /** Evaluator id (`offline`, `anthropic`, `openai`). */
  evaluator: string;
  model: string;
  /** Version of the prompt template (or of the offline scorer). */
  promptVersion: string | number;
  /** From `queryKey`. */
  queryKey: string;
  /** sha1 of the file's content. */
  contentHash: string;
}

export function scoreKey(input: ScoreKeyInput): string {
  return cacheKey('score', { ...input });
}

export interface ReplyKeyInput {
  /** `anthropic` or `openai`. */
  provider: string;
  model: string;
  /** The calling role (`plan`, `refine`, `scout`). */
  role: string;
  /** Name of the reply's schema. */
  schema: string;
  /** The rendered prompt: it holds the template (so its version), the task and all the model was shown. */
  prompt: string;
}

/** A model reply other than a score: same model, role and prompt, same reply. */
export function replyKey(input: ReplyKeyInput): string {
  return cacheKey('reply', { ...input });
}

/** Facts depend on the bytes, the extractor that read them and the extension (`.ts` and `.tsx` are two grammars). */
export function factsKey(contentHash: string, extractorVersion: string | number = FACTS_VERSION, extension = ''): string {
  return cacheKey('facts', { contentHash, extractorVersion, extension });
}

const sortedUnique = (items: readonly string[]): string[] => [...new Set(items)].sort();

/**
 * Stable hash of what a query asks: keywords with their weights (rounded, so float noise doesn't
 * miss the cache), literals (case-insensitive, as searched), symbols and paths, each sorted and
 * deduplicated. Patterns, excludes and focus areas steer the search, not the score: left out.
 */
export function queryKey(query: Query): string {
  const keywords = sortedUnique(query.keywords).map((k): Json => [k, roundTo(own(query.weights, k) ?? 1, 2)]);
  return cacheKey('query', {
    keywords,
    literals: sortedUnique(query.literals.map((l) => l.toLowerCase())),
    symbols: sortedUnique(query.symbols),
    paths: sortedUnique(query.paths),
  });
}

/**
 * A whole offline result (`orchestrator/result-memo.ts`): the task, every option that decides the
 * result, the provider, ripgrep and the code's own fingerprint. The repository's state is checked
 * against the entry, not keyed: a new state replaces the old entry.
 */
export function resultKey(inputs: { [key: string]: Json }): string {
  return cacheKey('result', inputs);
}
