import { describe, expect, it } from 'vitest';
import { fitLine, renderReport, type SizeReport } from '../../scripts/perf/report.js';

const size = (files: number, coldMs: number): SizeReport => ({
  files, bytes: files * 10_000, tasks: 5, rgMs: files / 50, coldMs, warmMs: coldMs / 5, coldRatio: coldMs / (files / 50), warmRatio: 1, coldP95Ms: coldMs, warmP95Ms: coldMs / 5, peakRssMb: 200, runs: [],
});

describe('bench:perf report', () => {
  it('fits the slope per 1,000 files over two sizes or more', () => {
    const reports = [size(1000, 1100), size(10000, 1820)];
    const slopes = { rg: fitLine(reports.map((r) => [r.files, r.rgMs])), cold: fitLine(reports.map((r) => [r.files, r.coldMs])), warm: fitLine(reports.map((r) => [r.files, r.warmMs])) };
    expect(slopes.cold.msPer1kFiles).toBeCloseTo(80, 5);
    expect(renderReport(reports, slopes)).toContain('cold 80 ms per 1,000 files');
  });

  it('says slopes need two sizes instead of printing NaN for one', () => {
    const reports = [size(10000, 3870)];
    const slopes = { rg: fitLine([[10000, 200]]), cold: fitLine([[10000, 3870]]), warm: fitLine([[10000, 700]]) };
    const text = renderReport(reports, slopes);
    expect(text).not.toContain('NaN');
    expect(text).toContain('Slopes need two sizes or more');
    expect(text).toContain('| 10,000 |');
  });
});
