/**
 * A repository of 100,000 files, through the built binary: the run ends with the one file the
 * task names, and its peak memory is reported by the kernel (checked against a generous bound,
 * a regression guard rather than a benchmark). The files live on a tmpfs when the test may mount
 * one (creating and removing 100,000 inodes on a busy disk takes minutes), else in a temp dir.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = resolve(__dirname, '../../dist/cli/bin.js');

describe.runIf(existsSync(BIN) && existsSync('/usr/bin/time'))('100,000 files', () => {
  let root: string;
  let mounted = false;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'ctxloop-100k-'));
    if (process.platform === 'linux' && process.getuid?.() === 0) {
      try {
        execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1g', 'tmpfs', root], { stdio: 'ignore' });
        mounted = true;
      } catch {
        // not allowed here: the temp dir on disk it is
      }
    }
    for (let d = 0; d < 500; d++) {
      const dir = join(root, `pkg${d}`);
      mkdirSync(dir);
      for (let f = 0; f < 200; f++) writeFileSync(join(dir, `mod${f}.py`), `def handler_${d}_${f}(request):\n    return request.get("id_${f}")\n`);
    }
    writeFileSync(join(root, 'pkg321', 'mod77.py'), 'def verify_email(address):\n    return "@" in address\n');
  }, 300_000);
  afterAll(() => {
    if (mounted) execFileSync('umount', [root]);
    rmSync(root, { recursive: true, force: true });
  }, 300_000);

  it('are searched to a result within bounded memory', async () => {
    const out = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
      execFile('/usr/bin/time', ['-f', 'maxrss_kb=%M', process.execPath, BIN, 'retrieve', '--root', root, '--task', 'verify_email accepts an address without a domain', '--format', 'paths', '--no-cache'], { timeout: 240_000 }, (error, stdout, stderr) => {
        const code = error ? (error as { code?: unknown }).code : 0;
        done({ code: typeof code === 'number' ? code : null, stdout, stderr });
      });
    });
    expect(out.code).toBe(0);
    expect(out.stdout.split('\n')[0]).toBe('pkg321/mod77.py');
    const rss = Number(/maxrss_kb=(\d+)/.exec(out.stderr)?.[1]);
    expect(rss).toBeGreaterThan(0);
    expect(rss).toBeLessThan(1_500_000);
  }, 300_000);
});
