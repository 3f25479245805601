import { describe, expect, it } from 'vitest';
import { planQuery } from '../../src/refine/plan.js';
import { createRangeTest } from '../../src/refine/fences.js';
import { blankIssueComments } from '../../src/core/issue-comments.js';

describe('planQuery', () => {
  it("reads no word of an issue form's hidden comments, and keeps a comment the reporter wrote as code", () => {
    const form = ['Set-Cookie header is not an array', '<!-- Please read and follow the instructions before submitting an issue:', '- Read all our documentation, especially the README -->', '#### Describe the bug', 'The interceptor sees a string.'].join('\n');
    const q = planQuery(form);
    expect(q.keywords).toContain('cooki');
    expect(q.keywords).toContain('interceptor');
    for (const word of ['documentation', 'readme', 'instruction', 'submitt']) expect(q.keywords).not.toContain(word);
    expect(q.paths).not.toContain('README');
    // inside a fence or backticks a comment is input: the parser under test reads it
    const input = ['The sanitizer drops `<!-- keepMarker -->` comments', '```html', '<!-- legacyBanner -->', '```'].join('\n');
    expect(planQuery(input).symbols).toEqual(expect.arrayContaining(['keepMarker']));
    expect(planQuery(input).keywords).toContain('legacybanner');
  });

  it('blanks comments in place, leaving an unclosed one, those in backticks and the lines as they were', () => {
    const text = 'a <!-- x\ny --> b `<!-- c -->` <!-- d';
    const blanked = blankIssueComments(text);
    expect(blanked).toBe('a       \n      b `<!-- c -->` <!-- d');
    expect(blanked.length).toBe(text.length);
    expect(blankIssueComments('`a` <!-- b -->'.repeat(3))).toBe('`a`           '.repeat(3));
  });

  it('weights identifiers above prose words and drops stopwords', () => {
    const q = planQuery('The verifyEmail function should reject expired tokens');
    expect(q.keywords).toContain('verifyemail');
    expect(q.keywords).toContain('verify');
    expect(q.keywords).toContain('expir');
    expect(q.keywords).not.toContain('the');
    expect(q.keywords).not.toContain('should');
    expect(q.weights['verifyemail']).toBeGreaterThan(q.weights['expir']!);
    expect(q.symbols).toContain('verifyEmail');
  });

  it("drops what an apostrophe leaves of a negation (don't, doesn't), and keeps a name that holds it", () => {
    const q = planQuery("Don't infinite loop: the reader doesn't stop, and `isnValid` isn't called");
    for (const word of ['don', 'doesn', 'isn']) expect(q.keywords).not.toContain(word);
    expect(q.keywords).toEqual(expect.arrayContaining(['infinit', 'loop', 'reader', 'isnvalid']));
  });

  it('pairs the title\'s adjacent prose words as terms the code may join into one name, and no others', () => {
    const q = planQuery('Read response even if failed sending request headers\n\nThe parser reads response bodies twice.');
    expect(q.keywords).toEqual(expect.arrayContaining(['read respons', 'fail send', 'send request', 'request header']));
    // a stopword (`even`, `if`) breaks a pair; the body's words pair with nothing
    for (const pair of ['respons even', 'even if', 'pars read', 'respons bodi']) expect(q.keywords).not.toContain(pair);
    // weighed as a title identifier's part, above the title's prose words
    expect(q.weights['read respons']).toBeGreaterThan(q.weights['read']!);
    // punctuation, code and short words break pairs
    const split = planQuery('Self-terminating `readBody` in compressed, websocket io messages');
    expect(split.keywords.filter((k) => k.includes(' '))).toEqual([]);
    // words outside ASCII (the scan reads identifiers in ASCII), a URL's words and a language keyword pair with nothing
    const other = planQuery('Проверить почту fails: résumé parsing, String interpolation, https://example.com/docs/parser errors');
    expect(other.keywords.filter((k) => k.includes(' '))).toEqual([]);
  });

  it('drops the words of a fix report that name no code (fix, fixed), and keeps a name that holds them', () => {
    const q = planQuery('Fix crash when the header value is empty (fixed in fixHeaders)');
    for (const word of ['fix', 'fixe', 'fixed']) expect(q.keywords).not.toContain(word);
    expect(q.keywords).toContain('crash');
    expect(q.keywords).toContain('fixheaders');
  });

  it('takes backticked words as symbols even when they look like prose', () => {
    const q = planQuery('Calling `render` twice breaks the layout');
    expect(q.symbols).toContain('render');
    expect(q.weights['render']).toBeGreaterThan(2 * q.weights['layout']!);
  });

  it('drops the language keywords of an example block, and keeps them in prose', () => {
    const task = ['The default export breaks the server', '```js', "const http = require('http');", 'export default function serve() { return http.createServer(); }', '```'].join('\n');
    const q = planQuery(task);
    expect(q.keywords).not.toContain('const');
    expect(q.keywords).not.toContain('return');
    expect(q.keywords).not.toContain('function');
    // `default` is in the prose too, and `http` is no keyword
    expect(q.keywords).toContain('default');
    expect(q.keywords).toContain('http');
  });

  it('weights names seen only in an example block below the same names in prose or in a trace', () => {
    const example = ['`parseSchema` fails on nested CTEs:', '```sql', 'SELECT my_id FROM my_table', '```'].join('\n');
    const q = planQuery(example);
    expect(q.weights['myid']).toBeLessThan(q.weights['parseschema']!);
    const trace = ['```', 'Traceback (most recent call last):', '  File "x/db.py", line 3, in run', '    load_table(my_table)', '```'].join('\n');
    expect(planQuery(trace).weights['loadtable']).toBe(planQuery('Crash\n`load_table` fails').weights['loadtable']);
  });

  it("drops commit hashes and ids, and a URL's host", () => {
    const q = planQuery('Broken since commit 6d3d2750 (jq-1.7rc1-25-gf94a9d4), see a6fe347322bfd57cab2d2612d8825b4ede765ac8\n`parseArgs` fails, screenshot https://user-images.example.com/17900775/188590444-fafa374d.png');
    expect(q.symbols).toEqual(['parseArgs']);
    for (const noise of ['d3d2750', 'rc1', 'gf94a9d4', 'fafa374d', 'a6fe347322bfd57cab2d2612d8825b4ede765ac8']) expect(q.keywords).not.toContain(noise);
    expect(q.keywords).not.toContain('imag');
  });

  it("drops a URL's host, query and fragment, and a code host's page names, keeping its file path", () => {
    const q = planQuery('buildURL drops params\nhttps://github.com/axios/axios/blob/638804aa2c16e1dfaa5e96e68368c0981048c4c4/lib/helpers/buildURL.js#L38\nsee https://github.com/axios/axios/issues?utf8=%E2%9C%93&q=is%3Aissue and https://stackoverflow.com/questions/tagged/axios');
    expect(q.paths).toEqual(['lib/helpers/buildURL.js']);
    expect(q.symbols).toEqual(['buildURL']);
    for (const noise of ['github', 'com', 'blob', 'l38', 'issu', 'utf8', 'stackoverflow']) expect(q.keywords).not.toContain(noise);
    // the path of another URL is still searched, with little weight
    expect(q.weights['tag']).toBeLessThan(q.weights['drop']!);
    expect(q.keywords).toEqual(expect.arrayContaining(['lib', 'helper', 'param']));
  });

  it('finds paths, Python frames and the exception message', () => {
    const task = [
      'Crash when parsing',
      'Traceback (most recent call last):',
      '  File "/usr/lib/python3/site-packages/sqlfluff/core/parser/helpers.py", line 41, in check_still_complete',
      '    raise RuntimeError(...)',
      'RuntimeError: Dropped elements in sequence matching',
    ].join('\n');
    const q = planQuery(task);
    expect(q.paths).toContain('sqlfluff/core/parser/helpers.py');
    expect(q.symbols).toContain('check_still_complete');
    expect(q.literals).toContain('Dropped elements in sequence matching');
  });

  it('finds Java, JS and Go frames and dotted modules', () => {
    const q = planQuery(
      [
        'at com.google.gson.internal.bind.TypeAdapters$7.read(TypeAdapters.java:337)',
        'at Router.handle (/home/u/app/lib/router/index.js:284:7)',
        'goroutine 1 [running]: core/stores/redis/redis.go:120',
        'see astroid.nodes.scoped_nodes for details',
      ].join('\n'),
    );
    expect(q.paths).toContain('com/google/gson/internal/bind/TypeAdapters.java');
    expect(q.paths).toContain('home/u/app/lib/router/index.js');
    expect(q.paths).toContain('core/stores/redis/redis.go');
    expect(q.paths).toContain('astroid/nodes/scoped_nodes');
    expect(q.symbols).toContain('read');
    expect(q.symbols).toContain('handle');
  });

  it('keeps the static part of a quoted message with a value in it', () => {
    const q = planQuery(`I get "Invalid value 'abc' for option color" when running`);
    expect(q.literals.some((l) => l.startsWith('for option color'))).toBe(true);
  });

  it.each([
    ['a tagged error line', '▶ bat > /dev/null\n[bat error]: The output file is also an input!', 'The output file is also an input!'],
    ["a program's own error prefix", 'jq: error (at <stdin>:0): Cannot iterate over null value', 'Cannot iterate over null value'],
    ['a fatal line behind a program name', 'git: fatal: not a git repository (or any parent)', 'not a git repository'],
    ['a log level tag', '[ERROR] failed to bind the listener socket', 'failed to bind the listener socket'],
  ])('takes the message of %s as a literal', (_label, task, literal) => {
    expect(planQuery(task).literals).toContain(literal);
  });

  it('leaves prose that merely mentions an error alone', () => {
    expect(planQuery('I get this error: the page never loads after login').literals).toEqual([]);
    expect(planQuery('[docs] errors: the page never loads after login').literals).toEqual([]);
  });

  it('is deterministic and bounded on a huge task', () => {
    const huge = 'fooBar baz_qux '.repeat(200_000);
    const a = planQuery(huge);
    const b = planQuery(huge);
    expect(a).toEqual(b);
    expect(a.keywords.length).toBeLessThanOrEqual(48);
  });
});

describe('createRangeTest', () => {
  it('says whether each index lies in a range, overlapping or unsorted ones too, and starts again when asked an earlier index', () => {
    const ranges: Array<[number, number]> = [[10, 20], [40, 50], [15, 30], [5, 8], [50, 52]];
    const naive = (index: number): boolean => ranges.some(([start, end]) => index >= start && index < end);
    const test = createRangeTest(ranges);
    const indexes = [...Array.from({ length: 60 }, (_, i) => i), 3, 12, 29, 30, 51, 0, 49];
    expect(indexes.map((i) => test(i))).toEqual(indexes.map(naive));
  });
});

