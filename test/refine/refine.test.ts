import { describe, expect, it } from 'vitest';
import type { Candidate, Score } from '../../src/core/types.js';
import { planQuery } from '../../src/refine/plan.js';
import { nearDirs, refineQuery } from '../../src/refine/refine.js';

function cand(path: string, hits: string[] = [], mentions: string[] = []): Candidate {
  return { path, size: 100, termFreq: {}, literals: [], symbols: [], mentions, hits: hits.map((text, i) => ({ line: i + 1, text, terms: [] })), sources: ['content'] };
}
function score(path: string, relevance: number, missing: string[] = []): Score {
  return { path, relevance, reason: '', missing, evidence: [] };
}

describe('refineQuery', () => {
  const plan = planQuery('sendVerificationEmail is never called after signup in src/signup.ts');

  it('turns a strong file’s missing symbol and import into targeted searches', () => {
    const pool = new Map([['src/signup.ts', cand('src/signup.ts', [], ['src/signup.ts'])]]);
    const r = refineQuery({
      plan, query: plan, pool, facts: new Map(), threshold: 0.7, cycle: 1, maxCycles: 3, openGaps: [],
      scores: [score('src/signup.ts', 0.95, ['symbol:queueMail', 'import:src/mail/queue.ts'])],
    });
    expect(r.stop).toBe(false);
    expect(r.next.symbols).toContain('queueMail');
    expect(r.next.paths).toContain('src/mail/queue.ts');
    expect(r.gaps.map((g) => g.question)).toContain('where is queueMail defined? (called in src/signup.ts)');
  });

  it('closes a gap once a retrieved file defines the symbol, and reports it', () => {
    const pool = new Map([
      ['src/signup.ts', cand('src/signup.ts', [], ['src/signup.ts'])],
      ['src/mail/queue.ts', cand('src/mail/queue.ts', ['export function queueMail(to: string) {'])],
    ]);
    const open = [{ kind: 'symbol' as const, target: 'queueMail', from: 'src/signup.ts', question: 'where is queueMail defined?' }];
    const r = refineQuery({
      plan, query: plan, pool, facts: new Map(), threshold: 0.7, cycle: 2, maxCycles: 3, openGaps: open,
      scores: [score('src/signup.ts', 0.95, ['symbol:queueMail']), score('src/mail/queue.ts', 0.8)],
    });
    expect(r.gaps.some((g) => g.target === 'queueMail')).toBe(false);
    expect(r.closed.map((g) => g.target)).toEqual(['queueMail']);
  });

  it('stops at the last cycle, and when enough files pass with no critical gap', () => {
    const pool = new Map(['a.ts', 'b.ts', 'c.ts', 'src/signup.ts'].map((p) => [p, cand(p, [], p === 'src/signup.ts' ? ['src/signup.ts'] : [])]));
    const scores = [score('a.ts', 0.9), score('b.ts', 0.8), score('c.ts', 0.75), score('src/signup.ts', 0.9)];
    const enough = refineQuery({ plan, query: plan, pool, facts: new Map(), threshold: 0.7, cycle: 1, maxCycles: 3, openGaps: [], scores });
    expect(enough.stop).toBe(true);
    expect(enough.why).toMatch(/files ≥ threshold/);
    const last = refineQuery({ plan, query: plan, pool, facts: new Map(), threshold: 0.7, cycle: 3, maxCycles: 3, openGaps: [], scores: [score('a.ts', 0.5, ['symbol:x'])] });
    expect(last.stop).toBe(true);
    expect(last.why).toBe('max cycles reached');
  });

  it('stops when a refined search moved neither the leading files nor which files pass', () => {
    const pool = new Map(['src/signup.ts', 'src/mail.ts', 'src/user.ts'].map((p) => [p, cand(p)]));
    const before = [score('src/signup.ts', 0.9, ['symbol:queueMail']), score('src/mail.ts', 0.6), score('src/user.ts', 0.3)];
    const run = (scores: Score[], previous?: Score[], cycle = 2) =>
      refineQuery({ plan, query: plan, pool, facts: new Map(), threshold: 0.7, cycle, maxCycles: 3, openGaps: [], scores, ...(previous ? { previous } : {}) });
    // the same order and the same file passing, other scores moved: nothing to gain from a third search
    const same = run([score('src/signup.ts', 0.92, ['symbol:queueMail']), score('src/mail.ts', 0.55), score('src/user.ts', 0.35)], before);
    expect(same.stop).toBe(true);
    expect(same.why).toBe('the last search changed no leading file');
    // a new leader, a new order, or another file passing: the search moved something, go on
    expect(run([score('src/mail.ts', 0.95), score('src/signup.ts', 0.9, ['symbol:queueMail']), score('src/user.ts', 0.3)], before).stop).toBe(false);
    expect(run([score('src/signup.ts', 0.9, ['symbol:queueMail']), score('src/user.ts', 0.65), score('src/mail.ts', 0.6)], before).stop).toBe(false);
    expect(run([score('src/signup.ts', 0.9, ['symbol:queueMail']), score('src/mail.ts', 0.75), score('src/user.ts', 0.3)], before).stop).toBe(false);
    // the first cycle has nothing to compare with
    expect(run(before, [], 1).stop).toBe(false);
    expect(run(before, undefined, 1).stop).toBe(false);
  });

  it('excludes what scored below 0.2 from later cycles', () => {
    const pool = new Map([['junk.ts', cand('junk.ts')]]);
    const r = refineQuery({ plan, query: plan, pool, facts: new Map(), threshold: 0.7, cycle: 1, maxCycles: 3, openGaps: [], scores: [score('junk.ts', 0.1)] });
    expect(r.next.excludes).toContain('junk.ts');
  });
});

describe('nearDirs', () => {
  const scored = (paths: string[]): Score[] => paths.map((path, i) => ({ path, relevance: 1 - i / 10, reason: '', missing: [], evidence: [] }));

  it('looks for borrowed names in the subtree above each of the five best files, a subtree inside another once', () => {
    expect(nearDirs(scored(['packages/x/src/a.ts', 'lib/helpers/url.js', 'lib/core/call.js', 'packages/x/src/deep/b.ts', 'src/c.ts', 'other/far/d.ts']))).toEqual(['lib', 'packages/x', 'src']);
  });

  it('searches the whole scope when one of the best files lies at the root', () => {
    expect(nearDirs(scored(['lib/a.js', 'setup.py']))).toEqual([]);
  });
});
