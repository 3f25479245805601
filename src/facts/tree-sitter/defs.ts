import type { SymbolDef } from '../../core/types.js';
import { joinQualified } from '../qualified.js';
import type { Node, QueryMatch } from './runtime.js';
import type { TreeSpec } from './spec.js';

const DEFAULT_OWNERS: ReadonlySet<string> = new Set(['class', 'struct', 'interface', 'trait', 'enum']);
const FUNCTION_KINDS: ReadonlySet<string> = new Set(['function', 'method']);
const VALUE_KINDS: ReadonlySet<string> = new Set(['variable', 'constant']);

/** A captured definition (or a `@scope` container) before nesting is known. */
interface Found {
  node: Node;
  kind: SymbolDef['kind'] | 'scope';
  name: string;
  parent?: string;
}

interface Open {
  end: number;
  kind: Found['kind'];
  name: string;
  qualified: string;
}

/**
 * Definitions of a parsed file: each query match becomes one definition (the first pattern wins
 * when several match a node), nested by containment. Parents and qualified names come from the
 * enclosing definitions; functions directly in a class-like owner are methods; values and, unless
 * the language nests them (Python, Ruby), definitions inside function bodies are left out, as the
 * pattern extractor leaves them out.
 */
export function findDefs(spec: TreeSpec, matches: readonly QueryMatch[]): SymbolDef[] {
  const found = captureDefs(spec, matches);
  const sep = spec.separator ?? '.';
  const owners = spec.methodOwners ? new Set<string>(spec.methodOwners) : DEFAULT_OWNERS;
  const out: SymbolDef[] = [];
  const open: Open[] = [];
  for (const item of found) {
    while (open.length > 0 && open[open.length - 1]!.end <= item.node.startIndex) open.pop();
    const enclosing = open[open.length - 1];
    const inFunction = open.some((o) => FUNCTION_KINDS.has(o.kind));
    if (inFunction && !spec.nested) continue;
    if (VALUE_KINDS.has(item.kind) && open.some((o) => o.kind !== 'module' && o.kind !== 'scope')) continue;
    let { name } = item;
    let parent = item.parent;
    let kind = item.kind;
    let prefix = enclosing?.qualified;
    if (spec.scopedNames && name.includes('::')) {
      const cut = name.lastIndexOf('::');
      const owner = name.slice(0, cut);
      const outer = owner.lastIndexOf('::');
      parent = outer < 0 ? owner : owner.slice(outer + 2);
      prefix = joinQualified(prefix, sep, owner);
      name = name.slice(cut + 2);
      if (kind === 'function') kind = 'method';
    } else if (parent !== undefined) {
      prefix = parent;
    } else if (enclosing) {
      parent = enclosing.name;
    }
    if (kind === 'function' && enclosing && (enclosing.kind === 'scope' || owners.has(enclosing.kind)) && parent === enclosing.name) kind = 'method';
    const qualified = joinQualified(prefix, sep, name);
    open.push({ end: item.node.endIndex, kind, name, qualified });
    if (kind === 'scope') continue;
    const def: SymbolDef = { name, kind, start: startLine(item.node, spec), end: endLine(item.node), qualified };
    if (parent) def.parent = parent;
    out.push(def);
  }
  return out;
}

function captureDefs(spec: TreeSpec, matches: readonly QueryMatch[]): Found[] {
  const byNode = new Map<number, { found: Found; pattern: number }>();
  for (const match of matches) {
    const def = match.captures.find((c) => c.name.startsWith('def.') || c.name === 'scope');
    if (!def) continue;
    const seen = byNode.get(def.node.id);
    if (seen && seen.pattern <= match.patternIndex) continue;
    const nameNode = match.captures.find((c) => c.name === 'name')?.node ?? spec.nameOf?.(def.node);
    const rawName = nameNode?.text.trim() || 'default';
    const rawKind = def.name === 'scope' ? 'scope' : def.name.slice(4);
    const refined = rawKind === 'scope' ? { kind: 'scope' as const, name: rawName } : spec.refine ? spec.refine(rawKind, def.node, rawName) : { kind: rawKind as SymbolDef['kind'], name: rawName };
    if (!refined) {
      byNode.delete(def.node.id);
      continue;
    }
    const found: Found = { node: def.node, kind: refined.kind, name: refined.name };
    const parent = ('parent' in refined ? refined.parent : undefined) ?? match.captures.find((c) => c.name === 'parent')?.node.text;
    if (parent) found.parent = parent;
    byNode.set(def.node.id, { found, pattern: match.patternIndex });
  }
  // Outer before inner: containment is then a stack.
  return [...byNode.values()].map((v) => v.found).sort((a, b) => a.node.startIndex - b.node.startIndex || b.node.endIndex - a.node.endIndex);
}

/** 1-based first line: wrappers holding only this definition (export, decorators) and attribute lines above count. */
function startLine(node: Node, spec: TreeSpec): number {
  let top = node;
  const wrappers = spec.wrappers;
  while (wrappers && top.parent && wrappers.includes(top.parent.type) && holdsOnly(top.parent, top.type)) top = top.parent;
  let row = top.startPosition.row;
  if (spec.prefixes) {
    for (let prev = top.previousNamedSibling; prev && spec.prefixes.includes(prev.type) && prev.endPosition.row >= row - 1; prev = prev.previousNamedSibling) row = prev.startPosition.row;
  }
  return row + 1;
}

/** A wrapper counts when no sibling of the same type shares it (`type ( A …; B … )` does not). */
function holdsOnly(wrapper: Node, type: string): boolean {
  let same = 0;
  for (const child of wrapper.namedChildren) if (child?.type === type && ++same > 1) return false;
  return true;
}

/** 1-based last line; a node ending at column 0 (a `#define` with its newline) ends on the line before. */
function endLine(node: Node): number {
  const { row, column } = node.endPosition;
  return (column === 0 && row > node.startPosition.row ? row - 1 : row) + 1;
}
