import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locate } from '../../src/orchestrator/locate.js';
import type { LocateResult } from '../../src/core/types.js';
import { makeRepo, useTempRepos, type TempRepo } from '../helpers/make-repo.js';

/** A small repository in several languages; every trace below comes from "another machine". */
const FILES: Record<string, string> = {
  'src/proj/parse.py': ['def parse_line(line):', '    name, _, value = line.partition("=")', '    if not value:', '        raise ValueError(f"missing value for field {name!r}")', '    return name, value', ''].join('\n'),
  'src/proj/cli.py': ['from proj.parse import parse_line', '', 'def main(lines):', '    return [parse_line(l) for l in lines]', ''].join('\n'),
  'lib/query.js': ['function parseQuery(text) {', '  const parts = text.split("&");', '  return parts.map((p) => p.split("=")[1].trim());', '}', 'module.exports = { parseQuery };', ''].join('\n'),
  'lib/app.js': ["const { parseQuery } = require('./query');", 'function handle(req) {', '  return parseQuery(req.url);', '}', 'module.exports = { handle };', ''].join('\n'),
  'src/utils/url.ts': ['export function createUrlRegex(pattern: string): RegExp {', '  return new RegExp(`^${pattern}$`);', '}', ''].join('\n'),
  'src/main/java/com/acme/app/Config.java': ['package com.acme.app;', '', 'public class Config {', '  public static Config load() {', '    return new Config(Files.read("settings.yml"));', '  }', '}', ''].join('\n'),
  'src/main/kotlin/com/acme/app/io/Files.kt': ['package com.acme.app.io', '', 'object Files {', '  fun read(path: String): String {', '    return java.io.File(path).readText()', '  }', '}', ''].join('\n'),
  'internal/store/cache.go': ['package store', '', 'type Cache struct{ items []string }', '', 'func (c *Cache) Get(i int) string {', '\treturn c.items[i]', '}', ''].join('\n'),
  'cmd/proj/main.go': ['package main', '', 'func main() {', '\trun()', '}', '', 'func run() {', '\tc := &store.Cache{}', '\tc.Get(5)', '}', ''].join('\n'),
  'crates/core/src/parse.rs': ['pub fn parse_line(line: &str) -> (String, String) {', '    let (k, v) = line.split_once("=").unwrap();', '    (k.to_string(), v.to_string())', '}', ''].join('\n'),
  'crates/core/src/main.rs': ['mod parse;', 'fn main() {', '    parse::parse_line("x");', '}', ''].join('\n'),
  'src/jv.c': ['#include "jv.h"', '', 'void jv_free(jv j) {', '  free(j.ptr);', '}', '', 'jv jv_copy(jv j) {', '  return j;', '}', ''].join('\n'),
  'src/main.c': ['#include "jv.h"', '', 'int main(int argc, char **argv) {', '  jv j = jv_copy(parse(argv[1]));', '  jv_free(j);', '  jv_free(j);', '  return 0;', '}', ''].join('\n'),
  'src/table.c': ['int lookup(struct table *t, const char *key) {', '  return t->slots[0];', '}', '', 'int find_entry(struct table *t, const char *key) {', '  return lookup(t, key);', '}', ''].join('\n'),
  'tests/test_parse.py': ['from proj.parse import parse_line', '', 'def test_line():', '    parse_line("x")', ''].join('\n'),
};

const TRACES = {
  python: [
    'Traceback (most recent call last):',
    '  File "/home/ci/build/proj/tests/test_parse.py", line 4, in test_line',
    '    parse_line("x")',
    '  File "/home/ci/.venv/lib/python3.11/site-packages/proj/cli.py", line 4, in main',
    '    return [parse_line(l) for l in lines]',
    '  File "/home/ci/.venv/lib/python3.11/site-packages/proj/parse.py", line 4, in parse_line',
    '    raise ValueError(f"missing value for field {name!r}")',
    "ValueError: missing value for field 'x'",
  ].join('\n'),
  node: [
    "TypeError: Cannot read properties of undefined (reading 'trim')",
    '    at /srv/app/lib/query.js:3:45',
    '    at Array.map (<anonymous>)',
    '    at parseQuery (/srv/app/lib/query.js:3:16)',
    '    at handle (/srv/app/lib/app.js:3:10)',
    '    at Server.<anonymous> (node:_http_server:1234:5)',
  ].join('\n'),
  firefox: ['parseQuery@http://localhost:8080/lib/query.js:3:16', 'handle@http://localhost:8080/lib/app.js:3:10'].join('\n'),
  java: [
    'Exception in thread "main" java.lang.IllegalStateException: could not load config',
    '\tat com.acme.app.Config.load(Config.java:5)',
    'Caused by: java.io.FileNotFoundException: settings.yml (No such file or directory)',
    '\tat java.base/java.io.FileInputStream.open0(Native Method)',
    '\tat com.acme.app.io.Files.read(Files.kt:5)',
    '\tat com.acme.app.Config.load(Config.java:5)',
    '\t... 1 more',
  ].join('\n'),
  go: [
    'panic: runtime error: index out of range [5] with length 0',
    '',
    'goroutine 1 [running]:',
    'github.com/acme/proj/internal/store.(*Cache).Get(...)',
    '\t/root/go/pkg/mod/github.com/acme/proj@v1.2.0/internal/store/cache.go:6',
    'main.run()',
    '\t/home/ci/work/proj/cmd/proj/main.go:9 +0x1d',
    'main.main()',
    '\t/home/ci/work/proj/cmd/proj/main.go:4 +0x17',
  ].join('\n'),
  rust: [
    "thread 'main' panicked at crates/core/src/parse.rs:2:44:",
    'called `Option::unwrap()` on a `None` value',
    'stack backtrace:',
    '   0: rust_begin_unwind',
    '             at /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/std/src/panicking.rs:645:5',
    '   1: core::option::unwrap_failed',
    '             at /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/core/src/option.rs:1985:5',
    '   2: proj_core::parse::parse_line',
    '             at ./crates/core/src/parse.rs:2:19',
    '   3: proj_core::main',
    '             at ./crates/core/src/main.rs:3:5',
  ].join('\n'),
  asan: [
    '==4242==ERROR: AddressSanitizer: attempting double-free on 0x602000000010 in thread T0:',
    '    #0 0x7f3c in free (/usr/lib/x86_64-linux-gnu/libasan.so.6+0xb4b3)',
    '    #1 0x4c1a2b in jv_free /home/ci/jq/src/jv.c:4:3',
    '    #2 0x4c1b3c in main /home/ci/jq/src/main.c:6:3',
    '',
    'freed by thread T0 here:',
    '    #0 0x7f3c in free (/usr/lib/x86_64-linux-gnu/libasan.so.6+0xb4b3)',
    '    #1 0x4c1a2b in jv_free /home/ci/jq/src/jv.c:4:3',
    '    #2 0x4c1b30 in main /home/ci/jq/src/main.c:5:3',
    'SUMMARY: AddressSanitizer: double-free (/usr/lib/x86_64-linux-gnu/libasan.so.6+0xb4b3) in free',
  ].join('\n'),
  gdb: [
    'Program received signal SIGSEGV, Segmentation fault.',
    '(gdb) bt',
    '#0  0x0000555555555189 in lookup (t=0x0, key=0x555555556004 "k") at table.c:2',
    '#1  0x00005555555551c4 in find_entry (t=0x0,',
    '    key=0x555555556004 "k") at table.c:6',
    '#2  0x00007ffff7de50b3 in __libc_start_main () from /lib/x86_64-linux-gnu/libc.so.6',
  ].join('\n'),
};

describe('locate: maps frames of each trace format to repository files', () => {
  let repo: TempRepo;
  beforeAll(() => {
    repo = makeRepo(FILES, { git: false });
  });
  afterAll(() => repo.cleanup());
  const run = (text: string): Promise<LocateResult> => locate(text, { root: repo.root, cache: false, historyDepth: 0 });

  it('Python: site-packages and CI paths land on the repository files; the raise site comes first', async () => {
    const result = await run(TRACES.python);
    expect(result.frames.map((f) => f.path)).toEqual(['tests/test_parse.py', 'src/proj/cli.py', 'src/proj/parse.py']);
    expect(result.candidates.map((c) => c.path).slice(0, 3)).toEqual(['src/proj/parse.py', 'src/proj/cli.py', 'tests/test_parse.py']);
    expect(result.candidates[0]).toMatchObject({ line: 4, symbol: 'parse_line' });
    expect(result.candidates[0]!.reason).toMatch(/nearest the error.*defines parse_line.*holds the message "missing value for field"/);
    expect(result.error).toEqual({ type: 'ValueError', message: "missing value for field 'x'", trace: 0 });
  });

  it('Node/V8: an anonymous innermost frame still names the file', async () => {
    const result = await run(TRACES.node);
    expect(result.candidates[0]).toMatchObject({ path: 'lib/query.js', line: 3, symbol: 'parseQuery' });
    expect(result.candidates[1]!.path).toBe('lib/app.js');
    expect(result.frames.find((f) => f.file === 'node:_http_server')?.path).toBeUndefined();
  });

  it('a trace pasted from a terminal with its colours reads as the plain one', async () => {
    // as a test runner prints it: every part of the frame in its own colour
    const coloured = TRACES.node.split('\n').map((line) => line.replace(/^(\s*at )(\S+) \((.*)\)$/, '\x1b[2m$1\x1b[22m$2 \x1b[2m(\x1b[22m\x1b[36m$3\x1b[39m\x1b[2m)\x1b[22m')).join('\n');
    expect(coloured).not.toBe(TRACES.node);
    expect(await run(`\x1b[31m${coloured}\x1b[39m`)).toEqual(await run(TRACES.node));
  });

  it('Firefox: URLs of a dev server map by their path', async () => {
    const result = await run(TRACES.firefox);
    expect(result.candidates.map((c) => c.path).slice(0, 2)).toEqual(['lib/query.js', 'lib/app.js']);
  });

  it('Java/Kotlin: package paths find the files in their source sets; the root cause comes first', async () => {
    const result = await run(TRACES.java);
    expect(result.candidates[0]).toMatchObject({ path: 'src/main/kotlin/com/acme/app/io/Files.kt', line: 5, symbol: 'read' });
    expect(result.candidates[1]!.path).toBe('src/main/java/com/acme/app/Config.java');
    expect(result.error?.type).toBe('java.io.FileNotFoundException');
  });

  it('Go: a module-cache path and a CI checkout path both map', async () => {
    const result = await run(TRACES.go);
    expect(result.candidates.map((c) => c.path).slice(0, 2)).toEqual(['internal/store/cache.go', 'cmd/proj/main.go']);
    expect(result.candidates[0]).toMatchObject({ line: 6, symbol: 'Get' });
  });

  it('Rust: the panic location and the backtrace frames, std frames left out', async () => {
    const result = await run(TRACES.rust);
    expect(result.candidates.map((c) => c.path).slice(0, 2)).toEqual(['crates/core/src/parse.rs', 'crates/core/src/main.rs']);
    expect(result.frames.filter((f) => f.path !== undefined).every((f) => !f.runtime)).toBe(true);
  });

  it('AddressSanitizer: the first report outweighs the freed-by block', async () => {
    const result = await run(TRACES.asan);
    expect(result.candidates.map((c) => c.path).slice(0, 2)).toEqual(['src/jv.c', 'src/main.c']);
    expect(result.candidates[0]).toMatchObject({ line: 4, symbol: 'jv_free' });
    expect(result.error).toMatchObject({ type: 'double-free', message: 'AddressSanitizer: attempting double-free on 0x602000000010 in thread T0:' });
  });

  it('gdb: bare file names map when one file has that name', async () => {
    const result = await run(TRACES.gdb);
    expect(result.candidates[0]).toMatchObject({ path: 'src/table.c', line: 2, symbol: 'lookup' });
    expect(result.candidates[0]!.confidence).toBeGreaterThan(0.8);
  });

  it('a frame whose file is not in the repository still points at the definition of its function', async () => {
    const result = await run(['Uncaught SyntaxError: Invalid regular expression', '    at new RegExp (<anonymous>)', '    at createUrlRegex (background/index.js:587)', '    at isURLMatched (background/index.js:545)'].join('\n'));
    expect(result.candidates[0]).toMatchObject({ path: 'src/utils/url.ts', line: 1, symbol: 'createUrlRegex' });
    expect(result.candidates[0]!.reason).toContain('defines createUrlRegex');
  });

  it('an error message without frames points at where it is raised', async () => {
    const result = await run('ValueError: missing value for field "port"');
    expect(result.candidates.map((c) => c.path)).toEqual(['src/proj/parse.py']);
    expect(result.candidates[0]!.reason).toContain('holds the message');
  });

  it('never echoes a secret pasted with the error (its message was shown as given)', async () => {
    const secrets = ['S3cretPassw0rd', 'hunter2hunter2', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789'];
    const result = await run(`Error: connect failed for postgres://admin:${secrets[0]}@db:5432/app password=${secrets[1]} token ${secrets[2]}\n    at parseQuery (/ci/lib/query.js:3:30)`);
    expect(result.candidates.map((c) => c.path)).toEqual(['lib/query.js']);
    expect(result.error?.message).toBe('connect failed for postgres://admin:[REDACTED]@db:5432/app password=[REDACTED] token [REDACTED]');
    const echoed = JSON.stringify(result);
    for (const secret of secrets) expect(echoed).not.toContain(secret);
  });

  it('never echoes a secret standing where a frame names its function or file', async () => {
    const secrets = ['sk_live_abcdefghijklmnopqrstuvwx', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'AKIAABCDEFGHIJKLMNOP'];
    const result = await run(`Error: x\n    at ${secrets[0]} (lib/query.js:1:1)\n    at Foo.${secrets[1]} (lib/query.js:3:1)\n    at run (src/${secrets[2]}/main.js:9:1)`);
    expect(result.candidates.map((c) => c.path)).toContain('lib/query.js');
    expect(result.frames.map((f) => f.symbol)).toEqual(['[REDACTED]', '[REDACTED]', 'run']);
    const echoed = JSON.stringify(result);
    for (const secret of secrets) expect(echoed).not.toContain(secret);
  });

  it('finds the definition of a frame\'s function that more files call than the search keeps', async () => {
    const files: Record<string, string> = { 'zz/def.ts': 'export function beta(x: number) {\n  return x;\n}\n' };
    for (let i = 1; i <= 420; i++) files[`src/u${i}.ts`] = `export const v${i} = beta(${i});\n`;
    const wide = makeRepo(files, { git: false });
    try {
      const result = await locate('Error: x\n    at beta (/ci/o/bundle.js:1:1)', { root: wide.root, cache: false, historyDepth: 0 });
      expect(result.candidates[0]).toMatchObject({ path: 'zz/def.ts', line: 1 });
    } finally {
      wide.cleanup();
    }
  });

  it('keeps the file but not a line it does not have: line 0, past its end, 1e+23 (the function the frame names is pointed at instead, when it is found)', async () => {
    for (const line of ['0', '999', '99999999999999999999999']) {
      const result = await run(`TypeError: x\n    at parseQuery (/srv/app/lib/query.js:${line}:1)`);
      expect(result.candidates[0]!.path).toBe('lib/query.js');
      expect(result.candidates[0]!.line ?? 1).toBe(1);
      expect(result.candidates[0]!.reason).not.toMatch(new RegExp(`line ${line}\\b|line 1e`));
    }
  });

  it('returns at most five suspects, confidences in 0–1 and descending', async () => {
    const result = await run(Object.values(TRACES).join('\n\n'));
    expect(result.candidates.length).toBe(5);
    const confidences = result.candidates.map((c) => c.confidence);
    expect(confidences.every((c) => c > 0 && c <= 1)).toBe(true);
    expect([...confidences].sort((a, b) => b - a)).toEqual(confidences);
  });
});

describe('locate: git history', () => {
  const makeTempRepo = useTempRepos();
  const commit = (repo: TempRepo, message: string, files: Record<string, string>): void => {
    for (const [path, content] of Object.entries(files)) repo.write(path, content);
    execFileSync('git', ['add', '-A'], { cwd: repo.root });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', message], { cwd: repo.root });
  };
  // Two files the trace names equally (the same bare name in two directories): history decides.
  const TRACE = ['==1==ERROR: AddressSanitizer: SEGV on unknown address 0x0', '    #0 0x4c1a2b in read_slot util.c:2:3'].join('\n');
  const utilFile = (n: number): string => `int read_slot(int *p) {\n  return p[${n}];\n}\n`;

  it('breaks a tie toward the file changed recently and often, and says so', async () => {
    const repo = makeTempRepo({ 'a/util.c': utilFile(0), 'b/util.c': utilFile(0) });
    commit(repo, 'both', {});
    commit(repo, 'fix b', { 'b/util.c': utilFile(1) });
    commit(repo, 'fix b again', { 'b/util.c': utilFile(2) });
    const result = await locate(TRACE, { root: repo.root, cache: false });
    expect(result.historyCommits).toBe(3);
    expect(result.candidates.map((c) => c.path)).toEqual(['b/util.c', 'a/util.c']);
    expect(result.candidates[0]!.reason).toContain('changed in the latest commit, in 3 of the last 3');
    expect(result.candidates[0]!.confidence).toBeGreaterThan(result.candidates[1]!.confidence);
  });

  it('reads no more commits than --history-depth, and none at 0', async () => {
    const repo = makeTempRepo({ 'a/util.c': utilFile(0), 'b/util.c': utilFile(0) });
    commit(repo, 'one', {});
    commit(repo, 'two', { 'b/util.c': utilFile(1) });
    expect((await locate(TRACE, { root: repo.root, cache: false, historyDepth: 1 })).historyCommits).toBe(1);
    expect((await locate(TRACE, { root: repo.root, cache: false, historyDepth: 0 })).historyCommits).toBe(0);
  });

  it('names as hotspots only files the run lists: not deleted, ignored or another repository\'s', async () => {
    const other = makeTempRepo({ 'secret.ts': 'export const s = 1;\n' });
    commit(other, 'other', {});
    const repo = makeTempRepo({ 'src/hot.c': 'int hot;\n', 'src/gone.c': 'int gone;\n', 'build/out.c': 'int out;\n', '.gitignore': 'build/\n' });
    execFileSync('git', ['add', '-f', 'build/out.c'], { cwd: repo.root });
    commit(repo, 'one', {});
    execFileSync('git', ['rm', '-q', 'src/gone.c'], { cwd: repo.root });
    commit(repo, 'two', { 'src/hot.c': 'int hot = 1;\n', 'build/out.c': 'int out = 1;\n' });
    const hotspots = (await locate('Segmentation fault (core dumped)', { root: repo.root, cache: false })).candidates.map((c) => c.path);
    expect(hotspots).toEqual(['src/hot.c']);
    // a root whose `.git` is a file leading to another repository: none of that one's files
    const led = makeTempRepo({ 'src/a.ts': 'export const a = 1;\n' }, { git: false });
    led.write('.git', `gitdir: ${join(other.root, '.git')}\n`);
    const result = await locate('Segmentation fault (core dumped)', { root: led.root, cache: false });
    expect(result.candidates.map((c) => c.path)).not.toContain('secret.ts');
  });

  it('names recent hotspots, with low confidence, when nothing in the text points into the repository', async () => {
    const repo = makeTempRepo({ 'src/hot.c': 'int hot;\n', 'src/cold.c': 'int cold;\n', 'README.md': '# r\n' });
    commit(repo, 'one', {});
    commit(repo, 'two', { 'src/hot.c': 'int hot = 1;\n', 'README.md': '# r2\n' });
    const result = await locate('Segmentation fault (core dumped)', { root: repo.root, cache: false });
    expect(result.candidates.map((c) => c.path)).toEqual(['src/hot.c', 'src/cold.c']);
    expect(result.candidates[0]!.confidence).toBeLessThan(0.3);
    expect(result.candidates[0]!.reason).toMatch(/^no frame or message points into the repository/);
  });

  it('works without history outside a git repository, and refuses empty text', async () => {
    const repo = makeTempRepo({ 'src/util.c': utilFile(0) }, { git: false });
    const result = await locate(TRACE, { root: repo.root, cache: false });
    expect(result.historyCommits).toBe(0);
    expect(result.candidates[0]!.path).toBe('src/util.c');
    await expect(locate('  \n', { root: repo.root, cache: false })).rejects.toMatchObject({ code: 'no_task' });
  });
});

describe('locate on a log of one bare file name, 20,000 times, in a repository of many such files', () => {
  const repo = useTempRepos();
  it('answers at once from the frames that point somewhere (30 s and 2.6 GB; past 20,000 files, out of heap)', async () => {
    const files: Record<string, string> = { 'src/parse.ts': 'export function parseConfig(text: string) {\n  return JSON.parse(text);\n}\n' };
    for (let i = 0; i < 300; i++) files[`pkg${i}/index.ts`] = `export const n${i} = ${i};\n`;
    const r = repo(files);
    const trace = ['Error: bad config', ...Array.from({ length: 20_000 }, () => '    at f (index.ts:1:1)'), '    at parseConfig (src/parse.ts:2:15)'].join('\n');
    const started = performance.now();
    const result = await locate(trace, { root: r.root, cache: false, historyDepth: 0 });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(result.candidates[0]).toMatchObject({ path: 'src/parse.ts', line: 2 });
  }, 30_000);
});

