import type { Tokenizer } from '../core/deps.js';
import { redactSecrets } from '../core/redact.js';
import { own } from '../core/records.js';
import { identifierTerms, wholeTerm } from '../core/text.js';
import type { Candidate, EgressPart, FileFacts, Query, SymbolDef } from '../core/types.js';
import { quotedPath } from '../core/pack-text.js';

/** Lines shown of a function's head, and of a class-like declaration with its fields. */
const FUNCTION_LINES = 8;
const TYPE_LINES = 12;
/** Definitions shown with their code; the others are only named. */
const SHOWN_DEFS = 2;
const NAMED_DEFS = 10;
const HIT_LINES = 4;
const LINE_CHARS = 140;

const TYPE_KINDS = new Set<SymbolDef['kind']>(['class', 'interface', 'struct', 'enum', 'trait', 'type', 'module']);

export interface SignatureInput {
  candidate: Candidate;
  facts: FileFacts | undefined;
  /** The file's text, when it could be read; without it only names and matched lines are shown. */
  text: string | undefined;
  plan: Query;
  tokenizer: Tokenizer;
  /** Tokens this candidate may take in the prompt. */
  budget: number;
}

interface Piece {
  text: string;
  /** Lower is kept first when the budget is short. */
  priority: number;
  order: number;
}

/** A rendered signature and what of the file it shows, for the egress manifest. */
export interface RenderedSignature {
  text: string;
  /** The file's lines in it (1-based) and its UTF-8 bytes. */
  egress: EgressPart;
}

/**
 * A candidate as the model sees it: its path, what it defines, the heads of the definitions the
 * task most likely means (functions: first lines; classes: declaration and fields) and its
 * matched lines, each with its line number. Never the whole file; within `budget` tokens.
 * Secret-looking values are masked in the whole file before any line is picked, so a key block
 * cut in the middle cannot leak its body.
 */
export function renderSignature(input: SignatureInput): string {
  return renderSignatureParts(input).text;
}

export function renderSignatureParts({ candidate, facts, text, plan, tokenizer, budget }: SignatureInput): RenderedSignature {
  const lines = text === undefined ? undefined : redactSecrets(text, { path: candidate.path }).split('\n');
  const pieces: Piece[] = [];
  const add = (line: string, priority: number, order: number): void => void pieces.push({ text: line, priority, order });
  // a name with a line break in it, quoted: raw, it could forge the header of another file
  const header = `## ${quotedPath(candidate.path)}${facts ? ` (${facts.lines} lines)` : ''}`;

  const defs = facts ? rankDefs(facts.defs, candidate, plan) : [];
  if (defs.length > 0) add(`defines: ${defs.slice(0, NAMED_DEFS).map((d) => d.name).join(', ')}${defs.length > NAMED_DEFS ? ', …' : ''}`, 1, 0);
  const shownLines = new Set<number>();
  if (lines) {
    defs.slice(0, SHOWN_DEFS).forEach((def, rank) => {
      const count = Math.min(def.end - def.start + 1, TYPE_KINDS.has(def.kind) ? TYPE_LINES : FUNCTION_LINES);
      for (let n = def.start; n < def.start + count; n++) {
        if (shownLines.has(n) || lines[n - 1] === undefined) continue;
        shownLines.add(n);
        // The first three lines of the best definition outrank everything but the header.
        const priority = rank === 0 && n < def.start + 3 ? 2 : rank === 0 ? 4 : 5;
        add(numbered(n, lines[n - 1]!), priority, n);
      }
    });
  }
  const hits = [...candidate.hits].filter((h) => !shownLines.has(h.line)).sort((a, b) => b.terms.length - a.terms.length || a.line - b.line).slice(0, HIT_LINES);
  // The file's own (redacted) line when it could be read; rg's copy of it, redacted alone, when not.
  hits.forEach((hit, rank) => add(numbered(hit.line, lines?.[hit.line - 1] ?? redactSecrets(hit.text, { path: candidate.path })), rank < 2 ? 3 : 4, hit.line));

  let used = tokenizer.count(header);
  const kept = new Set<Piece>();
  for (const piece of [...pieces].sort((a, b) => a.priority - b.priority || a.order - b.order)) {
    const cost = tokenizer.count(piece.text) + 1;
    if (used + cost > budget) continue;
    used += cost;
    kept.add(piece);
  }
  const named = pieces.filter((p) => p.order === 0 && kept.has(p));
  const code = pieces.filter((p) => p.order > 0 && kept.has(p)).sort((a, b) => a.order - b.order);
  const rendered = [header, ...named.map((p) => p.text), ...withGaps(code)].join('\n');
  return { text: rendered, egress: { path: candidate.path, lines: code.map((p) => p.order), bytes: Buffer.byteLength(rendered) } };
}

/** Definitions best first: named by the task, then holding the most matched lines; top-level before members. */
function rankDefs(defs: SymbolDef[], candidate: Candidate, plan: Query): SymbolDef[] {
  const symbols = new Set(plan.symbols);
  const score = (def: SymbolDef): number => {
    const named = symbols.has(def.name) ? 4 : (own(plan.weights, wholeTerm(def.name)) ?? 0) * 2 + identifierTerms(def.name).filter((t) => own(plan.weights, t) !== undefined).length * 0.5;
    const hits = candidate.hits.filter((h) => h.line >= def.start && h.line <= def.end).length;
    return named + Math.min(hits, 5) * 0.3 + (def.parent ? 0 : 0.1);
  };
  return defs
    .filter((d) => d.kind !== 'variable' || symbols.has(d.name))
    .map((def) => ({ def, s: score(def) }))
    .sort((a, b) => b.s - a.s || a.def.start - b.def.start)
    .map(({ def }) => def);
}

/** Lines come in redacted; redacting again here is the belt to those braces (it is idempotent). */
function numbered(line: number, text: string): string {
  const clean = redactSecrets(text.trimEnd());
  return `${line}| ${clean.length > LINE_CHARS ? `${clean.slice(0, LINE_CHARS - 1)}…` : clean}`;
}

/** Code lines in order, with `…` where lines were skipped, so the model never reads two places as one. */
function withGaps(code: Piece[]): string[] {
  const out: string[] = [];
  let last = 0;
  for (const piece of code) {
    if (last > 0 && piece.order > last + 1) out.push('…');
    out.push(piece.text);
    last = piece.order;
  }
  return out;
}
