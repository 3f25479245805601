import { execFile } from 'node:child_process';
import { CtxloopError } from '../core/errors.js';
import { withoutRepositoryVariables } from '../core/git-env.js';

export interface GitOptions {
  /** Working directory (a clone or a git dir). */
  cwd: string;
  /** Written to git's stdin. */
  input?: string;
}

/** Runs git with an argument array and returns stdout; a non-zero exit throws with stderr's first line. */
export function runGit(args: string[], options: GitOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      args,
      { cwd: options.cwd, maxBuffer: 512 * 1024 * 1024, encoding: 'utf8', env: gitEnv() },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const detail = firstLine(stderr) || error.message.split('\n')[0] || 'unknown error';
        reject(new CtxloopError('fs_error', `git ${args[0] ?? ''} failed in ${options.cwd}: ${detail}`, { cause: error }));
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

function firstLine(text: string): string {
  return text.split('\n').map((line) => line.trim()).find((line) => line.length > 0) ?? '';
}

// No prompts, no pager, no user hooks reading the terminal: the harness runs unattended.
function gitEnv(): NodeJS.ProcessEnv {
  return { ...withoutRepositoryVariables(process.env), GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', LC_ALL: 'C' };
}
