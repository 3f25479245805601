import { describe, expect, it } from 'vitest';
import { describeRegion, fenceFor, fenceTagOf, renderNumberedLines, renderPackedFile } from '../../src/core/pack-text.js';

describe('pack text', () => {
  it('numbers each code line as cat -n does (number, tab) and leaves blank lines blank', () => {
    expect(renderNumberedLines({ start: 9, content: 'def f():\n    return 1\n\n  \ng = 2\n' })).toBe('9\tdef f():\n10\t    return 1\n\n\n13\tg = 2');
  });

  it('puts a file in one fence tagged with its language, … between regions, heading and reason first', () => {
    const text = renderPackedFile({
      path: 'pkg/service.py',
      score: 0.912,
      reason: 'defines Service',
      regions: [
        { start: 3, end: 4, symbol: 'Service', content: 'class Service:\n    pass' },
        { start: 10, end: 10, content: 'LIMIT = 3' },
      ],
    });
    expect(text).toBe('## pkg/service.py (score 0.91)\n\ndefines Service\n\n```python\n3\tclass Service:\n4\t    pass\n…\n10\tLIMIT = 3\n```');
  });

  it('tags fences by language, with the names Markdown highlighters know', () => {
    expect(fenceTagOf('src/a.rs')).toBe('rust');
    expect(fenceTagOf('src/a.tsx')).toBe('typescript');
    expect(fenceTagOf('notes.txt')).toBe('');
  });
});

describe('fenceFor', () => {
  it('outgrows the longest backtick run, over a line of 130,000 runs (Math.max(...runs) overflowed the stack)', () => {
    expect(fenceFor(['plain'])).toBe('```');
    expect(fenceFor(['a ```` b', '`'])).toBe('`````');
    expect(fenceFor(['`a '.repeat(130_000)])).toBe('```');
    expect(fenceFor([`${'`a '.repeat(130_000)}\`\`\`\`\`\``])).toBe('```````');
  });
});

describe('describeRegion', () => {
  it('shows a symbol\'s control characters as U+FFFD: the pattern extractor reads names from files the grammar could not (`def \\x1b[2J(x)` cleared the screen in "Cut for the budget")', () => {
    expect(describeRegion({ start: 9, end: 43, symbol: '\x1b[2J\x1b[31m' })).toBe('lines 9–43 (\uFFFD[2J\uFFFD[31m)');
    expect(describeRegion({ start: 4, end: 4, symbol: 'verify' })).toBe('line 4 (verify)');
  });
});
