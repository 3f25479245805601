import { UsageError } from '../core/errors.js';
import type { RetrieveOptions, SearchOptions } from '../core/options.js';
import type { LocateResult, RetrieveResult } from '../core/types.js';
import { locate } from '../orchestrator/locate.js';
import type { Retriever } from '../orchestrator/retriever.js';

/** The context pack for an error, with the locator's suspects when one root was searched. */
export type LocatedContext = RetrieveResult & { suspects?: LocateResult };

/**
 * The code behind an error, two ways at once: the locator's top suspects (frames mapped to
 * files, definitions of the functions they name, files holding the message, git recency), and
 * the retrieval loop with the error text as the task, whose pack carries the regions to read.
 * Over several roots only the loop runs (the locator reads one repository's history). The
 * locator searches with the server's `settings` (its cache, or none, its include and exclude
 * globs), as the loop does.
 */
export async function locateBug(retriever: Retriever, errorText: string, options: RetrieveOptions = {}, settings: SearchOptions = {}): Promise<LocatedContext> {
  // A blank error would reach the loop as a blank task, and be reported as one.
  if (!errorText.trim()) throw new UsageError('no_task', 'the error text is empty');
  // The loop first: it resolves the root (the call's, else the server's) and checks it.
  const result = await retriever.retrieve(errorText, options);
  if (result.roots !== undefined && result.roots.length > 1) return result;
  const { root: _root, scope: _scope, signal: _signal, ...shared } = settings;
  const suspects = await locate(errorText, { ...shared, root: result.root, ...(options.signal ? { signal: options.signal } : {}), ...(options.scope ? { scope: options.scope } : {}) });
  return { ...result, suspects };
}
