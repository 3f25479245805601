import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { cacheStats, clearCache, defaultCacheDir, type CacheStats } from '../../cache/store.js';
import { UsageError } from '../../core/errors.js';
import { resolveRunOptions } from '../../orchestrator/config.js';
import { wantsHelp } from '../args.js';
import { reportFailure } from '../fail.js';
import { parsePathFlag, SEE_HELP, rejectRepeatedFlags, toFlagError } from '../flag-values.js';
import { suggestName } from '../../core/suggest.js';
import { useColor, type Io } from '../io.js';
import { writeOutput } from '../write.js';

export const CACHE_USAGE = `ctxloop cache: what the cache holds for a repository, and clearing it

Usage:
  ctxloop cache stats [--root DIR] [--cache DIR] [--json]
  ctxloop cache clear [--root DIR | --all] [--cache DIR] [--json]

Commands:
  stats        the cache file of the root: size, entries per layer (facts, scores, replies,
               stamps, results), the search and token-count indexes beside it, oldest and
               newest entry
  clear        remove the root's cache (its file, indexes, moved-aside and temporary copies)

Flags:
  --root DIR   repository whose cache is meant (default: the current directory)
  --cache DIR  cache directory (default: CTXLOOP_CACHE, the root's config file, else the user cache dir)
  --all        with clear: the caches of every root in the cache directory
  --json       print the figures (stats) or the removed paths (clear) as JSON
  -h, --help   show this help

Exit codes: 0 done (a missing cache is not an error), 1 failed, 2 usage.
`;

const FLAGS = {
  root: { type: 'string' },
  cache: { type: 'string' },
  all: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const SUBCOMMANDS = ['stats', 'clear'] as const;

/** `ctxloop cache stats|clear`: returns the exit code. */
export async function runCacheCommand(argv: string[], io: Io): Promise<number> {
  const json = argv.includes('--json');
  try {
    const [sub, ...rest] = argv;
    if (sub === undefined || wantsHelp(argv)) {
      await writeOutput(CACHE_USAGE, sub === undefined ? io.stderr : io.stdout);
      return sub === undefined ? 2 : 0;
    }
    if (!(SUBCOMMANDS as readonly string[]).includes(sub)) {
      const guess = suggestName(sub, SUBCOMMANDS);
      throw new UsageError('bad_option', `unknown cache command ${JSON.stringify(sub)}${guess ? `, did you mean ${guess}?` : ''}: use stats or clear ${SEE_HELP}`);
    }
    let parsed: ReturnType<typeof parseCacheFlags>;
    try {
      parsed = parseCacheFlags(rest);
    } catch (error) {
      throw toFlagError(error, Object.keys(FLAGS), 'cache takes stats or clear, then flags');
    }
    rejectRepeatedFlags(parsed.tokens, FLAGS);
    const values: { root?: string; cache?: string; all?: boolean; json?: boolean } = parsed.values;
    if (values.all && sub !== 'clear') throw new UsageError('bad_option', `--all goes with clear only ${SEE_HELP}`);
    if (values.all && values.root !== undefined) throw new UsageError('bad_option', `--all and --root cannot be used together ${SEE_HELP}`);
    const root = resolve(io.cwd, values.root === undefined ? '.' : parsePathFlag('--root', values.root));
    const cache = values.cache === undefined ? undefined : resolve(io.cwd, parsePathFlag('--cache', values.cache));
    // The same precedence as a run: flag, then CTXLOOP_CACHE, then the root's config file, then the default.
    const resolved = await resolveRunOptions({ root, ...(cache === undefined ? {} : { cache }) }, io.env, defaultCacheDir(io.env));
    if (resolved.cacheDir === null) {
      await writeOutput(json ? `${JSON.stringify({ cache: null })}\n` : 'no cache: caching is off (CTXLOOP_CACHE or the config file) or no cache directory could be found\n', io.stdout);
      return 0;
    }
    // a file where the cache directory should be: no run can save there (stats said `none yet`)
    const dirInfo = await stat(resolved.cacheDir).catch(() => undefined);
    if (dirInfo && !dirInfo.isDirectory()) throw new UsageError('bad_option', `the cache directory ${resolved.cacheDir} is not a directory: no run can save a cache there`, { hint: 'pass a directory with --cache, or remove the file' });
    if (sub === 'stats') {
      const stats = await cacheStats(resolved.cacheDir, resolved.root);
      await writeOutput(json ? `${JSON.stringify(stats, null, 2)}\n` : renderStats(resolved.root, stats), io.stdout);
    } else {
      const { removed } = await clearCache(resolved.cacheDir, values.all ? undefined : resolved.root);
      const what = values.all ? `every root in ${resolved.cacheDir}` : resolved.root;
      await writeOutput(json ? `${JSON.stringify({ removed }, null, 2)}\n` : `removed ${removed.length} file${removed.length === 1 ? '' : 's'} (the cache of ${what})\n`, io.stdout);
    }
    return 0;
  } catch (error) {
    return reportFailure(error, { stdout: io.stdout, stderr: io.stderr, format: json ? 'json' : 'md', verbose: argv.includes('--verbose'), color: useColor(io.stderr, io.env, false) });
  }
}

export function renderStats(root: string, stats: CacheStats): string {
  const size = Object.keys(stats.blobs).length > 0 ? `${formatBytes(stats.bytes)} with the search index` : formatBytes(stats.bytes);
  const lines = [`cache of ${root}`, `  file     ${stats.file}${stats.exists ? ` (${size})` : ' (none yet)'}`];
  if (stats.notAFile) lines.push('  state    not a file: no run can save the cache there; `ctxloop cache clear` removes it when it is an empty directory');
  else if (stats.corrupt) lines.push('  state    unreadable: it will be moved aside and rebuilt on the next run');
  lines.push(`  entries  ${Object.entries(stats.entries).map(([layer, n]) => `${layer} ${n}`).join(', ')}`);
  const blobs = Object.entries(stats.blobs);
  if (blobs.length > 0) lines.push(`  beside   ${blobs.map(([name, bytes]) => `${name} index ${formatBytes(bytes)}`).join(', ')}`);
  if (stats.oldest !== undefined && stats.newest !== undefined) lines.push(`  entries  from ${new Date(stats.oldest).toISOString()} to ${new Date(stats.newest).toISOString()}`);
  return `${lines.join('\n')}\n`;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function parseCacheFlags(argv: string[]) {
  return parseArgs({ args: argv, options: FLAGS, strict: true, allowPositionals: false, tokens: true });
}
