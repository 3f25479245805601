import { basenameOf } from '../../core/files.js';
import { wholeTerm } from '../../core/text.js';
import type { Candidate, FileFacts } from '../../core/types.js';

/** Lines after a definition's first line where a delegate's call is looked for. */
const BODY_LINES = 4;

/** The shortest receiver or file name compared (`io`, `db` name too many files). */
const MIN_NAME = 4;

/** Receivers that name no other file: the object itself, its class or its parent. */
const SELF = new Set(['self', 'this', 'super', 'cls', 'base', 'parent', 'static', 'it']);

/**
 * Definitions that only hand the call on: a function or method named like a symbol the task
 * names whose body calls the same name on another object (`fun processResponse(…) { val
 * eventSource = RealEventSource(…); eventSource.processResponse(response) }`, `def get_by(…) do
 * Ecto.Repo.Queryable.get_by(…)`, Go's `func Unmarshal(…) { return defaultUnmarshaler.Unmarshal(…) }`),
 * where that object is named like another candidate that defines the symbol too. The facade's
 * definition is a pointer to that file, not the behaviour a task about the symbol is about:
 * per candidate, the symbols whose definition here is such a pointer.
 */
export function findDelegatedSymbols(candidates: readonly Candidate[], defines: readonly (readonly string[])[], facts: ReadonlyMap<string, FileFacts>): Map<number, Set<string>> {
  const definers = new Map<string, number[]>();
  defines.forEach((symbols, i) => {
    for (const symbol of symbols) {
      const files = definers.get(symbol);
      if (files) files.push(i);
      else definers.set(symbol, [i]);
    }
  });
  const found = new Map<number, Set<string>>();
  definers.forEach((files, symbol) => {
    if (files.length < 2) return;
    for (const i of files) {
      const receivers = delegateReceivers(candidates[i]!, symbol, facts.get(candidates[i]!.path));
      if (receivers.length === 0) continue;
      const target = files.some((j) => j !== i && receivers.some((receiver) => namesFile(receiver, candidates[j]!.path)));
      if (target) found.set(i, (found.get(i) ?? new Set()).add(symbol));
    }
  });
  return found;
}

/** What the file's definitions of `symbol` call `symbol` on, from the candidate's evidence lines. */
function delegateReceivers(candidate: Candidate, symbol: string, facts: FileFacts | undefined): string[] {
  // first line → last line of each short definition of the symbol: parsed, or read off a hit line
  const bodies = new Map<number, number>();
  for (const def of facts?.defs ?? []) if (def.name === symbol && def.end - def.start <= BODY_LINES) bodies.set(def.start, def.end);
  for (const hit of candidate.hits) if (!bodies.has(hit.line) && startsDefinition(hit.text, symbol)) bodies.set(hit.line, hit.line + BODY_LINES);
  if (bodies.size === 0) return [];
  const spans = [...bodies];
  const call = callOn(symbol);
  const receivers: string[] = [];
  for (const hit of candidate.hits) {
    // the body: the definition's line (an expression body) and the few after it
    if (!spans.some(([first, last]) => hit.line >= first && hit.line <= last)) continue;
    for (const match of hit.text.matchAll(call)) {
      const receiver = match[1]!.split(/\.|::|->/).pop()!;
      if (!SELF.has(receiver.replace(/^\$/, ''))) receivers.push(receiver);
    }
  }
  return receivers;
}

/** Patterns kept per symbol, at most this many (a long-lived server sees many tasks' symbols). */
const MAX_KEPT = 500;
const calls = new Map<string, RegExp>();

/** `Receiver.symbol(`, `Mod::symbol(`, `$obj->symbol(`: the receiver as written (a dotted chain). */
function callOn(symbol: string): RegExp {
  let found = calls.get(symbol);
  if (!found) {
    const name = symbol.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    found = new RegExp(`(?<![\\w$.])(\\$?[A-Za-z_][\\w$]*(?:(?:\\.|::|->)[A-Za-z_][\\w$]*)*)\\s*(?:\\.|::|->)\\s*${name}!?\\s*\\(`, 'g');
    if (calls.size >= MAX_KEPT) calls.clear();
    calls.set(symbol, found);
  }
  return found;
}

/** A line that opens a function named `symbol` (the keyword forms: `def`, `fun`, `func`, `function`, `fn`). */
function startsDefinition(text: string, symbol: string): boolean {
  const at = text.indexOf(symbol);
  if (at < 0) return false;
  return /\b(?:def|defp|fun|func|function|fn|sub)\s+(?:\([^)]*\)\s*)?(?:[\w$]+\.)?$/.test(text.slice(0, at)) && !/[\w$]/.test(text[at + symbol.length] ?? '');
}

/** Whether a receiver names the file: one of receiver and file name holds the other (`eventSource` and `RealEventSource.kt`). */
function namesFile(receiver: string, path: string): boolean {
  const base = basenameOf(path);
  const stem = wholeTerm(base.includes('.') ? base.slice(0, base.indexOf('.')) : base);
  const name = wholeTerm(receiver);
  if (Math.min(stem.length, name.length) < MIN_NAME) return false;
  return stem.includes(name) || name.includes(stem);
}
