import { describe, expect, it } from 'vitest';
import { defLines, readFacts } from './parsed.js';

// A small Java program, written to a temp repo and read the way a run reads candidates.
const PROGRAM = String.raw`
package com.example;

import java.util.List;
import static java.util.Collections.emptyList;
import com.example.model.*;

@Service
public class UserService extends Base {
    private final Repo repo;

    public UserService(Repo repo) {
        this.repo = repo;
    }

    @Override
    public <T> List<T> find(String q) {
        return repo.query(q, emptyList());
    }

    interface Listener {
        void onEvent(Event e);
    }

    enum State { ON, OFF }

    static class Builder {
        Builder name(String n) { return this; }
    }
}

record Pair(int a, int b) {}
`.slice(1);

describe('tree-sitter facts: Java', () => {
  it('gives exact definitions: kind, qualified name, first and last line', async () => {
    const facts = await readFacts('src/main/java/com/example/UserService.java', PROGRAM);
    expect(facts.parser).toBe('tree-sitter');
    expect(defLines(facts)).toEqual([
      "class UserService 7-29",
      "method UserService.UserService 11-13",
      "method UserService.find 15-18",
      "interface UserService.Listener 20-22",
      "method UserService.Listener.onEvent 21-21",
      "enum UserService.State 24-24",
      "class UserService.Builder 26-28",
      "method UserService.Builder.name 27-27",
      "class Pair 31-31",
    ]);
    expect(facts.defs.filter((d) => d.parent).map((d) => `${d.name}<${d.parent}`)).toEqual(["UserService<UserService", "find<UserService", "Listener<UserService", "onEvent<Listener", "State<UserService", "Builder<UserService", "name<Builder"]);
  });

  it('gives imports as written and called names in order of first appearance', async () => {
    const facts = await readFacts('src/main/java/com/example/UserService.java', PROGRAM);
    expect(facts.imports).toEqual(["java.util.List", "java.util.Collections.emptyList", "com.example.model"]);
    expect(facts.calls).toEqual(["query", "emptyList"]);
  });
});
