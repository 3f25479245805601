import { describe, expect, it } from 'vitest';
import { countInPieces } from '../../src/pack/count-with.js';
import { createTokenizer } from '../../src/pack/tokens.js';

describe('createTokenizer', () => {
  it('counts o200k tokens offline', () => {
    const tokenizer = createTokenizer();
    expect(tokenizer.count('')).toBe(0);
    expect(tokenizer.count('hello world')).toBe(2);
    expect(tokenizer.count('function verifyEmail(user) {}')).toBeGreaterThan(4);
  });

  it('counts special-token text in a file as plain text instead of throwing', () => {
    expect(createTokenizer().count('a <|endoftext|> b')).toBeGreaterThan(3);
  });
});

describe('countInPieces', () => {
  it('counts a text without long runs whole: the exact count', () => {
    const seen: string[] = [];
    const text = 'export function verifyEmail(user: User) {\n  return user.email.includes("@");\n}\n'.repeat(50);
    expect(countInPieces(text, (piece) => (seen.push(piece), piece.length))).toBe(text.length);
    expect(seen).toEqual([text]);
  });

  it('cuts a run of one kind of character (letters, punctuation, spaces) into pieces of 1,000 at most', () => {
    for (const run of ['a'.repeat(2500), '='.repeat(2500), ' '.repeat(2500), 'é'.repeat(2500)]) {
      const seen: string[] = [];
      const text = `const blob = "${run}";\nnext();\n`;
      expect(countInPieces(text, (piece) => (seen.push(piece), piece.length))).toBe(text.length);
      expect(seen.join('')).toBe(text);
      expect(Math.max(...seen.map((p) => p.length))).toBeLessThanOrEqual(1000);
    }
  });

  it('counts 300 kB of one letter and 900 kB of spaces with the real tokenizer (one piece took minutes: BPE is quadratic in a piece)', () => {
    const tokenizer = createTokenizer();
    expect(tokenizer.count('a'.repeat(300_000))).toBe(37_500);
    expect(tokenizer.count(`export const s = "${' '.repeat(900_000)}";`)).toBeGreaterThan(7000);
    // a text of ordinary lines keeps its exact count
    const code = 'const x = 1;\n'.repeat(1000);
    expect(tokenizer.count(code)).toBe(6000);
  }, 60_000);

  it('counts in pieces on the tokenizer\'s thread too (a cold run counts there)', async () => {
    const { loadTokenizer } = await import('../../src/pack/lazy-tokens.js');
    const lazy = loadTokenizer();
    lazy.start();
    await lazy.ready;
    expect(lazy.tokenizer.count('a'.repeat(300_000))).toBe(37_500);
    expect(lazy.tokenizer.count('const x = 1;\n'.repeat(1000))).toBe(6000);
  }, 60_000);
});
