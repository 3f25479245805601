import { describe, expect, it } from 'vitest';
import { defLines, readFacts } from './parsed.js';

// A small C program, written to a temp repo and read the way a run reads candidates.
const PROGRAM = String.raw`
#include <stdio.h>
#include "jv.h"

#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define LIMIT 10

typedef struct {
  int x;
} point;

typedef int (*callback)(int);

struct node {
  struct node *next;
};

enum color { RED, GREEN };

static int counter = 0;

int add(int a, int b);

static inline int add(int a, int b) {
  return helper(a) + MAX(a, b);
}

jv jv_parse(const char *s)
{
  printf("%s", s);
  return jv_null();
}
`.slice(1);

describe('tree-sitter facts: C', () => {
  it('gives exact definitions: kind, qualified name, first and last line', async () => {
    const facts = await readFacts('src/jv_parse.c', PROGRAM);
    expect(facts.parser).toBe('tree-sitter');
    expect(defLines(facts)).toEqual([
      "macro MAX 4-4",
      "macro LIMIT 5-5",
      "struct point 7-9",
      "type callback 11-11",
      "struct node 13-15",
      "enum color 17-17",
      "function add 23-25",
      "function jv_parse 27-31",
    ]);
    expect(facts.defs.filter((d) => d.parent).map((d) => `${d.name}<${d.parent}`)).toEqual([]);
  });

  it('gives imports as written and called names in order of first appearance', async () => {
    const facts = await readFacts('src/jv_parse.c', PROGRAM);
    expect(facts.imports).toEqual(["jv.h"]);
    expect(facts.calls).toEqual(["helper", "MAX", "printf", "jv_null"]);
  });
});
