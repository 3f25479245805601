import { describe, expect, it } from 'vitest';
import { extractFacts } from '../../src/facts/extract.js';
import { code, outline } from './outline.js';

const PY = code`
"""Module docstring.
def not_a_function():
"""
import os, sys as system
from .models import User

MAX_RETRIES = 3
config = {
    "a": 1,
}


@decorator
@other(arg=1,
       more=2)
def top(a, b):
    """Doc."""
    s = """
def inside_string():
"""
    return helper(a) + os.path.join(b)


class Service(Base):
    # a comment
    retries = 2

    def __init__(self, db):
        self.db = db

    @property
    async def name(self):
        return self.db.name()

    class Inner:
        def deep(self):
            pass
# a comment about the next function
def doc_only():
    """Just a docstring."""

def multi(
    a,
    b,
):
    if a:
        return b
    return a
`;

describe('extractFacts: Python', () => {
  it('ends blocks by indentation and starts decorated definitions at the first decorator', () => {
    expect(outline('pkg/service.py', PY)).toEqual([
      'constant MAX_RETRIES 7-7',
      'variable config 8-10',
      'function top 13-21',
      'class Service 24-37',
      'method Service.__init__ 28-29',
      'method Service.name 31-33',
      'class Service.Inner 35-37',
      'method Inner.deep 36-37',
      'function doc_only 39-40',
      'function multi 42-48',
    ]);
  });

  it('ignores definitions inside strings and comments, and calls there too', () => {
    const facts = extractFacts('pkg/service.py', PY);
    expect(facts.defs.map((d) => d.name)).not.toContain('inside_string');
    expect(facts.defs.map((d) => d.name)).not.toContain('not_a_function');
    expect(facts.calls).toEqual(['other', 'helper', 'join', 'name']);
  });
});
