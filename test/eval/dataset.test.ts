import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isUsageError } from '../../src/core/errors.js';
import { parseDataset, readDataset } from '../../src/eval/dataset.js';

const good = { id: 'a__b-1', repo: 'a/b', base_commit: 'abc1234', task: 'fix it', gold_files: ['./src/x.py'], language: 'python' };
const line = (value: unknown): string => JSON.stringify(value);

function errorOf(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

describe('parseDataset', () => {
  it('reads valid lines, skips blank ones, normalizes gold paths', () => {
    const tasks = parseDataset(`${line(good)}\n\n${line({ ...good, id: 'two', language: undefined })}\n`, 'd.jsonl');
    expect(tasks.map((task) => task.id)).toEqual(['a__b-1', 'two']);
    expect(tasks[0]?.gold_files).toEqual(['src/x.py']);
    expect(tasks[1]).not.toHaveProperty('language');
  });

  it('names file, line and field of a bad value', () => {
    const error = errorOf(() => parseDataset(`${line(good)}\n${line({ ...good, id: 'b', gold_files: 'src/x.py' })}`, 'd.jsonl'));
    expect(isUsageError(error)).toBe(true);
    expect(error.message).toMatch(/^d\.jsonl:2: gold_files: /);
  });

  it('names a missing field', () => {
    const { task: _task, ...rest } = good;
    expect(errorOf(() => parseDataset(line(rest), 'd.jsonl')).message).toMatch(/^d\.jsonl:1: task: /);
  });

  it('rejects a repo that is not owner/name and a bad commit', () => {
    expect(errorOf(() => parseDataset(line({ ...good, repo: 'b' }), 'd.jsonl')).message).toBe('d.jsonl:1: repo: must be owner/name');
    expect(errorOf(() => parseDataset(line({ ...good, base_commit: 'main' }), 'd.jsonl')).message).toBe('d.jsonl:1: base_commit: must be a commit hash');
    // `..` would lead the mirror lookup out of --repos
    expect(errorOf(() => parseDataset(line({ ...good, repo: '../..' }), 'd.jsonl')).message).toBe('d.jsonl:1: repo: must be owner/name, not . or ..');
    expect(errorOf(() => parseDataset(line({ ...good, repo: 'a/.' }), 'd.jsonl')).message).toBe('d.jsonl:1: repo: must be owner/name, not . or ..');
  });

  it('rejects a gold file that could never be found: absolute, or climbing out of the repository', () => {
    for (const gold of ['/etc/passwd', '../../etc/passwd', 'src/../../x.py', 'C:\\x\\y.py']) {
      expect(errorOf(() => parseDataset(line({ ...good, gold_files: [gold] }), 'd.jsonl')).message).toBe('d.jsonl:1: gold_files.0: must be a path inside the repository');
    }
  });

  it('reads a gold file as git names it, and rejects names no file has (each scored a silent miss)', () => {
    for (const gold of ['src//config.ts', 'src/./config.ts', './src/config.ts', 'src\\config.ts']) {
      expect(parseDataset(line({ ...good, gold_files: [gold] }), 'd.jsonl')[0]!.gold_files).toEqual(['src/config.ts']);
    }
    for (const gold of ['src/config.ts/', ' src/config.ts', 'src/config.ts\0']) {
      expect(errorOf(() => parseDataset(line({ ...good, gold_files: [gold] }), 'd.jsonl')).message).toBe('d.jsonl:1: gold_files.0: must be a file path as git names it (no NUL, no spaces around it, no trailing slash)');
    }
  });

  it('rejects an id, language or repository the terminal would show raw or whole', () => {
    expect(errorOf(() => parseDataset(line({ ...good, id: 'x\u001b]0;pwned\u0007' }), 'd.jsonl')).message).toBe('d.jsonl:1: id: must not hold control characters');
    expect(errorOf(() => parseDataset(line({ ...good, language: 'a\u001b[2Jb' }), 'd.jsonl')).message).toBe('d.jsonl:1: language: must not hold control characters');
    expect(errorOf(() => parseDataset(line({ ...good, id: 'x'.repeat(5_000_000) }), 'd.jsonl')).message).toMatch(/^d\.jsonl:1: id: .{1,200}$/);
    expect(errorOf(() => parseDataset(line({ ...good, repo: `a/${'b'.repeat(1_000_000)}` }), 'd.jsonl')).message).toMatch(/^d\.jsonl:1: repo: .{1,200}$/);
  });

  it('rejects broken JSON, duplicate ids and empty files', () => {
    expect(errorOf(() => parseDataset(`${line(good)}\n{oops`, 'd.jsonl')).message).toMatch(/^d\.jsonl:2: not valid JSON/);
    expect(errorOf(() => parseDataset(`${line(good)}\n${line(good)}`, 'd.jsonl')).message).toBe('d.jsonl:2: duplicate id a__b-1 (first on line 1)');
    expect(errorOf(() => parseDataset('\n', 'd.jsonl')).message).toBe('d.jsonl: no tasks in the dataset');
  });
});

describe('readDataset', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctxloop-dataset-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a file and reports a missing one', async () => {
    writeFileSync(join(dir, 'd.jsonl'), line(good) + '\n');
    expect(await readDataset(join(dir, 'd.jsonl'))).toHaveLength(1);
    await expect(readDataset(join(dir, 'none.jsonl'))).rejects.toThrow(/cannot read dataset .*none\.jsonl: no such file/);
  });

  it.runIf(process.platform === 'linux')('stops reading an endless file at 64 MB (/dev/zero was read to 619 MB, then failed as a bad line)', async () => {
    await expect(readDataset('/dev/zero')).rejects.toThrow(/^dataset \/dev\/zero holds more than 64 MB$/);
  });

  it.runIf(process.platform === 'linux')('reads a FIFO no one writes to as empty, at once (a plain open waited for ever, deaf to signals)', async () => {
    const fifo = join(dir, 'd.fifo');
    execFileSync('mkfifo', [fifo]);
    await expect(readDataset(fifo)).rejects.toThrow(/no tasks in the dataset/);
  }, 10_000);
});
