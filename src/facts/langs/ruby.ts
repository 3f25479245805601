import { makeDef, type Def, type Source } from '../source.js';

const KEYWORDS = /(?<![\w.:$@])(def|class|module|if|unless|while|until|case|begin|for|do|end)(?![\w?!:])/g;
const DEF = /^\s*def\s+(?:(?:self|[\w:]+)\.)?(?<name>[\w]+[?!=]?|[^\s(;]+)/;
const ENDLESS_DEF = /^\s*def\s+[^\s(=]+(?:\([^)]*\))?\s*=(?![=~>])/;
const CLASS = /^\s*(?<kw>class|module)\s+(?!<<)(?<name>[\w:]+)/;

/** A modifier `if`/`unless`/`while`/`until` follows a value on the same line and opens no block. */
function opensBlock(line: string, at: number): boolean {
  const before = line.slice(0, at).trimEnd();
  return before === '' || /(?:[=(,;&|?:[{!]|\b(?:and|or|not|then|else))$/.test(before);
}

interface Block {
  line: number;
  kind: 'def' | 'class' | 'module' | 'other';
}

/**
 * Ruby by `end` matching: `def`, `class`, `module`, `do`, `begin`, `case`, `for` and statement
 * (not modifier) `if`/`unless`/`while`/`until` open a block; `end` closes the innermost.
 */
export function extractRuby(src: Source): Def[] {
  const defs: Def[] = [];
  const stack: Block[] = [];
  const names: Array<{ name: string; kind: Def['kind']; header: number; parentIndex: number }> = [];
  const owners: number[] = [];
  for (let k = 0; k < src.lines.length; k++) {
    const line = src.lines[k]!;
    if (src.inside[k] || !/[a-z]/.test(line)) continue;
    let loopOnLine = false;
    for (const m of line.matchAll(KEYWORDS)) {
      const word = m[1]!;
      if (word === 'end') {
        const block = stack.pop();
        if (block && block.kind !== 'other') {
          const entry = names[owners.pop()!]!;
          const parent = entry.parentIndex >= 0 ? names[entry.parentIndex]!.name : undefined;
          defs.push(makeDef(entry.name, entry.kind, entry.header, k, entry.header, parent));
        }
        continue;
      }
      if (word === 'do' && loopOnLine) continue;
      if ((word === 'if' || word === 'unless' || word === 'while' || word === 'until') && !opensBlock(line, m.index)) continue;
      if (word === 'while' || word === 'until' || word === 'for') loopOnLine = true;
      if (word === 'def' && ENDLESS_DEF.test(line)) continue;
      const named = word === 'def' ? DEF.exec(line) : word === 'class' || word === 'module' ? CLASS.exec(line) : null;
      if (!named?.groups?.name || (word !== 'def' && m.index !== line.search(/\S/))) {
        stack.push({ line: k, kind: 'other' });
        continue;
      }
      const owner = owners.length > 0 ? owners[owners.length - 1]! : -1;
      const ownerKind = owner >= 0 ? names[owner]!.kind : undefined;
      const kind = word === 'module' ? 'module' : word === 'class' ? 'class' : ownerKind === 'class' || ownerKind === 'module' ? 'method' : 'function';
      names.push({ name: named.groups.name, kind, header: k, parentIndex: owner });
      owners.push(names.length - 1);
      stack.push({ line: k, kind: word as Block['kind'] });
    }
  }
  // Unclosed definitions (unbalanced input) run to the end of the file.
  while (owners.length > 0) {
    const entry = names[owners.pop()!]!;
    const parent = entry.parentIndex >= 0 ? names[entry.parentIndex]!.name : undefined;
    defs.push(makeDef(entry.name, entry.kind, entry.header, src.lines.length - 1, entry.header, parent));
  }
  return defs;
}
