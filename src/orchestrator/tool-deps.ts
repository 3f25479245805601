import type { Cache, FactsReader, HistoryReader, SearchScope, Searcher } from '../core/deps.js';
import { UsageError } from '../core/errors.js';
import { guardLogger, silentLogger, type Logger } from '../core/log.js';
import type { ResolvedOptions, SearchOptions } from '../core/options.js';
import { createCache, createMemoryCache, defaultCacheDir } from '../cache/store.js';
import { createFactsReader } from '../facts/reader.js';
import { createGitHistory } from '../history/git.js';
import { createSearcher } from '../retrieve/dispatch.js';
import { resolveRunOptions } from './config.js';

/** What `trace()` and `locate()` work with; tests replace any of it. */
export interface ToolDeps {
  searcher: Searcher;
  facts: FactsReader;
  cache: Cache;
  history: HistoryReader;
  logger: Logger;
}

export interface PreparedTool {
  options: ResolvedOptions;
  scope: SearchScope;
  deps: ToolDeps;
}

/**
 * Resolves the search options as `retrieve()` does (root, config file, environment) and builds
 * the real dependencies. `input` is checked and copied by the tool first (`callerOptions`).
 */
export async function prepareTool(input: SearchOptions, overrides: Partial<ToolDeps>): Promise<PreparedTool> {
  // `roots` is retrieve()'s (a JavaScript caller may pass it here too): read as no root at all, it
  // had the tool search the working directory, files of neither repository named.
  if ((input as { roots?: unknown }).roots !== undefined) {
    throw new UsageError('bad_option', 'trace() and locate() search one repository: roots is an option of retrieve()', { hint: 'give root: the repository to search' });
  }
  const env = input.env ?? process.env;
  const options = await resolveRunOptions(input, env, defaultCacheDir(env));
  const logger = input.logger ? guardLogger(input.logger) : (overrides.logger ?? silentLogger);
  const cache = overrides.cache ?? (options.cacheDir === null ? createMemoryCache() : await createCache({ dir: options.cacheDir, root: options.root, logger }));
  const deps: ToolDeps = {
    searcher: overrides.searcher ?? createSearcher({ logger, env }),
    facts: overrides.facts ?? createFactsReader({ cache, logger, maxFileSize: options.maxFileSize, concurrency: options.concurrency }),
    cache,
    history: overrides.history ?? createGitHistory({ logger, env }),
    logger,
  };
  const scope: SearchScope = { root: options.root, scope: options.scope, include: options.include, exclude: options.exclude, maxFileSize: options.maxFileSize, concurrency: options.concurrency };
  return { options, scope, deps };
}
