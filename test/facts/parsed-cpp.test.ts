import { describe, expect, it } from 'vitest';
import { defLines, readFacts } from './parsed.js';

// A small C++ program, written to a temp repo and read the way a run reads candidates.
const PROGRAM = String.raw`
#include <vector>
#include "widget.h"

namespace ui {

class Widget : public Base {
 public:
  Widget(int w);
  ~Widget();
  void draw() const {
    render(this);
  }
 private:
  int w_;
};

Widget::Widget(int w) : w_(w) {
  init();
}

template <typename T>
T clamp(T v, T lo, T hi) {
  return std::max(lo, std::min(v, hi));
}

struct Point { int x; };

}  // namespace ui

int main() {
  ui::Widget w(3);
  w.draw();
  return 0;
}
`.slice(1);

describe('tree-sitter facts: C++', () => {
  it('gives exact definitions: kind, qualified name, first and last line', async () => {
    const facts = await readFacts('src/ui/widget.cpp', PROGRAM);
    expect(facts.parser).toBe('tree-sitter');
    expect(defLines(facts)).toEqual([
      "class Widget 6-15",
      "method Widget::Widget 8-8",
      "method Widget::~Widget 9-9",
      "method Widget::draw 10-12",
      "method Widget::Widget 17-19",
      "function clamp 21-24",
      "struct Point 26-26",
      "function main 30-34",
    ]);
    expect(facts.defs.filter((d) => d.parent).map((d) => `${d.name}<${d.parent}`)).toEqual(["Widget<Widget", "~Widget<Widget", "draw<Widget", "Widget<Widget"]);
  });

  it('gives imports as written and called names in order of first appearance', async () => {
    const facts = await readFacts('src/ui/widget.cpp', PROGRAM);
    expect(facts.imports).toEqual(["widget.h"]);
    expect(facts.calls).toEqual(["render", "init", "max", "min", "draw"]);
  });
});
