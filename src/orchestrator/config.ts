import { readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { UsageError } from '../core/errors.js';
import { parseSettings, resolveOptions, settingsFromEnv, type ResolvedOptions, type RetrieveOptions, type Settings } from '../core/options.js';

const CONFIG_FILES = ['ctxloop.config.json', '.ctxloop.json'];

/**
 * Options → ResolvedOptions: the root checked, then flags > environment > config file > defaults.
 * Every source is validated and named in its error.
 */
export async function resolveRunOptions(
  options: RetrieveOptions,
  env: Record<string, string | undefined>,
  defaultCacheDir: string | null,
): Promise<ResolvedOptions> {
  const root = await resolveRoot(options.root ?? process.cwd());
  const file = await readConfigFile(root);
  const flags = parseSettings(pickSettings(options), 'options');
  const resolved = resolveOptions({ flags, env: settingsFromEnv(env), file, root, defaultCacheDir });
  resolved.scope = await normalizeScope(root, resolved.scope);
  return resolved;
}

async function resolveRoot(input: string): Promise<string> {
  const absolute = resolve(input);
  const info = await stat(absolute).catch(() => undefined);
  if (!info) throw new UsageError('root_not_found', `root not found: ${absolute}`, { hint: 'pass an existing directory with --root' });
  if (!info.isDirectory()) throw new UsageError('root_not_found', `root is not a directory: ${absolute}`, { hint: 'pass a directory with --root' });
  return realpath(absolute);
}

async function readConfigFile(root: string): Promise<Settings> {
  for (const name of CONFIG_FILES) {
    const path = join(root, name);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch {
      continue; // absent or unreadable: the next candidate, or no config file at all
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new UsageError('bad_config', `${name}: not valid JSON (${(error as Error).message})`, { cause: error });
    }
    return parseSettings(value, name);
  }
  return {};
}

/** Scope entries become root-relative POSIX paths; one outside the root, or missing, is refused. */
async function normalizeScope(root: string, scope: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const entry of scope) {
    const absolute = isAbsolute(entry) ? entry : resolve(root, entry);
    const real = await realpath(absolute).catch(() => undefined);
    if (!real) throw new UsageError('bad_scope', `scope not found: ${entry} (relative to ${root})`);
    const rel = relative(root, real);
    if (rel.startsWith('..') || isAbsolute(rel)) throw new UsageError('bad_scope', `scope is outside the root: ${entry}`, { hint: `scope paths must lie inside ${root}` });
    out.push(rel.split('\\').join('/') || '.');
  }
  return out.includes('.') ? [] : [...new Set(out)].sort();
}

function pickSettings(options: RetrieveOptions): Record<string, unknown> {
  const keys = ['maxCycles', 'threshold', 'budget', 'scope', 'include', 'exclude', 'provider', 'model', 'timeout', 'maxRetries', 'deadline', 'modelCandidates', 'batchSize', 'cache', 'agentsDir', 'promptsDir', 'withContent', 'maxCandidates', 'concurrency', 'maxFileSize', 'noEgress', 'searchTimeout'] as const;
  const out: Record<string, unknown> = {};
  for (const key of keys) if (options[key] !== undefined) out[key] = options[key];
  return out;
}
