import { makeDef, type Def, type Source } from '../source.js';

/** Where a keyword may stand: not inside a longer name, after a dot, or as an atom (`:end`) or a module attribute. */
const KEYWORD_START = String.raw`(?<![\w.:@?!])`;
/** `do` (not the `do:` of a one-line body) and `fn` open a block, `end` closes one; never inside a longer name, an atom (`:end`) or a key (`end:`). */
const TOKENS = new RegExp(String.raw`${KEYWORD_START}(do|fn|end)(?![\w?!:])`, 'g');
/** The `do:` of a one-line body (`def f(x), do: x`). */
const ONE_LINE_BODY = new RegExp(String.raw`${KEYWORD_START}do:`);
const MODULE = /^\s*(?<kw>defmodule|defprotocol|defimpl)\s+(?<name>[A-Z][\w.]*)/;
const FUNCTION = /^\s*(?<kw>defp?|defmacrop?|defguardp?|defdelegate|defnp?)\s+(?<name>[a-z_][\w]*[?!]?)/;

interface Open {
  /** Index into `named` of the definition this block's `do` belongs to. */
  owner?: number;
}

interface Named {
  name: string;
  kind: Def['kind'];
  header: number;
  parent: string | undefined;
}

/**
 * Elixir by `end` matching: a definition (`defmodule`, `defprotocol`, `defimpl`, `def`, `defp`,
 * `defmacro`, `defguard`, `defdelegate`) owns the first `do` after its header, on its line or a
 * later one (arguments over several lines), and ends at that block's `end`; one with a one-line
 * body (`def f(x), do: x`) or none (`defdelegate`) ends where the next line of the module starts.
 * Functions belong to the innermost module.
 */
export function extractElixir(src: Source): Def[] {
  const defs: Def[] = [];
  const named: Named[] = [];
  const stack: Open[] = [];
  const modules: string[] = [];
  /** A header still waiting for its `do`. */
  let pending: number | undefined;
  const close = (index: number, end: number): void => {
    const entry = named[index]!;
    defs.push(makeDef(entry.name, entry.kind, entry.header, end, entry.header, entry.parent));
  };
  const settle = (end: number): void => {
    if (pending === undefined) return;
    close(pending, Math.max(named[pending]!.header, end));
    pending = undefined;
  };
  for (let k = 0; k < src.lines.length; k++) {
    const line = src.lines[k]!;
    if (src.inside[k] || !/[a-z]/.test(line)) continue;
    const module = MODULE.exec(line);
    const header = module ?? FUNCTION.exec(line);
    if (header) {
      // a header before this one that found no `do` had a one-line body (or none)
      settle(k - 1);
      named.push({ name: header.groups!.name!, kind: module ? 'module' : 'function', header: k, parent: modules[modules.length - 1] });
      pending = named.length - 1;
      if (header.groups!.kw === 'defdelegate') settle(k);
    }
    // a one-line body, on the header's line or after its arguments
    if (pending !== undefined && ONE_LINE_BODY.test(line)) settle(k);
    for (const m of line.matchAll(TOKENS)) {
      if (m[1] === 'end') {
        const block = stack.pop();
        if (block?.owner !== undefined) {
          close(block.owner, k);
          if (named[block.owner]!.kind === 'module') modules.pop();
        }
        continue;
      }
      if (m[1] === 'do' && pending !== undefined) {
        stack.push({ owner: pending });
        if (named[pending]!.kind === 'module') modules.push(named[pending]!.name);
        pending = undefined;
      } else {
        stack.push({});
      }
    }
  }
  settle(src.lines.length - 1);
  // unclosed definitions (unbalanced input) run to the end of the file
  for (const block of stack.reverse()) if (block.owner !== undefined) close(block.owner, src.lines.length - 1);
  return defs;
}
