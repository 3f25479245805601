/**
 * Scanners for one literal each. They take the index just past the opening delimiter and return
 * `[contentEnd, end]`: where the content stops and where code resumes. An unterminated literal
 * ends with its line (single-line kinds) or with the text, so a stray quote never hides more
 * than it must.
 */

const BACKSLASH = 92;
const NEWLINE = 10;

export type Span = [contentEnd: number, end: number];

export function scanQuoted(text: string, from: number, close: string, multiline: boolean, escapes: boolean): Span {
  const first = close.charCodeAt(0);
  const n = text.length;
  for (let i = from; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH && escapes) {
      i++;
      continue;
    }
    if (c === NEWLINE && !multiline) return [i, i];
    if (c === first && (close.length === 1 || text.startsWith(close, i))) return [i, i + close.length];
  }
  return [n, n];
}

/** Block comment that may nest (Rust, Swift). `from` is just past the first opener. */
export function scanNested(text: string, from: number, open: string, close: string): number {
  let depth = 1;
  let i = from;
  while (i < text.length) {
    if (text.startsWith(close, i)) {
      depth--;
      i += close.length;
      if (depth === 0) return i;
    } else if (text.startsWith(open, i)) {
      depth++;
      i += open.length;
    } else i++;
  }
  return text.length;
}

/** C# verbatim string: `""` is an escaped quote, newlines allowed. */
export function scanVerbatim(text: string, from: number): Span {
  for (let i = from; i < text.length; i++) {
    if (text[i] !== '"') continue;
    if (text[i + 1] === '"') i++;
    else return [i, i + 1];
  }
  return [text.length, text.length];
}

/**
 * Inside a JavaScript template literal: stops at the closing backtick or at a `${` that opens an
 * expression (`expr` true; code resumes after `${`, and the template after the matching `}`).
 */
export function scanTemplate(text: string, from: number): { contentEnd: number; end: number; expr: boolean } {
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '`') return { contentEnd: i, end: i + 1, expr: false };
    else if (c === '$' && text[i + 1] === '{') return { contentEnd: i, end: i + 2, expr: true };
  }
  return { contentEnd: text.length, end: text.length, expr: false };
}

/** A regex literal body from just past the opening `/`; undefined when the line ends first (it was a division). */
export function scanRegex(text: string, from: number): Span | undefined {
  let inClass = false;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') return undefined;
    if (c === '\\') i++;
    else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) {
      let end = i + 1;
      while (end < text.length && /[a-z]/.test(text[end]!)) end++;
      return [i, end];
    }
  }
  return undefined;
}

const REGEX_AFTER_WORD = new Set(['return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'void', 'yield', 'await', 'delete', 'throw', 'new', 'instanceof']);

/** Whether a `/` at `at` starts a regex literal rather than a division: decided by what precedes it. */
export function isRegexStart(text: string, at: number): boolean {
  let j = at - 1;
  while (j >= 0 && (text[j] === ' ' || text[j] === '\t' || text[j] === '\n' || text[j] === '\r')) j--;
  if (j < 0) return true;
  const c = text[j]!;
  // Not after `<`: in JSX, `</` closes a tag.
  if ('(,=:[!&|?{};+-*%>~^'.includes(c)) return true;
  if (!/[\w$]/.test(c)) return c === '}';
  let k = j;
  while (k > 0 && /[\w$]/.test(text[k - 1]!)) k--;
  return REGEX_AFTER_WORD.has(text.slice(k, j + 1));
}

const CHAR_LITERAL = /'(?:\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]{1,6}\}|u[0-9a-fA-F]{4}|[0-7]{1,3}|[^\n])|[^\\'\n]{1,2})'/y;

/** Length of a character literal at `at` (`'a'`, `'\n'`), or 0 when the quote is something else (a Rust lifetime). */
export function charLiteralLength(text: string, at: number): number {
  CHAR_LITERAL.lastIndex = at;
  const m = CHAR_LITERAL.exec(text);
  return m ? m[0].length : 0;
}

const HEREDOC: Record<'ruby' | 'php' | 'shell', RegExp> = {
  ruby: /<<([~-]?)(['"`]?)([A-Za-z_]\w*)\2/y,
  php: /<<<[ \t]*()(['"]?)([A-Za-z_]\w*)\2/y,
  shell: /<<(-?)[ \t]*(['"]?)([A-Za-z_]\w*)\2/y,
};

/** A heredoc opener at `at`: its terminator and the length of the opener, or undefined. */
export function heredocAt(text: string, at: number, kind: 'ruby' | 'php' | 'shell'): { terminator: string; length: number } | undefined {
  const re = HEREDOC[kind];
  re.lastIndex = at;
  const m = re.exec(text);
  return m ? { terminator: m[3]!, length: m[0].length } : undefined;
}

/**
 * Skips heredoc bodies starting at `from` (a line start): each body runs up to a line whose
 * trimmed text is (PHP: starts with) its terminator. Returns where each body's content ends and
 * where scanning resumes (the newline ending the last terminator line).
 */
export function scanHeredocs(text: string, from: number, terminators: string[], kind: 'ruby' | 'php' | 'shell'): Array<[start: number, contentEnd: number, end: number]> {
  const out: Array<[number, number, number]> = [];
  let at = from;
  for (const terminator of terminators) {
    const start = at;
    let end = text.length;
    let contentEnd = text.length;
    while (at < text.length) {
      const nl = text.indexOf('\n', at);
      const lineEnd = nl < 0 ? text.length : nl;
      const line = text.slice(at, lineEnd).trim();
      if (line === terminator || (kind === 'php' && line.startsWith(terminator) && !/\w/.test(line[terminator.length] ?? ''))) {
        contentEnd = at;
        end = lineEnd;
        at = lineEnd + 1;
        break;
      }
      at = lineEnd + 1;
    }
    out.push([start, contentEnd, end]);
    if (end >= text.length) break;
  }
  return out;
}
