import { describe, expect, it } from 'vitest';
import { defLines, readFacts } from './parsed.js';

describe('tree-sitter facts: choosing the parser', () => {
  it('reads a language without a bundled grammar with patterns', async () => {
    const facts = await readFacts('app/src/Main.kt', 'package app\n\nclass Main {\n    fun run(x: Int): Int {\n        return helper(x)\n    }\n}\n');
    expect(facts.parser).toBe('patterns');
    expect(defLines(facts)).toEqual(['class Main 3-7', 'method Main.run 4-6']);
  });

  it('falls back to patterns when most of the file does not parse (TypeScript syntax in a .js file)', async () => {
    const typed = [
      'function parse(input: string, options: Options): Result<Node, Error> {',
      '  const out: Array<Node> = [];',
      '  return out as unknown as Result<Node, Error>;',
      '}',
      '',
      'function render(node: Node, depth: number = 0): string {',
      '  return `${" ".repeat(depth)}${node.kind}`;',
      '}',
      '',
    ].join('\n');
    const facts = await readFacts('lib/typed.js', typed);
    expect(facts.parser).toBe('patterns');
    expect(defLines(facts)).toEqual(['function parse 1-4', 'function render 6-8']);
  });

  it('adds the pattern definitions where a few lines do not parse, and keeps the tree for the rest', async () => {
    const helpers = Array.from({ length: 20 }, (_, i) => `def helper${i}(a):\n    return a + ${i}\n`).join('\n');
    const broken = `${helpers}\nclass Config(\n    def load(self):\n        return 1\n\ndef after(x):\n    return x\n`;
    const facts = await readFacts('pkg/conf.py', broken);
    expect(facts.parser).toBe('tree-sitter');
    const lines = defLines(facts);
    expect(lines).toContain('class Config 61-66'); // line 61 is an ERROR node: the pattern extractor reads it
    expect(lines).toContain('function after 65-66');
    expect(lines.filter((l) => l.startsWith('function helper'))).toHaveLength(20);
  });

  it('reads a .h header with the C++ grammar when it says C++, else with the C grammar', async () => {
    const cpp = await readFacts('include/widget.h', 'namespace ui {\nclass Widget {\n public:\n  void draw();\n};\n}\n');
    expect(cpp.parser).toBe('tree-sitter');
    expect(defLines(cpp)).toEqual(['class Widget 2-5', 'method Widget::draw 4-4']);
    const c = await readFacts('include/jv.h', '#ifndef JV_H\n#define JV_H\ntypedef struct {\n  int kind;\n} jv;\nstatic inline int jv_kind(jv x) {\n  return x.kind;\n}\n#endif\n');
    expect(c.parser).toBe('tree-sitter');
    expect(defLines(c)).toEqual(['macro JV_H 2-2', 'struct jv 3-5', 'function jv_kind 6-8']);
  });

  it('reads with patterns only when tree-sitter is turned off', async () => {
    const facts = await readFacts('src/a.py', 'class A:\n    def f(self):\n        return 1\n', false);
    expect(facts.parser).toBe('patterns');
    expect(defLines(facts)).toEqual(['class A 1-3', 'method A.f 2-3']);
  });
});
