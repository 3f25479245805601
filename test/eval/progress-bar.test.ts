import { describe, expect, it } from 'vitest';
import { MISS } from '../../src/eval/metrics.js';
import { createProgress, renderProgress } from '../../src/eval/progress-bar.js';
import type { EvalRecord } from '../../src/eval/types.js';
import { memoryStream } from './memory-stream.js';

const record = (id: string, acc5: number, error?: string): EvalRecord => ({
  id, repo: 'o/r', language: 'go', method: 'bm25', ranking: [], files: [], gold: [], tokens: 0, seconds: 0, checkoutSeconds: 0,
  metrics: { ...MISS, acc5 }, ...(error === undefined ? {} : { error }),
});

describe('renderProgress', () => {
  it('draws the bar, the count, the id and the running acc@5', () => {
    expect(renderProgress('sqlfluff__sqlfluff-1517', 37, 99, 61, undefined)).toBe('[#######.............] 37/99 sqlfluff__sqlfluff-1517 acc@5 61.0');
  });

  it('cuts the id to fit the terminal', () => {
    const line = renderProgress('a-very-long-task-identifier-indeed', 1, 9, 0, 50);
    expect(line.length).toBeLessThanOrEqual(49);
    expect(line).toContain('…');
  });
});

describe('createProgress', () => {
  it('redraws one line on a TTY and gives failures their own line', () => {
    const stream = memoryStream(true);
    const progress = createProgress(stream);
    progress.update(record('a', 1), 1, 2);
    progress.update(record('b', 0, 'boom'), 2, 2);
    progress.finish();
    expect(stream.text.split('\r\x1b[2K')).toEqual(['', '[##########..........] 1/2 a acc@5 100.0', 'ctxloop: b failed: boom\n', '[####################] 2/2 b acc@5 50.0\n']);
  });

  it('prints plain lines every tenth of the run elsewhere', () => {
    const stream = memoryStream(false);
    const progress = createProgress(stream, { now: () => 0 });
    for (let done = 1; done <= 20; done++) progress.update(record(`t${done}`, 1), done, 20);
    progress.finish();
    const lines = stream.text.trim().split('\n');
    expect(lines.map((line) => /(\d+)\/20/.exec(line)?.[1])).toEqual(['2', '4', '6', '8', '10', '12', '14', '16', '18', '20']);
    expect(stream.text).not.toContain('\r');
  });
});
