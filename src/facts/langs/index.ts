import type { Def, Source } from '../source.js';
import { C } from './c.js';
import { CSHARP } from './csharp.js';
import { extractElixir } from './elixir.js';
import { GO } from './go.js';
import { JAVA, KOTLIN, SCALA } from './jvm.js';
import { extractLua } from './lua.js';
import { PHP } from './php.js';
import { extractPython } from './python.js';
import { extractRuby } from './ruby.js';
import { RUST } from './rust.js';
import { SHELL } from './shell.js';
import { SWIFT } from './swift.js';
import { TYPESCRIPT } from './typescript.js';
import { walkDefs, type LangSpec } from './walk.js';

const BRACE_LANGUAGES: Record<string, LangSpec> = {
  typescript: TYPESCRIPT,
  javascript: TYPESCRIPT,
  go: GO,
  rust: RUST,
  java: JAVA,
  kotlin: KOTLIN,
  scala: SCALA,
  csharp: CSHARP,
  swift: SWIFT,
  c: C,
  cpp: C,
  objc: C,
  php: PHP,
  shell: SHELL,
};

const OWN_EXTRACTORS: Record<string, (src: Source) => Def[]> = {
  python: extractPython,
  ruby: extractRuby,
  lua: extractLua,
  elixir: extractElixir,
};

/** Definitions of a file in a language with an extractor; none for the rest. */
export function extractDefs(language: string, src: Source): Def[] {
  const own = OWN_EXTRACTORS[language];
  if (own) return own(src);
  const spec = BRACE_LANGUAGES[language];
  return spec ? walkDefs(src, spec) : [];
}
