import { describe, expect, it } from 'vitest';
import { defLines, readFacts } from './parsed.js';

// A small TypeScript program, written to a temp repo and read the way a run reads candidates.
const PROGRAM = String.raw`
import { readFile } from 'node:fs/promises';
import type { User } from './models';
export * from './util';
const lazy = await import('./lazy');

export const MAX = 3;
let counter = 0;
export const handler = async (req: Request) => {
  return respond(req);
};

@Component({ selector: 'x' })
export class UserService extends Base implements Svc {
  private cache = new Map<string, User>();
  onClick = (e: Event) => {
    this.emit(e);
  };

  constructor(private db: Db) {
    super();
  }

  async getUser(id: string): Promise<User> {
    const raw = await readFile(id, 'utf8');
    return parse(raw);
  }
}

export interface Svc {
  getUser(id: string): Promise<User>;
}

export type Id = string | number;

export enum Color {
  Red,
  Green,
}

namespace Outer.Inner {
  export function deep() {}
}

export default function () {
  return new UserService(db);
}

function* gen() {
  yield 1;
}
`.slice(1);

describe('tree-sitter facts: TypeScript', () => {
  it('gives exact definitions: kind, qualified name, first and last line', async () => {
    const facts = await readFacts('src/services/user-service.ts', PROGRAM);
    expect(facts.parser).toBe('tree-sitter');
    expect(defLines(facts)).toEqual([
      "constant lazy 4-4",
      "constant MAX 6-6",
      "variable counter 7-7",
      "function handler 8-10",
      "class UserService 12-27",
      "method UserService.onClick 15-17",
      "method UserService.constructor 19-21",
      "method UserService.getUser 23-26",
      "interface Svc 29-31",
      "type Id 33-33",
      "enum Color 35-38",
      "module Outer.Inner 40-42",
      "function Outer.Inner.deep 41-41",
      "function default 44-46",
      "function gen 48-50",
    ]);
    expect(facts.defs.filter((d) => d.parent).map((d) => `${d.name}<${d.parent}`)).toEqual(["onClick<UserService", "constructor<UserService", "getUser<UserService", "deep<Outer.Inner"]);
  });

  it('gives imports as written and called names in order of first appearance', async () => {
    const facts = await readFacts('src/services/user-service.ts', PROGRAM);
    expect(facts.imports).toEqual(["node:fs/promises", "./models", "./util", "./lazy"]);
    expect(facts.calls).toEqual(["respond", "Component", "Map", "emit", "readFile", "parse", "UserService"]);
  });

  it('reads the methods a declaration file declares in a class, not the members of an interface', async () => {
    const declarations = 'export declare class AxiosHeaders {\n  constructor(headers?: RawAxiosHeaders);\n  set(name: string, value: string): AxiosHeaders;\n}\n\nexport interface Config {\n  get(url: string): void;\n}\n';
    const facts = await readFacts('index.d.ts', declarations);
    expect(defLines(facts)).toEqual(['class AxiosHeaders 1-4', 'method AxiosHeaders.constructor 2-2', 'method AxiosHeaders.set 3-3', 'interface Config 6-8']);
  });
});
