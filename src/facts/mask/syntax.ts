/** How a language writes comments and literals: what the masker blanks out before structure is read. */
export interface Syntax {
  lineComments: readonly string[];
  blockComments: ReadonlyArray<readonly [open: string, close: string]>;
  /** Block comments nest (Rust, Swift, Kotlin, Scala). */
  nested?: boolean;
  /** Characters opening a string with backslash escapes. */
  quotes: string;
  /** Characters opening a string without escapes (shell single quotes). */
  rawQuotes?: string;
  /** Plain strings may span lines (Rust, Ruby, PHP, shell). */
  multiline?: boolean;
  /** `'` opens a character literal only when it closes within a few characters (so Rust lifetimes stay code). */
  charQuote?: boolean;
  /** Quote characters that may be tripled (`"""…"""`). */
  triple?: string;
  /** JavaScript template literals with `${…}` expressions. */
  template?: boolean;
  /** JavaScript regular-expression literals. */
  regex?: boolean;
  /** Go raw strings in backticks. */
  backtickRaw?: boolean;
  /** Rust raw strings `r#"…"#`. */
  rustRaw?: boolean;
  /** C# verbatim strings `@"…"`. */
  verbatim?: boolean;
  /** C++ raw strings `R"x(…)x"`. */
  cppRaw?: boolean;
  heredoc?: 'ruby' | 'php' | 'shell';
  /** Lua long brackets `[==[…]==]` and `--[[…]]`. */
  luaLong?: boolean;
  /** Ruby `=begin`…`=end` at line start. */
  rubyDoc?: boolean;
  /** PHP `#[Attribute]` is code, not a comment. */
  hashAttributes?: boolean;
  /** Shell: `#` starts a comment only at a word start. */
  hashAfterSpace?: boolean;
}

const SLASH_COMMENTS = { lineComments: ['//'], blockComments: [['/*', '*/']] } as const;
const C_LIKE: Syntax = { ...SLASH_COMMENTS, quotes: `"'`, charQuote: true };
const JS: Syntax = { ...SLASH_COMMENTS, quotes: `"'`, template: true, regex: true };

const SYNTAXES: Record<string, Syntax> = {
  typescript: JS,
  javascript: JS,
  vue: JS,
  svelte: JS,
  go: { ...C_LIKE, backtickRaw: true },
  rust: { ...C_LIKE, nested: true, rustRaw: true, multiline: true },
  java: { ...C_LIKE, triple: '"' },
  kotlin: { ...C_LIKE, nested: true, triple: '"' },
  scala: { ...C_LIKE, nested: true, triple: '"' },
  groovy: { ...SLASH_COMMENTS, quotes: `"'`, triple: `"'` },
  dart: { ...SLASH_COMMENTS, quotes: `"'`, triple: `"'` },
  c: { ...C_LIKE },
  cpp: { ...C_LIKE, cppRaw: true },
  objc: { ...C_LIKE },
  csharp: { ...C_LIKE, verbatim: true, triple: '"' },
  swift: { ...SLASH_COMMENTS, nested: true, quotes: '"', triple: '"' },
  zig: { lineComments: ['//'], blockComments: [], quotes: `"'`, charQuote: true },
  proto: C_LIKE,
  php: { ...SLASH_COMMENTS, lineComments: ['//', '#'], quotes: `"'`, multiline: true, heredoc: 'php', hashAttributes: true },
  python: { lineComments: ['#'], blockComments: [], quotes: `"'`, triple: `"'` },
  ruby: { lineComments: ['#'], blockComments: [], quotes: `"'\``, multiline: true, heredoc: 'ruby', rubyDoc: true },
  lua: { lineComments: ['--'], blockComments: [], quotes: `"'`, luaLong: true },
  shell: { lineComments: ['#'], blockComments: [], quotes: '"', rawQuotes: "'", multiline: true, heredoc: 'shell', hashAfterSpace: true },
  perl: { lineComments: ['#'], blockComments: [], quotes: `"'`, multiline: true },
  elixir: { lineComments: ['#'], blockComments: [], quotes: `"'`, triple: `"'` },
};

/** The syntax of a language id from `languageOf`, or undefined when it has none worth masking. */
export function syntaxOf(language: string): Syntax | undefined {
  return SYNTAXES[language];
}
