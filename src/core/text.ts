/**
 * Code-aware tokenization shared by plan, dispatch and evaluation, so a task and a file line
 * are cut into the same terms: `verifyEmail`, `verify_email` and `VERIFY_EMAIL` all give the
 * whole term `verifyemail` and the parts `verify`, `email`; parts are lightly stemmed
 * (`parsing`, `parsed`, `parse` → `pars`).
 */

/** Work on at most this much of a task: a megabyte of log says nothing the first 60 kB don't. */
export const MAX_TASK_CHARS = 60_000;

/**
 * What a text pasted from a terminal carries besides its text: ANSI escape sequences (colours,
 * cursor moves, a window title: CSI, OSC and two-character escapes) and other control characters.
 */
const TERMINAL_CODES = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

/**
 * A task or error text as the user meant it: escape sequences removed (a test runner's coloured
 * trace reads `verifyEmail (src/auth/verify.ts:3:20)` again), other control characters (NULs of a
 * binary file) made spaces. Tabs, line breaks and carriage returns stay.
 */
export function cleanInput(text: string): string {
  return text.replace(TERMINAL_CODES, (code) => (code.length > 1 ? '' : ' '));
}

/**
 * Letters of any script: `verifyEmail`, `проверить_почту`, `メール送信` are identifiers alike
 * (a task and a file in Cyrillic or Japanese are cut the same way as ASCII ones).
 */
const IDENTIFIER = /[\p{L}_$][\p{L}\p{M}\p{N}_$]*/gu;
/** `IDENTIFIER` on ASCII text. */
const ASCII_IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$]*/g;

/** Splits an identifier into lowercase parts: `parseHTTPRequest_v2` → parse, http, request, v2. */
export function splitIdentifier(identifier: string): string[] {
  const parts: string[] = [];
  for (const chunk of identifier.split(/[_$]+/)) {
    if (!chunk) continue;
    // Caseless scripts (CJK, Arabic) stay whole chunks. ASCII, nearly every identifier a scan
    // prints, is cut by the same pattern without Unicode classes: a few times faster.
    const pieces = (ASCII.test(chunk) ? chunk.match(ASCII_PIECE) : chunk.match(PIECE)) ?? [];
    for (const piece of pieces) parts.push(piece.toLowerCase());
  }
  return parts;
}

/** The parts of a chunk: a run of capitals (an acronym), a capitalised or lowercase word, digits. */
const PIECE = /\p{Lu}+\p{N}*(?![\p{Ll}])|\p{Lu}?[\p{Ll}\p{Lo}\p{Lm}\p{M}]+\p{N}*|\p{N}+/gu;
/** `PIECE` on ASCII text: no ASCII character is a letter of the other kinds or a mark. */
const ASCII_PIECE = /[A-Z]+[0-9]*(?![a-z])|[A-Z]?[a-z]+[0-9]*|[0-9]+/g;
const ASCII = /^[\x00-\x7f]*$/;

/**
 * Light stemming (-ies, -es, -s, -ing, -ed, final -e); applied to both sides, so collisions are
 * harmless. -ing and -ed go only where a vowel (or y) stays, as in Porter's stemmer: `string` is
 * no `str`, whose search prefix had rg print every `struct`, `stream` and `strict` to no end.
 */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) w = w.slice(0, -3) + 'y';
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (/(?:[sxz]|ch|sh)es$/.test(w) && w.length > 4) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith('ing') && w.length > 5 && /[aeiouy]/.test(w.slice(0, -3))) {
    w = w.slice(0, -3);
    if (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(?:ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
  } else if (w.endsWith('ed') && w.length > 4 && /[aeiouy]/.test(w.slice(0, -2))) {
    w = w.slice(0, -2);
    if (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(?:ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
  }
  if (w.endsWith('e') && w.length > 3) w = w.slice(0, -1);
  return w;
}

/** The whole-identifier term: lowercase, separators removed (`verify_email` → `verifyemail`). */
export function wholeTerm(identifier: string): string {
  return identifier.replace(/[_$]+/g, '').toLowerCase();
}

const DIGITS = /^\p{N}+$/u;

/** An identifier's parts as terms: those of two characters or more and not all digits, stemmed. */
function partTerms(identifier: string): string[] {
  return splitIdentifier(identifier)
    .filter((p) => p.length >= 2 && !DIGITS.test(p))
    .map(stem);
}

/** Terms of one identifier: its whole form (when it has several parts) and its stemmed parts. */
export function identifierTerms(identifier: string): string[] {
  const terms = partTerms(identifier);
  if (terms.length > 1) terms.unshift(wholeTerm(identifier));
  return terms;
}

/** Every term in a text, in order, with repeats: what a line or a document contributes. */
export function tokenize(text: string): string[] {
  return cutTerms(text, false);
}

/**
 * A pair term: two task words side by side (`read respons` of "read response"), found where they
 * are two adjacent parts of one identifier (`readResponseHeaders`, `read_response`).
 */
export function isPairTerm(term: string): boolean {
  return term.includes(' ');
}

/**
 * `tokenize`'s terms, then the pair terms: each two adjacent parts of an identifier
 * (`readResponseHeaders` → …, `read respons`, `respons header`), each identifier cut once.
 */
export function termsWithPairs(text: string): string[] {
  return cutTerms(text, true);
}

/** Each identifier's terms as `identifierTerms` gives them, in order; with `withPairs`, its pair terms after them all. */
function cutTerms(text: string, withPairs: boolean): string[] {
  const out: string[] = [];
  const pairs: string[] = [];
  for (const match of text.matchAll(ASCII.test(text) ? ASCII_IDENTIFIER : IDENTIFIER)) {
    const parts = partTerms(match[0]);
    if (parts.length > 1) out.push(wholeTerm(match[0]));
    for (let i = 0; i < parts.length; i++) {
      out.push(parts[i]!);
      if (withPairs && i > 0) pairs.push(`${parts[i - 1]} ${parts[i]}`);
    }
  }
  for (const pair of pairs) out.push(pair);
  return out;
}

/** Identifiers in a text, as written, in order of first appearance. */
export function identifiersOf(text: string): string[] {
  const seen = new Set<string>();
  for (const match of text.matchAll(IDENTIFIER)) seen.add(match[0]);
  return [...seen];
}

/**
 * The fixed string ripgrep searches for a term: a substring of every surface form the term
 * stands for (a stem of four letters or more that ends in y stands for -ies too, so the y is
 * dropped: `cop` for `copy`, `copies`; `fly` keeps it, as `fl` would print nearly everything);
 * a pair term's first word's.
 */
export function searchPrefix(term: string): string {
  // a pair term by its first word: rg prints every identifier holding it, and the pair is told there
  const head = isPairTerm(term) ? term.slice(0, term.indexOf(' ')) : term;
  return head.length > 3 && head.endsWith('y') ? head.slice(0, -1) : head;
}

/** True when the identifier looks like code rather than a prose word. */
export function isCodeLike(identifier: string): boolean {
  return (
    /[a-z][A-Z]/.test(identifier) || // camelCase
    /^[A-Z][a-z0-9]+[A-Z]/.test(identifier) || // PascalCase with 2+ humps
    /[\p{L}\p{N}]_[\p{L}\p{N}]/u.test(identifier) || // snake_case, in any script
    /^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/.test(identifier) || // CONSTANT_CASE
    /^[A-Z][A-Z0-9]{6,}$/.test(identifier) || // ECONNREFUSED (short ones like URL, JSON are prose)
    /[0-9]/.test(identifier.slice(1)) ||
    identifier.startsWith('$') ||
    identifier.startsWith('__')
  );
}

/** Prose words that carry no signal in a task. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing done down during each either else even ever every few for from further get gets got had has have having he her here ' +
    'hers him his how i if in into is it its itself just let like may me might more most much must my no nor not now of off on once only or other ' +
    'our out over own same she should so some such than that the their them then there these they this those through to too under until up upon ' +
    'us very was we were what when where which while who whom why will with would yet you your ' +
    'want wants need needs needed seem seems seemed use used using instead actually currently already still think thing things way ' +
    'please thanks thank hi hello issue bug problem expected expect actual behavior behaviour describe description version versions ' +
    'following follow example examples e g eg ie etc work works working happen happens happened try tried see shown show shows ' +
    'one two three new make makes made one able unable case cases possible correct correctly wrong really something anything nothing ' +
    'however though although since without within across per via whether fix fixes fixed fixing ' +
    // what an apostrophe leaves of a negation (`don't` → `don`, `t`); not `won`, a word of its own
    'don doesn didn isn aren wasn weren wouldn shouldn couldn hasn haven hadn ain mustn needn'
  ).split(/\s+/),
);

/** Language keywords: never symbols to look for, whatever the task's backticks say. */
export const KEYWORDS: ReadonlySet<string> = new Set(
  (
    'new return function class def const let var import from export default this self super true false null undefined None True False ' +
    'async await if else elif for while do switch case break continue try catch finally throw raise with yield lambda fn func pub impl ' +
    'struct enum trait type interface public private protected static void int string bool boolean float double char long package use mod'
  ).split(/\s+/),
);
