import { describe, expect, it } from 'vitest';
import { extractFacts } from '../../src/facts/extract.js';
import { code, outline } from './outline.js';

const TS = code`
import { readFile } from 'node:fs/promises';
import type { User } from './types';

export interface Options {
  retries: number;
  onDone?: () => void;
}

export type Handler = (req: Request) => Promise<Response>;

export enum Color {
  Red,
  Green,
}

const MAX = 10;
export const banner = \`limit \${MAX} {\${ \`nested \${1}\` }\`;

export async function loadUser(id: string): Promise<User> {
  const re = /\{[^}]*/g;
  const s = "}}}";
  if (id) {
    return JSON.parse(await readFile(id, 'utf8'));
  }
  throw new Error('no user');
}

export default function () {
  return 1;
}

export const verify = async (token: string): Promise<boolean> => {
  return token.length > 0;
};

export class UserService extends Base {
  private cache = new Map<string, User>();

  constructor(private db: Db) {
    super();
  }

  async getUser(id: string): Promise<User> {
    if (this.cache.has(id)) {
      return this.cache.get(id)!;
    }
    return this.db.find(id);
  }

  static create(): UserService {
    return new UserService(new Db());
  }

  get size() { return this.cache.size; }

  set size(v: number) {
    this.cache.clear();
  }

  handle = async (e: Event) => {
    console.log(e);
  };
}

@Component({
  selector: 'app',
})
export class AppComponent {}

function helper(a: number,
                b: number) {
  return a + b;
}
`;

describe('extractFacts: TypeScript', () => {
  it('finds every kind of definition with exact line ranges', () => {
    expect(outline('src/user.ts', TS)).toEqual([
      'interface Options 4-7',
      'type Handler 9-9',
      'enum Color 11-14',
      'constant MAX 16-16',
      'constant banner 17-17',
      'function loadUser 19-26',
      'function default 28-30',
      'function verify 32-34',
      'class UserService 36-63',
      'method UserService.constructor 39-41',
      'method UserService.getUser 43-48',
      'method UserService.create 50-52',
      'method UserService.size 54-54',
      'method UserService.size 56-58',
      'method UserService.handle 60-62',
      'class AppComponent 65-68',
      'function helper 70-73',
    ]);
  });

  it('reports language and line count', () => {
    const facts = extractFacts('src/user.ts', TS);
    expect(facts.language).toBe('typescript');
    expect(facts.lines).toBe(73);
  });

  it('lists calls without keywords, definitions or calls in strings and comments', () => {
    const facts = extractFacts('a.ts', code`
function main() {
  // notCalled(1)
  const s = "alsoNot(2)";
  if (ready()) return api.fetchUser(id).then(render);
  for (const x of xs) process(x);
}
`);
    expect(facts.calls).toEqual(['ready', 'fetchUser', 'then', 'process']);
  });
});

describe('extractFacts: JavaScript', () => {
  it('reads functions, classes, CommonJS exports and prototype methods', () => {
    const js = code`
'use strict';
const path = require('path');

function parse(input) {
  return input.split('}');
}

class Lexer {
  #pos = 0;
  *tokens() {
    yield 1;
  }
  static of(text) { return new Lexer(text); }
}

Lexer.prototype.reset = function () {
  this.pos = 0;
};

module.exports.tokenize = (text) => new Lexer(text).tokens();
`;
    expect(outline('lib/lexer.js', js)).toEqual([
      'constant path 2-2',
      'function parse 4-6',
      'class Lexer 8-14',
      'method Lexer.tokens 10-12',
      'method Lexer.of 13-13',
      'method Lexer.reset 16-18',
      'function tokenize 20-20',
    ]);
  });

  it('reads TSX: apostrophes and braces in JSX text do not shift definitions', () => {
    const tsx = code`
import React, { useState } from 'react';

export function Counter({ start }: { start: number }) {
  const [n, setN] = useState(start);
  return (
    <div className="counter">
      <p>Don't click {n} times</p>
      <button onClick={() => setN(n + 1)}>+</button>
    </div>
  );
}

export const Label = ({ text }: Props) => <span>{text}</span>;
`;
    expect(outline('src/Counter.tsx', tsx)).toEqual(['function Counter 3-11', 'function Label 13-13']);
  });
});
