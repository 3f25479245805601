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

/**
 * Definitions that only build another class: a factory named like a symbol the task names whose
 * short body constructs a class named exactly like another candidate's file (`def
 * fromFuture[A](fa: Future[A]): Reader[A] = new FutureReader(fa)`, `return FooImpl(x)`,
 * `&Client{…}`, `Parser.new(…)`). The behaviour a task about the factory is about lives in that
 * class: per candidate, the symbols its definitions hand to another (`handed`), and the symbols
 * another candidate's factory builds it for (`gained`).
 */
export function findConstructedSymbols(
  candidates: readonly Candidate[],
  defines: readonly (readonly string[])[],
  facts: ReadonlyMap<string, FileFacts>,
): { handed: Map<number, Set<string>>; gained: Map<number, Set<string>> } {
  const handed = new Map<number, Set<string>>();
  const gained = new Map<number, Set<string>>();
  const byStem = new Map<string, number[]>();
  candidates.forEach((c, j) => {
    const stem = fileStem(c.path);
    if (stem.length >= MIN_NAME) byStem.set(stem, [...(byStem.get(stem) ?? []), j]);
  });
  defines.forEach((symbols, i) => {
    for (const symbol of symbols) {
      const lines = bodyLines(candidates[i]!, symbol, facts.get(candidates[i]!.path));
      const targets = new Set<number>();
      for (const text of lines) {
        for (const match of text.matchAll(CONSTRUCTION)) {
          const built = match[1] ?? match[2] ?? match[3] ?? match[4];
          // an error raised is no class the factory hands the work to
          if (built === undefined || /(?:Error|Exception)$/.test(built)) continue;
          for (const j of byStem.get(wholeTerm(built)) ?? []) if (j !== i) targets.add(j);
        }
      }
      // one class built: a factory choosing among several hands the task to none of them
      if (targets.size !== 1) continue;
      const [j] = targets;
      handed.set(i, (handed.get(i) ?? new Set()).add(symbol));
      gained.set(j!, (gained.get(j!) ?? new Set()).add(symbol));
    }
  });
  return { handed, gained };
}

/** `new Foo(`, `Foo.new`, `&Foo{`, and a capitalized call `Foo(` (Python, Kotlin, Scala, Swift): the class built. */
const CONSTRUCTION = /\bnew\s+([A-Z][\w$]*)\s*[(<[{]|\b([A-Z][\w$]*)(?:\.|::)new\b|&([A-Z][\w$]*)\s*\{|(?<![\w$.])([A-Z][\w$]*)\s*\(/g;

/** A file's name without its extensions, as one term (`FutureReader.scala` → `futurereader`). */
function fileStem(path: string): string {
  const base = basenameOf(path);
  return wholeTerm(base.includes('.') ? base.slice(0, base.indexOf('.')) : base);
}

/** The evidence lines inside the file's short definitions of `symbol` (parsed, or read off a hit line): the definition's line and the few after it. */
function bodyLines(candidate: Candidate, symbol: string, facts: FileFacts | undefined): string[] {
  // first line → last line of each short definition of the symbol
  const bodies = new Map<number, number>();
  for (const def of facts?.defs ?? []) if (def.name === symbol && def.end - def.start <= BODY_LINES) bodies.set(def.start, def.end);
  for (const hit of candidate.hits) if (!bodies.has(hit.line) && startsDefinition(hit.text, symbol)) bodies.set(hit.line, hit.line + BODY_LINES);
  if (bodies.size === 0) return [];
  const spans = [...bodies];
  return candidate.hits.filter((hit) => spans.some(([first, last]) => hit.line >= first && hit.line <= last)).map((hit) => hit.text);
}

/** What the file's definitions of `symbol` call `symbol` on, from the candidate's evidence lines. */
function delegateReceivers(candidate: Candidate, symbol: string, facts: FileFacts | undefined): string[] {
  const call = callOn(symbol);
  const receivers: string[] = [];
  for (const text of bodyLines(candidate, symbol, facts)) {
    for (const match of text.matchAll(call)) {
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
  const stem = fileStem(path);
  const name = wholeTerm(receiver);
  if (Math.min(stem.length, name.length) < MIN_NAME) return false;
  return stem.includes(name) || name.includes(stem);
}
