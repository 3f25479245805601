import { cleanInput } from '../core/text.js';
import type { Cache, Deps } from '../core/deps.js';
import { UsageError } from '../core/errors.js';
import { guardCallback, guardLogger, silentLogger, type Logger } from '../core/log.js';
import { callerOptions, type ResolvedOptions, type RetrieveOptions } from '../core/options.js';
import type { RetrieveResult } from '../core/types.js';
import { createCache, createMemoryCache, defaultCacheDir } from '../cache/store.js';
import { chooseProvider, type ProviderChoice } from '../evaluate/evaluator.js';
import { createOfflineEvaluator } from '../evaluate/offline/index.js';
import { createFactsReader } from '../facts/reader.js';
import { loadTokenizer } from '../pack/lazy-tokens.js';
import { createSearcher } from '../retrieve/dispatch.js';
import { createGitHistory } from '../history/git.js';
import type { Roles } from '../roles/agents.js';
import { resolveRunOptions } from './config.js';
import { runLoop, type LoopContext } from './loop.js';
import { runMemoized, watchWarnings } from './result-memo.js';
import { labelRoots, retrieveAcrossRoots, scopeFor } from './roots.js';

export interface Retriever {
  /** Runs the loop for one task; per-call options override the retriever's. */
  retrieve(task: string, options?: RetrieveOptions): Promise<RetrieveResult>;
  /** Writes what the caches hold. */
  close(): Promise<void>;
}

/**
 * Reuses configuration, role definitions and caches across calls (one cache per root), so a
 * pipeline asking many questions of the same repository pays for parsing once. Safe for
 * concurrent calls: each call gets its own searcher, facts reader and model roles; caches and
 * role definitions are shared (cache writes are queued, reads are from memory).
 */
export function createRetriever(config: RetrieveOptions = {}, overrides: Partial<Deps> = {}): Retriever {
  config = callerOptions(config);
  const caches = new Map<string, Promise<Cache>>();
  // by folders: one call's agents (a repository's config may name its own) are not another's,
  // and a folder that failed to load is read again by the next call that names it
  const roles = new Map<string, Promise<Roles>>();
  const rolesFor = (agentsDir: string | undefined, promptsDir: string | undefined): Promise<Roles> => {
    const key = JSON.stringify([agentsDir ?? null, promptsDir ?? null]);
    let pending = roles.get(key);
    if (!pending) {
      pending = import('../roles/agents.js').then((m) => m.loadRoles({ agentsDir, promptsDir }));
      roles.set(key, pending);
      pending.catch(() => roles.delete(key));
    }
    return pending;
  };

  // The logger of the call that opens a root's cache hears its warnings (a file moved aside, a write refused).
  const cacheFor = (resolved: ResolvedOptions, deps: Partial<Deps>, logger: Logger): Promise<Cache> => {
    if (deps.cache) return Promise.resolve(deps.cache);
    const key = `${resolved.cacheDir ?? ''}\0${resolved.root}`;
    const existing = caches.get(key);
    if (existing) return existing;
    const cache = resolved.cacheDir === null ? Promise.resolve(createMemoryCache()) : createCache({ dir: resolved.cacheDir, root: resolved.root, logger });
    caches.set(key, cache);
    return cache;
  };

  /** One root's options resolved (and checked): a bad root, config or scope fails here. */
  const resolveRun = async (merged: RetrieveOptions): Promise<ResolvedRun> => {
    const env = merged.env ?? process.env;
    const resolved = await resolveRunOptions(merged, env, defaultCacheDir(env));
    return { merged, env, resolved, logger: merged.logger ?? overrides.logger ?? silentLogger };
  };

  /** One root's loop, ready to run: roles loaded, provider chosen (and said, when `announce`), caches and evaluator built. */
  const startRun = async (task: string, { merged, env, resolved, logger }: ResolvedRun, announce: boolean): Promise<LoopContext> => {
    // An injected evaluator is the caller's choice: no provider is picked around it.
    let choice: ProviderChoice = overrides.evaluator ? { provider: overrides.evaluator.id, note: `evaluator: ${overrides.evaluator.id}` } : chooseProvider({ ...resolved, env });
    // The roles are read (and checked) when a model will use them, or when the user named a folder
    // of their own, whose mistakes show at start either way; an offline run on the bundled ones
    // skips them (and the YAML and schema modules they load).
    const loaded = choice.model || resolved.agentsDir !== undefined || resolved.promptsDir !== undefined ? await rolesFor(resolved.agentsDir, resolved.promptsDir) : undefined;
    // No model asked for (--model, CTXLOOP_MODEL, config): the evaluator role's hint for this
    // provider names it (`model: { openai: … }` in agents/evaluator.md). One model serves the roles.
    const hint = choice.model && resolved.model === undefined ? loaded?.agents.get('evaluator')?.model[choice.provider] : undefined;
    if (hint !== undefined && hint !== choice.model?.model) choice = chooseProvider({ ...resolved, env, model: hint });
    if (resolved.noEgress && choice.model) throw egressRefused(choice);
    // a fallback is said once, as the warning it is (its note says the same)
    if (announce) {
      if (choice.fallback) logger.warn(choice.fallback.message);
      else logger.info(choice.note);
    }
    const cache = await cacheFor(resolved, overrides, logger);
    const tokens = overrides.tokenizer ? { tokenizer: overrides.tokenizer, ready: Promise.resolve(), start: () => undefined } : loadTokenizer({ cache });
    const deps: Deps = {
      searcher: overrides.searcher ?? createSearcher({ logger, env, cache, timeout: resolved.searchTimeout }),
      // The loop ranks on facts read by patterns: on four task sets they ranked as syntax trees did
      // (MRR within ±0.01), and a long-lived process parses none of the 20 files a cycle (a fresh
      // command-line run still loads a grammar for the packed files). The packed files' regions,
      // what a model is shown and where --deep starts are read from syntax trees (`exact`).
      facts: overrides.facts ?? createFactsReader({ cache, logger, maxFileSize: resolved.maxFileSize, concurrency: resolved.concurrency, treeSitter: false }),
      evaluator: overrides.evaluator ?? createOfflineEvaluator(),
      cache,
      tokenizer: tokens.tokenizer,
      clock: overrides.clock ?? { now: () => performance.now() },
      logger,
      history: overrides.history ?? createGitHistory({ logger, env }),
    };
    const model = choice.model && loaded && (await import('./model-roles.js')).createModelRoles({ chat: choice.model, roles: loaded, options: resolved, facts: deps.facts, cache, tokenizer: deps.tokenizer, logger, signal: merged.signal });
    return {
      task,
      options: resolved,
      deps,
      provider: choice.provider,
      ...(model ? { model } : {}),
      ...(choice.fallback ? { fallback: choice.fallback } : {}),
      ...(merged.signal ? { signal: merged.signal } : {}),
      ...(merged.onProgress ? { onProgress: merged.onProgress } : {}),
      // The tokenizer loads (or its kept counts are read) when the loop asks, never for a kept result.
      startTokenizer: tokens.start,
      tokenizerReady: tokens.ready,
    };
  };

  return {
    async retrieve(pasted, options = {}) {
      // a JavaScript caller may pass anything
      if (typeof pasted !== 'string') throw new UsageError('no_task', `the task must be a string (got ${pasted === null ? 'null' : typeof pasted})`);
      // a trace copied from a terminal comes with its colours: the task is its text
      const task = cleanInput(pasted);
      options = callerOptions(options);
      // A signal of the run's own, following the caller's: a pipeline may share one signal among
      // many calls, and the listeners each run adds would make Node warn on the caller's signal.
      const asked = mergeOptions(config, options);
      const merged = asked.signal ? { ...asked, signal: AbortSignal.any([asked.signal]) } : asked;
      const roots = labelRoots(merged);
      if (!roots) {
        const run = await resolveRun(merged);
        const watch = watchWarnings(run.logger);
        const ctx = await startRun(task, { ...run, logger: watch.logger }, true);
        const bypass = ctx.model !== undefined || overrides.searcher !== undefined || overrides.facts !== undefined || overrides.evaluator !== undefined;
        const memo = { task, options: ctx.options, provider: ctx.provider, bypass, fallback: ctx.fallback, cache: ctx.deps.cache, searcher: ctx.deps.searcher, env: run.env, logger: watch.logger, warned: watch.warned, signal: ctx.signal, onProgress: ctx.onProgress };
        return runMemoized(memo, (cache) => runLoop({ ...ctx, deps: { ...ctx.deps, cache } }));
      }
      const labels = roots.map((r) => r.label);
      const shared: RetrieveOptions = { ...merged };
      delete shared.roots;
      return retrieveAcrossRoots({
        roots,
        signal: merged.signal,
        resolve: async (root, signal) => {
          const scope = scopeFor(merged.scope, root.label, labels);
          const run = await resolveRun({ ...shared, root: root.path, signal, ...(scope === undefined ? {} : { scope }) });
          return { path: run.resolved.root, start: (announce) => startRun(task, run, announce) };
        },
      });
    },
    async close() {
      for (const cache of caches.values()) await (await cache).flush();
    },
  };
}

interface ResolvedRun {
  merged: RetrieveOptions;
  env: Record<string, string | undefined>;
  resolved: ResolvedOptions;
  logger: Logger;
}

/** Per-call options over the retriever's; a call naming `root` or `roots` replaces both. */
function mergeOptions(config: RetrieveOptions, options: RetrieveOptions): RetrieveOptions {
  const base = { ...config };
  if (options.root !== undefined || options.roots !== undefined) {
    delete base.root;
    delete base.roots;
  }
  const merged = { ...base, ...options };
  // the caller's callbacks cannot fail the run
  if (merged.logger) merged.logger = guardLogger(merged.logger);
  if (merged.onProgress) merged.onProgress = guardCallback(merged.onProgress);
  return merged;
}

/** `--no-egress` with a model configured: fail before anything is sent, never fall back silently. */
function egressRefused(choice: ProviderChoice): UsageError {
  const what = choice.note.replace(/^provider: /, '');
  return new UsageError('egress_refused', `--no-egress: a model is configured (${what}) and would be sent code`, {
    hint: 'run with --provider offline, or unset the provider variables (ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENAI_BASE_URL)',
  });
}
