/**
 * Property tests (fast-check) over CLI arguments, task text and file contents. Each property is
 * bounded in runs and in time (`interruptAfterTimeLimit`), so the suite stays fast; a failure
 * prints its seed and the shrunk counterexample.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRetrieveArgs } from '../../src/cli/args.js';
import { main } from '../../src/cli/main.js';
import { isUsageError } from '../../src/core/errors.js';
import { REDACTED, redactSecrets } from '../../src/core/redact.js';
import { createTokenizer } from '../../src/pack/tokens.js';
import { extractFacts } from '../../src/facts/extract.js';
import { retrieve } from '../../src/orchestrator/loop.js';
import { packFiles } from '../../src/pack/pack.js';
import { planQuery } from '../../src/refine/plan.js';
import { scanPatterns } from '../../src/retrieve/scan.js';
import { cleanInput } from '../../src/core/text.js';
import { fakeRun, makeIo } from '../cli/fake-io.js';
import { useTempRepos } from '../helpers/make-repo.js';

const repo = useTempRepos();
const tokenizer = createTokenizer();
const bounded = (numRuns: number, ms = 8000) => ({ numRuns, interruptAfterTimeLimit: ms });

/** Text that hostile input is made of: any Unicode, control characters, metacharacters, code. */
const hostileText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.stringMatching(/^[\x00-\x1f\\()[\]{}*+?.^$|!#"'`~<>/ -]{0,120}$/),
  fc.array(fc.constantFrom('verifyEmail', 'parse_config', 'src/auth/verify.ts', 'File "a.py", line 3', '"quoted error"', '`x`', '**/*.ts', '\n', ' ', '(', '[', '\\', '\0', 'проверить', '🔥'), { maxLength: 40 }).map((parts) => parts.join('')),
);

const FLAGS = ['--task', '--task-file', '--root', '--format', '--json', '--max-cycles', '--threshold', '--budget', '--scope', '--include', '--exclude', '--provider', '--model', '--cache', '--no-cache', '--with-content', '--no-egress', '--agents-dir', '--prompts-dir', '-q', '--quiet', '--verbose', '--no-color', '--bogus', '-x', '--', '-'];
const argToken = fc.oneof(fc.constantFrom(...FLAGS), fc.constantFrom('json', 'md', 'paths', 'offline', 'openai', '0', '0.7', '1', '3', '-1', '1e9', 'NaN', '', ' ', '..', '/'), hostileText.map((s) => s.slice(0, 40)));

describe('CLI arguments', () => {
  it('parse to arguments or to a UsageError, never anything else', () => {
    fc.assert(
      fc.property(fc.array(argToken, { maxLength: 12 }), (argv) => {
        try {
          parseRetrieveArgs(argv, '/work/repo');
        } catch (error) {
          expect(isUsageError(error), String(error)).toBe(true);
          expect((error as Error).message).not.toContain('\n');
        }
      }),
      bounded(2000),
    );
  });

  it('end in exit 0 or 2 with one error line, never a stack trace, and JSON on stdout when asked', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(argToken, { maxLength: 10 }), async (rest) => {
        const argv = ['retrieve', ...rest];
        const io = makeIo({ stdin: 'a task from stdin' });
        const code = await main(argv, io, fakeRun());
        expect([0, 2]).toContain(code);
        expect(io.stderr.text).not.toMatch(/this is a bug/);
        // --verbose asks for stack traces; without it there is none
        if (argv.includes('--verbose')) return;
        expect(io.stderr.text).not.toMatch(/\n\s+at /);
        if (code === 2) {
          expect(io.stderr.text).toMatch(/^ctxloop: [^\n]+\n(?: {2}hint: [^\n]+\n)?$/);
          if (argv.includes('--json') && !argv.includes('--help') && !argv.includes('-h')) expect(() => JSON.parse(io.stdout.text)).not.toThrow();
        }
      }),
      bounded(400),
    );
  });
});

describe('task text', () => {
  it('always plans a bounded query whose patterns rg can take', () => {
    fc.assert(
      fc.property(hostileText, (task) => {
        const query = planQuery(task);
        expect(query.keywords.length).toBeLessThanOrEqual(48);
        expect(query.symbols.length).toBeLessThanOrEqual(24);
        for (const term of [...query.keywords, ...query.literals, ...query.symbols]) expect(term.length).toBeLessThan(600);
        // what dispatch hands rg on stdin, one pattern a line (literals spanning lines match no line and are not searched)
        const literals = query.literals.filter((l) => l.trim() !== '' && !/[\r\n\0]/.test(l));
        for (const pattern of scanPatterns({ keywords: query.keywords, literals, symbols: query.symbols })) {
          expect(pattern).not.toMatch(/[\0\n\r]/);
          expect(pattern.trim()).not.toBe('');
        }
      }),
      bounded(3000),
    );
  });

  it('runs the whole loop on a real repository to a result, or to no_task when blank', async () => {
    const r = repo({ 'src/auth/verify.ts': 'export function verifyEmail(a: string) {\n  return a.includes("@");\n}\n', 'src/config/parse.py': 'def parse_config(path):\n    return open(path).read()\n', 'README.md': '# verify email and parse config\n' });
    await fc.assert(
      fc.asyncProperty(hostileText, async (task) => {
        try {
          const result = await retrieve(task, { root: r.root, cache: false, provider: 'offline', maxCycles: 2, env: {} });
          for (const file of result.files) expect(['src/auth/verify.ts', 'src/config/parse.py', 'README.md']).toContain(file.path);
        } catch (error) {
          expect(error).toMatchObject({ code: 'no_task' });
          // blank once control characters and terminal escapes are gone
          expect(cleanInput(task).trim()).toBe('');
        }
      }),
      bounded(60, 15_000),
    );
  });
});

describe('file contents', () => {
  const code = fc.array(fc.oneof(hostileText, fc.constantFrom('function f() {', '}', 'class A:', '    def m(self):', 'def g(x):', '\r\n', '\n', '/*', '*/', '"""', "'", '{', '#')), { maxLength: 60 }).map((parts) => parts.join('\n'));

  it('facts and packed regions stay inside the file, whatever it holds', () => {
    fc.assert(
      fc.property(code, fc.constantFrom('a.ts', 'a.py', 'a.go', 'a.rs', 'a.c', 'a.rb', 'a.md'), (text, path) => {
        const facts = extractFacts(path, text);
        for (const def of facts.defs) {
          expect(def.start).toBeGreaterThanOrEqual(1);
          expect(def.end).toBeLessThanOrEqual(Math.max(1, facts.lines));
        }
        const normalized = text.replace(/\r\n?/g, '\n');
        const lines = normalized.split('\n').length;
        const packed = packFiles({ scores: [{ path, relevance: 0.9, reason: 'r', missing: [], evidence: [1, Math.max(1, facts.lines)] }], facts: new Map([[path, { path, hash: 'h', ...facts }]]), texts: new Map([[path, normalized]]), threshold: 0.7, budget: 2000, tokenizer, withContent: true });
        for (const file of packed.files) for (const region of file.regions) {
          expect(region.start).toBeGreaterThanOrEqual(1);
          expect(region.end).toBeLessThanOrEqual(lines);
          expect(region.content?.split('\n').length).toBe(region.end - region.start + 1);
        }
        expect(packed.tokens).toBeLessThanOrEqual(2000);
      }),
      bounded(400),
    );
  });

  it('redaction keeps the line count, is idempotent, and never throws', () => {
    fc.assert(
      fc.property(code, fc.constantFrom(undefined, 'a.ts', 'config.yml', 'run.sh'), (text, path) => {
        const once = redactSecrets(text, path === undefined ? {} : { path });
        expect(once.split('\n').length).toBe(text.split('\n').length);
        expect(redactSecrets(once, path === undefined ? {} : { path })).toBe(once);
      }),
      bounded(1000),
    );
  });

  const secret = fc.oneof(
    fc.stringMatching(/^[A-Z0-9]{16}$/).map((s) => `AKIA${s}`),
    fc.stringMatching(/^[A-Za-z0-9]{36}$/).map((s) => `ghp_${s}`),
    fc.stringMatching(/^[A-Za-z0-9]{24}$/).map((s) => `sk_live_${s}`),
    fc.stringMatching(/^[A-Za-z0-9_-]{24,40}$/).map((s) => `sk-ant-api03-${s}`),
    fc.stringMatching(/^[0-9]{12}-[A-Za-z0-9]{16}$/).map((s) => `xoxb-${s}`),
    fc.tuple(fc.stringMatching(/^[A-Za-z0-9_-]{10,20}$/), fc.stringMatching(/^[A-Za-z0-9_-]{10,20}$/), fc.stringMatching(/^[A-Za-z0-9_-]{20,40}$/)).map(([a, b, c]) => `eyJ${a}.eyJ${b}.${c}`),
  );
  const around = fc.constantFrom('const KEY = "%";', "token: '%'", 'curl -H "Authorization: Bearer %"', '% ', 'export SECRET=%', '{"key": "%"}', 'x = f("%")', '// %');

  it('a credential planted anywhere in code does not survive', () => {
    fc.assert(
      fc.property(code, secret, around, fc.nat(), (text, value, template, at) => {
        const lines = text.split('\n');
        lines.splice(at % (lines.length + 1), 0, template.replace('%', value));
        const out = redactSecrets(lines.join('\n'));
        expect(out).not.toContain(value);
        expect(out).toContain(REDACTED);
      }),
      bounded(1500),
    );
  });

  it('runs the whole loop over a repository of arbitrary file contents', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom('a.ts', 'b.py', 'c.go', 'd.txt', 'e.json', 'f', 'sub/g.rs'), fc.oneof(code, fc.uint8Array({ maxLength: 2000 }))), { minLength: 1, maxLength: 6 }), async (files) => {
        const r = repo(Object.fromEntries(files.map(([path, content]) => [path, content])), { git: false });
        const result = await retrieve('verifyEmail parse_config class A def g', { root: r.root, cache: false, provider: 'offline', maxCycles: 2, threshold: 0, withContent: true, env: {} });
        const names = new Set<string>(files.map(([path]) => path));
        for (const file of result.files) expect(names.has(file.path)).toBe(true);
      }),
      bounded(40, 15_000),
    );
  });
});
