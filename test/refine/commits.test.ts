import { describe, expect, it } from 'vitest';
import { commitMentions, MAX_NAMED_COMMITS } from '../../src/refine/commits.js';

describe('commitMentions', () => {
  it('finds commit hashes in prose and in links, once each, in order', () => {
    expect(commitMentions('4a55850 was a bit aggressive; see also https://github.com/o/r/commit/0f3e9a1b2c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f and 4a55850 again')).toEqual(['4a55850', '0f3e9a1b2c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f']);
    expect(commitMentions('Broken since commit 6d3d2750 (jq-1.7rc1-25-gf94a9d4).')).toEqual(['6d3d2750']);
  });

  it('leaves out what only looks like one: words, numbers, colours, UUIDs, 0x numbers, versions, file names', () => {
    expect(commitMentions('deadbeef cafebabe 12345678 20240131')).toEqual([]);
    expect(commitMentions('color: #a1b2c3d4; id 123e4567-e89b-12d3-a456-426614174000; addr 0x7f3a2b1c9d')).toEqual([]);
    expect(commitMentions('jq-1.7rc1-25-gf94a9d4, file a1b2c3d.js, ./a1b2c3d4/x')).toEqual([]);
    // too short, or longer than a SHA-1 (a SHA-256 checksum)
    expect(commitMentions('abc123 and ' + 'a1'.repeat(32))).toEqual([]);
  });

  it('looks up a few at most: a pasted log names no commit in particular', () => {
    const log = ['1a2b3c4', '2b3c4d5', '3c4d5e6', '4d5e6f7', '5e6f7a8'].map((h) => `${h} fix something`).join('\n');
    expect(commitMentions(log)).toHaveLength(MAX_NAMED_COMMITS);
  });
});
