import { describe, expect, it } from 'vitest';
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
