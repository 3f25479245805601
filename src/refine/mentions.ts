/**
 * What a task names explicitly: file paths, stack-trace frames, dotted module paths, quoted
 * strings and error messages. These outweigh prose words.
 */

import { framesNearestFirst, parseStackTrace } from '../core/frames.js';
import { messageLiteral } from '../core/literals.js';
import { createRangeTest } from './fences.js';
import { codeHostPath, urlRanges } from './urls.js';

/** Functions taken from frames at most: the innermost say where; the outermost are every run's (`main`, `invoke`). */
const MAX_FRAME_SYMBOLS = 12;

const CODE_EXTENSIONS =
  'py|pyi|ts|tsx|mts|cts|js|jsx|mjs|cjs|go|rs|java|kt|kts|scala|c|h|cc|cpp|cxx|hpp|hh|cs|rb|php|swift|m|mm|lua|sh|pl|pm|ex|exs|erl|hs|ml|dart|r|jl|zig|vue|svelte|sql|proto|json|ya?ml|toml|md|rst|txt|cfg|ini|xml|html|css|scss';

/** `src/a/b.py`, `./lib/x.js`, `C:\x\y.ts`, `b.py` — a path with a known extension. */
const FILE_PATH = new RegExp(`(?:[A-Za-z]:)?[\\p{L}\\p{M}\\p{N}_@.\\-\\\\/]*[\\p{L}\\p{M}\\p{N}_\\-]\\.(?:${CODE_EXTENSIONS})(?![\\p{L}\\p{N}_])`, 'gu');

/** A path a code host's link names that is a file of a known kind. */
const HOSTED_FILE = new RegExp(`\\.(?:${CODE_EXTENSIONS})$`, 'i');

/** Go/Rust/C: path/file.go:123 or src/x.rs:12:5 */
const LINE_REF = new RegExp(`([\\p{L}\\p{M}\\p{N}_@.\\-/]+\\.(?:${CODE_EXTENSIONS})):(\\d+)`, 'gu');
/** Dotted module paths: sqlfluff.core.parser, astroid.nodes.Const */
const DOTTED = /\b([a-z_][a-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*){2,})\b/g;
/**
 * Exception and error lines: `ValueError: something went wrong`, `error[E0308]: mismatched types`,
 * `fatal: not a git repository`, a program's own prefix (`jq: error (at <stdin>:0): Cannot
 * iterate over null`, `git: fatal: …`).
 */
const ERROR_LINE = /^\s*(?:[\w.-]+:\s+)?(?:[\w.]*(?:Error|Exception|Warning|panic)|error(?:\[\w+\])?|fatal|thread '.*' panicked at)(?:\s*\([^)\n]{0,80}\))?:\s*(.+)$/gim;
/** Tagged error lines: `[bat error]: The output file is also an input!`, `[ERROR] connection refused` */
const TAGGED_ERROR_LINE = /^\s*\[[^\]\n]{0,40}\b(?:error|fatal|panic)\]:?\s*(.+)$/gim;
/** Quoted strings: "…", '…', “…” */
const QUOTED = /"([^"\n]{4,160})"|(?<![A-Za-z])'([^'\n]{4,160})'(?![A-Za-z])|“([^”\n]{4,160})”/g;
/** Product names written like files (Node.js, Vue.js): not paths. */
const PRODUCT_NAMES = /^(?:node|vue|next|nuxt|express|react|angular|ember|backbone|three|d3|chart|moment|socket|p5|deno|bun|nest|solid|svelte)\.js$/i;
/** First segments of dotted chains that are objects, not modules (`this.config.headers`). */
const OBJECT_HEADS = new Set(['this', 'self', 'cls', 'super', 'window', 'document', 'console', 'process', 'module', 'exports', 'obj', 'req', 'res', 'ctx', 'options', 'opts', 'props', 'state', 'event', 'err', 'error', 'args', 'kwargs', 'config', 'settings', 'response', 'request', 'result', 'data', 'value', 'e', 'x']);

export interface Mentions {
  /** Path mentions, normalized (POSIX, no leading ./ or absolute prefix beyond what suffix matching needs). */
  paths: string[];
  /** Function or method names taken from stack frames. */
  frameSymbols: string[];
  /** Literal strings worth searching verbatim. */
  literals: string[];
}

export function findMentions(text: string): Mentions {
  const paths = new Set<string>();
  const frameSymbols = new Set<string>();
  const literals = new Set<string>();

  // Frames nearest the error first: the path list is cut, and the first frames say the most.
  for (const frame of framesNearestFirst(parseStackTrace(text))) {
    if (frame.runtime) continue;
    if (frame.file) addPath(paths, frame.file);
    if (frame.symbol && frame.symbol !== 'main' && frameSymbols.size < MAX_FRAME_SYMBOLS) frameSymbols.add(frame.symbol);
  }
  // a code host's link to a file names it by the path after the ref, not by the host's page
  const hosted: Array<[number, number]> = [];
  for (const [start, end] of urlRanges(text)) {
    const path = codeHostPath(text.slice(start, end));
    if (path === undefined) continue;
    hosted.push([start, end]);
    // a directory's link (`/tree/main/docs`) names no file
    if (HOSTED_FILE.test(path)) addPath(paths, path);
  }
  const inHosted = createRangeTest(hosted);
  for (const m of text.matchAll(LINE_REF)) if (!inHosted(m.index)) addPath(paths, m[1]!);
  for (const m of text.matchAll(FILE_PATH)) if (!inHosted(m.index)) addPath(paths, m[0]);
  for (const m of text.matchAll(DOTTED)) {
    const dotted = m[1]!;
    if (/^(?:e\.g|i\.e|www|http|v\d)/.test(dotted)) continue;
    const segments = dotted.split('.');
    if (OBJECT_HEADS.has(segments[0]!)) continue;
    // Module paths are lowercase; a trailing CamelCase segment is a class in that module.
    const modules = segments.filter((s, i) => i === 0 || /^[a-z_][a-z0-9_]*$/.test(s));
    if (modules.length >= 2) addPath(paths, modules.join('/'));
  }

  for (const m of text.matchAll(ERROR_LINE)) addLiteral(literals, m[1]!);
  for (const m of text.matchAll(TAGGED_ERROR_LINE)) addLiteral(literals, m[1]!);
  for (const m of text.matchAll(QUOTED)) addLiteral(literals, (m[1] ?? m[2] ?? m[3])!);

  return { paths: [...paths], frameSymbols: [...frameSymbols], literals: [...literals] };
}

function addPath(paths: Set<string>, raw: string): void {
  let p = raw.replace(/^file:\/\//, '').replace(/\\/g, '/').replace(/^[A-Za-z]:/, '');
  // Frames from another machine: keep what follows the usual install roots.
  p = p.replace(/^.*\/(?:site-packages|dist-packages|node_modules)\//, '');
  p = p.replace(/^\/+/, '').replace(/^(?:\.\.?\/)+/, '');
  if (p.length < 3 || /^(?:https?:|www\.)/.test(raw) || PRODUCT_NAMES.test(p)) return;
  if (/\.(?:com|org|io|net)\b/.test(p) && !p.includes('/')) return;
  paths.add(p);
}

/** A literal is worth a verbatim search when it looks like a message, not a word (see messageLiteral). */
function addLiteral(literals: Set<string>, raw: string): void {
  const literal = messageLiteral(raw);
  if (literal) literals.add(literal);
}
