import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface MirrorFixture {
  /** Folder holding `acme+widget/repo` (a bare mirror). */
  reposDir: string;
  /** For clones. */
  workDir: string;
  base: string;
  later: string;
  /** Blob id of data/big.bin, removed from the mirror. */
  missingBlob: string;
  cleanup(): void;
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' },
  }).trim();
}

function write(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

/**
 * An upstream with a base commit and a later one (with a branch and a tag on it), mirrored bare
 * under reposDir with the blob of data/big.bin deleted, as some real mirrors lack their largest files.
 */
export function makeMirror(baseFiles: Record<string, string> = { 'src/auth.ts': 'export function verifyEmail() {}\n' }): MirrorFixture {
  const top = mkdtempSync(join(tmpdir(), 'ctxloop-eval-'));
  const upstream = join(top, 'upstream');
  mkdirSync(upstream);
  git(upstream, 'init', '-q', '-b', 'main');
  write(upstream, { ...baseFiles, 'data/big.bin': 'pretend this is huge\n', 'src/shared.ts': 'export const version = 1;\n' });
  git(upstream, 'add', '-A');
  git(upstream, 'commit', '-q', '-m', 'base');
  const base = git(upstream, 'rev-parse', 'HEAD');
  write(upstream, { 'src/shared.ts': 'export const version = 2;\n', 'src/fix.ts': 'the fix\n' });
  git(upstream, 'add', '-A');
  git(upstream, 'commit', '-q', '-m', 'the fix, after the base');
  const later = git(upstream, 'rev-parse', 'HEAD');
  git(upstream, 'tag', 'v2');
  git(upstream, 'branch', 'feature');
  const reposDir = join(top, 'mirrors');
  const mirror = join(reposDir, 'acme+widget', 'repo');
  git(top, 'clone', '-q', '--mirror', upstream, mirror);
  const missingBlob = git(upstream, 'rev-parse', `${base}:data/big.bin`);
  // A local clone hardlinks loose objects: unlinking the mirror's copy leaves the upstream whole.
  rmSync(join(mirror, 'objects', missingBlob.slice(0, 2), missingBlob.slice(2)));
  const workDir = join(top, 'work');
  return { reposDir, workDir, base, later, missingBlob, cleanup: () => rmSync(top, { recursive: true, force: true }) };
}
