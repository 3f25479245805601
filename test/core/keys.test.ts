import { describe, expect, it } from 'vitest';
import { factsKey, queryKey, scoreKey, stableStringify } from '../../src/core/keys.js';
import type { Query } from '../../src/core/types.js';
import { FACTS_VERSION } from '../../src/core/keys.js';

const query = (overrides: Partial<Query> = {}): Query => ({
  keywords: ['verifyemail', 'verify', 'email'],
  weights: { verifyemail: 1, verify: 0.6, email: 0.6 },
  literals: ['Invalid Token'],
  symbols: ['verifyEmail'],
  paths: ['src/auth'],
  patterns: [],
  excludes: [],
  focusAreas: [],
  ...overrides,
});

describe('cache keys', () => {
  it('stableStringify sorts keys at every level', () => {
    expect(stableStringify({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: null } })).toBe('{"a":{"c":null,"d":[2,{"e":0,"f":1}]},"b":1}');
  });

  it('queryKey ignores order, duplicates, float noise, literal case and search-only fields', () => {
    const base = queryKey(query());
    expect(base).toMatch(/^[0-9a-f]{40}$/);
    expect(queryKey(query({ keywords: ['email', 'verify', 'verifyemail', 'email'] }))).toBe(base);
    expect(queryKey(query({ weights: { verifyemail: 1, verify: 0.6000001, email: 0.6 } }))).toBe(base);
    expect(queryKey(query({ literals: ['invalid token'] }))).toBe(base);
    expect(queryKey(query({ patterns: ['**/*.ts'], excludes: ['dist/**'], focusAreas: ['src'] }))).toBe(base);
    expect(queryKey(query({ weights: { verifyemail: 1, verify: 0.3, email: 0.6 } }))).not.toBe(base);
    expect(queryKey(query({ symbols: ['sendEmail'] }))).not.toBe(base);
    expect(queryKey(query({ paths: [] }))).not.toBe(base);
  });

  it('scoreKey changes with each input and not with property order', () => {
    const input = { evaluator: 'offline', model: 'offline', promptVersion: 1, queryKey: 'q', contentHash: 'h' };
    const key = scoreKey(input);
    expect(scoreKey({ contentHash: 'h', queryKey: 'q', promptVersion: 1, model: 'offline', evaluator: 'offline' })).toBe(key);
    for (const field of Object.keys(input) as Array<keyof typeof input>) {
      expect(scoreKey({ ...input, [field]: field === 'promptVersion' ? 2 : 'other' })).not.toBe(key);
    }
  });

  it('factsKey depends on content and extractor version', () => {
    expect(factsKey('h')).toBe(factsKey('h', FACTS_VERSION));
    expect(factsKey('h')).not.toBe(factsKey('h', FACTS_VERSION + 1));
    expect(factsKey('h')).not.toBe(factsKey('i'));
    expect(factsKey('h')).not.toBe(scoreKey({ evaluator: '', model: '', promptVersion: '', queryKey: '', contentHash: 'h' }));
  });
});
