/**
 * Planted credentials, in code, configuration, key blocks and secret files, must reach neither a
 * model (real SDK clients against the stub server) nor stdout (the built binary, JSON and
 * Markdown packs with region contents).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retrieve } from '../../src/orchestrator/loop.js';
import { makeRepo, type TempRepo } from '../helpers/make-repo.js';
import { autoReply, startStubLlm, type StubLlm } from '../helpers/stub-llm.js';
import { leaksIn, PLANTED, PLANTED_TASK, plantedRepo } from './planted.js';

const BIN = resolve(__dirname, '../../dist/cli/bin.js');

function run(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(ANTHROPIC|OPENAI|CTXLOOP)_/.test(k)));
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...clean, NO_COLOR: '1', ...env }, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

let repo: TempRepo;
let stub: StubLlm;
beforeAll(async () => {
  repo = plantedRepo();
  stub = await startStubLlm(autoReply(() => 0.9));
});
afterAll(async () => {
  await stub.close();
  repo.cleanup();
});

describe('planted secrets', () => {
  it.each([
    ['openai', () => ({ OPENAI_BASE_URL: stub.openaiURL, OPENAI_API_KEY: 'x' })],
    ['anthropic', () => ({ ANTHROPIC_BASE_URL: stub.url, ANTHROPIC_API_KEY: 'x' })],
  ])('never reach the %s stub, whose prompts still carry the files around them', async (_name, env) => {
    const before = stub.requests.length;
    const result = await retrieve(PLANTED_TASK, { root: repo.root, cache: false, maxRetries: 0, env: env(), withContent: true });
    const sent = stub.requests.slice(before);
    expect(sent.length).toBeGreaterThan(0);
    for (const request of sent) expect(leaksIn(request.raw), request.prompt.slice(0, 200)).toEqual([]);
    // the files with secrets in them were shown (masked), not merely left out
    const evaluated = sent.filter((r) => r.schemaName === 'report_scores').map((r) => r.prompt).join('\n');
    for (const path of ['src/db/connect.ts', 'src/keys/sign.go', 'config/settings.yml']) expect(evaluated).toContain(`## ${path}`);
    expect(evaluated).toContain('[REDACTED]');
    expect(leaksIn(JSON.stringify(result))).toEqual([]);
  });

  it('secret files are never candidates', async () => {
    const result = await retrieve(PLANTED_TASK, { root: repo.root, cache: false, provider: 'offline', threshold: 0 });
    const seen = [...result.files, ...result.candidates].map((f) => f.path);
    expect(seen).toContain('src/db/connect.ts');
    for (const path of ['.env.production', 'config/credentials.json', 'certs/server.key']) expect(seen).not.toContain(path);
  });
});

describe.runIf(existsSync(BIN))('planted secrets on stdout', () => {
  it.each<[string, string[], boolean]>([
    ['--json', ['--json'], false],
    ['--format md', ['--format', 'md'], false],
    ['--json with a model', ['--json'], true],
    ['--format md with a model', ['--format', 'md'], true],
  ])('are masked in the pack printed with %s --with-content', async (_label, format, withModel) => {
    const env: Record<string, string> = withModel ? { OPENAI_BASE_URL: stub.openaiURL, OPENAI_API_KEY: 'x' } : {};
    const r = await run(['retrieve', '--root', repo.root, '--task', PLANTED_TASK, '--with-content', '--no-cache', '--threshold', '0', '--budget', '20000', ...format], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('src/db/connect.ts');
    expect(r.stdout).toContain('[REDACTED]');
    expect(leaksIn(r.stdout)).toEqual([]);
    expect(leaksIn(r.stderr)).toEqual([]);
  });
});

describe.runIf(existsSync(BIN))('secrets pasted into the task', () => {
  it('are masked in the --verbose plan and trace on stderr, as in the result', async () => {
    const task = `connectDatabase fails with token ${PLANTED.githubToken} and key "${PLANTED.awsKeyId}", called as connectDatabase('${PLANTED.stripeKey}')`;
    const r = await run(['retrieve', '--root', repo.root, '--task', task, '--no-cache', '--verbose', '--json'], {});
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('plan:');
    expect(leaksIn(r.stderr)).toEqual([]);
    expect(leaksIn(r.stdout)).toEqual([]);
    // nor the lowercase keywords cut from them (`ghpplanted…`, `planted0123456789`)
    for (const out of [r.stderr, r.stdout]) expect(out.toLowerCase()).not.toMatch(/planted0123456789|akiaplanted|plantedstripe/);
    // the rest of the task is still searched and shown
    expect(r.stderr).toContain('connectDatabase');
    expect(JSON.parse(r.stdout).files.map((f: { path: string }) => f.path)).toContain('src/db/connect.ts');
  });

  it('a secret recognised only by its context is hidden wherever a query item holds it', async () => {
    const { createShownRedactor } = await import('../../src/core/redact-query.js');
    const shown = createShownRedactor('login fails: password = "Hunter2Planted" in settings, see loginUser');
    const query = shown.query({ keywords: ['hunter2planted', 'hunter2', 'login', 'loginuser'], symbols: ['Hunter2Planted', 'loginUser'], literals: ['Hunter2Planted'] });
    expect(query.keywords).toEqual(['login', 'loginuser']);
    expect(query.symbols).toEqual(['[REDACTED]', 'loginUser']);
    expect(query.literals).toEqual(['[REDACTED]']);
    expect(shown.text('where is Hunter2Planted defined? matches hunter2planted, login')).toBe('where is [REDACTED] defined? matches [REDACTED], login');
  });
});

describe('a secret in a pair term', () => {
  it('hides the title\'s pair that holds a secret word, its weight too, and never keeps it between runs', async () => {
    const { createShownRedactor } = await import('../../src/core/redact-query.js');
    const { planQuery } = await import('../../src/refine/plan.js');
    const task = 'Login broken since password: Swordfishsecret breaking login';
    const plan = planQuery(task);
    expect(plan.keywords).toContain('swordfishsecret break');
    const shown = createShownRedactor(task).query(plan);
    expect(shown.keywords.filter((k) => k.includes('swordfish'))).toEqual([]);
    expect(Object.keys(shown.weights).filter((k) => k.includes('swordfish'))).toEqual([]);
    expect(shown.keywords).toContain('login broken');
    expect(createShownRedactor(task).secretTerms(plan)).toContain('swordfishsecret break');
  });
});

/** Every file under `dir`, read as text. */
function readTree(dir: string): string {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
    .join('\n');
}

describe.runIf(existsSync(BIN))('a secret the task repeats, and quoted or unusual shapes in files', () => {
  const VALUE = 'Qz8vLm3xPw7k';
  const TASK = `deploy_backup login fails with password=${VALUE}; retrying with ${VALUE} gives the same error`;
  // sshpass, mysql, docker login and curl with quoted values, a Go MySQL DSN, a Kubernetes env entry
  const IN_FILES = ['Zx9pQ2mL7vB4', 'Qw8rTy6uIo4p', 'Lk3jHg5fDs7a', 'Mn2bVc4xZl9k', 'S3cr3tGoPass7', 'Kq7wZ3xL9vB2'];
  const leaks = (text: string): string[] => [VALUE, ...IN_FILES].filter((secret) => text.toLowerCase().includes(secret.toLowerCase()));
  let r: TempRepo;
  beforeAll(() => {
    r = makeRepo({
      'src/login.ts': 'export function login(password: string) {\n  return check(password);\n}\n',
      'scripts/deploy.sh': [
        'deploy_backup() {',
        "  sshpass -p 'Zx9pQ2mL7vB4' scp backup.sql host:/backups",
        "  mysql -u root -p'Qw8rTy6uIo4p' app < backup.sql",
        '  docker login -u me -p "Lk3jHg5fDs7a" registry.example.com',
        "  curl -u 'admin:Mn2bVc4xZl9k' https://api.example.com/backup",
        "  DSN='root:S3cr3tGoPass7@tcp(db:3306)/app' ./login",
        '}',
        '',
      ].join('\n'),
      'deploy/backup.yaml': 'metadata:\n  name: deploy_backup\nenv:\n  - name: DB_PASSWORD\n    value: Kq7wZ3xL9vB2\n',
    });
  });
  afterAll(() => r.cleanup());

  it('is nowhere in stdout, stderr or the cache, run after run (the second answered from the kept result)', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'ctxloop-repeat-'));
    try {
      for (let i = 0; i < 2; i++) {
        const out = await run(['retrieve', '--root', r.root, '--cache', cache, '--task', TASK, '--json', '--verbose', '--with-content', '--threshold', '0', '--budget', '20000'], {});
        expect(out.code).toBe(0);
        expect(leaks(out.stdout)).toEqual([]);
        expect(leaks(out.stderr)).toEqual([]);
        const result = JSON.parse(out.stdout);
        expect(result.task).toBe(`deploy_backup login fails with password=[REDACTED]; retrying with [REDACTED] gives the same error`);
        // the files holding the secrets were packed, masked
        const packed = result.files.map((f: { path: string }) => f.path);
        for (const path of ['scripts/deploy.sh', 'deploy/backup.yaml']) expect(packed).toContain(path);
        expect(out.stdout).toContain("sshpass -p '[REDACTED]'");
      }
      const stored = readTree(cache);
      expect(stored).toContain('k:login');
      expect(leaks(stored)).toEqual([]);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });

  it('reaches no model prompt: the planner, the evaluator, nor the refiner shown the query and its gaps', async () => {
    // files judged weak, so the loop goes on and the refiner is asked
    const weak = await startStubLlm(autoReply(() => 0.3));
    try {
      const out = await run(['retrieve', '--root', r.root, '--no-cache', '--task', TASK, '--json', '--max-cycles', '3'], { OPENAI_BASE_URL: weak.openaiURL, OPENAI_API_KEY: 'x' });
      expect(out.code).toBe(0);
      expect(weak.requests.map((q) => q.schemaName)).toContain('report_scores');
      expect(weak.requests.filter((q) => q.prompt.includes('<query>')).length).toBeGreaterThan(0);
      for (const request of weak.requests) expect(leaks(request.raw), request.prompt.slice(0, 300)).toEqual([]);
      expect(leaks(out.stdout)).toEqual([]);
    } finally {
      await weak.close();
    }
  });
});
