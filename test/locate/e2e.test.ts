/** `locate` and `trace` through the built binary: piped stdin, JSON alone on stdout, exit codes. Needs `npm run build`. */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempRepos } from '../helpers/make-repo.js';

const BIN = resolve(__dirname, '../../dist/cli/bin.js');
const makeRepo = useTempRepos();

function run(args: string[], input = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = execFile(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
    child.stdin?.end(input);
  });
}

const PROGRAM = {
  'cmd/app/main.go': 'package main\n\nfunc main() {\n\trun()\n}\n\nfunc run() {\n\tvar xs []int\n\t_ = xs[3]\n}\n',
};
const PANIC = ['panic: runtime error: index out of range [3] with length 0', '', 'goroutine 1 [running]:', 'main.run(...)', '\t/build/src/app/cmd/app/main.go:9', 'main.main()', '\t/build/src/app/cmd/app/main.go:4 +0x1d', 'exit status 2'].join('\n');

describe.runIf(existsSync(BIN))('ctxloop locate and trace binaries', () => {
  it('locate reads a panic from stdin and prints only JSON on stdout', async () => {
    const repo = makeRepo(PROGRAM);
    const r = await run(['locate', '--error', '-', '--root', repo.root, '--no-cache', '--json'], PANIC);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result.candidates[0]).toMatchObject({ path: 'cmd/app/main.go', line: 9, symbol: 'run' });
    expect(result.error).toMatchObject({ type: 'panic' });
  });

  it('locate with nothing to read exits 2, with the JSON error on stdout when asked', async () => {
    const repo = makeRepo(PROGRAM);
    const r = await run(['locate', '--error', '-', '--root', repo.root, '--json'], '   ');
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({ error: { code: 'no_task', message: 'the error text is empty' } });
    expect(r.stderr.split('\n')[0]).toBe('ctxloop: the error text is empty');
  });

  it('trace prints the chain as JSON', async () => {
    const repo = makeRepo(PROGRAM);
    const r = await run(['trace', '--symbol', 'run', '--direction', 'callers', '--root', repo.root, '--no-cache', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).definitions[0].callers[0]).toMatchObject({ symbol: 'main', file: 'cmd/app/main.go', line: 3, callLine: 4 });
  });
});
