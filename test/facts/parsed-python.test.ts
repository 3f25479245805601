import { describe, expect, it } from 'vitest';
import { defLines, readFacts } from './parsed.js';

// A small Python program, written to a temp repo and read the way a run reads candidates.
const PROGRAM = String.raw`
import os, sys as system
from .models import User
from . import sibling

MAX_RETRIES = 3
config = {
    "a": 1,
}


@decorator
@other(arg=1)
def top(a, b):
    """Doc."""
    return helper(a) + os.path.join(b)


class Service(Base):
    retries = 2

    def __init__(self, db):
        self.db = db

    @property
    async def name(self):
        return self.db.name()

    class Inner:
        def deep(self):
            def local():
                pass
            return local()
`.slice(1);

describe('tree-sitter facts: Python', () => {
  it('gives exact definitions: kind, qualified name, first and last line', async () => {
    const facts = await readFacts('pkg/service.py', PROGRAM);
    expect(facts.parser).toBe('tree-sitter');
    expect(defLines(facts)).toEqual([
      "constant MAX_RETRIES 5-5",
      "variable config 6-8",
      "function top 11-15",
      "class Service 18-32",
      "method Service.__init__ 21-22",
      "method Service.name 24-26",
      "class Service.Inner 28-32",
      "method Service.Inner.deep 29-32",
      "function Service.Inner.deep.local 30-31",
    ]);
    expect(facts.defs.filter((d) => d.parent).map((d) => `${d.name}<${d.parent}`)).toEqual(["__init__<Service", "name<Service", "Inner<Service", "deep<Inner", "local<deep"]);
  });

  it('gives imports as written and called names in order of first appearance', async () => {
    const facts = await readFacts('pkg/service.py', PROGRAM);
    expect(facts.imports).toEqual(["os", "sys", ".models", "."]);
    expect(facts.calls).toEqual(["other", "helper", "join", "name", "local"]);
  });
});
