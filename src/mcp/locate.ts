import type { RetrieveOptions } from '../core/options.js';
import type { RetrieveResult } from '../core/types.js';
import type { Retriever } from '../orchestrator/retriever.js';

/**
 * The code behind an error: the files its stack trace and message point at, and what they call.
 * Today this is the retrieval loop with the error text as the task (its planner turns stack
 * frames into path mentions and quoted messages into literals); a dedicated locator can replace
 * this body without touching the tool.
 */
export function locateBug(retriever: Retriever, errorText: string, options: RetrieveOptions = {}): Promise<RetrieveResult> {
  return retriever.retrieve(errorText, options);
}
