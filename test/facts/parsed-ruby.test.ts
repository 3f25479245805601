import { describe, expect, it } from 'vitest';
import { defLines, readFacts } from './parsed.js';

// A small Ruby program, written to a temp repo and read the way a run reads candidates.
const PROGRAM = String.raw`
require 'json'
require_relative 'models/user'

module Billing
  class Invoice < Base
    TAX = 0.2

    def initialize(items)
      @items = items
    end

    def total
      @items.sum { |i| price(i) }
    end

    def self.build(data)
      new(JSON.parse(data))
    end
  end

  def self.helper
    Invoice.build("{}")
  end
end

def top_level(x)
  puts x
end
`.slice(1);

describe('tree-sitter facts: Ruby', () => {
  it('gives exact definitions: kind, qualified name, first and last line', async () => {
    const facts = await readFacts('lib/billing/invoice.rb', PROGRAM);
    expect(facts.parser).toBe('tree-sitter');
    expect(defLines(facts)).toEqual([
      "module Billing 4-24",
      "class Billing.Invoice 5-19",
      "method Billing.Invoice.initialize 8-10",
      "method Billing.Invoice.total 12-14",
      "method Billing.Invoice.build 16-18",
      "method Billing.helper 21-23",
      "function top_level 26-28",
    ]);
    expect(facts.defs.filter((d) => d.parent).map((d) => `${d.name}<${d.parent}`)).toEqual(["Invoice<Billing", "initialize<Invoice", "total<Invoice", "build<Invoice", "helper<Billing"]);
  });

  it('gives imports as written and called names in order of first appearance', async () => {
    const facts = await readFacts('lib/billing/invoice.rb', PROGRAM);
    expect(facts.imports).toEqual(["json", "models/user"]);
    expect(facts.calls).toEqual(["require", "require_relative", "sum", "price", "new", "parse", "build", "puts"]);
  });
});
