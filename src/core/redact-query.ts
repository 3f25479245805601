import { REDACTED, redactSecrets } from './redact.js';
import { identifierTerms, identifiersOf, isPairTerm, MAX_TASK_CHARS, wholeTerm } from './text.js';
import type { Query } from './types.js';

export interface ShownRedactor {
  /** A line built from the task (a gap's question, a query item) with its secrets masked. */
  text(line: string): string;
  /** A query with secret items masked and the keywords cut from secrets dropped. */
  query<Q extends Partial<Query>>(query: Q): Q;
  /** The terms of a query that come from a secret: searched, never kept between runs. */
  secretTerms(query: Pick<Query, 'keywords' | 'literals' | 'symbols'>): string[];
}

/**
 * The task a query is planned from: what `redactSecrets` masks in it (`password=…`, a token, and
 * every repeat of such a value) taken out, the marks too. A secret pasted into the task is then
 * no search term, so it reaches no gap, no query shown or sent to a model, and no cache entry;
 * `[REDACTED]` is no term either.
 */
export function taskToPlan(task: string): string {
  return redactSecrets(task, { prose: true }).split(REDACTED).join(' ');
}

/**
 * What people and clients see of a run (progress lines, MCP notifications, the result's trace).
 * The retrieve loop plans from `taskToPlan`, so its query holds no secret of the task; this is
 * the guard for everything else built from the task (`locate` searches an error report's names
 * as they are). What is hidden is what `redactSecrets` masks in the task itself, so a secret
 * recognised only by its context (`password = hunter2`) is hidden too: its identifiers become
 * `[REDACTED]` wherever they appear, and the keywords cut from them are dropped.
 */
export function createShownRedactor(task: string): ShownRedactor {
  // What is shown all comes from the part of the task the plan reads (and the echo is cut there).
  const read = task.slice(0, MAX_TASK_CHARS);
  const masked = new Set(identifiersOf(read));
  for (const id of identifiersOf(redactSecrets(read, { prose: true }))) masked.delete(id);
  const maskedTerms = new Set([...masked].flatMap((id) => [wholeTerm(id), ...identifierTerms(id)]));
  // Whole words only: a reason lists the terms it matched (`matches akiaplanted…, token`).
  const termWord = maskedTerms.size === 0 ? undefined : new RegExp(`(?<![\\p{L}\\p{N}_$])(?:${[...maskedTerms].filter((t) => t.length >= 4).map(escapeRegExp).join('|') || '(?!)'})(?![\\p{L}\\p{N}_$])`, 'gu');
  const secretWord = (k: string): boolean => maskedTerms.has(k) || redactSecrets(k, { prose: true }) !== k;
  // a pair term (`password swordfish`) is secret when either of its words is
  const secretKeyword = (k: string): boolean => (isPairTerm(k) ? k.split(' ').some(secretWord) : secretWord(k));
  const text = (line: string): string => {
    let out = redactSecrets(line, { prose: true });
    for (const id of masked) if (out.includes(id)) out = out.split(id).join(REDACTED);
    return termWord ? out.replace(termWord, REDACTED) : out;
  };
  return {
    text,
    query(query) {
      const out = { ...query };
      if (query.keywords) out.keywords = query.keywords.filter((k) => !secretKeyword(k));
      if (query.weights) out.weights = Object.fromEntries(Object.entries(query.weights).filter(([k]) => !secretKeyword(k)));
      for (const field of ['symbols', 'literals', 'paths', 'patterns'] as const) {
        const items = query[field];
        if (items) out[field] = [...new Set(items.map(text))];
      }
      return out;
    },
    secretTerms(query) {
      return [...query.keywords.filter(secretKeyword), ...[...query.literals, ...query.symbols].filter((t) => text(t) !== t)];
    },
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
