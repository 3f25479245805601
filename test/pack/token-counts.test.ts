import { describe, expect, it } from 'vitest';
import { createCache, createMemoryCache } from '../../src/cache/store.js';
import { loadTokenizer } from '../../src/pack/lazy-tokens.js';
import { createTokenCounts } from '../../src/pack/token-counts.js';
import { startTokenThread } from '../../src/pack/token-thread.js';
import { createTokenizer } from '../../src/pack/tokens.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs('ctxloop-tokens-');
const tokenizer = createTokenizer();
const TEXTS = ['', 'hello world', 'function verifyEmail(user) {\n  return user.email.includes("@");\n}\n', 'a <|endoftext|> b', 'проверить_почту(адрес) // メール送信', ' \t\n'.repeat(40)];

describe('createTokenCounts', () => {
  it('keeps counts between runs: a later run asks the tokenizer only for texts it has not seen', async () => {
    const dir = tempDir();
    const root = tempDir();
    const asked: string[] = [];
    const counting = (text: string) => () => (asked.push(text), tokenizer.count(text));

    const cache = await createCache({ dir, root });
    const first = await createTokenCounts(cache);
    for (const text of TEXTS.slice(0, 3)) expect(first.count(text, counting(text))).toBe(tokenizer.count(text));
    expect(asked).toEqual(TEXTS.slice(1, 3)); // the empty text is 0 without asking
    await cache.flush();

    asked.length = 0;
    const later = await createTokenCounts(await createCache({ dir, root }));
    expect(later.size).toBe(2);
    for (const text of TEXTS) expect(later.count(text, counting(text))).toBe(tokenizer.count(text));
    expect(asked).toEqual(TEXTS.slice(3));
  });

  it('keeps the most recently used counts when there are more than it may keep', async () => {
    const cache = createMemoryCache();
    const counts = await createTokenCounts(cache, 2);
    for (const text of ['one', 'two', 'three']) {
      counts.count(text, () => tokenizer.count(text));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const kept = await createTokenCounts(cache, 2);
    expect(kept.size).toBe(2);
    const asked: string[] = [];
    for (const text of ['one', 'two', 'three']) kept.count(text, () => (asked.push(text), tokenizer.count(text)));
    expect(asked).toEqual(['one']);
  });

  it('counts again where a kept count is one no text of its size has (0, or more tokens than bytes)', async () => {
    const dir = tempDir();
    const root = tempDir();
    const text = TEXTS[2]!;
    const cache = await createCache({ dir, root });
    (await createTokenCounts(cache)).count(text, () => tokenizer.count(text));
    await cache.flush();
    const [key] = Object.keys(((await cache.readBlob('tokens')) as { counts: Record<string, unknown> }).counts);
    for (const forged of [0, 99_999_999]) {
      const edited = await createCache({ dir, root });
      edited.writeBlob('tokens', { v: 'o200k_base/1', counts: { [key!]: [forged, Date.now()] } });
      await edited.flush();
      const asked: string[] = [];
      const counts = await createTokenCounts(await createCache({ dir, root }));
      expect(counts.count(text, () => (asked.push(text), tokenizer.count(text)))).toBe(tokenizer.count(text));
      expect(asked).toEqual([text]);
    }
  });

  it('reads a blob of another shape or format as no counts', async () => {
    for (const blob of [{ v: 'o200k_base/0', counts: { a: [1, 1] } }, { v: 'o200k_base/1', counts: { a: ['x', 1], b: [-1, 1] } }, 'garbage', null]) {
      const cache = createMemoryCache();
      cache.writeBlob('tokens', blob);
      expect((await createTokenCounts(cache)).size).toBe(0);
    }
  });
});

describe('loadTokenizer', () => {
  it('counts as the tokenizer does, from a cold cache and from kept counts alike', async () => {
    const cache = createMemoryCache();
    for (let run = 0; run < 2; run++) {
      const lazy = loadTokenizer({ cache });
      expect(() => lazy.tokenizer.count('x')).toThrow(/still loading/);
      lazy.start();
      await lazy.ready;
      for (const text of [...TEXTS, `${TEXTS[2]} and one more`]) expect(lazy.tokenizer.count(text)).toBe(tokenizer.count(text));
    }
  });

  it('loads nothing before start: ready stays pending', async () => {
    const lazy = loadTokenizer({ cache: createMemoryCache() });
    const state = await Promise.race([lazy.ready.then(() => 'ready'), new Promise((resolve) => setTimeout(() => resolve('pending'), 50))]);
    expect(state).toBe('pending');
  });
});

describe('startTokenThread', () => {
  it('counts on a thread of its own as the tokenizer does here, synchronously', () => {
    let fellBack = 0;
    const threaded = startTokenThread(() => ((fellBack += 1), tokenizer));
    expect(threaded).toBeDefined();
    for (const text of [...TEXTS, TEXTS[2]!.repeat(2000)]) expect(threaded!.count(text)).toBe(tokenizer.count(text));
    expect(fellBack).toBe(0);
  });
});
