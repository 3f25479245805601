/**
 * Stack traces and error messages in free text: Python tracebacks (and pytest), Node/V8 and
 * Firefox/Safari stacks, Java/Kotlin with `Caused by`, Go panics, Rust panics and backtraces,
 * C/C++ sanitizer reports, gdb and valgrind backtraces, glibc assertions, and bare
 * `file:line` locations. Pure: which repository file a frame names is frame-paths.ts's question.
 */
import { isOpenGdbFrame, readFrameLine, GO_FUNCTION, GO_LOCATION, HEADERS, LOCATION_REF, RUST_AT, RUST_FRAME, type RawFrame } from './frame-lines.js';
import { isRuntimeFrame, simpleSymbolOf } from './frame-names.js';
import { normalizeFramePath } from './frame-paths.js';
import type { ErrorReport, FrameFormat, ParsedTrace, StackFrame } from './types.js';

/** A megabyte of log says nothing its first lines don't. */
const MAX_LINES = 20_000;
/** A longer line is shortened before it is read (see `shortenLine`). */
const MAX_LINE_CHARS = 1_000;
/** Template argument lists collapsed at most this deep. */
const MAX_TEMPLATE_DEPTH = 16;
/** Lines a wrapped gdb frame may take. */
const MAX_GDB_LINES = 6;

type Family = 'python' | 'jvm' | 'js' | 'go' | 'rust' | 'native' | 'valgrind' | 'assert' | 'location';

const FAMILY: Record<FrameFormat, Family> = {
  python: 'python', pytest: 'python', jvm: 'jvm', v8: 'js', firefox: 'js', go: 'go', rust: 'rust',
  sanitizer: 'native', gdb: 'native', valgrind: 'valgrind', assert: 'assert', location: 'location',
};

interface OpenTrace {
  family: Family | undefined;
  /** `cause`: a JVM `Caused by` (nearer the origin than the trace before); `context`: a later, secondary block. */
  kind: 'main' | 'cause' | 'context';
  frames: RawFrame[];
  error?: Omit<ErrorReport, 'trace'>;
  backtrace?: boolean;
}

/** Finds every stack trace and error message in `text`. Never throws; text without traces gives empty lists. */
export function parseStackTrace(text: string): ParsedTrace {
  const scanner = new Scanner();
  const lines = headAndTail(text.replace(/\r\n?/g, '\n').split('\n'), MAX_LINES);
  for (let i = 0; i < lines.length; i++) {
    let line = shortenLine(lines[i]!.trimEnd());
    // A gdb frame whose argument list wraps: joined before it is read.
    for (let extra = 0; isOpenGdbFrame(line) && extra < MAX_GDB_LINES && i + 1 < lines.length; extra++) line += ' ' + lines[++i]!.trim();
    scanner.read(line);
  }
  return scanner.finish();
}

/**
 * A line of at most `MAX_LINE_CHARS`, keeping what a frame needs. A C++ frame naming template
 * instances runs past a thousand characters with its file and line at the end (it used to be
 * skipped, and a later frame was blamed): its template argument lists are collapsed, innermost
 * first (`std::map<std::string, int>::at` → `std::map<>::at`). What is still too long (minified
 * code, a megabyte of one line) keeps its head and, where the location is, its tail.
 */
function shortenLine(line: string): string {
  if (line.length <= MAX_LINE_CHARS) return line;
  const head = MAX_LINE_CHARS / 4;
  let short = line.length > 16 * MAX_LINE_CHARS ? `${line.slice(0, 8 * MAX_LINE_CHARS)} … ${line.slice(-8 * MAX_LINE_CHARS)}` : line;
  for (let depth = 0; short.length > MAX_LINE_CHARS && depth < MAX_TEMPLATE_DEPTH; depth++) {
    const collapsed = short.replace(/<(?:[^<>\n]|<>)+>/g, '<>');
    if (collapsed === short) break;
    short = collapsed;
  }
  return short.length <= MAX_LINE_CHARS ? short : `${short.slice(0, head)} … ${short.slice(-(MAX_LINE_CHARS - head - 3))}`;
}

/**
 * At most `max` lines: the first and the last halves. The frame nearest the error and the error
 * line are at the top of some traces (JVM, V8, Go) and at the bottom of others (Python: a
 * 12,000-frame recursion used to lose both).
 */
function headAndTail(lines: string[], max: number): string[] {
  return lines.length <= max ? lines : [...lines.slice(0, max / 2), ...lines.slice(lines.length - max / 2)];
}

/** Frames by how near they are to the error: the primary trace first, then the others, each innermost first (runtime frames after code at the same depth). */
export function framesNearestFirst(parsed: ParsedTrace): StackFrame[] {
  const rank = (f: StackFrame): number => (f.trace === parsed.primary ? -1 : f.trace);
  return [...parsed.frames].sort((a, b) => rank(a) - rank(b) || a.depth - b.depth || Number(a.runtime) - Number(b.runtime));
}

class Scanner {
  private readonly traces: OpenTrace[] = [];
  private current: OpenTrace | undefined;
  private previous = '';
  private chained = false;
  private rustMessageDue: OpenTrace | undefined;

  read(line: string): void {
    const previous = this.previous;
    this.previous = line;
    if (this.rustMessageDue) {
      const due = this.rustMessageDue;
      this.rustMessageDue = undefined;
      if (due.error && line.trim() && !/^\s*(?:note:|stack backtrace:)/.test(line)) {
        due.error.message = line.trim();
        return;
      }
    }
    if (this.readHeader(line)) return;
    // Inside a Rust backtrace first: its `at path:line` lines read like V8 frames.
    if (this.current?.backtrace && this.readRustLine(this.current, line)) return;
    // A Go location before the other formats: a module path's `@v1.2.0` reads like a Firefox frame.
    const go = GO_LOCATION.exec(line);
    const fn = go && GO_FUNCTION.exec(previous);
    if (go && fn) return this.addFrame({ format: 'go', file: go[1]!, line: Number(go[2]), name: fn[1]!.trim() });
    const frame = readFrameLine(line);
    if (frame) return this.addFrame(frame);
    this.readLocations(line);
  }

  /** `  3: app::parse::parse_line` and the `at ./src/parse.rs:12:9` below it. */
  private readRustLine(trace: OpenTrace, line: string): boolean {
    const rust = RUST_FRAME.exec(line);
    if (rust) {
      trace.frames.push({ format: 'rust', name: rust[2]! });
      return true;
    }
    const at = RUST_AT.exec(line);
    const last = trace.frames[trace.frames.length - 1];
    if (!at || !last || last.file !== undefined) return false;
    last.file = at[1]!;
    last.line = Number(at[2]);
    if (at[3]) last.column = Number(at[3]);
    return true;
  }

  /** Lines that open a trace or state its error. True when the line was one. */
  private readHeader(line: string): boolean {
    let m: RegExpExecArray | null;
    if (HEADERS.pythonTraceback.test(line)) {
      this.open('python', this.chained ? 'context' : 'main');
      this.chained = false;
    } else if (HEADERS.pythonChain.test(line)) {
      this.chained = true;
    } else if (HEADERS.goroutine.test(line)) {
      if (!(this.current?.family === 'go' && this.current.frames.length === 0)) this.open('go', this.traces.some((t) => t.family === 'go') ? 'context' : 'main');
    } else if ((m = HEADERS.rustPanic.exec(line))) {
      const trace = this.open('rust', 'main', { type: 'panic', message: m[1] ?? '' });
      trace.frames.push({ format: 'rust', file: m[2]!, line: Number(m[3]), column: Number(m[4]) });
      if (m[1] === undefined) this.rustMessageDue = trace;
    } else if (HEADERS.rustBacktrace.test(line)) {
      if (this.current?.family !== 'rust' || this.current.backtrace) this.open('rust', 'main');
      this.current!.backtrace = true;
    } else if ((m = HEADERS.sanitizer.exec(line))) {
      this.open('native', 'main', { type: m[3]!, message: `${m[1]}: ${m[2]}${m[3]}${m[4] ?? ''}`.trim() });
    } else if ((m = HEADERS.sanitizerLeak.exec(line))) {
      this.open('native', 'main', { type: 'memory leak', message: `${m[1]} of ${m[2]}` });
    } else if (HEADERS.sanitizerSummary.test(line)) {
      // Said already: nothing to read.
    } else if (HEADERS.sanitizerSection.test(line)) {
      this.open('native', 'context');
    } else if ((m = HEADERS.ubsan.exec(line))) {
      this.open('native', 'main', { type: 'runtime error', message: m[4]!.trim() }).frames.push({ format: 'sanitizer', file: m[1]!, line: Number(m[2]), column: Number(m[3]) });
    } else if ((m = HEADERS.assertion.exec(line))) {
      this.open('assert', 'main', { type: 'assertion', message: m[4]! }).frames.push({ format: 'assert', file: m[1]!, line: Number(m[2]), name: m[3]! });
    } else if ((m = HEADERS.gdbSignal.exec(line))) {
      this.open('native', 'main', { type: m[1]!, message: m[2]! });
    } else if ((m = HEADERS.valgrindError.exec(line))) {
      this.open('valgrind', 'main', { message: m[1]!.trim() });
    } else if (HEADERS.valgrindSection.test(line)) {
      this.open('valgrind', 'context');
    } else if ((m = HEADERS.error.exec(line))) {
      return this.readError(m[1]?.trim(), m[2]!, m[3] ?? '');
    } else {
      return false;
    }
    return true;
  }

  /** An error line closes a Python traceback (it is printed last) and opens every other kind of trace. */
  private readError(prefix: string | undefined, type: string, message: string): boolean {
    // `Error:` alone heads a section of an issue ("Error:", then a log), not an error.
    if (!message.trim() && /^(?:Error|panic|fatal error)$/.test(type)) return false;
    const error = { type, message: message.trim() };
    const current = this.current;
    if (current?.family === 'python' && current.frames.length > 0 && !current.error) {
      current.error = error;
      this.current = undefined;
      return true;
    }
    const family: Family | undefined = type === 'panic' || type === 'fatal error' ? 'go' : prefix?.startsWith('Caused by') ? 'jvm' : undefined;
    this.open(family, prefix?.startsWith('Caused by') ? 'cause' : prefix?.startsWith('Suppressed') ? 'context' : 'main', error);
    return true;
  }

  private addFrame(frame: RawFrame & { index?: number; valgrind?: 'at' | 'by' }): void {
    const family = FAMILY[frame.format];
    const current = this.current;
    const fresh = current !== undefined && current.frames.length === 0 && (current.family === undefined || current.family === family);
    let target = current;
    if (family === 'native' && frame.index === 0) target = fresh ? current : undefined;
    else if (frame.valgrind === 'at') target = fresh ? current : undefined;
    else if (!current || (current.family !== undefined && current.family !== family) || (family === 'python' && current.error)) target = undefined;
    target ??= this.open(family, 'main');
    target.family ??= family;
    const { index: _index, valgrind: _valgrind, ...raw } = frame;
    target.frames.push(raw);
  }

  /** Bare `file:line` mentions: part of a trace just opened (a compiler error's `-->` line), else one trace each. */
  private readLocations(line: string): void {
    for (const m of line.matchAll(LOCATION_REF)) {
      const frame: RawFrame = { format: 'location', file: m[1]!, line: Number(m[2]), ...(m[3] ? { column: Number(m[3]) } : {}) };
      const current = this.current;
      if (current && current.frames.length === 0 && current.family === undefined) {
        current.family = 'location';
        current.frames.push(frame);
      } else {
        // A location of its own; the trace being read stays open (gdb prints one between a signal and `bt`).
        this.open('location', 'main').frames.push(frame);
        this.current = current;
      }
    }
  }

  private open(family: Family | undefined, kind: OpenTrace['kind'], error?: Omit<ErrorReport, 'trace'>): OpenTrace {
    const trace: OpenTrace = { family, kind, frames: [], ...(error ? { error } : {}) };
    this.traces.push(trace);
    this.current = trace;
    return trace;
  }

  finish(): ParsedTrace {
    const frames: StackFrame[] = [];
    const errors: ErrorReport[] = [];
    const kept = this.traces.filter((t) => t.frames.length > 0);
    const useful: number[] = [];
    kept.forEach((trace, index) => {
      const built = trace.frames.map((raw) => buildFrame(raw, index));
      // Python prints the outermost frame first; everyone else the innermost.
      const innerFirst = trace.family === 'python' ? [...built].reverse() : built;
      let depth = 0;
      for (const frame of innerFirst) {
        frame.depth = depth;
        if (!frame.runtime) depth++;
      }
      frames.push(...built);
      if (built.some((f) => !f.runtime)) useful.push(index);
    });
    for (const trace of this.traces) if (trace.error) errors.push({ ...trace.error, trace: kept.indexOf(trace) });
    return { frames, errors, primary: choosePrimary(kept, useful) };
  }
}

function buildFrame(raw: RawFrame, trace: number): StackFrame {
  const file = raw.file === undefined ? undefined : normalizeFramePath(raw.file);
  const symbol = raw.name === undefined ? undefined : simpleSymbolOf(raw.name, raw.format);
  const frame: StackFrame = { format: raw.format, trace, depth: 0, runtime: isRuntimeFrame(file, raw.name) };
  if (file) frame.file = file;
  if (raw.line !== undefined) frame.line = raw.line;
  if (raw.column !== undefined) frame.column = raw.column;
  if (symbol) frame.symbol = symbol;
  if (raw.name !== undefined && raw.name !== symbol && /[.:/]/.test(raw.name)) frame.qualified = raw.name;
  return frame;
}

/**
 * The trace nearest the origin: the first with code of its own (stack traces before bare
 * locations), then down its chain of `Caused by` to the root cause.
 */
function choosePrimary(traces: readonly OpenTrace[], useful: readonly number[]): number {
  if (traces.length === 0) return -1;
  let primary = useful.find((i) => traces[i]!.family !== 'location') ?? useful[0] ?? 0;
  while (traces[primary + 1]?.kind === 'cause') primary++;
  return primary;
}
