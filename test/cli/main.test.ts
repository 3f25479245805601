import { Readable } from 'node:stream';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { CtxloopError, SearchError, UsageError } from '../../src/core/errors.js';
import { makeRepo } from '../helpers/make-repo.js';
import { fakeRun, makeIo, sampleResult } from './fake-io.js';

const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

describe('main: exit codes', () => {
  it('0 when the run finishes, with the result on stdout', async () => {
    const io = makeIo();
    const run = fakeRun();
    expect(await main(['retrieve', '--task', 'fix it', '--json'], io, run)).toBe(0);
    expect(JSON.parse(io.stdout.text)).toEqual(sampleResult());
  });

  it('1 for a SearchError, with its message and hint on stderr and no stack trace', async () => {
    const io = makeIo();
    const run = fakeRun(() => {
      throw new SearchError('search_failed', 'ripgrep failed in /repo: regex parse error', { hint: 'try a simpler task' });
    });
    expect(await main(['retrieve', '--task', 'x'], io, run)).toBe(1);
    expect(io.stderr.text).toBe('ctxloop: ripgrep failed in /repo: regex parse error\n  hint: try a simpler task\n');
    expect(io.stdout.text).toBe('');
  });

  it('2 for a UsageError from the run (root not found)', async () => {
    const io = makeIo();
    const run = fakeRun(() => {
      throw new UsageError('root_not_found', 'root not found: /nope');
    });
    expect(await main(['retrieve', '--task', 'x', '--root', '/nope'], io, run)).toBe(2);
    expect(io.stderr.text).toBe('ctxloop: root not found: /nope\n');
  });

  it('2 for a path flag holding a line break, the value shown whole with its break escaped (cut there, it named another path that exists)', async () => {
    const repo = makeRepo({ 'src/a.ts': 'export const a = 1;\n' });
    try {
      for (const [args, expected] of [
        [['--scope', 'src\nx'], /^ctxloop: scope not found: src\\nx \(relative to .*\)\n$/],
        [['--task-file', join(repo.root, 'src/a.ts\nx')], /^ctxloop: --task-file: cannot read .*\/src\/a\.ts\\nx \(no such file\)\n$/],
      ] as const) {
        const io = makeIo();
        const taskArgs = args[0] === '--task-file' ? [] : ['--task', 'x'];
        expect(await main(['retrieve', '--root', repo.root, '--no-cache', ...taskArgs, ...args], io), args.join(' ')).toBe(2);
        expect(io.stderr.text).toMatch(expected);
      }
    } finally {
      repo.cleanup();
    }
  });

  it('130 when the run was aborted', async () => {
    const io = makeIo();
    const run = fakeRun(() => {
      throw new CtxloopError('aborted', 'interrupted');
    });
    expect(await main(['retrieve', '--task', 'x'], io, run)).toBe(130);
    expect(io.stderr.text).toBe('ctxloop: interrupted\n');
  });

  it('130 when Ctrl-C came but the run still returned: the result is printed', async () => {
    const controller = new AbortController();
    const io = makeIo({ signal: controller.signal });
    const run = fakeRun((_task, options) => {
      expect(options.signal).toBe(controller.signal);
      controller.abort();
      return sampleResult();
    });
    expect(await main(['retrieve', '--task', 'x', '--format', 'paths'], io, run)).toBe(130);
    expect(io.stdout.text).toBe('src/auth/verify.ts\nsrc/auth/tokens.py\n');
  });

  it('1 for an unexpected error, flagged as a bug with its stack', async () => {
    const io = makeIo();
    const run = fakeRun(() => {
      throw new TypeError('cannot read properties of undefined');
    });
    expect(await main(['retrieve', '--task', 'x'], io, run)).toBe(1);
    const lines = io.stderr.text.split('\n');
    expect(lines[0]).toBe('ctxloop: cannot read properties of undefined');
    expect(lines[1]).toBe('this is a bug, please report it');
    expect(io.stderr.text).toMatch(/TypeError: cannot read properties of undefined\n\s+at /);
  });

  it('a stack trace for our own errors only with --verbose', async () => {
    const io = makeIo();
    const run = fakeRun(() => {
      throw new SearchError('fs_error', 'cannot read /repo/x', { cause: new Error('EACCES') });
    });
    expect(await main(['retrieve', '--task', 'x', '--verbose'], io, run)).toBe(1);
    expect(io.stderr.text).toMatch(/^ctxloop: cannot read \/repo\/x\n  SearchError: cannot read/);
    expect(io.stderr.text).toContain('caused by: Error: EACCES');
    expect(io.stderr.text).not.toContain('this is a bug');
  });
});

describe('main: flags', () => {
  const usage = async (argv: string[]) => {
    const io = makeIo();
    const run = fakeRun();
    const code = await main(['retrieve', ...argv], io, run);
    expect(run.calls).toHaveLength(0);
    return { code, stderr: io.stderr.text, stdout: io.stdout.text };
  };

  it('--threshold out of range', async () => {
    expect(await usage(['--task', 'x', '--threshold', '2'])).toEqual({ code: 2, stdout: '', stderr: 'ctxloop: --threshold must be between 0 and 1 (got 2)\n' });
  });

  it('--max-cycles out of range, and not a whole number', async () => {
    expect((await usage(['--task', 'x', '--max-cycles', '9'])).stderr).toBe('ctxloop: --max-cycles must be between 1 and 3 (got 9)\n');
    expect((await usage(['--task', 'x', '--max-cycles', '1.5'])).stderr).toBe('ctxloop: --max-cycles must be a whole number (got 1.5)\n');
  });

  it('--budget that is not a number', async () => {
    expect(await usage(['--task', 'x', '--budget', 'abc'])).toEqual({ code: 2, stdout: '', stderr: 'ctxloop: --budget must be a number (got "abc")\n' });
  });

  it('numbers written in hex, binary or octal (Number read them: --budget 0x100 was 256)', async () => {
    for (const raw of ['0x100', '0b1111111', '0o777']) {
      expect(await usage(['--task', 'x', '--budget', raw])).toEqual({ code: 2, stdout: '', stderr: `ctxloop: --budget must be a number (got "${raw}")\n` });
    }
    expect((await usage(['--task', 'x', '--budget', '1e3', '--threshold', '.5', '--max-cycles', 'x'])).stderr).toBe('ctxloop: --max-cycles must be a number (got "x")\n');
    const { settingsFromEnv } = await import('../../src/core/options.js');
    expect(() => settingsFromEnv({ CTXLOOP_BUDGET: '0x100' })).toThrow('CTXLOOP_BUDGET must be a number (got "0x100")');
    expect(settingsFromEnv({ CTXLOOP_BUDGET: '4000', CTXLOOP_THRESHOLD: '0.6' })).toMatchObject({ budget: 4000, threshold: 0.6 });
  });

  it('CTXLOOP_CACHE turns the cache off as CTXLOOP_NO_EGRESS reads off, in any case (FALSE and no made directories of those names)', async () => {
    const { settingsFromEnv } = await import('../../src/core/options.js');
    for (const off of ['off', 'OFF', 'false', 'FALSE', 'no', 'No', '0']) expect(settingsFromEnv({ CTXLOOP_CACHE: off }), off).toMatchObject({ cache: false });
    expect(settingsFromEnv({ CTXLOOP_CACHE: 'nothing' })).toMatchObject({ cache: 'nothing' });
  });

  it('cuts a long model name in the provider note, as any echoed value (a 200 kB name was one 200 kB line)', async () => {
    const { chooseProvider } = await import('../../src/evaluate/evaluator.js');
    const choice = chooseProvider({ provider: 'openai', model: 'm'.repeat(200_000), timeout: 1000, maxRetries: 0, env: { OPENAI_API_KEY: 'sk-test-not-a-key-0123456789' } });
    expect(choice.note.length).toBeLessThanOrEqual(500);
    expect(choice.note).toMatch(/^provider: openai \(m+…m+\)$/);
  });

  it('a number past the field\'s limit says the limit, not the largest safe integer', async () => {
    const { settingsFromEnv, parseSettings } = await import('../../src/core/options.js');
    expect(() => settingsFromEnv({ CTXLOOP_BUDGET: '1e16' })).toThrow('environment: budget: Too big: expected number to be <=10000000 (got 10000000000000000)');
    expect(() => parseSettings({ maxFileSize: 1e300 }, '.ctxloop.json')).toThrow(/^\.ctxloop\.json: maxFileSize: Too big: expected number to be <=16777216 /);
    expect(() => parseSettings({ concurrency: -1e17 }, 'options')).toThrow(/^options: concurrency: Too small: expected number to be >=1 /);
  });

  it('a stray argument gets the hint of its own command, and an empty --error is refused as empty', async () => {
    const line = async (argv: string[]): Promise<string> => {
      const io = makeIo();
      expect(await main(argv, io)).toBe(2);
      return io.stderr.text.split('\n')[0]!;
    };
    expect(await line(['trace', '--symbol', 'a', 'extra'])).toBe('ctxloop: unexpected argument "extra": pass the symbol with --symbol NAME (see ctxloop --help)');
    expect(await line(['locate', '--error', '-', 'extra'])).toBe('ctxloop: unexpected argument "extra": pass the error text with --error FILE, or on stdin (see ctxloop --help)');
    expect(await line(['mcp', 'extra'])).toBe('ctxloop: unexpected argument "extra": mcp takes flags only (see ctxloop --help)');
    expect(await line(['retrieve', 'extra'])).toBe('ctxloop: unexpected argument "extra": pass the task with --task "…" (see ctxloop --help)');
    // it read the working directory as the error file: "cannot read … (is a directory)"
    expect(await line(['locate', '--error', ''])).toBe('ctxloop: --error must not be empty (see ctxloop --help)');
  });

  it('--provider and --format outside their lists', async () => {
    expect((await usage(['--task', 'x', '--provider', 'gemini'])).stderr).toBe('ctxloop: --provider must be one of auto, offline, anthropic, openai (got "gemini")\n');
    expect((await usage(['--task', 'x', '--format', 'yaml'])).stderr).toBe('ctxloop: --format must be one of json, md, paths (got "yaml")\n');
  });

  it('an unknown flag: one line ending (see ctxloop --help), with a guess when close', async () => {
    const { code, stderr } = await usage(['--task', 'x', '--treshold', '0.5']);
    expect(code).toBe(2);
    expect(stderr).toBe('ctxloop: unknown flag --treshold, did you mean --threshold? (see ctxloop --help)\n');
    expect((await usage(['--frobnicate'])).stderr).toBe('ctxloop: unknown flag --frobnicate (see ctxloop --help)\n');
  });

  it('a flag without its value, and conflicting flags', async () => {
    expect((await usage(['--task'])).stderr).toBe('ctxloop: --task needs a value (see ctxloop --help)\n');
    expect((await usage(['--task', 'x', '--json', '--format', 'md'])).code).toBe(2);
    // one line even with --verbose, which shows the stack of any other failure
    expect(await usage(['--task', 'x', '--quiet', '--verbose'])).toEqual({ code: 2, stdout: '', stderr: 'ctxloop: --quiet and --verbose cannot be used together (see ctxloop --help)\n' });
    expect((await usage(['--task', 'x', '--budget', 'abc', '--verbose'])).stderr).toBe('ctxloop: --budget must be a number (got "abc")\n');
    expect((await usage(['--task', 'x', '--cache', 'd', '--no-cache'])).code).toBe(2);
    expect((await usage(['--task', 'x', '--task-file', 'f'])).code).toBe(2);
    // a one-value flag given twice: the first was meant too, and parseArgs would keep only the last
    expect(await usage(['--task', 'x', '--task', 'y'])).toEqual({ code: 2, stdout: '', stderr: 'ctxloop: --task given more than once (see ctxloop --help)\n' });
    expect((await usage(['--task', 'x', '--budget', '100', '--budget=200'])).stderr).toBe('ctxloop: --budget given more than once (see ctxloop --help)\n');
  });

  it('a bad flag with --json still prints the error object on stdout', async () => {
    const { code, stdout } = await usage(['--json', '--threshold', '7', '--task', 'x']);
    expect(code).toBe(2);
    expect(JSON.parse(stdout)).toEqual({ error: { code: 'bad_option', message: '--threshold must be between 0 and 1 (got 7)' } });
  });

  it('an empty task after trimming is no_task', async () => {
    const io = makeIo();
    expect(await main(['retrieve', '--task', '   \n ', '--json'], io, fakeRun())).toBe(2);
    expect(JSON.parse(io.stdout.text).error.code).toBe('no_task');
    expect(io.stderr.text).toContain('hint: pass --task');
  });

  it('a missing --task-file names the path', async () => {
    const io = makeIo({ cwd: '/tmp' });
    expect(await main(['retrieve', '--task-file', 'nope/issue.md'], io, fakeRun())).toBe(2);
    expect(io.stderr.text).toBe('ctxloop: --task-file: cannot read /tmp/nope/issue.md (no such file)\n');
  });

  it('shows control characters the repository put in a failure as U+FFFD (an escape in a config key cleared the screen)', async () => {
    const repo = makeRepo({ 'a.ts': 'export const a = 1;\n', 'ctxloop.config.json': '{"\\u001b[2Jbogus": 1}' }, { git: false });
    try {
      const io = makeIo();
      expect(await main(['retrieve', '--root', repo.root, '--task', 'a', '--no-cache'], io)).toBe(2);
      expect(io.stderr.text.split('\n')[0]).toBe('ctxloop: ctxloop.config.json: unknown field \uFFFD[2Jbogus');
      expect(io.stderr.text).not.toContain('\x1b');
    } finally {
      repo.cleanup();
    }
  });

  it('reads --task-file relative to cwd, trimmed', async () => {
    const repo = makeRepo({ 'issue.md': '\n  Login fails after `refreshToken` expires\n\n' }, { git: false });
    try {
      const run = fakeRun();
      expect(await main(['retrieve', '--task-file', 'issue.md'], makeIo({ cwd: repo.root }), run)).toBe(0);
      expect(run.calls[0]?.task).toBe('Login fails after `refreshToken` expires');
    } finally {
      repo.cleanup();
    }
  });
});

describe('main: the task on stdin', () => {
  it('reads piped stdin when neither --task nor --task-file is given', async () => {
    const run = fakeRun();
    expect(await main(['retrieve'], makeIo({ stdin: '  fix the login redirect \n' }), run)).toBe(0);
    expect(run.calls[0]?.task).toBe('fix the login redirect');
  });

  it('reads stdin for --task-file -', async () => {
    const run = fakeRun();
    expect(await main(['retrieve', '--task-file', '-'], makeIo({ stdin: 'from a pipe' }), run)).toBe(0);
    expect(run.calls[0]?.task).toBe('from a pipe');
  });

  it('stops reading a stream without end: past 16 MB, one line and exit 2', async () => {
    const run = fakeRun();
    // a pipe that never ends (`yes | ctxloop retrieve`): 1 MB chunks, forever
    const chunk = Buffer.alloc(1024 * 1024, 'y');
    const endless = Object.assign(Readable.from((function* () { for (;;) yield chunk; })()), { isTTY: false });
    const io = { ...makeIo(), stdin: endless };
    expect(await main(['retrieve'], io, run)).toBe(2);
    expect(io.stderr.text).toBe('ctxloop: stdin: more than 16 MB of text\n  hint: pass the part of the task or error that matters\n');
    expect(run.calls).toHaveLength(0);
  });

  it('reads a task saved as UTF-16 with its byte-order mark (Notepad, PowerShell)', async () => {
    const run = fakeRun();
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('fix the login redirect', 'utf16le')]);
    const be = Buffer.from(le.subarray(2)).swap16();
    for (const bytes of [le, Buffer.concat([Buffer.from([0xfe, 0xff]), be])]) {
      const io = { ...makeIo(), stdin: Object.assign(Readable.from([bytes]), { isTTY: false }) };
      expect(await main(['retrieve'], io, run)).toBe(0);
    }
    expect(run.calls.map((c) => c.task)).toEqual(['fix the login redirect', 'fix the login redirect']);
  });

  it('never waits on a terminal: no task is a usage error', async () => {
    const io = makeIo();
    expect(await main(['retrieve'], io, fakeRun())).toBe(2);
    expect(io.stderr.text).toBe('ctxloop: no task given\n  hint: pass --task "…", --task-file FILE, or pipe the task on stdin\n');
  });
});

describe('main: help and version', () => {
  it.each([['--help'], ['-h'], ['help']])('%s prints help with the exit codes on stdout, exit 0', async (flag) => {
    const io = makeIo();
    expect(await main([flag], io, fakeRun())).toBe(0);
    expect(io.stdout.text).toContain('Usage:');
    expect(io.stdout.text).toContain('retrieve');
    expect(io.stdout.text).toMatch(/Exit codes:[\s\S]*130/);
    expect(io.stderr.text).toBe('');
  });

  it.each([['--version'], ['-v']])('%s prints the package version', async (flag) => {
    const io = makeIo();
    expect(await main([flag], io, fakeRun())).toBe(0);
    expect(io.stdout.text).toBe(`${version}\n`);
  });

  it('no arguments: help on stderr, exit 2, stdout empty', async () => {
    const io = makeIo();
    expect(await main([], io, fakeRun())).toBe(2);
    expect(io.stdout.text).toBe('');
    expect(io.stderr.text).toContain('Usage:');
  });

  it('retrieve --help and help retrieve print the flags, even next to a bad flag', async () => {
    // -h among short flags run together asks for help too (`-hq` ran the command)
    for (const argv of [['retrieve', '--help'], ['help', 'retrieve'], ['retrieve', '--bogus', '-h'], ['retrieve', '--task', 't', '-hq'], ['retrieve', '--task', 't', '-qh']]) {
      const io = makeIo();
      expect(await main(argv, io, fakeRun())).toBe(0);
      expect(io.stdout.text).toContain('--max-cycles N');
    }
  });

  it('trace -qh prints its help, and no run starts', async () => {
    const run = fakeRun();
    const io = makeIo();
    expect(await main(['trace', '--symbol', 'x', '-qh'], io, run)).toBe(0);
    expect(io.stdout.text).toContain('ctxloop trace: the call chains');
    expect(run.calls).toHaveLength(0);
  });

  it('an unknown command is a usage error', async () => {
    const io = makeIo();
    expect(await main(['retreive'], io, fakeRun())).toBe(2);
    expect(io.stderr.text).toBe('ctxloop: unknown command "retreive", did you mean retrieve? (see ctxloop --help)\n');
  });
});

describe('main: the options passed to retrieve()', () => {
  it('resolves paths against io.cwd and passes repeatable flags as arrays', async () => {
    const run = fakeRun();
    const argv = ['retrieve', '--task', 't', '--root', 'sub', '--scope', 'src', '--scope', 'lib', '--include', '*.ts', '--exclude', 'dist/**', '--exclude', '*.min.js', '--max-cycles', '2', '--threshold', '0.6', '--budget', '4000', '--provider', 'offline', '--model', 'm', '--cache', '.c', '--with-content', '--agents-dir', 'a', '--prompts-dir', '/abs/p'];
    expect(await main(argv, makeIo({ cwd: '/home/me' }), run)).toBe(0);
    const { options } = run.calls[0]!;
    expect(options).toMatchObject({
      root: '/home/me/sub',
      scope: ['src', 'lib'],
      include: ['*.ts'],
      exclude: ['dist/**', '*.min.js'],
      maxCycles: 2,
      threshold: 0.6,
      budget: 4000,
      provider: 'offline',
      model: 'm',
      cache: join('/home/me', '.c'),
      withContent: true,
      agentsDir: '/home/me/a',
      promptsDir: '/abs/p',
    });
    expect(typeof options.onProgress).toBe('function');
    expect(typeof options.logger?.info).toBe('function');
  });

  it('defaults root to cwd, sets nothing that was not given (but content for the md pack, and the environment), and --no-cache is cache: false', async () => {
    const run = fakeRun();
    const io = makeIo({ cwd: '/r' });
    await main(['retrieve', '--task', 't'], io, run);
    expect(Object.keys(run.calls[0]!.options).sort()).toEqual(['env', 'logger', 'onProgress', 'root', 'withContent']);
    // the caller's environment, not the process's: `ctxloop serve` runs commands with its clients'
    expect(run.calls[0]!.options.env).toBe(io.env);
    await main(['retrieve', '--task', 't', '--json'], makeIo({ cwd: '/r' }), run);
    expect(Object.keys(run.calls[1]!.options).sort()).toEqual(['env', 'logger', 'onProgress', 'root']);
    expect(run.calls[0]!.options.root).toBe('/r');
    await main(['retrieve', '--task', 't', '--no-cache'], makeIo(), run);
    expect(run.calls[2]!.options.cache).toBe(false);
  });
});
