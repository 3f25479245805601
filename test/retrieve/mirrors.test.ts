import { describe, expect, it } from 'vitest';
import type { Candidate } from '../../src/core/types.js';
import { dropMirrors } from '../../src/retrieve/mirrors.js';

function candidate(path: string, size: number, lines: string[]): Candidate {
  const hits = lines.map((text, i) => ({ line: i + 1, text, terms: ['parse'] }));
  return { path, size, termFreq: { parse: lines.length }, literals: [], symbols: [], mentions: [], hits, sources: ['content'] };
}

const body = ['export function parseSchema() {', '  return parseInner(input);', '}', 'const parsed = parseSchema();'];

describe('dropMirrors', () => {
  it('keeps the source and leaves out its mirror with rewritten imports', () => {
    const source = candidate('src/types.ts', 1000, ['import { x } from "./x";', ...body]);
    const mirror = candidate('deno/lib/types.ts', 1003, ['import { x } from "./x.ts";', ...body]);
    expect(dropMirrors([mirror, source]).map((c) => c.path)).toEqual(['src/types.ts']);
  });

  it('keeps files of the same name whose matched lines differ', () => {
    const a = candidate('src/router/trie/node.ts', 1000, body);
    const b = candidate('src/router/regexp/node.ts', 1000, ['parse(a)', 'parse(b)', 'parse(c)', 'parse(d)']);
    expect(dropMirrors([a, b])).toHaveLength(2);
  });

  it('keeps same-named files of very different sizes', () => {
    const a = candidate('src/types.ts', 1000, body);
    const b = candidate('lib/types.ts', 5000, body);
    expect(dropMirrors([a, b])).toHaveLength(2);
  });
});
