import { makeDef, type Def, type Source } from '../source.js';

const KEYWORDS = /(?<![\w.:])(function|if|do|repeat|end|until)(?![\w])/g;
const NAMED = /^\s*(?:local\s+)?function\s+(?<name>[\w.:]+)|^\s*(?:local\s+)?(?<assigned>[\w.]+)\s*=\s*function\b/;

/**
 * Lua by `end` matching: `function`, `if`, `do` (which also closes `for`/`while` headers) open a
 * block, `repeat` opens one closed by `until`. `function M.f` / `M:f` are methods of `M`.
 */
export function extractLua(src: Source): Def[] {
  const defs: Def[] = [];
  const stack: Array<{ line: number; name?: string }> = [];
  for (let k = 0; k < src.lines.length; k++) {
    const line = src.lines[k]!;
    if (src.inside[k]) continue;
    for (const m of line.matchAll(KEYWORDS)) {
      const word = m[1]!;
      if (word === 'end' || word === 'until') {
        const block = stack.pop();
        if (block?.name) defs.push(toDef(block.name, block.line, k));
        continue;
      }
      const named = word === 'function' ? NAMED.exec(line) : null;
      const name = named && stack.every((b) => !b.name) ? (named.groups?.name ?? named.groups?.assigned) : undefined;
      stack.push(name ? { line: k, name } : { line: k });
    }
  }
  for (const block of stack) if (block.name) defs.push(toDef(block.name, block.line, src.lines.length - 1));
  return defs;
}

function toDef(qualified: string, start: number, end: number): Def {
  const cut = Math.max(qualified.lastIndexOf('.'), qualified.lastIndexOf(':'));
  if (cut < 0) return makeDef(qualified, 'function', start, end, start);
  const owner = qualified.slice(0, cut);
  return makeDef(qualified.slice(cut + 1), 'method', start, end, start, owner.slice(owner.lastIndexOf('.') + 1));
}
