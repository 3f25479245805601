import { describe, expect, it } from 'vitest';
import type { FileFacts, SymbolDef } from '../../src/core/types.js';
import { mergeRegions, regionsFor } from '../../src/pack/regions.js';

function facts(lines: number, defs: SymbolDef[]): FileFacts {
  return { path: 'src/a.ts', hash: 'h', language: 'typescript', lines, defs, imports: [], calls: [] };
}

const CLASS_FILE = facts(200, [
  { name: 'UserService', kind: 'class', start: 10, end: 60 },
  { name: 'getUser', kind: 'method', start: 12, end: 20, parent: 'UserService' },
  { name: 'saveUser', kind: 'method', start: 21, end: 30, parent: 'UserService' },
  { name: 'deleteUser', kind: 'method', start: 40, end: 50, parent: 'UserService' },
  { name: 'longFunction', kind: 'function', start: 70, end: 190 },
]);

describe('regionsFor', () => {
  it('takes the enclosing method, not its class', () => {
    expect(regionsFor(CLASS_FILE, [15])).toEqual([{ start: 12, end: 20, symbol: 'getUser' }]);
  });

  it('takes the class first line and a window for evidence between its methods, not every method', () => {
    expect(regionsFor(CLASS_FILE, [35])).toEqual([
      { start: 10, end: 10, symbol: 'UserService' },
      { start: 29, end: 41, symbol: 'UserService' },
    ]);
    const small = facts(40, [
      { name: 'Point', kind: 'class', start: 1, end: 8 },
      { name: 'norm', kind: 'method', start: 5, end: 7, parent: 'Point' },
    ]);
    expect(regionsFor(small, [2])).toEqual([{ start: 1, end: 8, symbol: 'Point' }]);
  });

  it('merges overlapping and adjacent regions, joining their names', () => {
    expect(regionsFor(CLASS_FILE, [14, 18, 25])).toEqual([{ start: 12, end: 30, symbol: 'getUser, saveUser' }]);
  });

  it('merges regions one line apart, but not two', () => {
    expect(mergeRegions([{ start: 1, end: 5 }, { start: 7, end: 9 }])).toEqual([{ start: 1, end: 9 }]);
    expect(mergeRegions([{ start: 1, end: 5 }, { start: 8, end: 9 }])).toEqual([{ start: 1, end: 5 }, { start: 8, end: 9 }]);
  });

  it('shows a window of a long definition, labelled with its name', () => {
    expect(regionsFor(CLASS_FILE, [100])).toEqual([
      { start: 70, end: 70, symbol: 'longFunction' },
      { start: 94, end: 106, symbol: 'longFunction' },
    ]);
    expect(regionsFor(CLASS_FILE, [72], { context: 3 })).toEqual([{ start: 70, end: 75, symbol: 'longFunction' }]);
    expect(regionsFor(CLASS_FILE, [100], { maxRegionLines: 200 })).toEqual([{ start: 70, end: 190, symbol: 'longFunction' }]);
  });

  it('shows a window around evidence outside any definition, clamped to the file', () => {
    expect(regionsFor(CLASS_FILE, [3])).toEqual([{ start: 1, end: 9 }]);
    expect(regionsFor(CLASS_FILE, [198])).toEqual([{ start: 192, end: 200 }]);
  });

  it('shows the header when there is no evidence (or none inside the file)', () => {
    expect(regionsFor(CLASS_FILE, [])).toEqual([{ start: 1, end: 30 }]);
    expect(regionsFor(CLASS_FILE, [0, 500, 1.5])).toEqual([{ start: 1, end: 30 }]);
    expect(regionsFor(facts(12, []), [])).toEqual([{ start: 1, end: 12 }]);
    expect(regionsFor(facts(0, []), [])).toEqual([]);
  });

  it('leaves values out of an outline when the file defines anything else', () => {
    const mixed = facts(400, [
      ...Array.from({ length: 8 }, (_, i): SymbolDef => ({ name: `f${i}`, kind: 'function', start: i * 50 + 1, end: i * 50 + 10 })),
      { name: 'LIMIT', kind: 'constant', start: 20, end: 20 },
    ]);
    const evidence = Array.from({ length: 8 }, (_, i) => i * 50 + 4);
    expect(regionsFor(mixed, evidence).map((r) => r.symbol)).toEqual(['f0', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7']);
  });

  it('judges spread on the evidence regions themselves: seven functions one blank line apart are an outline', () => {
    const packed = facts(100, Array.from({ length: 7 }, (_, i): SymbolDef => ({ name: `g${i}`, kind: 'function', start: i * 6 + 1, end: i * 6 + 5 })));
    const evidence = Array.from({ length: 7 }, (_, i) => i * 6 + 2);
    expect(regionsFor(packed, evidence).map((r) => [r.start, r.end])).toEqual(Array.from({ length: 7 }, (_, i) => [i * 6 + 1, i * 6 + 1]));
  });

  it('keeps a long outline to the 30 definitions nearest the evidence', () => {
    const many = facts(2000, Array.from({ length: 100 }, (_, i): SymbolDef => ({ name: `h${i}`, kind: 'function', start: i * 20 + 1, end: i * 20 + 10 })));
    const evidence = [42, 402, 1202, 1602, 1802, 1902, 1982].map((n) => n + 1);
    const outline = regionsFor(many, evidence);
    expect(outline).toHaveLength(30);
    expect(outline.map((r) => r.symbol)).toEqual(expect.arrayContaining(['h2', 'h20', 'h60', 'h80', 'h90', 'h95', 'h99']));
    expect(outline.map((r) => r.start)).toEqual([...outline.map((r) => r.start)].sort((a, b) => a - b));
    expect(outline.map((r) => r.symbol)).not.toContain('h40');
  });

  it('gives an outline of top-level definitions when evidence is scattered', () => {
    const scattered = facts(400, [
      ...Array.from({ length: 8 }, (_, i): SymbolDef => ({ name: `f${i}`, kind: 'function', start: i * 50 + 1, end: i * 50 + 10 })),
      { name: 'inner', kind: 'function', start: 3, end: 5, parent: 'f0' },
    ]);
    const evidence = Array.from({ length: 8 }, (_, i) => i * 50 + 4);
    expect(regionsFor(scattered, evidence)).toEqual(Array.from({ length: 8 }, (_, i) => ({ start: i * 50 + 1, end: i * 50 + 1, symbol: `f${i}` })));
  });

  it('is deterministic and sorted whatever the evidence order', () => {
    const a = regionsFor(CLASS_FILE, [45, 15, 100, 3]);
    expect(regionsFor(CLASS_FILE, [3, 100, 15, 45, 45])).toEqual(a);
    expect(a.map((r) => r.start)).toEqual([...a.map((r) => r.start)].sort((x, y) => x - y));
  });
});
