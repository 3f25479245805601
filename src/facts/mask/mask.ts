import { charLiteralLength, heredocAt, isRegexStart, scanHeredocs, scanNested, scanQuoted, scanRegex, scanTemplate, scanVerbatim, type Span } from './literals.js';
import type { Syntax } from './syntax.js';

export interface MaskResult {
  /** The text with comments and string contents replaced by spaces: same length, same line breaks. */
  text: string;
  /** `[from, to)` pairs: a line starting inside one began within a literal or a comment. */
  inside: number[];
}

const IDENT = /[\w$]/;
const RUST_RAW = /b?r(#*)"/y;
const CPP_RAW = /R"([^()\\\s"]{0,16})\(/y;
const LUA_LONG = /\[(=*)\[/y;

/**
 * Blanks comments and literal contents so that brackets, keywords and definitions can be read by
 * plain patterns. Delimiters of strings stay (so `x = "" if y` still shows a string was there).
 * One pass, no backtracking: linear in the text.
 */
export function maskText(text: string, syntax: Syntax): MaskResult {
  const n = text.length;
  const blank: number[] = [];
  const inside: number[] = [];
  const templates: number[] = [];
  let heredocs: string[] = [];

  const literal = (contentStart: number, [contentEnd, end]: Span): number => {
    if (contentEnd > contentStart) blank.push(contentStart, contentEnd);
    inside.push(contentStart, end);
    return end;
  };
  const comment = (start: number, end: number): number => {
    blank.push(start, end);
    inside.push(start + 1, end);
    return end;
  };
  const sticky = (re: RegExp, at: number): RegExpExecArray | null => {
    re.lastIndex = at;
    return re.exec(text);
  };

  const tryComment = (i: number, c: string): number => {
    if (syntax.rubyDoc && c === '=' && (i === 0 || text[i - 1] === '\n') && text.startsWith('=begin', i)) {
      const close = text.indexOf('\n=end', i);
      const nl = close < 0 ? -1 : text.indexOf('\n', close + 1);
      return comment(i, close < 0 || nl < 0 ? n : nl);
    }
    if (syntax.luaLong && c === '-' && text.startsWith('--[', i)) {
      const m = sticky(LUA_LONG, i + 2);
      if (m) {
        const close = text.indexOf(`]${m[1]}]`, i + 2 + m[0].length);
        return comment(i, close < 0 ? n : close + m[0].length);
      }
    }
    for (const [open, close] of syntax.blockComments) {
      if (!text.startsWith(open, i)) continue;
      if (syntax.nested) return comment(i, scanNested(text, i + open.length, open, close));
      const end = text.indexOf(close, i + open.length);
      return comment(i, end < 0 ? n : end + close.length);
    }
    for (const start of syntax.lineComments) {
      if (!text.startsWith(start, i)) continue;
      if (start === '#' && syntax.hashAttributes && text[i + 1] === '[') return -1;
      if (start === '#' && syntax.hashAfterSpace && i > 0 && !/[\s;(]/.test(text[i - 1]!)) return -1;
      const nl = text.indexOf('\n', i);
      const end = nl < 0 ? n : nl;
      blank.push(i, end);
      return end;
    }
    return -1;
  };

  const resumeTemplate = (from: number): number => {
    const t = scanTemplate(text, from);
    if (t.expr) templates.push(0);
    return literal(from, [t.contentEnd, t.end]);
  };

  const tryLiteral = (i: number, c: string): number => {
    if (syntax.triple?.includes(c) && text.startsWith(c + c + c, i)) return literal(i + 3, scanQuoted(text, i + 3, c + c + c, true, true));
    if (syntax.rawQuotes?.includes(c)) return literal(i + 1, scanQuoted(text, i + 1, c, true, false));
    if (syntax.quotes.includes(c)) {
      if (c === "'" && syntax.charQuote) {
        const length = charLiteralLength(text, i);
        return length ? literal(i + 1, [i + length - 1, i + length]) : -1;
      }
      return literal(i + 1, scanQuoted(text, i + 1, c, syntax.multiline === true, true));
    }
    if (c === '`' && syntax.template) return resumeTemplate(i + 1);
    if (c === '`' && syntax.backtickRaw) return literal(i + 1, scanQuoted(text, i + 1, '`', true, false));
    if (templates.length > 0 && (c === '{' || c === '}')) {
      const top = templates.length - 1;
      if (c === '{') templates[top]!++;
      else if (templates[top] === 0) {
        templates.pop();
        return resumeTemplate(i + 1);
      } else templates[top]!--;
      return -1;
    }
    if (c === '/' && syntax.regex && isRegexStart(text, i)) {
      const span = scanRegex(text, i + 1);
      if (span) return literal(i + 1, span);
    }
    if (syntax.rustRaw && (c === 'r' || c === 'b') && !IDENT.test(text[i - 1] ?? '')) {
      const m = sticky(RUST_RAW, i);
      if (m) return literal(i + m[0].length, scanQuoted(text, i + m[0].length, `"${m[1]}`, true, false));
    }
    if (syntax.cppRaw && c === 'R' && text[i + 1] === '"') {
      const m = sticky(CPP_RAW, i);
      if (m) {
        // The delimiters `x(` and `)x` are blanked too: their brackets must not reach the matcher.
        const [contentEnd, end] = scanQuoted(text, i + m[0].length, `)${m[1]}"`, true, false);
        return literal(i + 2, contentEnd < end ? [end - 1, end] : [contentEnd, end]);
      }
    }
    if (syntax.verbatim && c === '@') {
      if (text[i + 1] === '"') return literal(i + 2, scanVerbatim(text, i + 2));
      if (text[i + 1] === '$' && text[i + 2] === '"') return literal(i + 3, scanVerbatim(text, i + 3));
    }
    if (syntax.luaLong && c === '[') {
      const m = sticky(LUA_LONG, i);
      if (m) return literal(i + m[0].length, scanQuoted(text, i + m[0].length, `]${m[1]}]`, true, false));
    }
    if (syntax.heredoc && c === '<' && text[i + 1] === '<') {
      const h = heredocAt(text, i, syntax.heredoc);
      if (h) {
        heredocs.push(h.terminator);
        return i + h.length;
      }
    }
    return -1;
  };

  let i = 0;
  while (i < n) {
    const c = text[i]!;
    if (c === '\n') {
      if (heredocs.length > 0 && syntax.heredoc) {
        const bodies = scanHeredocs(text, i + 1, heredocs, syntax.heredoc);
        heredocs = [];
        for (const [start, , end] of bodies) comment(start - 1, end);
        const last = bodies[bodies.length - 1];
        i = last ? Math.max(last[2], i + 1) : i + 1;
        continue;
      }
      i++;
      continue;
    }
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    let next = tryComment(i, c);
    if (next < 0) next = tryLiteral(i, c);
    i = next > i ? next : i + 1;
  }
  return { text: applyBlanks(text, blank), inside };
}

function applyBlanks(text: string, blank: number[]): string {
  if (blank.length === 0) return text;
  const parts: string[] = [];
  let last = 0;
  for (let k = 0; k < blank.length; k += 2) {
    const from = Math.max(blank[k]!, last);
    const to = blank[k + 1]!;
    if (to <= from) continue;
    parts.push(text.slice(last, from), text.slice(from, to).replace(/[^\n]/g, ' '));
    last = to;
  }
  parts.push(text.slice(last));
  return parts.join('');
}
