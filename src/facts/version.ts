/**
 * Version of what `extractFacts` produces. Part of the facts cache key: bump it whenever the
 * extractor's output changes, so cached facts of unchanged files are recomputed.
 */
export const FACTS_VERSION = 1;
