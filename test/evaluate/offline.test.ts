import { describe, expect, it } from 'vitest';
import type { Candidate, FileFacts, SearchStats } from '../../src/core/types.js';
import { isPairTerm, termsWithPairs, tokenize } from '../../src/core/text.js';
import { computeFeatures, idfOf } from '../../src/evaluate/offline/features.js';
import { findMissing } from '../../src/evaluate/offline/gaps.js';
import { scoreOffline } from '../../src/evaluate/offline/index.js';
import { nearStrongFiles } from '../../src/evaluate/offline/cluster.js';
import type { Score } from '../../src/core/types.js';
import type { Features } from '../../src/evaluate/offline/features.js';
import { planQuery } from '../../src/refine/plan.js';

/** A candidate as dispatch would build it from the file's lines. */
function candidate(path: string, lines: string[], extra: Partial<Candidate> = {}): Candidate {
  const termFreq: Record<string, number> = {};
  for (const line of lines) for (const t of tokenize(line)) termFreq[t] = (Object.hasOwn(termFreq, t) ? termFreq[t]! : 0) + 1;
  return {
    path,
    size: lines.join('\n').length,
    termFreq,
    literals: [],
    symbols: [],
    mentions: [],
    hits: lines.map((text, i) => ({ line: i + 1, text, terms: tokenize(text) })),
    sources: ['content'],
    ...extra,
  };
}

function statsFor(candidates: Candidate[], totalFiles = 200): SearchStats {
  const docFreq: Record<string, number> = {};
  for (const c of candidates) for (const t of Object.keys(c.termFreq)) docFreq[t] = (Object.hasOwn(docFreq, t) ? docFreq[t]! : 0) + 1;
  const avgSize = candidates.reduce((s, c) => s + c.size, 0) / candidates.length;
  return { totalFiles, avgSize, docFreq, skipped: {} };
}

/** The candidates scored for the task, best first; `files` is the repository's listing (by default the candidates alone). */
function rank(task: string, candidates: Candidate[], { previous, files = candidates.map((c) => c.path) }: { previous?: Score[]; files?: string[] } = {}) {
  const plan = planQuery(task);
  for (const c of candidates) c.symbols = plan.symbols.filter((s) => c.hits.some((h) => h.text.includes(s)));
  const scores = scoreOffline({ task, plan, query: plan, candidates, facts: new Map(), stats: statsFor(candidates), files, ...(previous ? { previous } : {}) });
  return scores.sort((a, b) => b.relevance - a.relevance || (a.path < b.path ? -1 : 1));
}

describe('offline evaluator', () => {
  it('ranks the file that defines a named symbol above the files that only call it', () => {
    const callers = ['a', 'b', 'c', 'd'].map((n) =>
      candidate(`src/routes/${n}.ts`, [`import { verifyEmail } from '../auth/verify';`, `await verifyEmail(user);`, `if (!verifyEmail(x)) return;`, `verifyEmail(admin)`]),
    );
    const definer = candidate('src/auth/verify.ts', ['export async function verifyEmail(user: User) {', '  return check(user.email);', '}']);
    const ranked = rank('Where is verifyEmail implemented?', [...callers, definer]);
    expect(ranked[0]!.path).toBe('src/auth/verify.ts');
    expect(ranked[0]!.reason).toContain('defines verifyEmail');
  });

  it('takes no definition from a line of prose or of a text format it does not know, and still from code and config', () => {
    const plan = planQuery('verticalMultilineAtDefinitionSite affects classes, not only defs');
    const line = ['verticalMultilineAtDefinitionSite = true'];
    const definesIn = (path: string): string[] => {
      const c = candidate(path, line, { symbols: plan.symbols });
      return computeFeatures(c, { plan, query: plan, stats: statsFor([c]), facts: new Map(), literalCounts: new Map(), mentionCounts: new Map() }).defines;
    };
    // a formatter's test case, a templated changelog, a manual: they quote the option, never define it
    expect(definesIn('core/src/test/resources/test/VerticalMultiline.stat')).toEqual([]);
    expect(definesIn('readme/Changelog05.scalatex')).toEqual([]);
    expect(definesIn('docs/configuration.md')).toEqual([]);
    // source, a config format and a script without an extension do
    expect(definesIn('core/src/main/scala/org/scalafmt/config/ScalafmtConfig.scala')).toEqual(['verticalMultilineAtDefinitionSite']);
    expect(definesIn('conf/default.properties')).toEqual(['verticalMultilineAtDefinitionSite']);
    expect(definesIn('bin/setup')).toEqual(['verticalMultilineAtDefinitionSite']);
    // a language it does not know, where the source lives
    expect(definesIn('src/contracts/Options.sol')).toEqual(['verticalMultilineAtDefinitionSite']);
  });

  it('still asks where a called symbol is defined when only a fixture of an unknown format assigns it', () => {
    const plan = planQuery('queueMail drops the retry count');
    const caller: FileFacts = { path: 'src/signup.ts', hash: 'x', language: 'typescript', lines: 3, defs: [], imports: [], calls: ['queueMail'], parser: 'patterns' };
    const pool = (path: string) => new Map([[path, candidate(path, ['queueMail = { retries: 3 }'], { symbols: ['queueMail'] })]]);
    expect(findMissing(caller, plan, pool('test/fixtures/mail.snapshot-v2'), new Map(), [], true)).toEqual(['symbol:queueMail']);
    expect(findMissing(caller, plan, pool('src/mail/queue.ts'), new Map(), [], true)).toEqual([]);
  });

  it('ranks the file that joins the title\'s two words into one name above one holding them apart, and takes nothing from the latter', () => {
    const withPairs = (c: Candidate): Candidate => {
      for (const h of c.hits) for (const p of termsWithPairs(h.text).filter(isPairTerm)) c.termFreq[p] = (Object.hasOwn(c.termFreq, p) ? c.termFreq[p]! : 0) + 1;
      return c;
    };
    const task = 'Read response even if failed sending request headers';
    const apart = withPairs(candidate('src/Exchange.kt', ['fun read(sink: Buffer) = response.headers', 'if (failed) request.send()', 'val headers = response.headers', 'sending(request)']));
    const joined = withPairs(candidate('src/Http1Codec.kt', ['override fun readResponseHeaders(expectContinue: Boolean): Response.Builder', 'fun writeRequestHeaders(request: Request) {']));
    const ranked = rank(task, [apart, joined]);
    expect(ranked.map((s) => s.path)).toEqual(['src/Http1Codec.kt', 'src/Exchange.kt']);
    // the pairs count where found and are never missing: the file holding every word apart covers the whole task
    const plan = planQuery(task);
    const ctx = { plan, query: plan, stats: statsFor([apart, joined]), facts: new Map(), literalCounts: new Map(), mentionCounts: new Map() };
    expect(computeFeatures(apart, ctx).coverage).toBeCloseTo(1, 5);
    expect(computeFeatures(joined, ctx).matched).toContain('read respons');
    // and it is no word of the task's own: coverage stays a share of them
    const named = withPairs(candidate('src/ReadResponse.kt', ['class ReadResponse']));
    expect(computeFeatures(named, { ...ctx, stats: statsFor([apart, joined, named]) }).coverage).toBeLessThanOrEqual(1);
    expect(computeFeatures(joined, ctx).coverage).toBeLessThanOrEqual(1);
    // rare as a pair is (one file of 200), it weighs no more than its commoner word (in 150)
    const stats = { totalFiles: 200, avgSize: 100, docFreq: { read: 150, respons: 40, 'read respons': 1 }, skipped: {} };
    const lone: Candidate = { ...candidate('src/Lone.kt', ['x']), termFreq: { 'read respons': 1 }, size: 100 };
    const lexical = computeFeatures(lone, { ...ctx, stats }).lexical;
    const weight = plan.weights['read respons']!;
    expect(lexical).toBeCloseTo(weight * idfOf('read', stats), 5);
    expect(lexical).toBeLessThan(weight * idfOf('read respons', stats));
  });

  it('ranks a file named by path in a stack trace first', () => {
    const named = candidate('lib/router/layer.js', ['Layer.prototype.handle = function handle(req, res, next) {'], { mentions: ['srv/app/lib/router/layer.js'], sources: ['mention', 'content'] });
    const other = candidate('lib/application.js', ['app.handle = function handle(req, res, callback) {', 'router.handle(req, res, done);', 'handle error request']);
    const ranked = rank('TypeError in handle\n    at Layer.handle (/srv/app/lib/router/layer.js:95:5)', [other, named]);
    expect(ranked[0]!.path).toBe('lib/router/layer.js');
  });

  it('demotes docs and tests below source with the same words', () => {
    const lines = ['def parse_timestamp(value):', '    """Parse a timestamp with timezone offset."""', '    return parse(value, offset)'];
    const ranked = rank('parse_timestamp ignores the timezone offset', [
      candidate('docs/usage.md', [...lines, 'parse_timestamp timezone offset parse_timestamp']),
      candidate('tests/test_time.py', [...lines, 'parse_timestamp(timezone offset)']),
      candidate('src/pkg/time.py', lines),
    ]);
    expect(ranked[0]!.path).toBe('src/pkg/time.py');
  });

  it('ranks hand-written declarations below the code they describe and above docs and generated files', () => {
    const lines = ['export interface AxiosHeaders {', '  set(headerName: string, value: AxiosHeaderValue): AxiosHeaders;', '  getSetCookie(): string[];', '}'];
    const ranked = rank('AxiosHeaders getSetCookie returns a string, not an array', [
      candidate('docs/headers.md', lines),
      candidate('dist/index.d.ts', lines),
      candidate('index.d.ts', lines),
      candidate('lib/core/AxiosHeaders.js', lines),
    ]);
    expect(ranked.map((s) => s.path).slice(0, 2)).toEqual(['lib/core/AxiosHeaders.js', 'index.d.ts']);
    expect(ranked[1]!.relevance).toBeGreaterThan(ranked[2]!.relevance);
  });

  it('ranks a file that only re-exports (a barrel) below the file it points at, on the same words', () => {
    // the short barrel won on length alone: `export { handle } from './handler'` names the directory's words too
    const task = 'AWS Lambda adapter drops the second cookie';
    const plan = planQuery(task);
    const barrel = candidate('src/adapter/aws-lambda/index.ts', ["export { handle } from './handler'", "export type { LambdaContext } from './types'"]);
    const handler = candidate('src/adapter/aws-lambda/handler.ts', ['export const handle = (app) => async (event) => {', '  return toResult(await app.fetch(toRequest(event)))', '}']);
    const facts = new Map([
      [barrel.path, { path: barrel.path, hash: 'a', language: 'typescript', lines: 2, defs: [], imports: ['./handler', './types'], calls: [] }],
      [handler.path, { path: handler.path, hash: 'b', language: 'typescript', lines: 3, defs: [{ name: 'handle', kind: 'function' as const, start: 1, end: 3, qualified: 'handle' }], imports: [], calls: ['fetch'] }],
    ]);
    const candidates = [barrel, handler];
    const score = (withFacts: boolean) =>
      scoreOffline({ task, plan, query: plan, candidates, facts: withFacts ? facts : new Map(), stats: statsFor(candidates), files: candidates.map((c) => c.path) }).sort((a, b) => b.relevance - a.relevance)[0]!.path;
    expect(score(false)).toBe(barrel.path); // read as words alone, the barrel leads
    expect(score(true)).toBe(handler.path);
  });

  it('ranks the file a facade hands a named function to above the facade, on the same words', () => {
    // Ecto's `Repo.get_by` is defined in the facade `repo.ex`, whose body calls `Queryable.get_by`
    const task = 'Add support for clauses with nil values in `Repo.get_by/2`';
    const facade = candidate('lib/ecto/repo.ex', [
      '  Fetches a single result from the query built from the clauses, nil when none.',
      '      def get_by(queryable, clauses, opts \\\\ []) do',
      '        Ecto.Repo.Queryable.get_by(__MODULE__, @adapter, queryable, clauses, opts)',
      '      end',
      '  Repo get_by clauses nil values: see the repo documentation',
    ]);
    const implementation = candidate('lib/ecto/repo/queryable.ex', ['  def get_by(name, adapter, queryable, clauses, opts) do', '    one(name, adapter, query_for_get_by(queryable, clauses), opts)', '  end']);
    const other = candidate('lib/ecto/association.ex', ['  def get_by(assoc, key) do', '    Map.get(assoc, key)', '  end']);
    expect(rank(task, [facade, implementation, other]).map((s) => s.path).slice(0, 2)).toEqual([implementation.path, facade.path]);
    // the same body calling the function on its parent class (even with a file named `base`), or on something no candidate is named after, keeps the facade first
    const base = candidate('lib/ecto/base.ex', ['  def get_by(queryable, key) do', '    Map.get(queryable, key)', '  end']);
    for (const receiver of ['base', 'Enum']) {
      const own = candidate(facade.path, facade.hits.map((h) => h.text.replace('Ecto.Repo.Queryable.get_by', `${receiver}.get_by`)));
      expect(rank(task, [own, implementation, other, base])[0]!.path).toBe(facade.path);
    }
  });

  it('ranks the class a named factory only builds above the factory, and not when it builds an error or one of several classes', () => {
    // twitter/util's `Reader.fromFuture` is a one-line factory: the behaviour lives in `FutureReader`
    const task = 'Fix bug in `Reader.fromFuture`: duplicate calls to read race against the internal state of the reader';
    const factory = (body: string) =>
      candidate('util-core/src/main/scala/com/twitter/io/Reader.scala', ['  /** A reader of the future value, read once. */', `  def fromFuture[A](fa: Future[A]): Reader[A] = ${body}`, '  def read(): Future[Option[A]]', '  // duplicate read calls']);
    const built = candidate('util-core/src/main/scala/com/twitter/io/FutureReader.scala', ['private[io] final class FutureReader[A](fa: Future[A]) extends Reader[A] {', '  def read(): Future[Option[A]] = state match {', '    case Idle => fa.map(Some(_))', '  }']);
    const other = candidate('util-core/src/main/scala/com/twitter/io/Pipe.scala', ['final class Pipe[A] extends Reader[A] {', '  def read(): Future[Option[A]] = ???', '}']);
    const topOf = (body: string, ...more: Candidate[]) => rank(task, [factory(body), built, other, ...more])[0]!.path;
    expect(topOf('new FutureReader(fa)')).toBe(built.path);
    // Kotlin, Scala 3 and Python build without `new`; Ruby with `.new`
    expect(topOf('FutureReader(fa)')).toBe(built.path);
    expect(topOf('FutureReader.new(fa)')).toBe(built.path);
    // an error thrown, or a choice between two classes, hands the task to no one
    const error = candidate('util-core/src/main/scala/com/twitter/io/FutureReaderException.scala', ['class FutureReaderException extends Exception']);
    expect(topOf('throw new FutureReaderException()', error)).toBe(factory('').path);
    expect(topOf('if (fa.isDefined) new FutureReader(fa) else new Pipe()')).toBe(factory('').path);
  });

  it('ranks code bundled from another project (its own licence, no manifest) below the project\'s own, on the same words', () => {
    const lines = ['static int decNumberToString(decNumber *dn, char *string) {', '  /* format the number as a string */', '  return decToString(dn, string);', '}'];
    const own = candidate('src/jv_dtoa.c', lines);
    const bundled = candidate('src/decNumber/decNumber.c', lines);
    const task = 'printing a large number as a string loses digits';
    const candidates = [bundled, own];
    const top = (files: string[]) => rank(task, candidates, { files })[0]!.path;
    const others = Array.from({ length: 20 }, (_, i) => `src/f${i}.c`);
    // the same words and length: without the licence, the directory's name (`number`) puts the bundled copy first
    expect(top([...candidates.map((c) => c.path), ...others])).toBe(bundled.path);
    expect(top([...candidates.map((c) => c.path), ...others, 'src/decNumber/ICU-license.html'])).toBe(own.path);
  });

  it('ranks the maintenance scripts (a small top-level scripts/ or tools/) below the project\'s code, on the same words', () => {
    const lines = ['def integration_spans(client, transaction):', '    # start a span for every integration call', '    return client.start_span(transaction)', ''];
    const own = candidate('sentry_sdk/integrations/spans.py', lines);
    const script = candidate('scripts/integration_spans.py', lines);
    const task = 'integration spans are not started for every call of the client';
    const candidates = [script, own];
    const top = (files: string[]) => rank(task, candidates, { files })[0]!.path;
    const code = (n: number, dir: string) => Array.from({ length: n }, (_, i) => `${dir}/f${i}.py`);
    // the same words: the script's name holds two of them, and puts it first when it is no script (its directory holds much of the repository)
    expect(top([...candidates.map((c) => c.path), ...code(2, 'scripts'), ...code(4, 'sentry_sdk')])).toBe(script.path);
    expect(top([...candidates.map((c) => c.path), ...code(2, 'scripts'), ...code(40, 'sentry_sdk')])).toBe(own.path);
  });

  it('ranks the issue form a task was filed through below any code, and never packs it', () => {
    // the form's prompts are the task's headings: every word of the scaffolding matches it
    const form = candidate('.github/ISSUE_TEMPLATE/bug_report.md', [
      '#### Describe the bug', 'A clear and concise description of what the bug is.', '#### To Reproduce', 'Code snippet to reproduce the headers bug',
      '#### Expected behavior', '#### Environment', ' - Axios Version [e.g. 0.18.0]', ' - Adapter [e.g. XHR/HTTP]', ' - Browser [e.g. Chrome, Safari]', ' - Node.js Version [e.g. 13.0.1]',
    ]);
    // the code shares one word with the task
    const code = candidate('lib/core/AxiosHeaders.js', ['function set(header, valueOrRewrite) {', '  return normalize(header);', '}']);
    // and code that shares a word or two
    const weak = candidate('lib/helpers/combineURLs.js', ['function combine(base, relative) {', '  return relative ? base + relative : base; // an empty value keeps the base', '}']);
    const ranked = rank(
      '#### Describe the bug\nSetting a header to an empty value throws.\n#### To Reproduce\naxios.get(url, { headers: { Accept: "" } })\n#### Expected behavior\nThe header is sent empty.\n#### Environment\n - Axios Version 1.1.3\n - Adapter HTTP\n - Browser Chrome\n - Node.js Version 18.12',
      [form, code, weak],
    );
    expect(ranked.map((s) => s.path)).toEqual(['lib/core/AxiosHeaders.js', 'lib/helpers/combineURLs.js', '.github/ISSUE_TEMPLATE/bug_report.md']);
    expect(ranked[2]!.relevance).toBeLessThan(0.7);
    expect(ranked[2]!.reason).toContain('an issue or pull-request form');
  });

  it('ranks the original above a mirrored copy of it, whatever their paths sort as', () => {
    const lines = ['export class ZodString {', '  date() { return this._addCheck({ kind: "date" }); }', '}'];
    const other = candidate('src/helpers/util.ts', ['export const util = { date: 1 };']);
    const ranked = rank('add `ZodString.date()`', [candidate('deno/lib/types.ts', lines), candidate('src/types.ts', lines), other]);
    expect(ranked[0]!.path).toBe('src/types.ts');
    expect(ranked.findIndex((s) => s.path === 'deno/lib/types.ts')).toBeGreaterThan(0);
    expect(ranked.find((s) => s.path === 'deno/lib/types.ts')!.relevance).toBeLessThan(0.7);
  });

  it('ranks a file in the place the title\'s scope names above an equal match elsewhere, and says so', () => {
    const lines = ['export function handlePing(request) {', '  return respond(request, 200);', '}'];
    const elsewhere = candidate('src/sys/ping.ts', [...lines, 'const ping = createPing();', 'const devServer = startDevServer(ping);']);
    const scoped = candidate('src/dev-server/requests.ts', lines);
    const task = 'feat(dev-server): add a ping route\n\nThe handler returns 200 to a ping once the build is done.';
    const ranked = rank(task, [elsewhere, scoped]);
    expect(ranked[0]!.path).toBe('src/dev-server/requests.ts');
    expect(ranked[0]!.reason).toContain("in the title's scope");
    // the same words in the title's prose: the file with more of them first
    expect(rank('Dev server: add a ping route\n\nThe handler returns 200 to a ping once the build is done.', [elsewhere, scoped])[0]!.path).toBe('src/sys/ping.ts');
  });

  it('keeps scores in 0–1 and packs nothing when only prose words match weakly', () => {
    const ranked = rank('the colour of the login button looks wrong on hover', [
      candidate('src/util/strings.ts', ['// wrong colour', 'export const pad = 1;']),
      candidate('src/util/math.ts', ['export function clamp(x) { return x; }']),
    ]);
    for (const s of ranked) {
      expect(s.relevance).toBeGreaterThanOrEqual(0);
      expect(s.relevance).toBeLessThanOrEqual(1);
    }
    expect(ranked.filter((s) => s.relevance >= 0.7)).toHaveLength(0);
  });

  it('gives the same scores whatever the candidate order', () => {
    const make = () => [
      candidate('b.py', ['def load_config(path):', '    return read(path)']),
      candidate('a.py', ['def load_config(path):', '    return read(path)']),
      candidate('c.py', ['config = load_config("x")']),
    ];
    const forward = rank('load_config fails on missing path', make());
    const backward = rank('load_config fails on missing path', make().reverse());
    expect(backward.map((s) => [s.path, s.relevance])).toEqual(forward.map((s) => [s.path, s.relevance]));
  });
});

describe('offline evaluator in later cycles', () => {
  const verdict = (path: string, relevance: number): Score => ({ path, relevance, reason: '', missing: [], evidence: [] });
  // Two files with the same words: one beside the files the last cycle found strong, one far from them.
  const make = () => [
    candidate('lib/legacy/retry.js', ['// token refresh retries the session', 'refreshSession(token)']),
    candidate('src/auth/session.js', ['// token refresh retries the session', 'refreshSession(token)']),
    candidate('src/auth/token.js', ['export function parseToken(raw) {}', 'token session']),
    candidate('src/auth/cookies.js', ['export function readCookie(req) {}', 'session token']),
  ];
  const task = 'the token refresh never retries when the session expires';

  it('ranks a file near the previous cycle\'s strong files above an equal match far from them', () => {
    const first = rank(task, make());
    // The first cycle has nothing to go on: the tie goes by path.
    expect(first[0]!.path).toBe('lib/legacy/retry.js');
    const previous = [verdict('src/auth/token.js', 0.9), verdict('src/auth/cookies.js', 0.8), verdict('lib/legacy/retry.js', 0.6)];
    const later = rank(task, make(), { previous });
    expect(later[0]!.path).toBe('src/auth/session.js');
    expect(later[0]!.relevance).toBeGreaterThan(later.find((s) => s.path === 'lib/legacy/retry.js')!.relevance);
  });

  it('measures nearness by shared leading directories, weighted by relevance, never a file\'s own vote', () => {
    const previous = [verdict('src/a/x.ts', 1), verdict('lib/y.ts', 1)];
    const [own, sibling, cousin, root, far] = nearStrongFiles(['src/a/x.ts', 'src/a/z.ts', 'src/b/z.ts', 'z.ts', 'docs/z.md'], previous);
    expect(own).toBe(0); // x.ts is the only strong file under src/, and it does not vote for itself
    expect(sibling).toBeCloseTo(0.5); // all of x.ts's vote, none of y.ts's
    expect(cousin).toBeCloseTo(0.25); // half of x.ts's: one of two directories shared
    expect(root).toBe(0);
    expect(far).toBe(0);
    expect(nearStrongFiles(['a.ts'], [])).toEqual([0]);
    expect(nearStrongFiles(['a.ts'], [verdict('b.ts', 0)])).toEqual([0]);
  });
});

describe('offline evaluator on hostile words', () => {
  it('scores terms that are Object.prototype names (constructor) like any other word', () => {
    const ranked = rank('the constructor of AxiosError drops the cause', [
      candidate('lib/core/AxiosError.js', ['function AxiosError(message, code, config, request, response) {', '  this.constructor = AxiosError;', '  this.cause = cause;']),
      candidate('lib/utils.js', ['const toString = Object.prototype.toString;']),
    ]);
    for (const s of ranked) expect(Number.isFinite(s.relevance)).toBe(true);
    expect(ranked[0]!.path).toBe('lib/core/AxiosError.js');
    expect(ranked[0]!.relevance).toBeGreaterThan(0.7);
  });
});

describe('calibrate', () => {
  it('is as sure as the surer of the first two files: a file of less coverage put first (a demoted barrel, a re-ranked neighbour) no longer leaves a sure head unpacked', async () => {
    const { calibrate } = await import('../../src/evaluate/offline/combine.js');
    const words = (coverage: number): Features => ({ kind: 'code', lexical: 1, coverage, defines: [], mention: 0, literal: 0, matched: [], definitionLines: [], barrel: false, bundled: false, scope: 0, commit: 0 });
    // raw scores put the 0.3-coverage file first; the 0.5-coverage one is a close second
    const [first, second, third] = calibrate([10, 9.5, 1], [words(0.3), words(0.5), words(0.9)]);
    expect(first).toBeGreaterThanOrEqual(0.7); // 0.35 + 0.9 × 0.5 = 0.8, not 0.35 + 0.9 × 0.3 = 0.62
    expect(second).toBeGreaterThanOrEqual(0.7);
    // the third does not count: on unrelated tasks it packed files that had nothing to do with them
    expect(third!).toBeLessThan(0.7);
    expect(calibrate([10, 9.5, 9], [words(0.3), words(0.3), words(0.9)])[0]).toBeLessThan(0.7);
  });

  it('takes the definition of a code-like name as proof only when few candidates define it', async () => {
    const { calibrate } = await import('../../src/evaluate/offline/combine.js');
    const defining = (coverage: number): Features => ({ kind: 'code', lexical: 1, coverage, defines: ['jQuery'], mention: 0, literal: 0, matched: [], definitionLines: [], barrel: false, bundled: false, scope: 0, commit: 0 });
    const plain: Features = { ...defining(0.1), defines: [] };
    // one definer among words: sure
    expect(calibrate([10, 5, 4, 3], [defining(0.1), plain, plain, plain])[0]).toBeGreaterThanOrEqual(0.9);
    // every module extends jQuery: a definer first proves no more than a file sharing a tenth of
    // the task's words (0.5 + 0.9 × 0.1), and nothing is packed
    const all = calibrate([10, 5, 4, 3], [defining(0.1), defining(0.1), defining(0.1), defining(0.1)]);
    expect(Math.max(...all)).toBeLessThan(0.7);
  });
});
