import { C, CPP } from './specs/c.js';
import { CSHARP } from './specs/csharp.js';
import { GO } from './specs/go.js';
import { JAVA } from './specs/java.js';
import { JAVASCRIPT, TYPESCRIPT } from './specs/javascript.js';
import { PHP } from './specs/php.js';
import { PYTHON } from './specs/python.js';
import { RUBY } from './specs/ruby.js';
import { RUST } from './specs/rust.js';
import type { TreeSpec } from './spec.js';

/** A grammar (its wasm file's stem) and how its tree becomes facts. */
export interface GrammarChoice {
  grammar: string;
  spec: TreeSpec;
}

const BY_EXTENSION: Record<string, GrammarChoice> = {};
const add = (extensions: string, grammar: string, spec: TreeSpec): void => {
  for (const ext of extensions.split(' ')) BY_EXTENSION[ext] = { grammar, spec };
};
add('ts mts cts', 'typescript', TYPESCRIPT);
add('tsx', 'tsx', TYPESCRIPT);
add('js jsx mjs cjs', 'javascript', JAVASCRIPT);
add('py pyi', 'python', PYTHON);
add('go', 'go', GO);
add('rs', 'rust', RUST);
add('java', 'java', JAVA);
add('c', 'c', C);
add('cc cpp cxx hpp hh hxx', 'cpp', CPP);
add('cs', 'c_sharp', CSHARP);
add('rb', 'ruby', RUBY);
add('php', 'php', PHP);

const CPP_CHOICE: GrammarChoice = { grammar: 'cpp', spec: CPP };
const C_CHOICE: GrammarChoice = { grammar: 'c', spec: C };
/** C++ only: a `.h` file saying one of these is read with the C++ grammar. */
const CPP_MARKERS = /^\s*(?:class\s+\w+[^;]*$|namespace\b|template\s*<)|\b(?:public|private|protected):|\w::~?\w+\s*\(/m;

/** The grammar for a root-relative path, or undefined when none is bundled (patterns read it). */
export function grammarFor(path: string, text?: string): GrammarChoice | undefined {
  const dot = path.lastIndexOf('.');
  if (dot < 0 || dot < path.lastIndexOf('/')) return undefined;
  const ext = path.slice(dot + 1).toLowerCase();
  if (ext === 'h') return text !== undefined && CPP_MARKERS.test(text) ? CPP_CHOICE : C_CHOICE;
  return BY_EXTENSION[ext];
}
