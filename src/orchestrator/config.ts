import { constants } from 'node:fs';
import { access, lstat, realpath, stat, statfs } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { shownArgument, UsageError } from '../core/errors.js';
import { leavesRoot, realpathOfDeepest } from '../core/inside.js';
import type { Logger } from '../core/log.js';
import { readInsideRoot } from '../core/read-inside.js';
import { parseSettings, resolveOptions, settingsFromEnv, settingsSchema, type ResolvedOptions, type RetrieveOptions, type Settings } from '../core/options.js';

const CONFIG_FILES = ['ctxloop.config.json', '.ctxloop.json'];
/** A configuration file is small; anything larger is not one. */
const MAX_CONFIG_BYTES = 256 * 1024;
/** Settings naming a directory: from the repository's own file they must stay inside it. */
const PATH_SETTINGS = ['cache', 'agentsDir', 'promptsDir'] as const;

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
  const file = await readConfigFile(root, options.logger);
  const flags = parseSettings(pickSettings(options), 'options');
  const resolved = resolveOptions({ flags, env: settingsFromEnv(env), file, root, defaultCacheDir });
  resolved.scope = await normalizeScope(root, resolved.scope);
  return resolved;
}

async function resolveRoot(input: string): Promise<string> {
  const absolute = resolve(input);
  const shown = shownArgument(absolute);
  const info = await stat(absolute).catch(() => undefined);
  if (!info) throw new UsageError('root_not_found', `root not found: ${shown}`, { hint: 'pass an existing directory with --root' });
  if (!info.isDirectory()) throw new UsageError('root_not_found', `root is not a directory: ${shown}`, { hint: 'pass a directory with --root' });
  // a root this user cannot list or enter: rg would fail to start in it, and the message would blame rg
  const denied = await access(absolute, constants.R_OK | constants.X_OK).then(
    () => undefined,
    (error: NodeJS.ErrnoException) => error.code ?? 'EACCES',
  );
  // gone between the two checks (removed while the run started): not a permission problem
  if (denied === 'ENOENT' || denied === 'ENOTDIR') throw new UsageError('root_not_found', `root not found: ${shown}`, { hint: 'pass an existing directory with --root' });
  if (denied !== undefined) throw new UsageError('root_not_found', `root cannot be read: ${shown} (permission denied)`, { hint: 'pass a directory you can read with --root' });
  const pseudo = await pseudoFilesystem(absolute);
  if (pseudo) throw new UsageError('root_not_found', `root is not a repository: ${shown} is on the ${pseudo} pseudo-filesystem`, { hint: 'pass a directory of source files with --root' });
  const real = await realpath(absolute);
  // `--root /` (or a run started in `/`: a container's working directory): rg walked /proc and
  // stuck on it, and the fallback listing gathered every file of the machine until the heap ran out
  if (dirname(real) === real) throw new UsageError('root_not_found', `root is not a repository: ${shown} is the whole file system`, { hint: "pass a repository's directory with --root" });
  return real;
}

/**
 * Linux kernel pseudo-filesystems, by `statfs` type: their files are the kernel's state, not
 * source, and some block a reader (`/proc/kmsg` waits for the next kernel message: `--root /proc`
 * spent the whole search timeout).
 */
const PSEUDO_FILESYSTEMS = new Map<number, string>([
  [0x9fa0, 'proc'],
  [0x62656572, 'sysfs'],
  [0x64626720, 'debugfs'],
  [0x74726163, 'tracefs'],
  [0x73636673, 'securityfs'],
  [0x27e0eb, 'cgroup'],
  [0x63677270, 'cgroup2'],
  [0x6165676c, 'pstore'],
  [0xcafe4a11, 'bpf'],
]);

async function pseudoFilesystem(path: string): Promise<string | undefined> {
  if (process.platform !== 'linux') return undefined;
  const type = await statfs(path).then(
    (info) => info.type,
    () => undefined,
  );
  return type === undefined ? undefined : PSEUDO_FILESYSTEMS.get(type);
}

/**
 * The repository's config file is input from the repository, which may be hostile: it is read
 * only if it is a regular file inside the root (a FIFO would block, a link may point anywhere),
 * and the directories it names must lie inside the root too (prompts read from elsewhere would
 * go to a model; a cache elsewhere would be written to).
 */
async function readConfigFile(root: string, logger?: Logger): Promise<Settings> {
  for (const [index, name] of CONFIG_FILES.entries()) {
    const read = await readInsideRoot(root, name, MAX_CONFIG_BYTES);
    if ('skipped' in read) {
      if (read.skipped === 'missing') continue; // absent: the next candidate, or no config file at all
      throw new UsageError('bad_config', `${name}: not read (${describeSkip(read.skipped)})`, { hint: `remove ${name} from ${root}, or fix it` });
    }
    let value: unknown;
    try {
      value = JSON.parse(new TextDecoder().decode(read.bytes));
    } catch (error) {
      throw new UsageError('bad_config', `${name}: not valid JSON (${(error as Error).message.split('\n')[0]})`, { cause: error });
    }
    const settings = await confineToRoot(parseSettings(value, name), root, name);
    // the one read wins whole; the other is not merged in, and says so rather than being ignored in silence
    for (const other of CONFIG_FILES.slice(index + 1)) {
      if (await lstat(join(root, other)).then(() => true, () => false)) logger?.warn(`${other} is not read: ${name} is there too, and only one config file is read`);
    }
    return settings;
  }
  return {};
}

function describeSkip(reason: string): string {
  if (reason === 'outside') return 'it is a link leading outside the root';
  if (reason === 'not_a_file') return 'it is not a regular file';
  if (reason === 'broken_link') return 'it is a link that leads nowhere, or loops';
  if (reason === 'too_large') return `it is larger than ${MAX_CONFIG_BYTES} bytes`;
  return 'it cannot be read';
}

const FLAG_OF: Record<(typeof PATH_SETTINGS)[number], string> = { cache: '--cache', agentsDir: '--agents-dir', promptsDir: '--prompts-dir' };

/** Each directory the file names, resolved against the root (links followed where they exist), must stay inside it. */
async function confineToRoot(settings: Settings, root: string, name: string): Promise<Settings> {
  const out: Settings = { ...settings };
  for (const key of PATH_SETTINGS) {
    const value = out[key];
    if (typeof value !== 'string') continue;
    const absolute = resolve(root, value);
    const real = await realpathOfDeepest(absolute);
    if (leavesRoot(relative(root, real))) {
      throw new UsageError('bad_config', `${name}: ${key} must stay inside the repository (got ${JSON.stringify(value)})`, { hint: `pass ${FLAG_OF[key]} on the command line to use a directory elsewhere` });
    }
    out[key] = absolute;
  }
  return out;
}

/** Scope entries become root-relative POSIX paths; one outside the root, or missing, is refused. */
async function normalizeScope(root: string, scope: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const entry of scope) {
    const absolute = isAbsolute(entry) ? entry : resolve(root, entry);
    const real = await realpath(absolute).catch(() => undefined);
    if (!real) throw new UsageError('bad_scope', `scope not found: ${entry} (relative to ${root})`);
    const rel = relative(root, real);
    if (leavesRoot(rel)) throw new UsageError('bad_scope', `scope is outside the root: ${entry}`, { hint: `scope paths must lie inside ${root}` });
    // a FIFO, socket or device: rg was given no path, scanned the whole root, and the scope then kept nothing
    const info = await stat(real).catch(() => undefined);
    if (!info?.isDirectory() && !info?.isFile()) throw new UsageError('bad_scope', `scope is not a directory or a regular file: ${entry}`);
    out.push(rel.split('\\').join('/') || '.');
  }
  return out.includes('.') ? [] : [...new Set(out)].sort();
}

function pickSettings(options: RetrieveOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(settingsSchema.shape) as Array<keyof Settings>) if (options[key] !== undefined) out[key] = options[key];
  return out;
}
