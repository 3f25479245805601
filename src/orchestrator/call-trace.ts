import { UsageError } from '../core/errors.js';
import { callerOptions, DEFAULTS, type TraceOptions } from '../core/options.js';
import type { TraceResult } from '../core/types.js';
import { createSymbolLookup } from '../callgraph/lookup.js';
import { walkCalls } from '../callgraph/walk.js';
import { prepareTool, type ToolDeps } from './tool-deps.js';

const DIRECTIONS = ['callers', 'callees', 'both'] as const;
/** Definitions of the symbol walked from at most. */
const MAX_DEFINITIONS = 20;

/**
 * The call chains through a symbol: its definitions, who calls them and what they call, as
 * nested nodes (file, line, symbol), `depth` hops out. A chain that comes back to a definition
 * already on it stops there with `cycle_detected`.
 * @example
 * const { definitions } = await trace('parseConfig', { root: '.', direction: 'callers', depth: 2 });
 */
export async function trace(symbol: string, options: TraceOptions = {}, deps: Partial<ToolDeps> = {}): Promise<TraceResult> {
  // a JavaScript caller may pass anything
  if (typeof symbol !== 'string') throw new UsageError('bad_option', `the symbol must be a string (got ${typeof symbol})`, { hint: 'pass --symbol NAME' });
  options = callerOptions(options);
  const name = symbol.trim();
  if (name.length > 200) throw new UsageError('bad_option', `not a symbol name: ${name.length} characters`, { hint: 'pass --symbol NAME' });
  if (!/^[\p{L}_$][\p{L}\p{M}\p{N}_$]*$/u.test(name)) throw new UsageError('bad_option', name ? `not a symbol name: ${JSON.stringify(name.length > 80 ? `${name.slice(0, 79)}…` : name)} (a function, method or class name, e.g. parseConfig)` : 'no symbol given', { hint: 'pass --symbol NAME' });
  const direction = options.direction ?? 'both';
  if (!DIRECTIONS.includes(direction)) throw new UsageError('bad_option', `direction must be one of ${DIRECTIONS.join(', ')} (got ${JSON.stringify(direction)})`);
  const depth = options.depth ?? DEFAULTS.traceDepth;
  if (!Number.isInteger(depth) || depth < 1 || depth > 8) throw new UsageError('bad_option', `depth must be a whole number from 1 to 8 (got ${depth})`);

  const prepared = await prepareTool(options, deps);
  const { scope } = prepared;
  const { searcher, facts, cache, logger } = prepared.deps;
  try {
    const lookup = createSymbolLookup({ scope, searcher, facts, ...(options.signal ? { signal: options.signal } : {}) });
    const sites = (await lookup.lookup([name])).get(name)!;
    const { defs } = sites;
    // more files hold the name than one search reads: the definition may be in those it left out
    if (defs.length === 0) logger.warn(`no definition of ${name} found under ${scope.root}${sites.cut ? ' in the files searched (more hold the name than are searched; narrow it with --scope)' : ''}`);
    // A common name (`get`, `run`) can be defined in hundreds of files: the first few, by path, are walked.
    const roots = [...defs].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.start - b.start)).slice(0, MAX_DEFINITIONS);
    const walked = await walkCalls(lookup, roots, { direction, depth, fanOut: DEFAULTS.traceFanOut, maxNodes: DEFAULTS.traceMaxNodes, ...(options.signal ? { signal: options.signal } : {}) });
    return { symbol: name, root: scope.root, direction, depth, definitions: walked.trees, truncated: walked.truncated || defs.length > roots.length || sites.cut === true };
  } finally {
    await cache.flush();
  }
}
