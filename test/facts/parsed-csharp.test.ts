import { describe, expect, it } from 'vitest';
import { defLines, readFacts } from './parsed.js';

// A small C# program, written to a temp repo and read the way a run reads candidates.
const PROGRAM = String.raw`
using System;
using System.Collections.Generic;
using Alias = Company.Tools.Helper;

namespace Company.App
{
    [Serializable]
    public class UserService : IService
    {
        private readonly IRepo repo;

        public UserService(IRepo repo)
        {
            this.repo = repo;
        }

        public async Task<User> GetUser(string id)
        {
            var u = await repo.Find(id);
            return Map(u);
        }

        public string Name { get; set; }
    }

    public interface IService
    {
        Task<User> GetUser(string id);
    }

    public struct Point { public int X; }

    public enum Color { Red, Green }

    public record Pair(int A, int B);
}
`.slice(1);

describe('tree-sitter facts: C#', () => {
  it('gives exact definitions: kind, qualified name, first and last line', async () => {
    const facts = await readFacts('App/UserService.cs', PROGRAM);
    expect(facts.parser).toBe('tree-sitter');
    expect(defLines(facts)).toEqual([
      "class UserService 7-24",
      "method UserService.UserService 12-15",
      "method UserService.GetUser 17-21",
      "interface IService 26-29",
      "method IService.GetUser 28-28",
      "struct Point 31-31",
      "enum Color 33-33",
      "class Pair 35-35",
    ]);
    expect(facts.defs.filter((d) => d.parent).map((d) => `${d.name}<${d.parent}`)).toEqual(["UserService<UserService", "GetUser<UserService", "GetUser<IService"]);
  });

  it('gives imports as written and called names in order of first appearance', async () => {
    const facts = await readFacts('App/UserService.cs', PROGRAM);
    expect(facts.imports).toEqual(["System", "System.Collections.Generic", "Company.Tools.Helper"]);
    expect(facts.calls).toEqual(["Find", "Map"]);
  });
});
