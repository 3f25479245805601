import { describe, expect, it } from 'vitest';
import { defLines, readFacts } from './parsed.js';

// A small TSX program, written to a temp repo and read the way a run reads candidates.
const PROGRAM = String.raw`
import React, { useState } from 'react';
import { Button } from './button';

type Props = { title: string };

export function Counter({ title }: Props) {
  const [count, setCount] = useState(0);
  return (
    <div className="counter">
      <h1>{title}</h1>
      <Button onClick={() => setCount(count + 1)}>{count}</Button>
    </div>
  );
}

export const Label = ({ text }: { text: string }) => <span>{format(text)}</span>;

export default class Panel extends React.Component<Props> {
  render() {
    return <Counter title={this.props.title} />;
  }
}
`.slice(1);

describe('tree-sitter facts: TSX', () => {
  it('gives exact definitions: kind, qualified name, first and last line', async () => {
    const facts = await readFacts('src/components/counter.tsx', PROGRAM);
    expect(facts.parser).toBe('tree-sitter');
    expect(defLines(facts)).toEqual([
      "type Props 4-4",
      "function Counter 6-14",
      "function Label 16-16",
      "class Panel 18-22",
      "method Panel.render 19-21",
    ]);
    expect(facts.defs.filter((d) => d.parent).map((d) => `${d.name}<${d.parent}`)).toEqual(["render<Panel"]);
  });

  it('gives imports as written and called names in order of first appearance', async () => {
    const facts = await readFacts('src/components/counter.tsx', PROGRAM);
    expect(facts.imports).toEqual(["react", "./button"]);
    expect(facts.calls).toEqual(["useState", "setCount", "format"]);
  });
});
