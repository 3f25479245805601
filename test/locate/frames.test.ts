import { describe, expect, it } from 'vitest';
import { framesNearestFirst, parseStackTrace } from '../../src/core/frames.js';
import type { StackFrame } from '../../src/core/types.js';

/** The frames' (file:line symbol) in written order, for readable assertions. */
const brief = (frames: StackFrame[]): string[] => frames.map((f) => `${f.file ?? '-'}:${f.line ?? '-'} ${f.symbol ?? '-'}`);
const own = (frames: StackFrame[]): StackFrame[] => frames.filter((f) => !f.runtime);

describe('parseStackTrace: Python', () => {
  const text = [
    'Traceback (most recent call last):',
    '  File "/home/ci/build/proj/app/cli.py", line 40, in <module>',
    '    main()',
    '  File "/usr/lib/python3.11/json/__init__.py", line 346, in loads',
    '    return _default_decoder.decode(s)',
    '  File "/home/ci/build/proj/app/parse.py", line 12, in parse_line',
    '    raise ValueError(f"bad field {name!r}")',
    "ValueError: bad field 'x'",
  ].join('\n');

  it('reads every frame, outermost first as written, with depth counted from the raise', () => {
    const parsed = parseStackTrace(text);
    expect(brief(parsed.frames)).toEqual(['/home/ci/build/proj/app/cli.py:40 -', '/usr/lib/python3.11/json/__init__.py:346 loads', '/home/ci/build/proj/app/parse.py:12 parse_line']);
    expect(parsed.frames.map((f) => f.depth)).toEqual([1, 1, 0]);
    expect(parsed.frames[1]!.runtime).toBe(true);
    expect(parsed.errors).toEqual([{ type: 'ValueError', message: "bad field 'x'", trace: 0 }]);
    expect(parsed.primary).toBe(0);
  });

  it('keeps the raising frame and the error of a traceback longer than the lines read (a 12,000-frame recursion lost both)', () => {
    const lines = ['Traceback (most recent call last):'];
    for (let i = 0; i < 12_000; i++) lines.push('  File "/ci/proj/src/loop.py", line 2, in recurse', '    recurse()');
    lines.push('  File "/ci/proj/src/check.py", line 2, in check', '    raise ValueError("boom")', 'ValueError: boom');
    const parsed = parseStackTrace(lines.join('\n'));
    expect(parsed.errors).toEqual([{ type: 'ValueError', message: 'boom', trace: 0 }]);
    expect(framesNearestFirst(parsed)[0]).toMatchObject({ file: '/ci/proj/src/check.py', line: 2, depth: 0 });
    // and a JVM trace keeps its head: the exception and the frame that threw
    const jvm = ['java.lang.IllegalStateException: closed', '\tat com.acme.Reader.read(Reader.java:42)', ...Array.from({ length: 30_000 }, () => '\tat com.acme.Loop.spin(Loop.java:7)')];
    const thrown = parseStackTrace(jvm.join('\n'));
    expect(thrown.errors[0]).toMatchObject({ type: 'java.lang.IllegalStateException', message: 'closed' });
    expect(framesNearestFirst(thrown)[0]).toMatchObject({ line: 42 });
  });

  it('keeps the first traceback of a chain as the origin', () => {
    const chained = [
      text,
      '',
      'During handling of the above exception, another exception occurred:',
      '',
      'Traceback (most recent call last):',
      '  File "app/cli.py", line 44, in <module>',
      '    report(e)',
      '  File "app/report.py", line 3, in report',
      'KeyError: "field"',
    ].join('\n');
    const parsed = parseStackTrace(chained);
    expect(parsed.primary).toBe(0);
    expect(parsed.errors.map((e) => [e.type, e.trace])).toEqual([['ValueError', 0], ['KeyError', 1]]);
    expect(framesNearestFirst(parsed)[0]!.symbol).toBe('parse_line');
  });

  it('reads pytest frames and its E lines', () => {
    const parsed = parseStackTrace(['tests/test_parse.py:8: in test_line', '    parse_line("x")', 'app/parse.py:12: in parse_line', '    raise ValueError("bad")', 'E   ValueError: bad'].join('\n'));
    expect(brief(parsed.frames)).toEqual(['tests/test_parse.py:8 test_line', 'app/parse.py:12 parse_line']);
    expect(parsed.frames[1]!.depth).toBe(0);
    expect(parsed.errors[0]).toMatchObject({ type: 'ValueError', message: 'bad' });
  });
});

describe('parseStackTrace: JavaScript', () => {
  it('reads Node/V8 frames, dropping what is not a place and marking node internals', () => {
    const parsed = parseStackTrace(
      [
        "TypeError: Cannot read properties of undefined (reading 'headers')",
        '    at mergeConfig (/app/node_modules/axios/lib/core/mergeConfig.js:19:24)',
        '    at Axios.request (file:///C:/work/proj/lib/core/Axios.js:40:14)',
        '    at async Promise.all (index 0)',
        '    at new Client (webpack:///./src/client.ts:7:3)',
        '    at Object.<anonymous> (/app/test.js:5:11)',
        '    at Module._compile (node:internal/modules/cjs/loader:1256:14)',
      ].join('\n'),
    );
    expect(brief(parsed.frames)).toEqual([
      '/app/node_modules/axios/lib/core/mergeConfig.js:19 mergeConfig',
      '/work/proj/lib/core/Axios.js:40 request',
      '-:- all',
      'src/client.ts:7 Client',
      '/app/test.js:5 -',
      'node:internal/modules/cjs/loader:1256 _compile',
    ]);
    expect(parsed.frames[1]).toMatchObject({ qualified: 'Axios.request', column: 14 });
    expect(parsed.frames.at(-1)!.runtime).toBe(true);
    expect(parsed.errors[0]).toMatchObject({ type: 'TypeError', message: "Cannot read properties of undefined (reading 'headers')" });
  });

  it('reads Firefox and Safari frames', () => {
    const parsed = parseStackTrace(['parseQuery@http://localhost:8080/static/js/query.js:31:9', 'handle/<@http://localhost:8080/static/js/app.js:12:3', '@debugger eval code:1:1'].join('\n'));
    expect(brief(parsed.frames)).toEqual(['/static/js/query.js:31 parseQuery', '/static/js/app.js:12 handle']);
    expect(parsed.frames.map((f) => f.format)).toEqual(['firefox', 'firefox']);
  });
});

describe('parseStackTrace: Java and Kotlin', () => {
  const text = [
    'Exception in thread "main" java.lang.IllegalStateException: could not load config',
    '\tat com.acme.app.Config.load(Config.java:42)',
    '\tat com.acme.app.Main.main(Main.java:10)',
    'Caused by: java.io.FileNotFoundException: settings.yml',
    '\tat java.base/java.io.FileInputStream.open0(Native Method)',
    '\tat com.acme.app.io.Files$Reader.lambda$read$0(Files.kt:17)',
    '\tat com.acme.app.io.Files$Reader.<init>(Files.kt:9) ~[app.jar:?]',
    '\t... 2 more',
  ].join('\n');

  it('builds paths from the package and names from lambdas and constructors', () => {
    const parsed = parseStackTrace(text);
    expect(brief(parsed.frames)).toEqual(['com/acme/app/Config.java:42 load', 'com/acme/app/Main.java:10 main', '-:- open0', 'com/acme/app/io/Files.kt:17 read', 'com/acme/app/io/Files.kt:9 Reader']);
    expect(parsed.frames[2]!.runtime).toBe(true);
  });

  it('takes the root cause of a Caused by chain as the origin', () => {
    const parsed = parseStackTrace(text);
    expect(parsed.primary).toBe(1);
    expect(parsed.errors.map((e) => e.type)).toEqual(['java.lang.IllegalStateException', 'java.io.FileNotFoundException']);
    expect(framesNearestFirst(parsed)[0]!.file).toBe('com/acme/app/io/Files.kt');
  });
});

describe('parseStackTrace: Go', () => {
  it('reads a panic with its goroutine frames and two-line entries', () => {
    const parsed = parseStackTrace(
      [
        'panic: runtime error: index out of range [5] with length 3',
        '',
        'goroutine 1 [running]:',
        'github.com/acme/proj/internal/store.(*Cache).Get(0xc000010000, {0x4b1c2e, 0x3})',
        '\t/home/ci/go/pkg/mod/github.com/acme/proj@v1.2.0/internal/store/cache.go:27 +0x1d',
        'main.run.func1(...)',
        '\t/home/ci/build/proj/cmd/proj/main.go:14',
        'main.main()',
        '\t/home/ci/build/proj/cmd/proj/main.go:9 +0x25',
        'exit status 2',
      ].join('\n'),
    );
    expect(brief(parsed.frames)).toEqual([
      '/home/ci/go/pkg/mod/github.com/acme/proj@v1.2.0/internal/store/cache.go:27 Get',
      '/home/ci/build/proj/cmd/proj/main.go:14 run',
      '/home/ci/build/proj/cmd/proj/main.go:9 main',
    ]);
    expect(parsed.frames.map((f) => f.depth)).toEqual([0, 1, 2]);
    expect(parsed.frames[0]!.qualified).toBe('github.com/acme/proj/internal/store.(*Cache).Get');
    expect(parsed.errors).toEqual([{ type: 'panic', message: 'runtime error: index out of range [5] with length 3', trace: 0 }]);
  });

  it('reads a module-cache path with its @version as a Go frame', () => {
    const parsed = parseStackTrace(['github.com/acme/proj/internal/store.(*Cache).Get(...)', '\t/root/go/pkg/mod/github.com/acme/proj@v1.2.0/internal/store/cache.go:27'].join('\n'));
    expect(parsed.frames).toEqual([expect.objectContaining({ format: 'go', file: '/root/go/pkg/mod/github.com/acme/proj@v1.2.0/internal/store/cache.go', line: 27, symbol: 'Get' })]);
  });
});

describe('parseStackTrace: Rust', () => {
  it('reads the panic location, its message on the next line, and RUST_BACKTRACE frames', () => {
    const parsed = parseStackTrace(
      [
        "thread 'main' panicked at src/parse.rs:12:9:",
        'called `Option::unwrap()` on a `None` value',
        'stack backtrace:',
        '   0: rust_begin_unwind',
        '             at /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/std/src/panicking.rs:645:5',
        '   1: core::panicking::panic',
        '             at /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/core/src/panicking.rs:144:5',
        '   2: proj::parse::parse_line::h0123456789abcdef',
        '             at ./src/parse.rs:12:9',
        '   3: <proj::Config as core::str::FromStr>::from_str',
        '             at ./src/config.rs:30:20',
        '   4: proj::main::{{closure}}',
        '             at ./src/main.rs:5:5',
        'note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.',
      ].join('\n'),
    );
    expect(own(parsed.frames).map((f) => `${f.file}:${f.line} ${f.symbol ?? '-'} ${f.depth}`)).toEqual(['src/parse.rs:12 - 0', 'src/parse.rs:12 parse_line 1', 'src/config.rs:30 from_str 2', 'src/main.rs:5 main 3']);
    expect(parsed.frames.filter((f) => f.runtime).map((f) => f.symbol)).toEqual(['rust_begin_unwind', 'panic']);
    expect(parsed.errors).toEqual([{ type: 'panic', message: 'called `Option::unwrap()` on a `None` value', trace: 0 }]);
  });

  it('reads the older panic form with its message inline', () => {
    const parsed = parseStackTrace("thread 'worker' panicked at 'index out of bounds', src/lib.rs:88:14");
    expect(brief(parsed.frames)).toEqual(['src/lib.rs:88 -']);
    expect(parsed.errors[0]!.message).toBe('index out of bounds');
  });
});

describe('parseStackTrace: C and C++', () => {
  it('reads an AddressSanitizer report, its freed-by block as a second trace, and skips the summary', () => {
    const parsed = parseStackTrace(
      [
        '=================================================================',
        '==4242==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000010 at pc 0x4c1a2b bp 0x7ffc sp 0x7ffc',
        'READ of size 4 at 0x602000000010 thread T0',
        '    #0 0x4c1a2b in jv_free /home/ci/jq/src/jv.c:123:5',
        '    #1 0x4c1b3c in ns::Parser::run(int) const /home/ci/jq/src/parser.cpp:77:3',
        '    #2 0x7f3c in __libc_start_main (/lib/x86_64-linux-gnu/libc.so.6+0x21bf6) (BuildId: 2f005a79cd1a8e385972f5a102f16adba414d75e)',
        '',
        'freed by thread T0 here:',
        '    #0 0x493d in free (/home/ci/jq/jq+0x493d)',
        '    #1 0x4c19 in jv_release /home/ci/jq/src/jv.c:98:3',
        '',
        'SUMMARY: AddressSanitizer: heap-use-after-free /home/ci/jq/src/jv.c:123:5 in jv_free',
      ].join('\n'),
    );
    expect(brief(parsed.frames)).toEqual(['/home/ci/jq/src/jv.c:123 jv_free', '/home/ci/jq/src/parser.cpp:77 run', '-:- __libc_start_main', '-:- free', '/home/ci/jq/src/jv.c:98 jv_release']);
    expect(parsed.frames.map((f) => f.trace)).toEqual([0, 0, 0, 1, 1]);
    expect(parsed.primary).toBe(0);
    expect(parsed.errors[0]).toMatchObject({ type: 'heap-use-after-free', trace: 0 });
  });

  it('reads a frame of a long template instance (over 1,000 characters: it was skipped and the next frame blamed)', () => {
    const type = (depth: number): string => (depth === 0 ? 'std::basic_string<char, std::char_traits<char>, std::allocator<char> >' : `std::map<${type(depth - 1)}, std::vector<${type(depth - 1)}, std::allocator<${type(depth - 1)}> > >`);
    const name = `acme::Registry<${type(2)}>::lookup(${type(1)} const&)`;
    const parsed = parseStackTrace(
      [
        '==7==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000010 at pc 0x4c1a2b bp 0x7ffc sp 0x7ffc',
        `    #0 0x4c1a2b in ${name} /home/ci/acme/src/registry.hpp:212:9`,
        '    #1 0x4c1b3c in main /home/ci/acme/src/main.cpp:14:3',
      ].join('\n'),
    );
    expect(name.length).toBeGreaterThan(1_000);
    expect(brief(parsed.frames)).toEqual(['/home/ci/acme/src/registry.hpp:212 lookup', '/home/ci/acme/src/main.cpp:14 main']);
    // a line too long even then keeps the location at its end
    const huge = parseStackTrace(`    #0 0x4c1a2b in f(${'int, '.repeat(50_000)}int) /home/ci/acme/src/huge.cpp:3:1`);
    expect(huge.frames[0]).toMatchObject({ file: '/home/ci/acme/src/huge.cpp', line: 3 });
  });

  it('reads UBSan runtime errors as frames with their message', () => {
    const parsed = parseStackTrace('src/decNumber/decNumber.c:6209:11: runtime error: signed integer overflow: 5 - -1 cannot be represented in type int');
    expect(parsed.frames).toEqual([{ format: 'sanitizer', file: 'src/decNumber/decNumber.c', line: 6209, column: 11, trace: 0, depth: 0, runtime: false }]);
    expect(parsed.errors[0]).toMatchObject({ type: 'runtime error', message: 'signed integer overflow: 5 - -1 cannot be represented in type int' });
  });

  it('reads gdb backtraces, joining frames whose arguments wrap', () => {
    const parsed = parseStackTrace(
      [
        'Program received signal SIGSEGV, Segmentation fault.',
        '0x0000555555555189 in lookup (t=0x0, key=0x555555556004 "k") at table.c:12',
        '(gdb) bt',
        '#0  0x0000555555555189 in lookup (t=0x0, key=0x555555556004 "k") at table.c:12',
        '#1  0x00005555555551c4 in find_entry (t=0x0,',
        '    key=0x555555556004 "k") at src/table.c:30',
        '#2  main (argc=1, argv=0x7fffffffe1f8) at main.c:8',
        '#3  0x00007ffff7de50b3 in __libc_start_main () from /lib/x86_64-linux-gnu/libc.so.6',
      ].join('\n'),
    );
    const gdb = parsed.frames.filter((f) => f.format === 'gdb');
    expect(brief(gdb)).toEqual(['table.c:12 lookup', 'src/table.c:30 find_entry', 'main.c:8 main', '-:- __libc_start_main']);
    expect(gdb.map((f) => f.depth)).toEqual([0, 1, 2, 3]);
    expect(gdb.at(-1)!.runtime).toBe(true);
    expect(parsed.errors[0]).toMatchObject({ type: 'SIGSEGV', message: 'Segmentation fault', trace: gdb[0]!.trace });
  });

  it('reads valgrind and glibc assertion reports', () => {
    const valgrind = parseStackTrace(['==123== Invalid read of size 4', '==123==    at 0x10916B: lookup (table.c:12)', '==123==    by 0x1091C4: main (main.c:8)', "==123==  Address 0x4a5d040 is 0 bytes inside a block of size 4 free'd", '==123==    at 0x483CA3F: free (in /usr/lib/x86_64-linux-gnu/valgrind/vgpreload_memcheck-amd64-linux.so)', '==123==    by 0x109160: drop (table.c:40)'].join('\n'));
    expect(brief(valgrind.frames)).toEqual(['table.c:12 lookup', 'main.c:8 main', '-:- free', 'table.c:40 drop']);
    expect(valgrind.frames.map((f) => f.trace)).toEqual([0, 0, 1, 1]);
    const assertion = parseStackTrace("jq: src/jv.c:717: jv_string_implode: Assertion `jv_get_kind(n) == JV_KIND_NUMBER' failed.");
    expect(brief(assertion.frames)).toEqual(['src/jv.c:717 jv_string_implode']);
    expect(assertion.errors[0]).toMatchObject({ type: 'assertion', message: 'jv_get_kind(n) == JV_KIND_NUMBER' });
  });
});

describe('parseStackTrace: text around traces', () => {
  it('takes bare file:line locations from compiler errors and logs', () => {
    const parsed = parseStackTrace(['error[E0308]: mismatched types', '  --> src/config.rs:14:5', 'see also lib/util.ts:3 for the caller'].join('\n'));
    expect(brief(parsed.frames)).toEqual(['src/config.rs:14 -', 'lib/util.ts:3 -']);
    expect(parsed.frames.every((f) => f.format === 'location')).toBe(true);
  });

  it('finds nothing in prose, and does not take a section title for an error', () => {
    const parsed = parseStackTrace('The export button does nothing.\n\nError:\nnothing happens when I click it');
    expect(parsed).toEqual({ frames: [], errors: [], primary: -1 });
  });
});
