import { describe, expect, it } from 'vitest';
import { fitLine, renderReport, type SizeReport } from '../../scripts/perf/report.js';

const size = (files: number, coldMs: number): SizeReport => ({
  files, bytes: files * 10_000, tasks: 5, rgMs: files / 50, coldMs, warmMs: coldMs / 5, servedMs: coldMs / 2, coldRatio: coldMs / (files / 50), warmRatio: 1, servedRatio: coldMs / 2 / (files / 50),
  coldP95Ms: coldMs, warmP95Ms: coldMs / 5, servedP95Ms: coldMs / 2, peakRssMb: 200, servedPeakRssMb: 300, runs: [],
});

describe('bench:perf report', () => {
  it('fits the slope per 1,000 files over two sizes or more', () => {
    const reports = [size(1000, 1100), size(10000, 1820)];
    const slopes = { rg: fitLine(reports.map((r) => [r.files, r.rgMs])), cold: fitLine(reports.map((r) => [r.files, r.coldMs])), warm: fitLine(reports.map((r) => [r.files, r.warmMs])), served: fitLine(reports.map((r) => [r.files, r.servedMs])) };
    expect(slopes.cold.msPer1kFiles).toBeCloseTo(80, 5);
    const text = renderReport(reports, slopes);
    expect(text).toContain('cold 80 ms per 1,000 files');
    expect(text).toContain('served 40 ms per 1,000 files');
    // the long-lived process's own table: 910 ms against rg's 200 ms at 10,000 files
    expect(text).toContain('| 10,000 | 0.20 | 0.91 | 4.5× | 0.91 | 300 |');
  });

  it('says slopes need two sizes instead of printing NaN for one', () => {
    const reports = [size(10000, 3870)];
    const slopes = { rg: fitLine([[10000, 200]]), cold: fitLine([[10000, 3870]]), warm: fitLine([[10000, 700]]), served: fitLine([[10000, 1900]]) };
    const text = renderReport(reports, slopes);
    expect(text).not.toContain('NaN');
    expect(text).toContain('Slopes need two sizes or more');
    expect(text).toContain('| 10,000 |');
  });
});
