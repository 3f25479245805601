import { describe, expect, it } from 'vitest';
import { defLines, readFacts } from './parsed.js';

// A small JavaScript program, written to a temp repo and read the way a run reads candidates.
const PROGRAM = String.raw`
const path = require('path');
import helper from './helper.js';

function Foo(name) {
  this.name = name;
}

Foo.prototype.greet = function (other) {
  return format(this.name, other);
};

module.exports.make = function (n) {
  return new Foo(n);
};

exports.util = (x) => x * 2;

class Bar {
  static create() {
    return new Bar();
  }
  get size() {
    return 1;
  }
}

const fn = function named() {
  helper.run();
};
`.slice(1);

describe('tree-sitter facts: JavaScript', () => {
  it('gives exact definitions: kind, qualified name, first and last line', async () => {
    const facts = await readFacts('lib/foo.js', PROGRAM);
    expect(facts.parser).toBe('tree-sitter');
    expect(defLines(facts)).toEqual([
      "constant path 1-1",
      "function Foo 4-6",
      "method Foo.greet 8-10",
      "function make 12-14",
      "function util 16-16",
      "class Bar 18-25",
      "method Bar.create 19-21",
      "method Bar.size 22-24",
      "function fn 27-29",
    ]);
    expect(facts.defs.filter((d) => d.parent).map((d) => `${d.name}<${d.parent}`)).toEqual(["greet<Foo", "create<Bar", "size<Bar"]);
  });

  it('gives imports as written and called names in order of first appearance', async () => {
    const facts = await readFacts('lib/foo.js', PROGRAM);
    expect(facts.imports).toEqual(["path", "./helper.js"]);
    expect(facts.calls).toEqual(["require", "format", "Foo", "Bar", "run"]);
  });

  it('reads top-level methods assigned to an object, as Express writes them', async () => {
    const app = String.raw`
var app = exports = module.exports = {};

app.init = function init() {
  this.cache = {};
};

app.handle = function handle(req, res, callback) {
  var router = this._router;
  router.handle(req, res, callback);
};

exports.helper = () => 1;
`.slice(1);
    const facts = await readFacts('lib/application.js', app);
    expect(defLines(facts)).toEqual(['variable app 1-1', 'method app.init 3-5', 'method app.handle 7-10', 'function helper 12-12']);
  });

  it('takes no other function assigned to a property for a definition: nested, deeper, or computed', async () => {
    const code = String.raw`
config.hooks.onError = function () {};
handlers[name] = () => 1;
function setup(el) {
  el.onclick = function () {};
  Widget.prototype.render = function () {};
}
Widget.prototype.show = () => true;
`.slice(1);
    const facts = await readFacts('lib/widget.js', code);
    // inside setup only setup itself counts (a function body's definitions are local detail)
    expect(defLines(facts)).toEqual(['function setup 3-6', 'method Widget.show 7-7']);
  });
});
