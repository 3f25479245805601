/** What a path says about a file, before anyone reads it. Pure functions on root-relative POSIX paths. */

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

export type FileKind = 'code' | 'test' | 'example' | 'doc' | 'generated' | 'config' | 'data';

const TEST_DIR = /(?:^|\/)(?:tests?|__tests__|__mocks__|spec|specs|testing|testdata|test_data|fixtures?|e2e|integration[-_]tests?|unittests?|benches|benchmarks?|bench)(?:\/|$)/i;
const TEST_FILE = /(?:^test_.*|.*_test\.[a-z]+|.*[._-](?:test|spec|tests|specs)\.[a-z]+|.*Tests?\.(?:java|kt|cs|scala|swift|php)|conftest\.py)$/;
const EXAMPLE_DIR = /(?:^|\/)(?:examples?|samples?|demos?|playground|sandbox|tutorials?|cookbook)(?:\/|$)/i;
const DOC_DIR = /(?:^|\/)(?:docs?|documentation|man|website|site)(?:\/|$)/i;
const GENERATED = /(?:\.d\.ts|\.pb\.go|_pb2\.py|_pb2_grpc\.py|\.pb\.(?:cc|h)|\.min\.(?:js|css)|\.bundle\.js|\.map|\.generated\.[a-z]+|_generated\.[a-z]+|\.g\.dart)$/i;
const BUILD_DIR = /(?:^|\/)(?:dist|build|out|target|\.next|coverage|node_modules|vendor|third_party|3rdparty|external|bower_components|site-packages|__pycache__)(?:\/|$)/i;
const CONFIG_FILE = /(?:^|\/)(?:package\.json|tsconfig[^/]*\.json|setup\.(?:py|cfg)|pyproject\.toml|Cargo\.toml|go\.mod|go\.sum|pom\.xml|build\.gradle(?:\.kts)?|Makefile|CMakeLists\.txt|\.[a-z]+rc(?:\.[a-z]+)?|[^/]*\.config\.[cm]?[jt]s)$/i;

/** What a file is, from its path: code ranks above tests, examples, docs and generated files. */
export function fileKindOf(path: string): FileKind {
  const base = basenameOf(path);
  const ext = extensionOf(path);
  if (GENERATED.test(path) || BUILD_DIR.test(path)) return 'generated';
  if (DOC_NAMES.test(base) || DOC_EXTENSIONS.has(ext)) return 'doc';
  if (TEST_FILE.test(base) || TEST_DIR.test(path)) return 'test';
  if (CONFIG_FILE.test(path)) return 'config';
  if (EXAMPLE_DIR.test(path)) return 'example';
  if (DOC_DIR.test(path) && !(ext in LANGUAGES)) return 'doc';
  if (DOC_DIR.test(path)) return 'example';
  if (DATA_EXTENSIONS.has(ext)) return 'data';
  if (ext in LANGUAGES || languageOf(path) !== 'text') return 'code';
  return base.includes('.') ? 'data' : 'code';
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

/** Root-relative POSIX form of a path (backslashes turned, leading `./` dropped). */
export function toPosix(path: string): string {
  return path.replace(/\\/g, '/').replace(/^\.\/+/, '');
}
