import { afterEach } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface TempRepo {
  /** Absolute path of the repository root. */
  root: string;
  /** Writes (or overwrites) a file under the root. */
  write(path: string, content: string | Uint8Array): void;
  /** Removes the repository. */
  cleanup(): void;
}

/**
 * Writes `files` under a fresh directory in os.tmpdir() and, unless `git: false`, makes it a git
 * repository (so .gitignore semantics match a real checkout). Call `cleanup()` in teardown.
 */
export function makeRepo(files: Record<string, string | Uint8Array>, options: { git?: boolean } = {}): TempRepo {
  const root = mkdtempSync(join(tmpdir(), 'ctxloop-test-'));
  const write = (path: string, content: string | Uint8Array): void => {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  };
  for (const [path, content] of Object.entries(files)) write(path, content);
  if (options.git !== false) {
    execFileSync('git', ['init', '-q'], { cwd: root });
  }
  return { root, write, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/**
 * `makeRepo` for a whole test file: every repository made through the returned function is
 * removed after each test.
 */
export function useTempRepos(): typeof makeRepo {
  const made: TempRepo[] = [];
  afterEach(() => {
    for (const repo of made.splice(0)) repo.cleanup();
  });
  return (files, options) => {
    const repo = makeRepo(files, options);
    made.push(repo);
    return repo;
  };
}
