import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGitHistory } from '../../src/history/git.js';
import { useTempRepos } from '../helpers/make-repo.js';

const repo = useTempRepos();

const git = (cwd: string, ...args: string[]): string => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8' }).trim();

describe('git history', () => {
  it('runs no program the repository’s own config names, though it asks to verify signatures', async () => {
    const r = repo({ 'src/a.ts': 'export const a = 1;\n' });
    git(r.root, 'init', '-q');
    git(r.root, 'add', '-A');
    git(r.root, 'commit', '-q', '-m', 'first');
    // a commit carrying a signature: `log.showSignature` hands it to `gpg.program`
    writeFileSync(join(r.root, 'src/a.ts'), 'export const a = 2;\n');
    git(r.root, 'add', '-A');
    const tree = git(r.root, 'write-tree');
    const parent = git(r.root, 'rev-parse', 'HEAD');
    const body = `tree ${tree}\nparent ${parent}\nauthor t <t@example.com> 1 +0000\ncommitter t <t@example.com> 1 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n x\n -----END PGP SIGNATURE-----\n\nsigned\n`;
    writeFileSync(join(r.root, '.git', 'signed.txt'), body);
    const signed = git(r.root, 'hash-object', '-t', 'commit', '-w', '.git/signed.txt');
    git(r.root, 'update-ref', 'HEAD', signed);
    const marker = join(r.root, '.git', 'ran');
    const program = join(r.root, '.git', 'evil.sh');
    writeFileSync(program, `#!/bin/sh\necho ran > '${marker}'\n`);
    chmodSync(program, 0o755);
    git(r.root, 'config', 'log.showSignature', 'true');
    git(r.root, 'config', 'gpg.program', program);
    // the trap is armed: `git log` as ctxloop ran it ran the program
    git(r.root, 'log', '-n', '1', '--name-only', '--', '.');
    expect(existsSync(marker)).toBe(true);
    execFileSync('rm', [marker]);

    const history = await createGitHistory().read(r.root, 10);
    expect(history?.commits).toBe(2);
    expect(history?.files.get('src/a.ts')).toEqual({ latest: 0, changes: 2 });
    expect(existsSync(marker)).toBe(false);
  });

  it('fetches nothing in a partial clone, whose missing trees git would fetch through a transport the repository configures', async () => {
    const r = repo({ 'src/app/m.py': 'def parse_line(s):\n    raise ValueError("bad line")\n' });
    const source = join(r.root, 'src');
    git(source, 'init', '-q');
    git(source, 'add', '-A');
    git(source, 'commit', '-q', '-m', 'first');
    const origin = join(r.root, 'origin.git');
    git(r.root, 'clone', '-q', '--bare', source, origin);
    git(origin, 'config', 'uploadpack.allowFilter', 'true');
    const victim = join(r.root, 'victim');
    git(r.root, 'clone', '-q', '--no-checkout', '--filter=tree:0', `file://${origin}`, victim);
    const marker = join(r.root, 'ran');
    git(victim, 'config', 'remote.origin.url', 'ssh://evil.example/x');
    git(victim, 'config', 'core.sshCommand', `sh -c 'echo ran > "${marker}"'; false`);
    await createGitHistory().read(victim, 10);
    expect(existsSync(marker)).toBe(false);
  });
});

describe('files a commit changed', () => {
  const commit = (root: string, files: Record<string, string>, message: string): string => {
    for (const [path, text] of Object.entries(files)) {
      execFileSync('mkdir', ['-p', join(root, path, '..')]);
      writeFileSync(join(root, path), text);
    }
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', message);
    return git(root, 'rev-parse', 'HEAD');
  };

  it('lists them by hash or prefix, relative to a root inside the repository, and nothing for what is no commit', async () => {
    const r = repo({});
    commit(r.root, { 'src/a.ts': 'a\n', 'src/b.ts': 'b\n', 'docs/x.md': 'x\n' }, 'first');
    const second = commit(r.root, { 'src/b.ts': 'b2\n', 'docs/x.md': 'x2\n' }, 'second');
    commit(r.root, { 'src/a.ts': 'a3\n' }, 'third');
    const history = createGitHistory();
    expect(await history.changedBy(r.root, second.slice(0, 7))).toEqual(['docs/x.md', 'src/b.ts']);
    expect(await history.changedBy(r.root, second)).toEqual(['docs/x.md', 'src/b.ts']);
    // a root inside the repository: its own files, relative to it
    expect(await history.changedBy(join(r.root, 'src'), second)).toEqual(['b.ts']);
    // a blob's hash, a hash of nothing here, an option, a repository-less folder
    const blob = git(r.root, 'rev-parse', 'HEAD:src/a.ts');
    expect(await history.changedBy(r.root, blob)).toBeUndefined();
    expect(await history.changedBy(r.root, 'ffffffffff')).toBeUndefined();
    expect(await history.changedBy(r.root, '--output=x')).toBeUndefined();
    expect(await history.changedBy(repo({ 'a.ts': '' }, { git: false }).root, second)).toBeUndefined();
  });

  it("gives up on a git that hangs within its own timeout, not the history read's", async () => {
    const r = repo({});
    const second = commit(r.root, { 'src/a.ts': 'a\n' }, 'first');
    const bin = join(r.root, '..', `${r.root.split('/').pop()}-bin`);
    execFileSync('mkdir', ['-p', bin]);
    writeFileSync(join(bin, 'git'), '#!/bin/sh\nexec sleep 30\n');
    chmodSync(join(bin, 'git'), 0o755);
    const history = createGitHistory({ env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, timeout: 60_000, commitTimeout: 300 });
    const started = Date.now();
    expect(await history.changedBy(r.root, second)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
