import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareCheckout } from '../../src/eval/checkout.js';
import { locateMirror } from '../../src/eval/mirror.js';
import { git, makeMirror, type MirrorFixture } from './git-fixture.js';

let fixture: MirrorFixture | undefined;
afterEach(() => fixture?.cleanup());

describe('prepareCheckout', () => {
  it('checks out the base, leaves out missing blobs and hides every later commit', async () => {
    fixture = makeMirror();
    const { reposDir, workDir, base } = fixture;
    const result = await prepareCheckout(reposDir, 'acme/widget', base, workDir);
    const root = result.root;
    expect(root).toBe(join(workDir, 'acme+widget'));
    expect(result).toMatchObject({ commit: base, excluded: ['data/big.bin'], cloned: true });
    expect(readFileSync(join(root, 'src/shared.ts'), 'utf8')).toBe('export const version = 1;\n');
    expect(existsSync(join(root, 'src/fix.ts'))).toBe(false);
    expect(existsSync(join(root, 'data/big.bin'))).toBe(false);
    expect(git(root, 'rev-parse', 'HEAD')).toBe(base);
    expect(git(root, 'log', '--all', '--format=%H').split('\n')).toEqual([base]);
    expect(git(root, 'tag')).toBe('');
    expect(git(root, 'branch', '-a', '--format=%(refname)')).not.toMatch(/feature|main|origin/);
    expect(git(root, 'reflog')).toBe('');
    expect(git(root, 'for-each-ref')).toBe('');
    expect(git(root, 'remote')).toBe('');
  });

  it('reuses the clone: moves forward and back, cleaning untracked files', async () => {
    fixture = makeMirror();
    const { reposDir, workDir, base, later } = fixture;
    await prepareCheckout(reposDir, 'acme/widget', base, workDir);
    const moved = await prepareCheckout(reposDir, 'acme/widget', later.slice(0, 10), workDir);
    expect(moved).toMatchObject({ commit: later, cloned: false });
    expect(readFileSync(join(moved.root, 'src/fix.ts'), 'utf8')).toBe('the fix\n');
    writeFileSync(join(moved.root, 'scratch.txt'), 'left by a run');
    writeFileSync(join(moved.root, 'src/shared.ts'), 'edited by a run');
    const back = await prepareCheckout(reposDir, 'acme/widget', base, workDir);
    expect(existsSync(join(back.root, 'scratch.txt'))).toBe(false);
    expect(existsSync(join(back.root, 'src/fix.ts'))).toBe(false);
    expect(readFileSync(join(back.root, 'src/shared.ts'), 'utf8')).toBe('export const version = 1;\n');
    expect(git(back.root, 'status', '--porcelain')).toBe('');
    expect(git(back.root, 'log', '--all', '--format=%H').split('\n')).toEqual([base]);
    expect(git(back.root, 'reflog')).toBe('');
  });

  it("refuses a directory under the mirror's name that is not a clone, and leaves it as it was (it was removed)", async () => {
    fixture = makeMirror();
    const { reposDir, workDir, base } = fixture;
    mkdirSync(join(workDir, 'acme+widget'), { recursive: true });
    writeFileSync(join(workDir, 'acme+widget', 'notes.txt'), 'precious');
    await expect(prepareCheckout(reposDir, 'acme/widget', base, workDir)).rejects.toThrow(/acme\+widget exists and is not a clone made by ctxloop eval/);
    expect(readFileSync(join(workDir, 'acme+widget', 'notes.txt'), 'utf8')).toBe('precious');
    // an empty one is taken
    rmSync(join(workDir, 'acme+widget', 'notes.txt'));
    await expect(prepareCheckout(reposDir, 'acme/widget', base, workDir)).resolves.toMatchObject({ cloned: true });
  });

  it("refuses a git repository of the user's under the mirror's name, and leaves its branches, edits and files as they were", async () => {
    fixture = makeMirror();
    const { reposDir, workDir, base } = fixture;
    const root = join(workDir, 'acme+widget');
    mkdirSync(join(root, 'src'), { recursive: true });
    git(root, 'init', '-q', '-b', 'main');
    writeFileSync(join(root, 'src/shared.ts'), 'mine\n');
    git(root, 'add', '-A');
    git(root, '-c', 'user.email=a@b', '-c', 'user.name=a', 'commit', '-q', '-m', 'my work');
    git(root, 'remote', 'add', 'origin', join(reposDir, 'acme+widget', 'repo'));
    git(root, 'checkout', '-q', '-b', 'wip');
    writeFileSync(join(root, 'src/shared.ts'), 'an edit not committed');
    writeFileSync(join(root, 'notes.txt'), 'untracked');
    const branches = git(root, 'branch', '--format=%(refname)');
    await expect(prepareCheckout(reposDir, 'acme/widget', base, workDir)).rejects.toThrow(/acme\+widget is a git repository not made by ctxloop eval/);
    expect(git(root, 'branch', '--format=%(refname)')).toBe(branches);
    expect(git(root, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('wip');
    expect(readFileSync(join(root, 'src/shared.ts'), 'utf8')).toBe('an edit not committed');
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('untracked');
    expect(git(root, 'remote')).toBe('origin');
  });

  it("ignores GIT_DIR and GIT_WORK_TREE set around it (a hook's): the user's repository they name is neither marked nor moved", async () => {
    fixture = makeMirror();
    const { reposDir, workDir, base } = fixture;
    const user = join(workDir, '..', 'user-repo');
    mkdirSync(user, { recursive: true });
    git(user, 'init', '-q', '-b', 'main');
    writeFileSync(join(user, 'mine.txt'), 'mine\n');
    git(user, 'add', '-A');
    git(user, '-c', 'user.email=a@b', '-c', 'user.name=a', 'commit', '-q', '-m', 'my work');
    writeFileSync(join(user, 'untracked.txt'), 'untracked');
    const saved = { dir: process.env.GIT_DIR, tree: process.env.GIT_WORK_TREE };
    process.env.GIT_DIR = join(user, '.git');
    process.env.GIT_WORK_TREE = user;
    try {
      for (let run = 0; run < 2; run++) await expect(prepareCheckout(reposDir, 'acme/widget', base, workDir)).resolves.toMatchObject({ commit: base });
    } finally {
      if (saved.dir === undefined) delete process.env.GIT_DIR;
      else process.env.GIT_DIR = saved.dir;
      if (saved.tree === undefined) delete process.env.GIT_WORK_TREE;
      else process.env.GIT_WORK_TREE = saved.tree;
    }
    expect(git(user, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
    expect(git(user, 'config', '--list', '--local')).not.toMatch(/evalclone|sparsecheckout/i);
    expect(git(user, 'status', '--porcelain')).toBe('?? untracked.txt');
    expect(git(user, 'reflog')).not.toBe('');
  });

  it('still reuses a clone made before clones were marked, and marks it', async () => {
    fixture = makeMirror();
    const { reposDir, workDir, base, later } = fixture;
    const { root } = await prepareCheckout(reposDir, 'acme/widget', base, workDir);
    git(root, 'config', '--unset', 'ctxloop.evalclone');
    await expect(prepareCheckout(reposDir, 'acme/widget', later, workDir)).resolves.toMatchObject({ commit: later, cloned: false });
    expect(git(root, 'config', '--get', 'ctxloop.evalclone')).toBe('true');
  });

  it('names the repository when the base commit is not in the mirror', async () => {
    fixture = makeMirror();
    await expect(prepareCheckout(fixture.reposDir, 'acme/widget', 'deadbeefdeadbeef', fixture.workDir)).rejects.toThrow(
      'base commit deadbeefdeadbeef of acme/widget is not in its mirror (fetch the full history)',
    );
  });

  it('says where it looked when there is no mirror', async () => {
    fixture = makeMirror();
    await expect(locateMirror(fixture.reposDir, 'acme/gadget')).rejects.toThrow(/no mirror of acme\/gadget under .*acme\+gadget\/repo, acme\+gadget and acme\/gadget/);
    await expect(locateMirror(fixture.reposDir, 'acme/widget')).resolves.toBe(join(fixture.reposDir, 'acme+widget', 'repo'));
  });
});
