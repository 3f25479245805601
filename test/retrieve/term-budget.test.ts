import { describe, expect, it } from 'vitest';
import { throwIfAborted } from '../../src/core/errors.js';
import { silentLogger } from '../../src/core/log.js';
import { resolveRgPath } from '../../src/retrieve/rg-path.js';
import { scanTerms, type FileTally, type ScanTerms } from '../../src/retrieve/scan.js';
import { boundTerms, sampleLoad, sampleOf, scanWithinBudget, type TermLoad } from '../../src/retrieve/term-budget.js';
import { TermIndex } from '../../src/retrieve/term-index.js';
import { useTempRepos } from '../helpers/make-repo.js';

const repo = useTempRepos();

const terms = (partial: Partial<ScanTerms>): ScanTerms => ({ keywords: [], literals: [], symbols: [], ...partial });

/** 60 files that all say `value` many times; three of them also name `parseConfig`. */
function commonWordRepo(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 60; i++) files[`src/m${i}.ts`] = `${'const value = getValue(value, values);\n'.repeat(20)}${i % 20 === 0 ? 'export function parseConfig() {}\n' : ''}`;
  return files;
}

async function settings(root: string) {
  return { rgPath: await resolveRgPath(process.env, silentLogger), root, paths: [''], iglobs: [], globs: [], maxFileSize: 1_000_000, logger: silentLogger };
}

describe('sampleOf', () => {
  it('takes every file of a small listing, and of a large one the same spread subset every time', () => {
    expect(sampleOf(['a', 'b'], 10)).toEqual(['a', 'b']);
    const files = Array.from({ length: 5000 }, (_, i) => `dir${i % 50}/file${i}.ts`);
    const sample = sampleOf(files, 500);
    expect(sample.length).toBeGreaterThan(300);
    expect(sample.length).toBeLessThan(800);
    expect(sampleOf([...files].reverse(), 500).sort()).toEqual([...sample].sort());
    expect(new Set(sample.map((p) => p.split('/')[0])).size).toBeGreaterThan(40);
  });
});

describe('boundTerms', () => {
  const load: TermLoad = {
    sampled: 10,
    occurrences: new Map([['k:valu', 900], ['k:config', 30], ['s:parseConfig', 3], ['k:nam', 400]]),
    files: new Map([['k:valu', 9], ['k:config', 3], ['s:parseConfig', 3], ['k:nam', 8]]),
  };

  it('leaves out the commonest terms until the rest fit, in the query\'s order, with their estimated document frequency', () => {
    const bounded = boundTerms(terms({ keywords: ['valu', 'config', 'nam'], symbols: ['parseConfig'] }), load, 1000, 50);
    expect(bounded.kept).toEqual(terms({ keywords: ['config', 'nam'], symbols: ['parseConfig'] }));
    expect(bounded.leftOut).toEqual([{ key: 'k:valu', kind: 'keywords', value: 'valu', docFreq: 900 }]);
  });

  it('charges a pair term and its first word once (rg prints the same identifiers for both), and keeps or leaves out both', () => {
    const paired: TermLoad = {
      sampled: 10,
      occurrences: new Map([['k:config', 300], ['k:config pars', 300], ['k:nam', 400], ['k:valu', 450], ['k:valu nam', 450]]),
      files: new Map([['k:config', 9], ['k:config pars', 1], ['k:nam', 8], ['k:valu', 9], ['k:valu nam', 2]]),
    };
    // 30 + 40 a file fit in 75, charged a pair apart they would not; `valu` (45 more) does not, and its pair goes with it
    const bounded = boundTerms(terms({ keywords: ['config', 'nam', 'valu', 'config pars', 'valu nam'] }), paired, 1000, 75);
    expect(bounded.kept).toEqual(terms({ keywords: ['config', 'nam', 'config pars'] }));
    expect(bounded.leftOut.map((t) => t.value).sort()).toEqual(['valu', 'valu nam']);
  });

  it('leaves nothing out when every term fits', () => {
    const all = terms({ keywords: ['valu', 'config', 'nam'], symbols: ['parseConfig'] });
    expect(boundTerms(all, load, 1000, 200)).toEqual({ kept: all, leftOut: [] });
  });
});

describe('sampleLoad', () => {
  it('counts what rg prints for each term, the words it only starts included, and the files that hold it', async () => {
    const r = repo({ 'a.ts': 'value values getValue\nimport x\n', 'b.ts': 'export const port = 1; portal\n', 'c.md': 'nothing here\n' });
    const load = await sampleLoad(await settings(r.root), ['a.ts', 'b.ts', 'c.md'], terms({ keywords: ['valu'], symbols: ['port'] }));
    expect(load.sampled).toBe(3);
    expect(load.occurrences.get('k:valu')).toBe(3);
    // `portal` prints for `port` without holding it; `import` and `export`, where it starts no part, do not print
    expect(load.occurrences.get('s:port')).toBe(2);
    expect(load.files.get('k:valu')).toBe(1);
    expect(load.files.get('s:port')).toBe(1);
  });
});

describe('scanWithinBudget', () => {
  it('in a large repository, stops the scan, forgets what it recorded, and scans again without the commonest term', async () => {
    const r = repo(commonWordRepo());
    const run = await settings(r.root);
    const index = new TermIndex();
    const started: ScanTerms[] = [];
    let resets = 0;
    const wanted = terms({ keywords: ['valu', 'config'] });
    await index.ensure(wanted, {
      scan: async (fresh, record, reset) =>
        scanWithinBudget({
          terms: fresh,
          listing: Promise.resolve({ files: Object.keys(commonWordRepo()) }),
          scan: async (scanned, signal) => {
            started.push(scanned);
            await scanTerms({ ...run, terms: scanned, signal }, record);
            if (started.length === 1) {
              // the first scan records something of its own, then runs on until the sample's verdict stops it
              record('src/ghost.ts', { termFreq: { config: 1 }, literals: new Set(), symbols: new Set() });
              await new Promise((resolve) => setTimeout(resolve, 300));
              throwIfAborted(signal);
            }
          },
          sample: (paths, sampled) => sampleLoad(run, paths, sampled),
          reset: () => {
            resets++;
            reset();
          },
          large: 50,
          maxDensity: 10,
        }),
    });
    expect(started).toEqual([wanted, terms({ keywords: ['config'] })]);
    expect(resets).toBe(1);
    const evidence = index.evidenceFor(wanted);
    expect([...evidence.keys()].sort()).toEqual(['src/m0.ts', 'src/m20.ts', 'src/m40.ts']);
    expect(evidence.get('src/m0.ts')?.termFreq).toEqual({ config: 1 });
    expect(index.counted(wanted)).toEqual(terms({ keywords: ['config'] }));
    expect(index.leftOutDocFreq(['valu', 'config'])).toEqual({ valu: 60 });
    // a left-out term is not scanned again in a later cycle
    let scannedAgain = false;
    await index.ensure(wanted, { scan: async () => void (scannedAgain = true) });
    expect(scannedAgain).toBe(false);
  });

  it('bounds nothing in a repository at or below the threshold: one scan, every term counted', async () => {
    const r = repo(commonWordRepo());
    const run = await settings(r.root);
    const found: Record<string, FileTally> = {};
    let scans = 0;
    const left = await scanWithinBudget({
      terms: terms({ keywords: ['valu', 'config'] }),
      listing: Promise.resolve({ files: Object.keys(commonWordRepo()) }),
      scan: async (scanned, signal) => {
        scans++;
        await scanTerms({ ...run, terms: scanned, signal }, (path, tally) => (found[path] = tally));
      },
      sample: () => Promise.reject(new Error('never sampled')),
      reset: () => undefined,
      large: 60,
      maxDensity: 10,
    });
    expect(left).toEqual([]);
    expect(scans).toBe(1);
    expect(Object.keys(found)).toHaveLength(60);
  });
});
