/**
 * Walks calls from definitions, level by level (one name search per level), up through callers
 * and down through callees. A definition already on the chain is reported with
 * `cycle_detected` and not expanded again; depth, fan-out and a node budget bound the walk.
 */
import { throwIfAborted } from '../core/errors.js';
import type { TraceNode } from '../core/types.js';
import type { SymbolLookup } from './lookup.js';
import type { DefSite } from './sites.js';

export type Direction = 'callers' | 'callees' | 'both';

export interface WalkOptions {
  direction: Direction;
  /** Hops from the roots. */
  depth: number;
  /** Children per node and direction at most. */
  fanOut: number;
  /** Nodes in all the trees at most. */
  maxNodes: number;
  signal?: AbortSignal;
}

export interface WalkResult {
  /** One tree per root. */
  trees: TraceNode[];
  /** Every definition reached (roots included), in the order reached. */
  sites: DefSite[];
  truncated: boolean;
}

interface Open {
  node: TraceNode;
  site: DefSite;
  /** Keys of the definitions from the root down to this one (itself included). */
  chain: ReadonlySet<string>;
  /** Which way this branch grows: the roots grow both ways, their children one. */
  ways: ReadonlyArray<'callers' | 'callees'>;
}

/** Definitions meet again by file and name (the line moves as files are edited; the identity does not). */
const keyOf = (site: DefSite): string => `${site.file}#${site.symbol}`;

export async function walkCalls(lookup: SymbolLookup, roots: readonly DefSite[], options: WalkOptions): Promise<WalkResult> {
  const ways = options.direction === 'both' ? (['callers', 'callees'] as const) : ([options.direction] as const);
  const sites: DefSite[] = [];
  const reached = new Set<string>();
  let count = 0;
  let truncated = false;
  const make = (site: DefSite, callLine?: number): TraceNode => {
    count++;
    if (!reached.has(keyOf(site))) {
      reached.add(keyOf(site));
      sites.push(site);
    }
    return { symbol: site.symbol, file: site.file, line: site.start, kind: site.kind, ...(callLine === undefined ? {} : { callLine }) };
  };
  const trees: TraceNode[] = [];
  let frontier: Open[] = roots.map((site) => {
    const node = make(site);
    trees.push(node);
    return { node, site, chain: new Set([keyOf(site)]), ways };
  });

  for (let level = 0; level < options.depth && frontier.length > 0; level++) {
    throwIfAborted(options.signal);
    const next: Open[] = [];
    const grow = (parent: Open, way: 'callers' | 'callees', children: Array<{ site: DefSite; line: number }>): void => {
      const list: TraceNode[] = [];
      for (const child of children.slice(0, options.fanOut)) {
        if (count >= options.maxNodes) {
          truncated = true;
          break;
        }
        const node = make(child.site, child.line);
        list.push(node);
        const key = keyOf(child.site);
        if (parent.chain.has(key)) node.cycle_detected = true;
        else next.push({ node, site: child.site, chain: new Set([...parent.chain, key]), ways: [way] });
      }
      parent.node[way] = list;
      if (children.length > options.fanOut) truncated = true;
    };

    const down = frontier.filter((o) => o.ways.includes('callees'));
    const called = new Map<Open, Array<{ name: string; line: number }>>();
    for (const open of down) called.set(open, (await lookup.calleesOf(open.site)).slice(0, options.fanOut * 2));
    const up = frontier.filter((o) => o.ways.includes('callers') && o.site.kind !== 'module');
    const found = await lookup.lookup([...new Set([...[...called.values()].flat().map((c) => c.name), ...up.map((o) => o.site.symbol)])]);

    for (const open of down) {
      const children = called.get(open)!.flatMap(({ name, line }) => nearestFirst(open.site, found.get(name)?.defs ?? []).slice(0, 3).map((site) => ({ site, line })));
      grow(open, 'callees', children);
    }
    for (const open of up) {
      const byCaller = new Map<string, { site: DefSite; line: number }>();
      for (const call of found.get(open.site.symbol)?.calls ?? []) {
        const key = `${keyOf(call.caller)}#${call.caller.start}`;
        const seen = byCaller.get(key);
        if (!seen || call.line < seen.line) byCaller.set(key, { site: call.caller, line: call.line });
      }
      const callers = nearestFirst(open.site, [...byCaller.values()].map((c) => c.site));
      grow(open, 'callers', callers.map((site) => byCaller.get(`${keyOf(site)}#${site.start}`)!));
    }
    frontier = next;
  }
  return { trees, sites, truncated };
}

/** Same file first, then by how much of the directory path is shared, then by path and line. */
function nearestFirst(from: DefSite, sites: readonly DefSite[]): DefSite[] {
  const dir = from.file.split('/').slice(0, -1);
  const shared = (file: string): number => {
    const other = file.split('/').slice(0, -1);
    let n = 0;
    while (n < dir.length && n < other.length && dir[n] === other[n]) n++;
    return n;
  };
  return [...sites].sort((a, b) => Number(b.file === from.file) - Number(a.file === from.file) || shared(b.file) - shared(a.file) || (a.file < b.file ? -1 : a.file > b.file ? 1 : a.start - b.start));
}
