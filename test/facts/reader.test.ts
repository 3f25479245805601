import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryCache } from '../../src/cache/memory.js';
import type { Cache } from '../../src/core/deps.js';
import { createFactsReader } from '../../src/facts/reader.js';
import { makeRepo, type TempRepo } from '../helpers/make-repo.js';

/** A memory cache that counts what it is asked. */
function countingCache(): Cache & { hits: number; misses: number; sets: number } {
  const inner = createMemoryCache();
  const counted = {
    ...inner,
    hits: 0,
    misses: 0,
    sets: 0,
    getFacts(key: string) {
      const value = inner.getFacts(key);
      if (value) counted.hits++;
      else counted.misses++;
      return value;
    },
    setFacts(key: string, value: Parameters<Cache['setFacts']>[1]) {
      counted.sets++;
      inner.setFacts(key, value);
    },
  };
  return counted;
}

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()!();
});

function repo(files: Record<string, string | Uint8Array>): TempRepo {
  const r = makeRepo(files, { git: false });
  cleanups.push(r.cleanup);
  return r;
}

describe('createFactsReader', () => {
  it('reads the same bytes as .ts and as .tsx each with its own grammar, whichever the cache saw first', async () => {
    // `<any>a` is a cast in .ts and an unclosed element in .tsx: one grammar parses it, the other falls back
    const text = 'export function overloaded(a: unknown) {\n  return (<any>a).value;\n}\nexport const handlers = {\n  onClick() {\n    return 1;\n  },\n};\n';
    const r = repo({ 'src/handlers.tsx': text, 'lib/handlers.ts': text });
    const cold = (path: string) => createFactsReader({ cache: createMemoryCache() }).read(r.root, [path]).then((m) => m.get(path)!);
    const alone = { ts: await cold('lib/handlers.ts'), tsx: await cold('src/handlers.tsx') };
    const shared = createFactsReader({ cache: createMemoryCache() });
    for (const order of [['src/handlers.tsx', 'lib/handlers.ts'], ['lib/handlers.ts', 'src/handlers.tsx']]) {
      for (const path of order) {
        const read = (await shared.read(r.root, [path])).get(path)!;
        expect(read, path).toEqual(path.endsWith('.tsx') ? alone.tsx : alone.ts);
      }
    }
  });

  it('reads facts with the sha1 of the raw bytes, and hits the cache on the second read', async () => {
    const r = repo({ 'src/a.ts': 'export function a() {\r\n  return 1;\r\n}\r\n', 'src/b.py': 'def b():\n    pass\n' });
    const cache = countingCache();
    const reader = createFactsReader({ cache });
    const first = await reader.read(r.root, ['src/a.ts', 'src/b.py']);
    expect([...first.keys()]).toEqual(['src/a.ts', 'src/b.py']);
    const a = first.get('src/a.ts')!;
    expect(a.hash).toBe(createHash('sha1').update('export function a() {\r\n  return 1;\r\n}\r\n').digest('hex'));
    expect(a.defs).toEqual([{ name: 'a', kind: 'function', start: 1, end: 3, qualified: 'a' }]);
    expect(a.parser).toBe('tree-sitter');
    expect(cache).toMatchObject({ hits: 0, misses: 2, sets: 2 });
    const second = await reader.read(r.root, ['src/a.ts', 'src/b.py']);
    expect(cache).toMatchObject({ hits: 2, misses: 2, sets: 2 });
    expect(second.get('src/a.ts')).toEqual(a);
  });

  it('re-reads an edited file (new hash), and gives the same bytes under another path their own path', async () => {
    const r = repo({ 'a.ts': 'function a() {}\n', 'copy/a.ts': 'function a() {}\n' });
    const cache = countingCache();
    const reader = createFactsReader({ cache });
    const facts = await reader.read(r.root, ['a.ts', 'copy/a.ts']);
    expect(facts.get('copy/a.ts')?.path).toBe('copy/a.ts');
    r.write('a.ts', 'function b() {}\n');
    const edited = await reader.read(r.root, ['a.ts']);
    expect(edited.get('a.ts')?.defs[0]?.name).toBe('b');
  });

  it('refuses a symlink that leaves the root, but follows one that stays inside', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'ctxloop-outside-'));
    cleanups.push(() => rmSync(outside, { recursive: true, force: true }));
    writeFileSync(join(outside, 'secret.ts'), 'export const secret = 1;\n');
    const r = repo({ 'src/real.ts': 'export const real = 1;\n' });
    symlinkSync(join(outside, 'secret.ts'), join(r.root, 'src/leak.ts'));
    symlinkSync(join(r.root, 'src/real.ts'), join(r.root, 'src/alias.ts'));
    const reader = createFactsReader({ cache: createMemoryCache() });
    const facts = await reader.read(r.root, ['src/leak.ts', 'src/alias.ts', '../' + outside.split('/').pop() + '/secret.ts']);
    expect([...facts.keys()]).toEqual(['src/alias.ts']);
    expect(await reader.readText(r.root, 'src/leak.ts')).toBeUndefined();
    expect(await reader.readText(r.root, join(outside, 'secret.ts'))).toBeUndefined();
  });

  it('skips a FIFO without blocking, directories, missing and oversized files', async () => {
    const r = repo({ 'ok.ts': 'const ok = 1;\n', 'big.ts': `// ${'x'.repeat(5000)}\n`, 'dir/inner.ts': '' });
    execFileSync('mkfifo', [join(r.root, 'pipe.ts')]);
    const reader = createFactsReader({ cache: createMemoryCache(), maxFileSize: 1024 });
    const facts = await reader.read(r.root, ['pipe.ts', 'dir', 'gone.ts', 'big.ts', 'ok.ts']);
    expect([...facts.keys()]).toEqual(['ok.ts']);
    expect(await reader.readText(r.root, 'pipe.ts')).toBeUndefined();
  });

  it('says once that a root removed during a run cannot be read, however often it is read after', async () => {
    const r = repo({ 'a.ts': 'const a = 1;\n' });
    const warnings: string[] = [];
    const reader = createFactsReader({ cache: createMemoryCache(), logger: { debug() {}, info() {}, warn: (m) => void warnings.push(m), error() {} } });
    expect([...(await reader.read(r.root, ['a.ts'])).keys()]).toEqual(['a.ts']);
    rmSync(r.root, { recursive: true, force: true });
    for (let i = 0; i < 3; i++) expect((await reader.read(r.root, ['a.ts'])).size).toBe(0);
    expect(await reader.readText(r.root, 'a.ts')).toBeUndefined();
    expect(warnings).toEqual([`cannot read root ${r.root}: it does not exist or is not accessible`]);
  });

  it('reads text as UTF-8 with invalid bytes replaced and CRLF normalized', async () => {
    const r = repo({ 'a.txt': Buffer.concat([Buffer.from('caf\u00e9\r\n'), Buffer.from([0xff, 0xfe]), Buffer.from('\r\nend')]) });
    const reader = createFactsReader({ cache: createMemoryCache() });
    expect(await reader.readText(r.root, 'a.txt')).toBe('caf\u00e9\n\ufffd\ufffd\nend');
  });

  it('stops on abort', async () => {
    const r = repo({ 'a.ts': 'const a = 1;\n' });
    const controller = new AbortController();
    controller.abort();
    const reader = createFactsReader({ cache: createMemoryCache() });
    await expect(reader.read(r.root, ['a.ts'], controller.signal)).rejects.toMatchObject({ code: 'aborted' });
  });

  it('trusts a settled stamp (same modification time, size and change time) without reading the file, and re-reads when one changes', async () => {
    const r = repo({ 'a.ts': 'function a() {}\n', 'b.ts': 'function b() {}\n' });
    const past = new Date(Date.now() - 60_000);
    for (const name of ['a.ts', 'b.ts']) utimesSync(join(r.root, name), past, past);
    const cache = createMemoryCache();
    const reader = createFactsReader({ cache });
    expect((await reader.read(r.root, ['a.ts', 'b.ts'])).get('a.ts')?.defs[0]?.name).toBe('a');
    expect(cache.getStamp('a.ts')).toMatchObject({ size: 16, ctimeMs: statSync(join(r.root, 'a.ts')).ctimeMs });
    expect(Math.round(cache.getStamp('a.ts')!.mtimeMs)).toBe(past.getTime());
    // A stamp matching the stat is believed: the facts its hash names come back, the file unread.
    cache.setStamp('a.ts', { ...cache.getStamp('a.ts')!, hash: cache.getStamp('b.ts')!.hash });
    expect((await reader.read(r.root, ['a.ts'])).get('a.ts')?.defs[0]?.name).toBe('b');
    // Given the same times again (an edit hidden by `touch -r`): the change time moved, so it is read again.
    utimesSync(join(r.root, 'a.ts'), past, past);
    expect((await reader.read(r.root, ['a.ts'])).get('a.ts')?.defs[0]?.name).toBe('a');
    // Another modification time (an edit, a checkout): read and hashed again.
    cache.setStamp('a.ts', { ...cache.getStamp('a.ts')!, hash: cache.getStamp('b.ts')!.hash });
    const later = new Date(past.getTime() + 1000);
    utimesSync(join(r.root, 'a.ts'), later, later);
    expect((await reader.read(r.root, ['a.ts'])).get('a.ts')?.defs[0]?.name).toBe('a');
  });

  it('sees two files of the same size and modification time swapped by renames (`mv`): each path gets the other\'s facts', async () => {
    const r = repo({ 'a.ts': 'function a() {}\n', 'b.ts': 'function b() {}\n' });
    const past = new Date(Date.now() - 60_000);
    for (const name of ['a.ts', 'b.ts']) utimesSync(join(r.root, name), past, past);
    const reader = createFactsReader({ cache: createMemoryCache() });
    const before = await reader.read(r.root, ['a.ts', 'b.ts']);
    expect([before.get('a.ts')?.defs[0]?.name, before.get('b.ts')?.defs[0]?.name]).toEqual(['a', 'b']);
    renameSync(join(r.root, 'a.ts'), join(r.root, 'swap.tmp'));
    renameSync(join(r.root, 'b.ts'), join(r.root, 'a.ts'));
    renameSync(join(r.root, 'swap.tmp'), join(r.root, 'b.ts'));
    const after = await reader.read(r.root, ['a.ts', 'b.ts']);
    expect([after.get('a.ts')?.defs[0]?.name, after.get('b.ts')?.defs[0]?.name]).toEqual(['b', 'a']);
  });

  it('does not stamp a file modified in the last seconds: a second write in the same tick would go unseen', async () => {
    const r = repo({ 'a.ts': 'function a() {}\n' });
    const cache = createMemoryCache();
    await createFactsReader({ cache }).read(r.root, ['a.ts']);
    expect(cache.getStamp('a.ts')).toBeUndefined();
  });
});
