/** What a path says about a file, before anyone reads it. Pure functions on root-relative POSIX paths. */
import { sep } from 'node:path';

const LANGUAGES: Record<string, string> = {
  ts: 'typescript', tsx: 'typescript', mts: 'typescript', cts: 'typescript',
  js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript',
  py: 'python', pyi: 'python',
  go: 'go',
  rs: 'rust',
  java: 'java', kt: 'kotlin', kts: 'kotlin', scala: 'scala', groovy: 'groovy',
  c: 'c', h: 'c',
  cc: 'cpp', cpp: 'cpp', cxx: 'cpp', hpp: 'cpp', hh: 'cpp', hxx: 'cpp',
  cs: 'csharp',
  rb: 'ruby',
  php: 'php',
  swift: 'swift',
  m: 'objc', mm: 'objc',
  lua: 'lua',
  sh: 'shell', bash: 'shell', zsh: 'shell',
  pl: 'perl', pm: 'perl',
  ex: 'elixir', exs: 'elixir', erl: 'erlang',
  hs: 'haskell', ml: 'ocaml', mli: 'ocaml', fs: 'fsharp',
  dart: 'dart', r: 'r', jl: 'julia', zig: 'zig', nim: 'nim', v: 'v',
  vue: 'vue', svelte: 'svelte',
  sql: 'sql', proto: 'proto', graphql: 'graphql', gql: 'graphql',
  css: 'css', scss: 'css', less: 'css', html: 'html', htm: 'html',
  y: 'yacc', l: 'lex',
};

const DOC_EXTENSIONS = new Set(['md', 'markdown', 'rst', 'txt', 'adoc', 'asciidoc', 'org', 'rdoc', 'pod', 'tex', 'man', '1', '2', '3', '5', '7', '8', 'ronn']);
const DATA_EXTENSIONS = new Set(['json', 'jsonc', 'json5', 'yaml', 'yml', 'toml', 'ini', 'cfg', 'conf', 'xml', 'csv', 'tsv', 'lock', 'properties', 'plist', 'svg', 'snap', 'ipynb', 'env']);
const DOC_NAMES = /^(?:readme|changelog|changes|history|news|authors|contributors|contributing|license|licence|copying|notice|code_of_conduct|security|support|todo|install|upgrading|migration)(?:\.|$)/i;

export function extensionOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

export function basenameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Language id by extension, `text` when unknown. */
export function languageOf(path: string): string {
  const base = basenameOf(path);
  if (/^(?:Makefile|GNUmakefile|.*\.mk)$/.test(base)) return 'make';
  if (base === 'Dockerfile') return 'docker';
  if (base === 'CMakeLists.txt') return 'cmake';
  return LANGUAGES[extensionOf(path)] ?? 'text';
}

export type FileKind = 'code' | 'test' | 'example' | 'doc' | 'generated' | 'config' | 'data' | 'tooling' | 'form' | 'declaration';

const TEST_DIR = /(?:^|\/)(?:tests?|__tests__|__mocks__|spec|specs|testing|testdata|test_data|fixtures?|e2e|integration[-_]tests?|unittests?|benches|benchmarks?|bench)(?:\/|$)/i;
/**
 * Test projects and modules named for what they test: .NET's `Newtonsoft.Json.Tests/` and
 * `….FuzzTests/`, `moshi-kotlin-tests/` (plural: `playwright-test/`, `ab-test/` and `test-runner/`
 * are products); and Kotlin's test source sets (`commonTest/`, `jvmTest/`, case as written).
 */
const TEST_PROJECT = /(?:^|\/)(?:[^/]*\.(?:Unit|Integration|Functional|Fuzz|E2E)?Tests?|[^/]*[-_](?:unit|integration|functional|fuzz|e2e)?tests)(?:\/|$)/;
const TEST_SOURCE_SET = /(?:^|\/)(?:common|jvm|js|native|android|androidUnit|androidInstrumented|ios|wasm|wasmJs|desktop|linux|macos|mingw|apple)Test(?:\/|$)/;
const TEST_FILE = /(?:^test_.*|.*_test\.[a-z]+|.*[._-](?:test|spec|tests|specs)\.[a-z]+|.*Tests?\.(?:java|kt|cs|scala|swift|php)|conftest\.py)$/;
const EXAMPLE_DIR = /(?:^|\/)(?:examples?|samples?|demos?|playground|sandbox|tutorials?|cookbook)(?:\/|$)/i;
const DOC_DIR = /(?:^|\/)(?:docs?|documentation|man|website|site)(?:\/|$)/i;
const GENERATED = /(?:\.pb\.go|_pb2\.py|_pb2_grpc\.py|\.pb\.(?:cc|h)|\.min\.(?:js|css)|\.bundle\.js|\.map|\.generated\.[a-z]+|_generated\.[a-z]+|\.g\.dart)$/i;
const BUILD_DIR = /(?:^|\/)(?:dist|build|out|target|\.next|coverage|node_modules|vendor|third_party|3rdparty|external|bower_components|site-packages|__pycache__)(?:\/|$)/i;
/**
 * The forms issues and pull requests are written in (GitHub, GitLab, Gitea, Forgejo): a task
 * filed through one repeats its headings and prompts ("Describe the bug", "Steps to reproduce",
 * "axios version"), so the form matches any task's scaffolding and never holds the code it needs.
 */
const REPORT_FORM = /(?:^|\/)(?:(?:ISSUE|PULL_REQUEST|MERGE_REQUEST|DISCUSSION)_TEMPLATE(?:\/|\.(?:md|markdown|ya?ml|txt|rst)$|$)|(?:issue|merge_request|pull_request)_templates\/)/i;
/** TypeScript declarations kept in the repository (build output sits in a build directory, above): written by hand, beside the code they describe. */
const DECLARATION = /\.d\.[cm]?ts$/i;
/** Repository housekeeping: CI, issue templates, editor and hook settings live in dot-directories. */
const HIDDEN_DIR = /(?:^|\/)\.[^/]+\//;
/** Languages a repository uses for its build and release chores rather than for the product. */
const TOOLING_LANGUAGES = new Set(['shell', 'make', 'docker', 'cmake']);
const TOOLING_EXTENSIONS = new Set(['bat', 'cmd', 'ps1', 'm4', 'ac', 'am']);
/** Where a repository keeps its product code: a file there with an unknown extension is source in a language we don't list. */
const SOURCE_DIR = /(?:^|\/)(?:src|lib)\//;
const CONFIG_FILE = /(?:^|\/)(?:package\.json|tsconfig[^/]*\.json|setup\.(?:py|cfg)|pyproject\.toml|Cargo\.toml|go\.mod|go\.sum|pom\.xml|build\.gradle(?:\.kts)?|Makefile|CMakeLists\.txt|\.[a-z]+rc(?:\.[a-z]+)?|[^/]*\.conf(?:ig)?\.[cm]?[jt]s|(?:gulpfile|gruntfile)\.[cm]?[jt]s)$/i;

/** What a file is, from its path: code ranks above tests, examples, docs and generated files. */
export function fileKindOf(path: string): FileKind {
  const base = basenameOf(path);
  const ext = extensionOf(path);
  if (GENERATED.test(path) || BUILD_DIR.test(path)) return 'generated';
  if (REPORT_FORM.test(path)) return 'form';
  if (DECLARATION.test(base)) return 'declaration';
  if (HIDDEN_DIR.test(path)) return 'tooling';
  if (DOC_NAMES.test(base) || DOC_EXTENSIONS.has(ext)) return 'doc';
  if (TEST_FILE.test(base) || TEST_DIR.test(path) || TEST_PROJECT.test(path) || TEST_SOURCE_SET.test(path)) return 'test';
  if (CONFIG_FILE.test(path)) return 'config';
  if (EXAMPLE_DIR.test(path)) return 'example';
  if (DOC_DIR.test(path) && !(ext in LANGUAGES)) return 'doc';
  if (DOC_DIR.test(path)) return 'example';
  if (DATA_EXTENSIONS.has(ext)) return 'data';
  if (TOOLING_LANGUAGES.has(languageOf(path)) || TOOLING_EXTENSIONS.has(ext)) return 'tooling';
  if (ext in LANGUAGES) return 'code';
  if (SOURCE_DIR.test(path)) return 'code';
  // Outside the source tree, a file with no extension is an executable script; an unknown one is data.
  return base.includes('.') ? 'data' : 'tooling';
}

/** Path without extension: `src/auth/verify.ts` → `src/auth/verify`. */
export function stripExtension(path: string): string {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  return dot > slash + 1 ? path.slice(0, dot) : path;
}

const INDEX_NAMES = /^(?:index|__init__|mod|main|lib)$/;

/**
 * Whether `file` is what the mention names: the same path, a path ending in `/mention`, the
 * mention without its extension, or the package entry (`index`, `__init__`, `mod`) under it.
 * Returns the number of path segments matched (0 = no match), so longer matches can win.
 */
export function matchPathMention(file: string, mention: string): number {
  const m = mention.replace(/^\.?\/+/, '').replace(/\/+$/, '');
  if (!m) return 0;
  const segments = m.split('/').length;
  if (file === m || file.endsWith('/' + m)) return segments;
  const bare = stripExtension(file);
  if (bare === m || bare.endsWith('/' + m)) return segments;
  const slash = bare.lastIndexOf('/');
  if (slash > 0 && INDEX_NAMES.test(bare.slice(slash + 1))) {
    const dir = bare.slice(0, slash);
    if (dir === m || dir.endsWith('/' + m)) return segments;
  }
  return 0;
}

/**
 * Whether a path from another machine (`home/u/proj/astroid/nodes/x.py`, from a trace) ends in
 * `file`: the reporter's checkout root sits in front of the repository's own path. A file of one
 * segment is too likely to be the reporter's own script (`main.py`), so it never matches this way.
 * Returns the number of segments matched, like `matchPathMention`.
 */
export function matchForeignPath(file: string, mention: string): number {
  const segments = file.split('/').length;
  return segments >= 2 && mention.endsWith('/' + file) ? segments : 0;
}

/**
 * Root-relative POSIX form of a path as the platform writes it (leading `./` dropped): Windows
 * backslashes turned; elsewhere a backslash is part of a name (`back\slash.ts` is one file).
 */
export function toPosix(path: string, separator: string = sep): string {
  return (separator === '\\' ? path.replace(/\\/g, '/') : path).replace(/^\.\/+/, '');
}

/** Finds the files a path mention can name without testing every file: by last segment. */
export interface PathIndex {
  /**
   * Files that best match the mention (longest suffix), in file-list order; empty when none.
   * With `foreign`, a path from another machine also matches the file at its tail (matchForeignPath).
   */
  lookup(mention: string, options?: { foreign?: boolean }): string[];
}

const indexes = new WeakMap<readonly string[], PathIndex>();

/** An index over a file list, built once per list (lists are immutable once made). */
export function pathIndexOf(files: readonly string[]): PathIndex {
  let index = indexes.get(files);
  if (index) return index;
  const byKey = new Map<string, string[]>();
  const add = (key: string, file: string): void => {
    const list = byKey.get(key);
    if (list) list.push(file);
    else byKey.set(key, [file]);
  };
  for (const file of files) {
    const bare = stripExtension(file);
    const slash = bare.lastIndexOf('/');
    const name = bare.slice(slash + 1);
    add(name, file);
    const full = basenameOf(file);
    if (full !== name) add(full, file);
    // A package entry (`pkg/__init__.py`, `dir/index.ts`) is also named by its directory.
    if (slash > 0 && INDEX_NAMES.test(name)) add(bare.slice(bare.lastIndexOf('/', slash - 1) + 1, slash), file);
  }
  index = {
    lookup(mention, options = {}) {
      const m = mention.replace(/^\.?\/+/, '').replace(/\/+$/, '');
      const last = m.slice(m.lastIndexOf('/') + 1);
      const pool = new Set([...(byKey.get(last) ?? []), ...(byKey.get(stripExtension(last)) ?? [])]);
      let best = 0;
      let found: string[] = [];
      for (const file of pool) {
        const n = Math.max(matchPathMention(file, m), options.foreign ? matchForeignPath(file, m) : 0);
        if (n > best) [best, found] = [n, [file]];
        else if (n === best && n > 0) found.push(file);
      }
      return found;
    },
  };
  indexes.set(files, index);
  return index;
}
