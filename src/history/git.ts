/**
 * Recent history through `git log`: the one place ctxloop runs git for a repository it searches.
 * Bounded (`-n depth`, a timeout, a buffer cap) and never fatal: without git, outside a
 * repository, or when git fails, there is simply no history signal.
 */
import { execFile } from 'node:child_process';
import type { FileHistory, HistoryReader } from '../core/deps.js';
import { withoutRepositoryVariables } from '../core/git-env.js';
import { silentLogger, type Logger } from '../core/log.js';

export interface GitHistoryOptions {
  logger?: Logger;
  /**
   * Milliseconds `git log` may take.
   * @default 15000
   */
  timeout?: number;
  /**
   * Milliseconds the look-up of one commit a task names may take: it runs beside the first
   * dispatch, and the first cycle waits for it, so a hung git (a lock, a slow filesystem) may
   * hold the run only this long. One commit's files take git milliseconds.
   * @default 3000
   */
  commitTimeout?: number;
  /** Environment git runs with. @default process.env */
  env?: Record<string, string | undefined>;
}

/** Separates commits in the log output: `%x1e` in the format, the ASCII record separator, never part of a path. */
const COMMIT = '\u001e';
const MAX_BUFFER = 32 * 1024 * 1024;

/**
 * The repository searched may be anyone's, and its own `.git/config` is read: nothing it sets
 * may run a program. `log.showSignature` would run `gpg.program` (any path it names) on every
 * signed commit; the flags after `log` also turn off signatures, textconv and external diff
 * drivers; `core.fsmonitor` is a command as well. A partial clone (`--filter=tree:0`) fetches
 * the trees `log --name-only` needs on demand, through whatever transport the repository names
 * (`core.sshCommand`, a remote helper, a credential helper asked for a password): no transport
 * may run (`protocol.allow=never`, and `GIT_NO_LAZY_FETCH` where git knows it); the history then
 * holds what is local, or nothing.
 */
const SAFE_CONFIG = [
  '-c', 'core.quotepath=off', '-c', 'log.showSignature=false', '-c', 'core.fsmonitor=false',
  '-c', 'gpg.program=false', '-c', 'gpg.ssh.program=false', '-c', 'gpg.x509.program=false',
  '-c', 'protocol.allow=never', '-c', 'core.sshCommand=false', '-c', 'credential.helper=', '-c', 'core.askPass=false',
];

/**
 * How both reads run `git log`: no merges, renames or signatures, no textconv or external diff
 * driver; `--relative`: paths relative to the root (which may be a folder inside the repository),
 * and only those under it; each commit opened by `COMMIT`, then the files it changed.
 */
const LOG_FLAGS = ['--no-merges', '--no-renames', '--no-show-signature', '--no-textconv', '--no-ext-diff', '--relative', '--name-only', '--format=%x1e'];

export function createGitHistory(options: GitHistoryOptions = {}): HistoryReader {
  const logger = options.logger ?? silentLogger;
  return {
    async read(root, depth, signal) {
      if (depth <= 0) return undefined;
      const args = [...SAFE_CONFIG, 'log', '-n', String(depth), ...LOG_FLAGS, '--', '.'];
      try {
        return parseLog(await runGit(args, root, options, signal));
      } catch (error) {
        logger.debug(`history: no git history for ${root} (${describe(error)})`);
        return undefined;
      }
    },
    async changedBy(root, commit, signal) {
      // a hash or its prefix only: nothing else reaches git's command line as a revision
      if (!/^[0-9a-f]{4,40}$/.test(commit)) return undefined;
      const args = [...SAFE_CONFIG, 'log', '-n', '1', '--no-walk', ...LOG_FLAGS, `${commit}^{commit}`, '--', '.'];
      try {
        const log = parseLog(await runGit(args, root, { ...options, timeout: options.commitTimeout ?? 3_000 }, signal));
        return log.commits === 0 ? undefined : [...log.files.keys()];
      } catch (error) {
        logger.debug(`history: ${commit} names no commit in ${root} (${describe(error)})`);
        return undefined;
      }
    },
  };
}

/** `git log --name-only` output → per-file recency and change counts. */
export function parseLog(output: string): FileHistory {
  const files = new Map<string, { latest: number; changes: number }>();
  const commits = output.split(COMMIT).slice(1);
  commits.forEach((block, index) => {
    for (const line of block.split('\n')) {
      const path = line.trim();
      // Quoted names hold characters git would not print plainly (newlines, quotes): rare, and skipped.
      if (!path || path.startsWith('"')) continue;
      const seen = files.get(path);
      if (seen) seen.changes++;
      else files.set(path, { latest: index, changes: 1 });
    }
  });
  return { commits: commits.length, files };
}

function runGit(args: string[], cwd: string, options: GitHistoryOptions, signal: AbortSignal | undefined): Promise<string> {
  // No prompts, no pager, no optional lock files: reading history must not write into the repository.
  const env = { ...withoutRepositoryVariables(options.env ?? process.env), GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', GIT_OPTIONAL_LOCKS: '0', GIT_NO_LAZY_FETCH: '1', GIT_ASKPASS: 'false', SSH_ASKPASS: 'false', LC_ALL: 'C' };
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, env, encoding: 'utf8', maxBuffer: MAX_BUFFER, timeout: options.timeout ?? 15_000, ...(signal ? { signal } : {}) }, (error, stdout, stderr) => {
      if (error) reject(Object.assign(error, { stderr }));
      else resolve(stdout);
    });
  });
}

function describe(error: unknown): string {
  const e = error as { code?: unknown; stderr?: string; message?: string };
  if (e.code === 'ENOENT') return 'git not found';
  const first = e.stderr?.split('\n').find((l) => l.trim())?.trim();
  return first ?? e.message?.split('\n')[0] ?? String(error);
}
