import { describe, expect, it } from 'vitest';
import { extractFacts } from '../../src/facts/extract.js';
import { readFacts } from './parsed.js';

const EXTENSIONS = ['ts', 'js', 'py', 'go', 'rs', 'java', 'kt', 'scala', 'cs', 'swift', 'c', 'cpp', 'php', 'rb', 'lua', 'ex', 'sh', 'md', 'txt'];

/** Deterministic pseudo-random generator, so a failure reproduces. */
function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}

describe('extractFacts on weird input', () => {
  it('never throws and keeps every range inside the file', () => {
    const tokens = ['{', '}', '(', ')', '[', ']', '"', "'", '`', '/', '*', '\\', '\n', ' ', 'def ', 'class ', 'fn ', 'func ', 'end', 'do', '#', '//', '/*', '*/', '<<~EOS', 'EOS', '${', 'r#"', '@"', 'x', '=>', ';', ':'];
    const next = random(7);
    for (let round = 0; round < 300; round++) {
      let text = '';
      const length = 10 + Math.floor(next() * 300);
      for (let k = 0; k < length; k++) text += tokens[Math.floor(next() * tokens.length)];
      if (round % 2 === 0) text += "\n";
      for (const ext of EXTENSIONS) {
        const facts = extractFacts(`f.${ext}`, text);
        for (const def of facts.defs) {
          expect(def.start).toBeGreaterThanOrEqual(1);
          expect(def.end).toBeGreaterThanOrEqual(def.start);
          expect(def.end).toBeLessThanOrEqual(Math.max(1, facts.lines));
        }
        expect(facts.calls.length).toBeLessThanOrEqual(500);
      }
    }
  });

  it('reads a statement, 40,000 blank or comment lines and its continuation in linear time (each blank line walked the rest of the run: 7.5 s)', () => {
    for (const [path, text] of [
      ['Blank.kt', `val verifyEmail = listOf(1)\n${'// old code\n'.repeat(40_000)}  .map { it }\n`],
      ['Blank.scala', `val verifyEmail = Seq(1)\n${'\n'.repeat(40_000)}  .map(identity)\n`],
    ] as const) {
      const started = performance.now();
      const facts = extractFacts(path, text);
      expect(performance.now() - started, path).toBeLessThan(2_000);
      expect(facts.defs.map((d) => [d.name, d.start, d.end]), path).toEqual([['verifyEmail', 1, 40_002]]);
    }
  });

  it('starts each of a run of annotated one-line definitions on its own line, in linear time (each walked up the whole run)', () => {
    const scala = `object Codec {\n${Array.from({ length: 6_000 }, (_, i) => `  @inline def f${i}(x: Int): Int = x + ${i}`).join('\n')}\n}\n`;
    const kotlin = `object Flags {\n${Array.from({ length: 6_000 }, (_, i) => `    @JvmStatic fun f${i}() = ${i}`).join('\n')}\n}\n`;
    for (const [path, text] of [['Codec.scala', scala], ['Flags.kt', kotlin]] as const) {
      const started = performance.now();
      const defs = extractFacts(path, text).defs.filter((d) => d.name.startsWith('f'));
      expect(performance.now() - started, path).toBeLessThan(3_000);
      expect(defs).toHaveLength(6_000);
      expect(defs.slice(0, 3).map((d) => [d.name, d.start, d.end]), path).toEqual([['f0', 2, 2], ['f1', 3, 3], ['f2', 4, 4]]);
      expect(defs.at(-1)!.start, path).toBe(6_001);
    }
  });

  it('degrades on binary-ish content, a huge single line and unbalanced braces', () => {
    const binary = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7919) % 256)).toString('utf8');
    expect(() => extractFacts('blob.c', binary)).not.toThrow();
    const minified = `function a(){${'x();'.repeat(200_000)}`;
    const facts = extractFacts('bundle.js', minified);
    expect(facts.lines).toBe(1);
    expect(facts.defs).toEqual([{ name: 'a', kind: 'function', start: 1, end: 1, qualified: 'a' }]);
    const unbalanced = 'function open() {\n  if (x) {\n\nfunction later() {}\n';
    expect(extractFacts('u.ts', unbalanced).defs[0]).toMatchObject({ name: 'open', start: 1, end: 4 });
  });

  it('caps calls at 500, deduplicated, in order of first appearance', () => {
    const text = Array.from({ length: 800 }, (_, i) => `call${i}(); call0();`).join('\n');
    const calls = extractFacts('many.ts', text).calls;
    expect(calls).toHaveLength(500);
    expect(calls.slice(0, 3)).toEqual(['call0', 'call1', 'call2']);
  });

  it('reads calls after a 400 kB identifier, by patterns, in linear time (every position inside it was scanned to its end: 95 s)', () => {
    const facts = extractFacts('src/k.kt', `fun main() {\n  val x = ${'a'.repeat(400_000)}\n  start(x)\n  obj.stop()\n}\n`);
    expect(facts.calls).toEqual(['start', 'stop']);
  });

  it('normalizes CRLF and counts lines as an editor does', () => {
    const facts = extractFacts('a.py', 'def f():\r\n    return 1\r\n\r\ndef g():\r\n    pass\r\n');
    expect(facts.lines).toBe(5);
    expect(facts.defs.map((d) => [d.name, d.start, d.end])).toEqual([
      ['f', 1, 2],
      ['g', 4, 5],
    ]);
  });

  it('returns no structure for languages without an extractor, and for empty files', () => {
    expect(extractFacts('README.md', '# Title\ncall(me)\n')).toEqual({ language: 'text', lines: 2, defs: [], imports: [], calls: [] });
    expect(extractFacts('empty.ts', '')).toEqual({ language: 'typescript', lines: 0, defs: [], imports: [], calls: [] });
  });

  it('reads a 5,000-line file', () => {
    const unit = 'export class A {\n  method(x: number) {\n    return helper(x) + "}";\n  }\n}\n\nfunction helper(y: number) {\n  return y;\n}\n\n';
    const text = unit.repeat(500);
    const facts = extractFacts('big.ts', text);
    expect(facts.lines).toBe(5000);
    expect(facts.defs).toHaveLength(1500);
    expect(facts.defs.at(-1)).toEqual({ name: 'helper', kind: 'function', start: 4997, end: 4999, qualified: 'helper' });
  });
});

describe('qualified names of deeply nested definitions', () => {
  // each name used to hold every owner's: 7,000 nested classes (111 kB) made 140 MB of facts
  const nested = (n: number, open: (i: number) => string, inner: string, close: string): string => Array.from({ length: n }, (_, i) => open(i)).join('') + inner + close.repeat(n);

  it('keeps them at most 200 characters and their innermost owners, parsed or read by patterns', async () => {
    const java = nested(3_000, (i) => `class N${i} {\n`, 'void nestedTarget() {}\n', '}\n');
    for (const facts of [await readFacts('src/Nest.java', java), await readFacts('src/Nest.java', java, false)]) {
      expect(facts.defs.length).toBeGreaterThan(2_000);
      const total = facts.defs.reduce((sum, d) => sum + (d.qualified?.length ?? 0), 0);
      expect(Math.max(...facts.defs.map((d) => d.qualified?.length ?? 0))).toBeLessThanOrEqual(200);
      expect(total).toBeLessThan(200 * facts.defs.length);
      const target = facts.defs.find((d) => d.name === 'nestedTarget')!;
      expect(target.qualified).toMatch(/^…\.N\d+(?:\.N\d+)*\.N2999\.nestedTarget$/);
      expect(facts.defs.find((d) => d.name === 'N1')!.qualified).toBe('N0.N1');
    }
  });

  it('drops whole owners, never a part of one, and keeps a long name whole', async () => {
    const { joinQualified } = await import('../../src/facts/qualified.js');
    expect(joinQualified('a'.repeat(150) + '::' + 'b'.repeat(60), '::', 'c')).toBe(`…::${'b'.repeat(60)}::c`);
    expect(joinQualified('Owner', '.', 'x'.repeat(300))).toBe(`….${'x'.repeat(300)}`);
    expect(joinQualified(undefined, '.', 'f')).toBe('f');
    expect(joinQualified('A', '.', 'f')).toBe('A.f');
  });
});
