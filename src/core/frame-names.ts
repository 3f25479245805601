/**
 * What a frame's names say: the function's own name out of a qualified one (Rust paths with
 * hashes, Go receivers and closures, JVM lambdas and constructors, V8 `Object.<anonymous>`),
 * and whether the frame belongs to the language's runtime rather than to anyone's code.
 */
import type { FrameFormat } from './types.js';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** The function's own name (`parse_line` for `app::parse::parse_line::h0123456789abcdef`), or undefined when it has none. */
export function simpleSymbolOf(raw: string, format: FrameFormat): string | undefined {
  let name = raw.trim();
  if (!name) return undefined;
  if (format === 'rust') return lastRustSegment(name);
  if (format === 'go') return lastGoSegment(name);
  if (format === 'jvm') return jvmMethodName(name);
  // `Object.<anonymous>`, `<module>`, `<lambda>`: a place, not a name.
  if (/(?:^|\.)<[^<>]*>$/.test(name)) return undefined;
  // V8 `Foo.bar [as baz]`, `async fn`, `new Foo`; C++ `ns::Foo::bar(int) const`; Python 3.11 qualnames.
  name = name.replace(/\s*\[as [^\]]+\]$/, '').replace(/^(?:async|new)\s+/, '');
  name = stripBalanced(name, '(', ')').replace(/\s+const$/, '');
  name = stripBalanced(name, '<', '>');
  const last = name.split(/::|\./).filter(Boolean).pop() ?? '';
  return IDENTIFIER.test(last) && last !== 'anonymous' ? last : undefined;
}

/** `<app::Foo as core::fmt::Display>::fmt`, `app::main::{{closure}}`, `app::run::h9f3e…` → `fmt`, `main`, `run`. */
function lastRustSegment(raw: string): string | undefined {
  let name = raw.replace(/::h[0-9a-f]{16}$/, '');
  name = name.replace(/^<(.+?) as [^>]+>::/, '$1::');
  const segments = stripBalanced(name, '<', '>')
    .split('::')
    .filter((s) => s && !s.startsWith('{{'));
  const last = segments.pop();
  return last && IDENTIFIER.test(last) ? last : undefined;
}

/** `github.com/x/y/pkg.(*Server).handle.func1` → `handle`; `main.main` → `main`; `pkg.Map[...]` → `Map`. */
function lastGoSegment(raw: string): string | undefined {
  const afterPath = raw.slice(raw.lastIndexOf('/') + 1).replace(/\[[^\]]*\]/g, '');
  const segments = afterPath
    .split('.')
    .slice(1)
    .map((s) => s.replace(/^\(\*?|\)$/g, ''))
    .filter((s) => s && !/^(?:func|gowrap)\d+$/.test(s) && !/^\d+$/.test(s));
  const last = segments.pop();
  return last && IDENTIFIER.test(last) ? last : undefined;
}

/** `com.x.Parser.parse` → `parse`; `lambda$parse$0` → `parse`; `<init>` → the class; `Outer$Inner.run` → `run`. */
function jvmMethodName(raw: string): string | undefined {
  const parts = raw.split('.');
  let method = parts.pop() ?? '';
  const owner = (parts.pop() ?? '').split('$').filter(Boolean).pop() ?? '';
  if (method === '<init>' || method === '<clinit>') method = owner;
  const lambda = /^lambda\$(\w+?)\$\d+$/.exec(method);
  if (lambda) method = lambda[1]!;
  method = method.replace(/\$.*$/, '');
  return IDENTIFIER.test(method) ? method : undefined;
}

/** Removes every bracketed part, nested or not: `foo<T<U>>::bar(int)` → `foo::bar`. */
function stripBalanced(text: string, open: string, close: string): string {
  let out = '';
  let depth = 0;
  for (const ch of text) {
    if (ch === open) depth++;
    else if (ch === close && depth > 0) depth--;
    else if (depth === 0) out += ch;
  }
  return out;
}

/** Paths of runtimes and standard libraries, by language. */
const RUNTIME_PATHS = [
  /^node:|^internal\/|^<anonymous>$|^native$|^\[native code\]$/,
  /(?:^|\/)lib\/python\d(?:\.\d+)?\/(?!site-packages\/|dist-packages\/)|^<(?:frozen |string>|stdin>|ipython-input|console>)/,
  /(?:^|\/)(?:usr\/(?:local\/)?go|go\/src)\/src\/|(?:^|\/)libexec\/src\/(?:runtime|testing)\//,
  /^\/rustc\/|(?:^|\/)library\/(?:std|core|alloc|proc_macro|test)\/src\//,
  /(?:^|\/)sysdeps\/|(?:^|\/)(?:glibc|libc)[-\w.]*\/|(?:^|\/)compiler-rt\/|(?:^|\/)sanitizer_common\/|\.so(?:\.\d+)*$|\.dylib$|\.dll$/,
];

/** Qualified names of runtime code, by language. */
const RUNTIME_NAMES = /^(?:java|javax|jdk|sun|com\.sun|kotlin|kotlinx\.coroutines|scala|dalvik|android\.os)\.|^(?:std|core|alloc|tokio::runtime)::|^(?:runtime|testing|reflect|sync)\.|^(?:__libc_start|__GI_|__assert_fail|_start$|__interceptor_|__asan_|__ubsan_|__sanitizer|rust_begin_unwind|__rust_|__scrt_)/;

/** Whether a frame is the runtime's own code (Node internals, the Python or Go standard library, the JDK, Rust std, libc, sanitizers). */
export function isRuntimeFrame(file: string | undefined, qualified: string | undefined): boolean {
  if (file !== undefined && RUNTIME_PATHS.some((re) => re.test(file))) return true;
  return qualified !== undefined && RUNTIME_NAMES.test(qualified);
}
