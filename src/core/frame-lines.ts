/**
 * One line of a trace, recognised alone: a frame (each language's syntax), or a line that starts
 * a trace or reports an error. Multi-line frames (Go, Rust backtraces, wrapped gdb frames) are
 * joined by the scanner in frames.ts.
 */
import type { FrameFormat } from './types.js';

/** A frame as read from its line, before names are simplified and paths tidied. */
export interface RawFrame {
  format: FrameFormat;
  file?: string;
  line?: number | undefined;
  column?: number | undefined;
  /** The function as written (`app::parse::parse_line::h12ab…`, `com.x.Y.parse`). */
  name?: string;
}

/** Lines a file can have, at most: `line 0`, `line 1e+32` and `line 4294967296` are no place in a file. */
const MAX_LINE = 10_000_000;
/** A line or column number as written, or undefined when it is none (0, past `MAX_LINE`). */
const num = (text: string | undefined): number | undefined => {
  const value = text === undefined ? Number.NaN : Number(text);
  return Number.isInteger(value) && value >= 1 && value <= MAX_LINE ? value : undefined;
};

/** `  File "x/y.py", line 12, in func` */
const PYTHON = /^\s*File "(.+?)", line (\d+)(?:, in (.+?))?\s*$/;
/** pytest: `src/x.py:12: in func` */
const PYTEST = /^(\S+\.pyw?):(\d+): in (\S+)\s*$/;
/** `\tat com.x.Y$Z.method(Y.java:12)`, `at java.base/java.util.X.y(X.java:5)`, `(Native Method)`, `~[app.jar:?]` */
const JVM = /^\s*at ((?:[\w$.\-@]*\/)*(?:[\w$]+\.)+[\w$<>\-]+)\(([^()]*)\)(?:\s*~?\[[^\]]*\])?\s*$/;
/** `at fn (path:1:2)`, `at path:1:2`, `at async fn (path:1:2)`, `at new Foo (<anonymous>)`; Node prints ` {` before an error's own properties. */
const V8 = /^\s*at (?:(.+?) \((.+)\)|(\S+))\s*\{?\s*$/;
/** Firefox and Safari: `fn@path:1:2`, `@path:1:2`, `fn/<@path:1:2` */
const FIREFOX = /^\s*((?:[\w$.<>\[\]][\w$.<>/\[\]]*)?)@(\S+?):(\d+)(?::(\d+))?\s*$/;
/** A location with a line and maybe a column: `path:12`, `path:12:5`. */
const LOCATION = /^(.+?):(\d+)(?::(\d+))?$/;
/** Sanitizers: `#0 0x4c1a2b in fn /path/x.c:12:5`, `#1 0x7f in fn (/lib/libc.so.6+0x21bf6)`, `(BuildId: …)` */
const SANITIZER = /^\s*#(\d+) 0x[0-9a-fA-F]+ in (.+?) (?:\(([^()\s]+?)\+0x[0-9a-fA-F]+\)|([^\s()]+?):(\d+)(?::(\d+))?)(?:\s+\(BuildId: [0-9a-f]+\))?\s*$/;
/** gdb: `#0  0x0000 in fn (args) at file.c:12`, `#1  fn (args) at file.c:12`, `#2  0x… in fn () from /lib/x.so` */
const GDB = /^\s*#(\d+)\s+(?:0x[0-9a-fA-F]+ in )?(\S+?) \((.*)\)(?:\s+at\s+(\S+):(\d+))?(?:\s+from\s+(\S+))?\s*$/;
/** valgrind: `==12==    at 0x4C2: fn (file.c:12)`, `by 0x…: fn (in /lib/x.so)` */
const VALGRIND = /^==\d+==\s+(at|by) 0x[0-9A-Fa-f]+: (.+?) \((?:in (\S+)|(\S+?):(\d+))\)\s*$/;

/** A frame line of any single-line format, or undefined. */
export function readFrameLine(text: string): (RawFrame & { index?: number; valgrind?: 'at' | 'by' }) | undefined {
  let m = PYTHON.exec(text);
  if (m) return { format: 'python', file: m[1]!, line: num(m[2]), ...(m[3] ? { name: m[3] } : {}) };
  m = PYTEST.exec(text);
  if (m) return { format: 'pytest', file: m[1]!, line: num(m[2]), name: m[3]! };
  m = JVM.exec(text);
  if (m) return readJvm(m[1]!, m[2]!);
  m = V8.exec(text);
  if (m) return readV8(m[1], m[2] ?? m[3]!);
  m = FIREFOX.exec(text);
  if (m) return { format: 'firefox', file: m[2]!, line: num(m[3]), ...(m[4] ? { column: num(m[4]) } : {}), ...(m[1] ? { name: m[1].replace(/\/<.*$|\/$/, '') } : {}) };
  m = SANITIZER.exec(text);
  if (m) return { format: 'sanitizer', index: Number(m[1]), name: m[2]!, ...(m[4] ? { file: m[4], line: num(m[5]) } : {}), ...(m[6] ? { column: num(m[6]) } : {}) };
  m = GDB.exec(text);
  if (m) return { format: 'gdb', index: Number(m[1]), name: m[2]!, ...(m[4] ? { file: m[4], line: num(m[5]) } : {}) };
  m = VALGRIND.exec(text);
  if (m) return { format: 'valgrind', valgrind: m[1] as 'at' | 'by', name: m[2]!, ...(m[4] ? { file: m[4], line: num(m[5]) } : {}) };
  return undefined;
}

/** The package path comes from the qualified name (`com.x.Y` → `com/x/`), the file name from the parentheses. */
function readJvm(qualified: string, where: string): RawFrame {
  const name = qualified.replace(/^(?:[\w$.\-@]*\/)+/, '');
  const location = /^([\w$\-]+\.(?:java|kt|kts|scala|groovy|clj)):?(\d+)?$/.exec(where.trim());
  if (!location) return { format: 'jvm', name };
  const packages = name.split('.').slice(0, -2).filter((s) => /^[a-z_][\w]*$/.test(s));
  const line = num(location[2]);
  return { format: 'jvm', name, file: [...packages, location[1]!].join('/'), ...(line === undefined ? {} : { line }) };
}

function readV8(name: string | undefined, where: string): RawFrame | undefined {
  const location = LOCATION.exec(where.replace(/^eval at .*?, /, ''));
  const fn = name?.trim();
  if (!location) {
    // `at new RegExp (<anonymous>)`, `at Array.forEach (native)`: a function and no file.
    return fn ? { format: 'v8', name: fn } : undefined;
  }
  return { format: 'v8', file: location[1]!, line: num(location[2]), ...(location[3] ? { column: num(location[3]) } : {}), ...(fn ? { name: fn } : {}) };
}

/** gdb wraps long argument lists: a `#N` line whose parentheses are still open continues below. */
export function isOpenGdbFrame(text: string): boolean {
  if (!/^\s*#\d+\s/.test(text) || GDB.test(text) || SANITIZER.test(text)) return false;
  let depth = 0;
  for (const ch of text) depth += ch === '(' ? 1 : ch === ')' ? -1 : 0;
  return depth > 0;
}

/** Go: `main.lookup(...)`, `github.com/x/y.(*T).Run(0xc0, {0x1, 0x2})`, `created by pkg.F in goroutine 7` */
export const GO_FUNCTION = /^\s*(?:created by )?((?:[\w.\-~]+\/)*[\w.\-~]+\.[\w.*()[\]{},\- ]*?[\w)\]])(?:\(.*\))?(?: in goroutine \d+)?\s*$/;
/** Go: `\t/home/u/x.go:12 +0x1d` */
export const GO_LOCATION = /^\s+(\S+\.go):(\d+)(?: \+0x[0-9a-f]+)?\s*$/;
/** Rust backtrace: `  12: app::parse::parse_line`, `   3:     0x55d0 - app::run::h1234` */
export const RUST_FRAME = /^\s*(\d+):\s+(?:0x[0-9a-f]+ - )?(\S.*?)\s*$/;
/** Rust backtrace: `             at ./src/parse.rs:12:9` */
export const RUST_AT = /^\s+at (\S.*?):(\d+)(?::(\d+))?\s*$/;

/** Lines that start a trace or report its error. */
export const HEADERS = {
  pythonTraceback: /^\s*Traceback \(most recent call last\):\s*$/,
  /** Python between chained tracebacks: the one before is the cause of, or was being handled by, the one after. */
  pythonChain: /^\s*(?:During handling of the above exception, another exception occurred|The above exception was the direct cause of the following exception):\s*$/,
  /** `ValueError: x`, `java.lang.IllegalStateException: x`, `Uncaught (in promise) TypeError: x`, `Exception in thread "main" …`, `Caused by: …` */
  error: /^\s*(?:E\s+)?(Caused by: |Suppressed: |Exception in thread "[^"]*" |Uncaught (?:\(in promise\) )?)?((?:[A-Za-z_][\w$]*\.)*[A-Z][\w$]*(?:Error|Exception|Exit|Interrupt|Warning|Failure|Throwable|Fault)|Error|panic|fatal error)(?::\s*(.*?))?\s*$/,
  goroutine: /^goroutine \d+ \[[^\]]*\]:\s*$/,
  /** `thread 'main' panicked at src/main.rs:5:10:` (1.73+) and `thread 'main' panicked at 'msg', src/main.rs:5:10` */
  rustPanic: /^thread '[^']*' panicked at (?:'(.*)', )?(\S+?\.rs):(\d+):(\d+):?\s*$/,
  rustBacktrace: /^\s*stack backtrace:\s*$/,
  /** `==123==ERROR: AddressSanitizer: heap-use-after-free on address …`, `… attempting double-free on …` */
  sanitizer: /^(?:==\d+==)?\s*ERROR: (\w+Sanitizer): ((?:attempting )?)([\w-]+)(.*)$/,
  sanitizerLeak: /^\s*((?:Direct|Indirect) leak) of (.+?) allocated from:\s*$/,
  /** A sanitizer's further blocks: where the memory was freed, allocated, the thread created. */
  sanitizerSection: /^\s*(?:freed by thread|previously allocated by thread|allocated by thread|Thread T\d+ created by|Memory was freed by)\b.*:\s*$/,
  /** `SUMMARY: AddressSanitizer: SEGV src/x.c:12 in f`: repeats frame #0 of the report above. */
  sanitizerSummary: /^\s*SUMMARY: \w+Sanitizer: /,
  /** UBSan: `src/x.c:12:5: runtime error: signed integer overflow: …` */
  ubsan: /^\s*(\S+?):(\d+):(\d+): runtime error: (.+)$/,
  /** glibc: `jq: src/jv.c:717: jv_string_implode: Assertion `x' failed.` */
  assertion: /^(?:\S+: )?(\S+?):(\d+): (\S+?): Assertion [`'](.+)' failed\.\s*$/,
  gdbSignal: /^\s*(?:Program|Thread \d+ "[^"]*") received signal (SIG\w+), (.+?)\.?\s*$/,
  valgrindError: /^==\d+== (Invalid (?:read|write|free)[^\n]*|Conditional jump[^\n]*|Use of uninitialised[^\n]*|Syscall param[^\n]*|Mismatched free[^\n]*|\S+ bytes in \S+ blocks are (?:definitely|possibly) lost[^\n]*)$/,
  valgrindSection: /^==\d+==\s+(?:Address 0x[0-9a-fA-F]+ is .*|Block was alloc'd at|Uninitialised value was created.*)\s*$/,
} as const;

/** Bare `path.ext:line[:col]` locations (compiler errors, logs): the extensions of source files. */
export const LOCATION_REF = /(?:^|[\s(['"`=])((?:[A-Za-z]:)?[\w@.\-/\\]*[\w\-]\.(?:py|pyi|pyx|ts|tsx|mts|cts|js|jsx|mjs|cjs|go|rs|java|kt|kts|scala|groovy|c|h|cc|cpp|cxx|hpp|hh|cs|rb|php|swift|m|mm|lua|ex|exs|erl|hs|ml|dart|zig|vue|svelte|y|l)):(\d+)(?::(\d+))?(?!\w)/g;
