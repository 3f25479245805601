import { cleanInput } from '../core/text.js';
import { createShownRedactor } from '../core/redact-query.js';
import { MAX_NAME_FILES, PROSE_KINDS, searchLeftOut } from '../callgraph/lookup.js';
import { enclosingDefinition } from '../callgraph/sites.js';
import { isDefinitionLine } from '../core/definitions.js';
import { fileKindOf } from '../core/files.js';
import { createFrameMapper } from '../core/frame-paths.js';
import { framesNearestFirst, parseStackTrace } from '../core/frames.js';
import { UsageError } from '../core/errors.js';
import { messageLiteral } from '../core/literals.js';
import { callerOptions, DEFAULTS, type LocateOptions } from '../core/options.js';
import type { Candidate, ErrorReport, LocatedFrame, LocateResult, ParsedTrace, Query } from '../core/types.js';
import { scoreSuspects, type Place } from '../locate/score.js';
import { prepareTool, type ToolDeps } from './tool-deps.js';

/** Frame functions searched for their definitions at most (nearest the error first). */
const MAX_SYMBOLS = 24;
const MAX_MESSAGES = 6;

/**
 * Where a bug probably is, from its error text (a stack trace, a panic, a sanitizer report, an
 * error message): the frames mapped to repository files (paths from other machines and
 * installed copies included), the definitions of the functions they name, the files holding the
 * message, and git history (recent and frequent change). Top `limit` suspects, each with a
 * confidence and a reason.
 * @example
 * const { candidates } = await locate(readFileSync('crash.log', 'utf8'), { root: '.' });
 */
export async function locate(errorText: string, options: LocateOptions = {}, deps: Partial<ToolDeps> = {}): Promise<LocateResult> {
  if (typeof errorText !== 'string') throw new UsageError('no_task', `the error text must be a string (got ${typeof errorText})`);
  options = callerOptions(options);
  const text = cleanInput(errorText).trim();
  if (!text) throw new UsageError('no_task', 'the error text is empty', { hint: 'pass --error FILE, or pipe the error text with --error -' });
  const historyDepth = options.historyDepth ?? DEFAULTS.historyDepth;
  if (!Number.isInteger(historyDepth) || historyDepth < 0 || historyDepth > 100_000) throw new UsageError('bad_option', `history depth must be a whole number from 0 to 100000 (got ${historyDepth})`);
  const limit = options.limit ?? DEFAULTS.locateLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > 50) throw new UsageError('bad_option', `limit must be a whole number from 1 to 50 (got ${limit})`);

  const { scope, deps: tool } = await prepareTool(options, deps);
  const { signal } = options;
  try {
    const parsed = parseStackTrace(text);
    const files = await tool.searcher.listFiles(scope, signal);
    const mapFrame = createFrameMapper(files, scope.root);
    const matches = parsed.frames.map((f) => (f.file && !f.runtime ? mapFrame(f.file) : undefined));
    const query = queryOf(parsed);
    // A secret pasted with the error is searched, never kept, and never shown in what the result echoes (its message, a reason quoting it).
    const shown = createShownRedactor(text);
    const [found, history] = await Promise.all([
      query.symbols.length + query.literals.length > 0 ? tool.searcher.search({ ...scope, query, maxCandidates: MAX_NAME_FILES, unsaved: shown.secretTerms(query) }, signal) : undefined,
      tool.history.read(scope.root, historyDepth, signal),
    ]);
    const definitions = new Map<string, Place[]>();
    const messages = new Map<string, Place[]>();
    const read = (candidates: readonly Candidate[], symbols: readonly string[], withMessages: boolean): void => {
      for (const candidate of candidates) {
        // Logs, fixtures and docs repeat messages (the error file itself may lie in the root): code raises them.
        if (PROSE_KINDS.has(fileKindOf(candidate.path))) continue;
        for (const hit of candidate.hits) {
          for (const term of hit.terms) {
            if (symbols.includes(term) && isDefinitionLine(hit.text, term)) push(definitions, term, { path: candidate.path, line: hit.line });
            if (withMessages && query.literals.includes(term) && !messages.get(term)?.some((p) => p.path === candidate.path)) push(messages, term, { path: candidate.path, line: hit.line });
          }
        }
      }
    };
    read(found?.candidates ?? [], query.symbols, true);
    // names defined nowhere the search kept: the files it left out, for definitions alone
    const undefinedNames = query.symbols.filter((name) => !definitions.has(name));
    if (found && undefinedNames.length > 0) read((await searchLeftOut(tool.searcher, { ...scope, query: { ...query, symbols: undefinedNames, literals: [] } }, found, signal)).candidates, undefinedNames, false);
    // History speaks only of files this run lists: not deleted ones, excluded or ignored ones,
    // links out of the root, nor another repository's (a `.git` file or link leading elsewhere).
    const listed = new Set(files);
    const known = history && { ...history, files: new Map([...history.files].filter(([path]) => listed.has(path))) };
    const candidates = scoreSuspects({ parsed, matches, definitions, messages, history: known }, limit);
    // The definition around each suspect's line, from the parsed file: the trace's own name can be a closure's or a frame's alias.
    const facts = await tool.facts.read(scope.root, candidates.filter((c) => c.line !== undefined).map((c) => c.path), signal);
    for (const candidate of candidates) {
      const fileFacts = facts.get(candidate.path);
      if (!fileFacts || candidate.line === undefined) continue;
      // a frame's line the file does not have (`:0`, past its end, 1e+23): the file stands, the line does not
      if (!Number.isInteger(candidate.line) || candidate.line < 1 || candidate.line > Math.max(fileFacts.lines, 1)) {
        // nor does the reason quote it: `(line 999, in parseQuery)` → `(in parseQuery)`
        candidate.reason = candidate.reason.replace(` (line ${candidate.line})`, '').replace(`(line ${candidate.line}, `, '(');
        delete candidate.line;
        continue;
      }
      const around = enclosingDefinition(candidate.path, fileFacts.defs, candidate.line, fileFacts.lines);
      if (around.kind !== 'module') candidate.symbol = around.symbol;
    }
    const error = parsed.errors.find((e) => e.trace === parsed.primary) ?? parsed.errors[0];
    tool.logger.debug(`locate: ${parsed.frames.length} frames, ${matches.filter(Boolean).length} in the repository, ${history?.commits ?? 0} commits of history`);
    return {
      root: scope.root,
      ...(error ? { error: shownError(error, shown.text) } : {}),
      frames: parsed.frames.map((frame, i): LocatedFrame => shownFrame(matches[i]?.paths.length === 1 ? { ...frame, path: matches[i].paths[0]! } : frame, shown.text)),
      candidates: candidates.map((c) => ({ ...c, reason: shown.text(c.reason), ...(c.symbol === undefined ? {} : { symbol: shown.text(c.symbol) }) })),
      historyCommits: history?.commits ?? 0,
    };
  } finally {
    await tool.cache.flush();
  }
}

/**
 * A frame as the result echoes it: what it quotes of the text (its file, its function as named
 * and as written) with the text's secrets masked, as everything else the result echoes. A
 * function named like a key (`at sk_live_… (src/db/users.ts:1:1)`) was searched for, and printed.
 */
function shownFrame(frame: LocatedFrame, shown: (line: string) => string): LocatedFrame {
  const out: LocatedFrame = { ...frame };
  if (frame.file !== undefined) out.file = shown(frame.file);
  if (frame.symbol !== undefined) out.symbol = shown(frame.symbol);
  if (frame.qualified !== undefined) out.qualified = shown(frame.qualified);
  return out;
}

function shownError(error: ErrorReport, shown: (line: string) => string): ErrorReport {
  return { ...error, message: shown(error.message), ...(error.type === undefined ? {} : { type: shown(error.type) }) };
}

/** One search for the frames' functions (to find their definitions) and the messages (to find where they are raised). */
function queryOf(parsed: ParsedTrace): Query {
  const symbols = [...new Set(framesNearestFirst(parsed).flatMap((f) => (f.symbol && !f.runtime ? [f.symbol] : [])))].slice(0, MAX_SYMBOLS);
  const literals = [...new Set(parsed.errors.flatMap((e) => messageLiteral(e.message) ?? []))].slice(0, MAX_MESSAGES);
  return { keywords: [], weights: {}, literals, symbols, paths: [], patterns: [], excludes: [], focusAreas: [] };
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
