import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { rankBm25, scoreDocuments } from '../../src/eval/bm25.js';
import { createDocumentCache, readDocuments } from '../../src/eval/documents.js';
import { makeRepo, type TempRepo } from '../helpers/make-repo.js';

let repo: TempRepo | undefined;
afterEach(() => repo?.cleanup());

function makeIndexedRepo(files: Record<string, string | Uint8Array>): TempRepo {
  const made = makeRepo(files);
  execFileSync('git', ['add', '-A'], { cwd: made.root });
  return made;
}

describe('rankBm25', () => {
  it('ranks the file about the task first', async () => {
    repo = makeIndexedRepo({
      'src/auth/verify-email.ts': 'export function verifyEmail(token: string) {\n  if (isExpired(token)) throw new Error("token expired");\n}\n',
      'src/auth/login.ts': 'export function login(user: string) { return session(user); }\n',
      'src/db/schema.ts': 'export const users = table("users", { email: text() });\n',
      'README.md': 'A small app.\n',
    });
    const ranked = await rankBm25('verifyEmail throws "token expired" for a fresh token', repo.root);
    expect(ranked[0]?.path).toBe('src/auth/verify-email.ts');
    expect(ranked.map((entry) => entry.path)).not.toContain('README.md');
  });

  it('counts path words: a file named after the task ranks even with little content', async () => {
    repo = makeIndexedRepo({
      'lib/tokenizer.py': 'pass\n',
      'lib/other.py': 'def run():\n    return 1\n',
    });
    expect((await rankBm25('the tokenizer crashes', repo.root))[0]?.path).toBe('lib/tokenizer.py');
  });

  it('skips binary, oversized and untracked files', async () => {
    repo = makeIndexedRepo({
      'blob.bin': new Uint8Array([112, 97, 114, 115, 101, 0, 112, 97, 114, 115, 101]),
      'huge.txt': 'parser '.repeat(200_000),
      'small.txt': 'parser here\n',
    });
    repo.write('untracked.txt', 'parser parser parser');
    const paths = (await readDocuments(repo.root)).map((doc) => doc.path);
    expect(paths).toEqual(['small.txt']);
  });

  it('reuses content terms by blob for the same root', async () => {
    repo = makeIndexedRepo({ 'a.ts': 'alpha beta\n', 'b.ts': 'alpha beta\n' });
    const cache = createDocumentCache();
    await readDocuments(repo.root, cache);
    expect(cache.blobs.size).toBe(1);
    expect(cache.root).toBe(repo.root);
  });
});

describe('scoreDocuments', () => {
  const doc = (path: string, terms: Record<string, number>, length = 10) => ({
    path,
    content: { terms: new Map(Object.entries(terms)), length },
    pathTerms: new Map<string, number>(),
    length,
  });

  it('favours the rarer term, then the shorter file, and drops files without any term', () => {
    const docs = [doc('common.ts', { common: 3 }), doc('rare.ts', { rare: 1, common: 1 }), doc('rare-long.ts', { rare: 1 }, 100), doc('none.ts', { other: 5 }), doc('c2.ts', { common: 1 })];
    const ranked = scoreDocuments(['rare', 'common'], docs).map((entry) => entry.path);
    expect(ranked[0]).toBe('rare.ts');
    expect(ranked.indexOf('rare.ts')).toBeLessThan(ranked.indexOf('rare-long.ts'));
    expect(ranked).not.toContain('none.ts');
  });

  it('breaks ties by path', () => {
    expect(scoreDocuments(['x'], [doc('b.ts', { x: 1 }), doc('a.ts', { x: 1 }), doc('c.ts', {})]).map((entry) => entry.path)).toEqual(['a.ts', 'b.ts']);
  });
});
