import { indentOf, isBlank, makeDef, type Def, type Source } from '../source.js';

const DEF = /^(\s*)(?:async\s+)?(def|class)\s+([A-Za-z_]\w*)/;
const ASSIGN = /^([A-Za-z_]\w*)\s*(?::[^=]*)?=(?!=)/;

/** Starts a logical line: not inside a string, not inside brackets, not after a backslash. */
function isLogicalStart(src: Source, k: number): boolean {
  if (src.inside[k] || src.depth[k]! > 0 || isBlank(src.lines[k])) return false;
  return k === 0 || !/\\\s*$/.test(src.lines[k - 1]!);
}

/**
 * Last line of a block opened at `header` with indentation `indent`: the block runs until a
 * logical line indented no deeper. Comment lines count only when indented inside the block, so a
 * comment introducing the next function stays out.
 */
function blockEnd(src: Source, header: number, indent: number): number {
  let last = header;
  for (let k = header + 1; k < src.lines.length; k++) {
    if (isBlank(src.raw[k])) continue;
    const logical = isLogicalStart(src, k);
    if (logical && indentOf(src.lines[k]!) <= indent) break;
    const isComment = !logical && !src.inside[k] && src.depth[k] === 0 && isBlank(src.lines[k]);
    if (!isComment || indentOf(src.raw[k]!) > indent) last = k;
  }
  return last;
}

/** Decorators directly above (same indentation) belong to the definition. */
function decoratorStart(src: Source, header: number, indent: number): number {
  let start = header;
  for (let k = header - 1; k >= 0; k--) {
    if (isBlank(src.raw[k])) break;
    if (!isLogicalStart(src, k)) continue;
    const line = src.lines[k]!;
    if (indentOf(line) !== indent || line.trimStart()[0] !== '@') break;
    start = k;
  }
  return start;
}

function statementEnd(src: Source, header: number): number {
  let end = header;
  for (let k = header + 1; k < src.lines.length; k++) {
    if (isLogicalStart(src, k)) break;
    if (!isBlank(src.raw[k]) && (src.inside[k] || src.depth[k]! > 0 || /\\\s*$/.test(src.lines[k - 1]!))) end = k;
  }
  return end;
}

export function extractPython(src: Source): Def[] {
  const defs: Def[] = [];
  const open: Array<{ indent: number; name: string; kind: Def['kind'] }> = [];
  for (let k = 0; k < src.lines.length; k++) {
    if (!isLogicalStart(src, k)) continue;
    const line = src.lines[k]!;
    const indent = indentOf(line);
    while (open.length > 0 && open[open.length - 1]!.indent >= indent) open.pop();
    const m = DEF.exec(line);
    if (m) {
      const owner = open[open.length - 1];
      const kind = m[2] === 'class' ? 'class' : owner?.kind === 'class' ? 'method' : 'function';
      defs.push(makeDef(m[3]!, kind, decoratorStart(src, k, indent), blockEnd(src, k, indent), k, owner?.name));
      open.push({ indent, name: m[3]!, kind });
      continue;
    }
    const a = indent === 0 ? ASSIGN.exec(line) : null;
    if (a) {
      const name = a[1]!;
      const kind = /^[A-Z][A-Z0-9_]*$/.test(name) ? 'constant' : 'variable';
      defs.push(makeDef(name, kind, k, statementEnd(src, k), k));
    }
  }
  return defs;
}
