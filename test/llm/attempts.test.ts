/**
 * The per-attempt deadline under garbage collection: a child Node with `--expose-gc` collects
 * every 20 ms while a server stalls mid-body. The deadline must fire however often it collects
 * (an `AbortSignal.timeout` inside `AbortSignal.any` was collected, and the run waited on).
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ATTEMPTS = pathToFileURL(resolve('dist/llm/attempts.js')).href;

const CHILD = `
const { createServer } = await import('node:http');
const { providerFetch } = await import(${JSON.stringify(ATTEMPTS)});
const server = createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.write('{"id":"x","choices":['); });
await new Promise((done) => server.listen(0, '127.0.0.1', done));
const collect = setInterval(() => globalThis.gc(), 20);
const started = Date.now();
let outcome;
try {
  const caller = new AbortController(); // the SDK's own signal, as it passes one
  const response = await providerFetch(1500).fetch('http://127.0.0.1:' + server.address().port + '/v1/chat/completions', { method: 'POST', body: '{}', signal: caller.signal });
  await response.text();
  outcome = 'read';
} catch (error) {
  let e = error; while (e && e.name !== 'TimeoutError' && e.cause) e = e.cause;
  outcome = e?.name ?? String(error);
}
clearInterval(collect);
server.closeAllConnections(); server.close();
process.stdout.write(JSON.stringify({ outcome, ms: Date.now() - started }));
`;

describe('providerFetch', () => {
  it('ends a stalled body at its deadline however often the garbage collector runs', async () => {
    const out = await new Promise<string>((done, fail) =>
      execFile(process.execPath, ['--expose-gc', '--input-type=module', '-e', CHILD], { timeout: 20_000 }, (error, stdout) => (error ? fail(error) : done(stdout))),
    );
    const { outcome, ms } = JSON.parse(out) as { outcome: string; ms: number };
    expect(outcome).toBe('TimeoutError');
    expect(ms).toBeLessThan(8000);
  }, 30_000);
});
