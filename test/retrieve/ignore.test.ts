import { describe, expect, it } from 'vitest';
import { compileIgnoreRules, rebaseRule } from '../../src/retrieve/ignore.js';

describe('rebaseRule', () => {
  it('anchors a rule with a slash to its directory and lets a bare name match at any depth below it', () => {
    expect(rebaseRule('dist/', '')).toBe('dist/');
    expect(rebaseRule('/out', 'pkg/a')).toBe('pkg/a/out');
    expect(rebaseRule('gen/*.ts', 'pkg')).toBe('pkg/gen/*.ts');
    expect(rebaseRule('*.log', 'pkg')).toBe('pkg/**/*.log');
    expect(rebaseRule('!keep.log', 'pkg')).toBe('!pkg/**/keep.log');
  });
});

describe('compileIgnoreRules', () => {
  const rules = compileIgnoreRules([
    { dir: 'pkg', content: '*.log\n!keep.log\n/local\n' },
    { dir: '', content: '# comment\n\nbuild/\n*.tmp\r\n' },
  ]);

  it('applies nested rules relative to their directory, deeper rules winning', () => {
    expect(rules.ignores('build/a.ts')).toBe(true);
    expect(rules.ignores('pkg/build/a.ts')).toBe(true);
    expect(rules.ignores('x.tmp')).toBe(true);
    expect(rules.ignores('pkg/deep/a.log')).toBe(true);
    expect(rules.ignores('a.log')).toBe(false);
    expect(rules.ignores('pkg/keep.log')).toBe(false);
    expect(rules.ignores('pkg/local/x.ts')).toBe(true);
    expect(rules.ignores('local/x.ts')).toBe(false);
  });

  it('prunes no directory when a rule re-includes', () => {
    expect(rules.hasNegation).toBe(true);
    expect(rules.pruneGlobs).toEqual([]);
  });

  it('turns plain rules into walk-pruning globs', () => {
    const simple = compileIgnoreRules([{ dir: '', content: 'target/\n/coverage\n*.o\nweird[ab]\n' }, { dir: 'web', content: 'dist' }]);
    expect(simple.pruneGlobs).toEqual(['**/target/**', 'coverage/**', '**/*.o/**', 'web/**/dist/**']);
  });
});
