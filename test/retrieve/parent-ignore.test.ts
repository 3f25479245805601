/**
 * A root inside a git worktree (a package of a monorepo) inherits the ignore rules above it, as
 * in git: the real searcher (rg) on temp repositories, the root a subdirectory.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SearchScope } from '../../src/core/deps.js';
import { isAbortError } from '../../src/core/errors.js';
import type { Logger } from '../../src/core/log.js';
import { createSearcher } from '../../src/retrieve/dispatch.js';
import { filterIgnored, MAX_RULE_TESTS, type ParentRules } from '../../src/retrieve/parent-ignore.js';
import { planQuery } from '../../src/refine/plan.js';
import { useTempRepos } from '../helpers/make-repo.js';

const repo = useTempRepos();

function scopeOf(root: string): SearchScope {
  return { root, scope: [], include: [], exclude: [], maxFileSize: 1_000_000, concurrency: 4 };
}

const PACKAGE = {
  'packages/app/src/invoice.ts': 'export function parseInvoiceTotal(x) {\n  return x.total;\n}\n',
  'packages/app/generated/gen.ts': 'export const parseInvoiceTotalGen = parseInvoiceTotal; // parseInvoiceTotal\n',
  'packages/app/debug.log': 'parseInvoiceTotal failed\n',
  'packages/app/dist/out.js': 'function parseInvoiceTotal(x) { return x.total }\n',
  'packages/app/tmp/scratch.ts': 'parseInvoiceTotal()\n',
};

describe('ignore rules above the root', () => {
  it('applies the .gitignore files between the worktree top and the root, and .git/info/exclude, to the listing and the search', async () => {
    const r = repo({
      ...PACKAGE,
      '.gitignore': 'generated/\n*.log\n/tmp\n',
      'packages/.gitignore': 'dist/\n',
      'packages/app/src/keep.log': 'parseInvoiceTotal\n',
      'packages/app/.gitignore': '!src/keep.log\n',
    });
    writeFileSync(join(r.root, '.git/info/exclude'), 'scratch.ts\n');
    const root = join(r.root, 'packages/app');
    const searcher = createSearcher();
    // `/tmp` is anchored to the top: packages/app/tmp is not it, but the exclude names scratch.ts
    // anywhere; the root's own `!src/keep.log` re-includes what the top's `*.log` ignores
    expect(await searcher.listFiles(scopeOf(root))).toEqual(['.gitignore', 'src/invoice.ts', 'src/keep.log']);
    const found = await searcher.search({ ...scopeOf(root), query: planQuery('parseInvoiceTotal returns the wrong total'), maxCandidates: 50 });
    expect(found.candidates.map((c) => c.path).sort()).toEqual(['src/invoice.ts', 'src/keep.log']);
    expect(found.stats.skipped.ignored).toBe(4);
  });

  it('leaves them out when the root itself is ignored from above (a home directory ignoring `*`), outside a worktree, and at the top', async () => {
    const home = repo({ ...PACKAGE, '.gitignore': '*\n' });
    expect(await createSearcher().listFiles(scopeOf(join(home.root, 'packages/app')))).toContain('generated/gen.ts');
    const plain = repo({ ...PACKAGE, '.gitignore': 'generated/\n' }, { git: false });
    expect(await createSearcher().listFiles(scopeOf(join(plain.root, 'packages/app')))).toContain('generated/gen.ts');
    // at the top, rg reads the root's own rules as before
    const top = repo({ ...PACKAGE, '.gitignore': 'generated/\n' });
    expect(await createSearcher().listFiles(scopeOf(top.root))).not.toContain('packages/app/generated/gen.ts');
  });

  it('reads only regular ignore files inside the worktree: a link out of it or a FIFO is passed over, and the root reached through a link still inherits', async () => {
    const outside = repo({ rules: 'src/\n' }, { git: false });
    const linked = repo({ ...PACKAGE, '.gitignore': 'generated/\n' });
    symlinkSync(join(outside.root, 'rules'), join(linked.root, 'packages/.gitignore'));
    const files = await createSearcher().listFiles(scopeOf(join(linked.root, 'packages/app')));
    expect(files).toContain('src/invoice.ts');
    expect(files).not.toContain('generated/gen.ts');
    if (process.platform === 'linux') {
      // opened, a FIFO waits for a writer for ever
      const piped = repo({ ...PACKAGE, '.gitignore': 'generated/\n' });
      execFileSync('mkfifo', [join(piped.root, 'packages/.gitignore')]);
      expect(await createSearcher().listFiles(scopeOf(join(piped.root, 'packages/app')))).toEqual(['debug.log', 'dist/out.js', 'src/invoice.ts', 'tmp/scratch.ts']);
    }
    const r = linked;
    const link = repo({}, { git: false });
    symlinkSync(join(r.root, 'packages/app'), join(link.root, 'app'));
    expect(await createSearcher().listFiles(scopeOf(join(link.root, 'app')))).not.toContain('generated/gen.ts');
  });

  it('reads directory names as names, rules with trailing spaces as git does, and any depth below the top', async () => {
    const r = repo({
      'pkg[v2]/.gitignore': '*.log\n',
      'pkg[v2]/sub/a.js': 'a',
      'pkg[v2]/sub/b.log': 'b',
      '#drafts/.gitignore': '*.tmp\n',
      '#drafts/sub/c.js': 'c',
      '#drafts/sub/d.tmp': 'd',
      'a/.gitignore': 'build/ \n',
      'a/pkg/x.js': 'x',
      'a/pkg/build/y.js': 'y',
    });
    expect(await createSearcher().listFiles(scopeOf(join(r.root, 'pkg[v2]/sub')))).toEqual(['a.js']);
    expect(await createSearcher().listFiles(scopeOf(join(r.root, '#drafts/sub')))).toEqual(['c.js']);
    expect(await createSearcher().listFiles(scopeOf(join(r.root, 'a/pkg')))).toEqual(['x.js']);
    const deep = join(r.root, ...Array.from({ length: 70 }, () => 'd'));
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(r.root, '.gitignore'), '*.log\n');
    writeFileSync(join(deep, 'a.js'), 'a');
    writeFileSync(join(deep, 'b.log'), 'b');
    expect(await createSearcher().listFiles(scopeOf(deep))).toEqual(['a.js']);
  });

  it('goes on when an ignore file above the root holds a rule rg cannot parse (rg exited 2: every search fell back to names), or more rules than it applies', async () => {
    const outer = repo({ '.gitignore': '[z-a]\n', 'inner/src/session.ts': 'export function refreshSession() {}\n' }, { git: false });
    const root = join(outer.root, 'inner');
    execFileSync('git', ['init', '-q'], { cwd: root });
    const warnings: string[] = [];
    const logger: Logger = { debug() {}, info() {}, warn: (m) => void warnings.push(m), error() {} };
    const searcher = createSearcher({ logger });
    const found = await searcher.search({ ...scopeOf(root), query: planQuery('refreshSession is broken'), maxCandidates: 10 });
    expect(found.candidates[0]?.path).toBe('src/session.ts');
    expect(found.candidates[0]?.termFreq).not.toEqual({});
    expect(warnings).toEqual([expect.stringMatching(/\.gitignore: line 1: an ignore rule ripgrep cannot parse is not applied$/)]);
    const many = repo({ '.gitignore': `${Array.from({ length: 2500 }, (_, i) => `gen${i}-*.dat`).join('\n')}\n*.log\n`, 'pkg/a.js': 'a', 'pkg/b.log': 'b' });
    warnings.length = 0;
    await createSearcher({ logger }).listFiles(scopeOf(join(many.root, 'pkg')));
    expect(warnings.join('\n')).toMatch(/: \d+ rule\(s\) not applied: \d+ past the first 2000 \(the deepest files' last\)$/);
    // one rule that would match in exponential time is dropped for that, and said so; git still ignores by it
    const wild = repo({ '.gitignore': `${'**/'.repeat(50)}*.ts\n`, 'pkg/app/src/budget.ts': 'export function enforceTokenBudget() {}' });
    warnings.length = 0;
    await createSearcher({ logger }).listFiles(scopeOf(join(wild.root, 'pkg/app')));
    expect(warnings).toEqual([expect.stringMatching(/: 1 rule\(s\) not applied: 1 longer than 4096 characters or with more than three \*\* or four \* \(matched in exponential time\)$/)]);
  });

  it('bounds the rule tests: past the bound only directories are tested, and the signal is heard between chunks', async () => {
    const files = [...Array.from({ length: 5000 }, (_, i) => `gen/f${i}.ts`), ...Array.from({ length: 5000 }, (_, i) => `src/f${i}.log`)];
    let tested = 0;
    const rules: ParentRules = { top: '/top', rules: Math.ceil(MAX_RULE_TESTS / 2000), dropped: 0, unsafe: 0, ignores: (path) => (tested++, path.startsWith('gen/') || path.endsWith('.log')) };
    const warnings: string[] = [];
    const kept = await filterIgnored(files, rules, (m) => void warnings.push(m));
    // the directory rule applied, the file rule not: 2 directories tested, not 10,000 files
    expect(kept).toHaveLength(5000);
    expect(kept[0]).toBe('src/f0.log');
    expect(tested).toBe(2);
    expect(warnings).toEqual([expect.stringMatching(/only their directory rules are applied/)]);
    const stop = new AbortController();
    stop.abort();
    const aborted = await filterIgnored(files, { ...rules, rules: 10 }, () => undefined, stop.signal).catch((e: unknown) => e);
    expect(isAbortError(aborted)).toBe(true);
  });
});
