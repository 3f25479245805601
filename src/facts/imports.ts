import type { Source } from './source.js';

/** A specifier and where it was written (an offset), so finders can be merged in file order. */
type Found = [at: number, specifier: string];
type Finder = (raw: string, src: Source) => Found[];

/** Matches of `re` (global) over the raw text whose first character is code, not comment or string. */
function matchCode(raw: string, src: Source, re: RegExp, group: number): Found[] {
  const out: Found[] = [];
  for (const m of raw.matchAll(re)) {
    const at = m.index;
    if (src.text[at] !== raw[at]) continue;
    const value = m[group]?.trim();
    if (value) out.push([at, value]);
  }
  return out;
}

/** Masked lines matching `re` (not global), captured group. */
function matchLines(src: Source, re: RegExp, clean: (s: string) => string = (s) => s): Found[] {
  const out: Found[] = [];
  for (let k = 0; k < src.lines.length; k++) {
    if (src.inside[k]) continue;
    const m = re.exec(src.lines[k]!);
    if (m?.[1]) out.push([src.lineStart[k]!, clean(m[1].trim())]);
  }
  return out;
}

const QUOTED = String.raw`(['"])([^'"\n]+)\1`;

const javascript: Finder = (raw, src) => [
  ...matchCode(raw, src, new RegExp(String.raw`\bimport\s+(?:type\s+)?(?:[\w$*\s{},]{0,2000}?\bfrom\s*)?${QUOTED}`, 'g'), 2),
  ...matchCode(raw, src, new RegExp(String.raw`\bexport\s+(?:type\s+)?(?:\*(?:\s+as\s+[\w$]+)?|\{[^}]{0,2000}\})\s*from\s*${QUOTED}`, 'g'), 2),
  ...matchCode(raw, src, new RegExp(String.raw`\b(?:require|import)\s*\(\s*${QUOTED}\s*\)`, 'g'), 2),
];

const python: Finder = (_raw, src) => {
  const out: Found[] = [];
  for (let k = 0; k < src.lines.length; k++) {
    if (src.inside[k] || src.depth[k]! > 0) continue;
    const line = src.lines[k]!;
    const from = /^\s*from\s+(\.+[\w.]*|[\w.]+)\s+import\b/.exec(line);
    if (from) out.push([src.lineStart[k]!, from[1]!]);
    const plain = /^\s*import\s+([\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*)/.exec(line);
    if (plain) for (const part of plain[1]!.split(',')) out.push([src.lineStart[k]!, part.trim().split(/\s+/)[0]!]);
  }
  return out;
};

const go: Finder = (raw, src) => {
  const out: Found[] = [];
  for (const m of raw.matchAll(/\bimport\s*\(([^)]*)\)/g)) {
    if (src.text[m.index] !== 'i') continue;
    for (const spec of m[1]!.matchAll(/^\s*(?:[\w.]+\s+)?["`]([^"`\n]+)["`]/gm)) out.push([m.index + spec.index, spec[1]!]);
  }
  return [...out, ...matchCode(raw, src, /\bimport\s+(?:[\w.]+\s+)?["`]([^"`\n]+)["`]/g, 1)];
};

const rust: Finder = (_raw, src) => [
  ...matchLines(src, /^\s*(?:pub(?:\s*\([^)]*\))?\s+)?use\s+(?:::)?([\w:]+)/, (path) => path.replace(/:+$/, '')),
  ...matchLines(src, /^\s*(?:pub(?:\s*\([^)]*\))?\s+)?mod\s+(\w+)\s*;/),
  ...matchLines(src, /^\s*extern\s+crate\s+(\w+)/),
];

const jvm: Finder = (_raw, src) => matchLines(src, /^\s*import\s+(?:static\s+)?([\w.]+(?:\.\*)?)/, (path) => path.replace(/\.$/, ''));

const FINDERS: Record<string, Finder> = {
  typescript: javascript,
  javascript,
  vue: javascript,
  svelte: javascript,
  python,
  go,
  rust,
  java: jvm,
  kotlin: jvm,
  scala: jvm,
  groovy: jvm,
  csharp: (_raw, src) => matchLines(src, /^\s*(?:global\s+)?using\s+(?:static\s+)?(?:\w+\s*=\s*)?([\w.]+)\s*;/),
  c: (raw, src) => matchCode(raw, src, /^[ \t]*#[ \t]*(?:include|import)[ \t]*"([^"\n]+)"/gm, 1),
  ruby: (raw, src) => matchCode(raw, src, new RegExp(String.raw`\b(?:require|require_relative|load)\b\s*\(?\s*${QUOTED}`, 'g'), 2),
  php: (raw, src) => [
    ...matchLines(src, /^\s*use\s+(?:function\s+|const\s+)?\\?([\w\\]+)/, (path) => path.replace(/\\$/, '')),
    ...matchCode(raw, src, new RegExp(String.raw`\b(?:require|include)(?:_once)?\b\s*\(?\s*${QUOTED}`, 'g'), 2),
  ],
  lua: (raw, src) => matchCode(raw, src, new RegExp(String.raw`\brequire\b\s*\(?\s*${QUOTED}`, 'g'), 2),
  swift: (_raw, src) => matchLines(src, /^\s*(?:@\w+\s+)?import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([\w.]+)/),
  dart: (raw, src) => matchCode(raw, src, new RegExp(String.raw`\b(?:import|export)\s+${QUOTED}`, 'g'), 2),
  shell: (raw, src) => matchCode(raw, src, /^[ \t]*(?:source|\.)[ \t]+["']?([^\s"';]+)/gm, 1),
};
FINDERS.cpp = FINDERS.c!;
FINDERS.objc = FINDERS.c!;

/** Import specifiers as written, in order of first appearance. */
export function findImports(language: string, raw: string, src: Source): string[] {
  const finder = FINDERS[language];
  if (!finder) return [];
  const found = finder(raw, src).sort((a, b) => a[0] - b[0]);
  return [...new Set(found.map(([, specifier]) => specifier))];
}
