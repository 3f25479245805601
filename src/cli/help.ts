import { readFile } from 'node:fs/promises';
import { DEFAULTS } from '../core/options.js';
import { EXIT_CODE_TABLE } from './exit-codes.js';

/** One line per subcommand, for the top-level help. Keep in step with `COMMANDS` in main.ts. */
export interface CommandSummary {
  name: string;
  summary: string;
}

const RETRIEVE_FLAG_HELP: ReadonlyArray<readonly [string, string]> = [
  ['--task TEXT', 'the task: an issue, a bug report, a feature request'],
  ['--task-file FILE', 'read the task from FILE ("-" = stdin); with neither, piped stdin is read'],
  ['--root [LABEL=]DIR', 'repository to search (default: the current directory); repeat for several, paths then read LABEL:path (LABEL defaults to the directory name)'],
  ['--format json|md|paths', 'output: the JSON contract, a Markdown context pack, or one path a line (default: md)'],
  ['--json', 'same as --format json'],
  ['--max-cycles N', `dispatch-evaluate-refine cycles at most, 1-3 (default: ${DEFAULTS.maxCycles})`],
  ['--threshold X', `score 0-1 a file needs to be packed (default: ${DEFAULTS.threshold})`],
  ['--budget TOKENS', `tokens of the packed files as md prints them, o200k (default: ${DEFAULTS.budget}); what does not fit is listed as cut`],
  ['--scope PATH', 'search only under PATH (root-relative; repeatable; LABEL:PATH for one of several roots)'],
  ['--include GLOB', 'search only files matching GLOB (repeatable)'],
  ['--exclude GLOB', 'never search files matching GLOB (repeatable)'],
  ['--provider NAME', 'auto|offline|anthropic|openai (default: auto = a configured API key, else offline)'],
  ['--model NAME', 'model for the LLM provider'],
  ['--cache DIR', 'cache directory (default: the user cache dir)'],
  ['--no-cache', 'do not read or write the cache'],
  ['--with-content', 'put the code of each region in the JSON result (content, secret-looking values masked); the md pack always shows it'],
  ['--deep', 'after the loop, follow callers, callees and imports from the best files and score what they lead to'],
  ['--depth N', `hops --deep follows, 1-5 (default: ${DEFAULTS.deepDepth}); only with --deep`],
  ['--no-egress', 'fail (exit 2) rather than send any code to a model; offline runs are unaffected'],
  ['--agents-dir DIR', 'role definitions replacing the bundled agents/'],
  ['--prompts-dir DIR', 'prompt templates replacing the bundled prompts/'],
  ['-q, --quiet', 'stderr: errors only'],
  ['--verbose', 'stderr: per-stage detail, debug logs, stack traces'],
  ['--no-color', 'no colour on stderr (also NO_COLOR, TERM=dumb)'],
  ['-h, --help', 'show this help'],
];

const EXAMPLES = [
  'ctxloop retrieve --task "email verification links expire too early"',
  'ctxloop retrieve --task-file issue.md --json > context.json',
  'git log -1 --format=%B | ctxloop retrieve --format paths',
  'ctxloop retrieve --root api=../api --root web=. --task "the login form gets a 500"',
];

/** `ctxloop --help`: commands, the flags of `retrieve`, exit codes. */
export function renderHelp(commands: readonly CommandSummary[], version: string): string {
  return joinSections([
    `ctxloop ${version}: finds the code a task needs before anyone starts on it`,
    section('Usage', ['ctxloop <command> [flags]', 'ctxloop --help | --version']),
    section('Commands', table(commands.map((c) => [c.name, c.summary]))),
    section('Flags of retrieve', table(RETRIEVE_FLAG_HELP)),
    section('Examples', EXAMPLES),
    exitCodesSection(),
    'Data goes to stdout, progress and errors to stderr.',
  ]);
}

/** `ctxloop retrieve --help`. */
export function renderRetrieveHelp(): string {
  return joinSections([
    'ctxloop retrieve: plan, search, score and pack the files a task needs',
    section('Usage', ['ctxloop retrieve --task TEXT [flags]', 'ctxloop retrieve --task-file FILE [flags]', 'echo TASK | ctxloop retrieve [flags]']),
    section('Flags', table(RETRIEVE_FLAG_HELP)),
    section('Examples', EXAMPLES),
    exitCodesSection(),
  ]);
}

function exitCodesSection(): string {
  return section('Exit codes', table(EXIT_CODE_TABLE.map(([code, meaning]) => [String(code), meaning])));
}

function section(title: string, lines: readonly string[]): string {
  return [`${title}:`, ...lines.map((line) => `  ${line}`)].join('\n');
}

function table(rows: ReadonlyArray<readonly [string, string]>): string[] {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `${left.padEnd(width)}  ${right}`);
}

function joinSections(sections: readonly string[]): string {
  return `${sections.join('\n\n')}\n`;
}

/** The package version, read from package.json two levels up (from src/cli/ and dist/cli/ alike). */
export async function readVersion(): Promise<string> {
  const text = await readFile(new URL('../../package.json', import.meta.url), 'utf8');
  const version = (JSON.parse(text) as { version?: unknown }).version;
  return typeof version === 'string' ? version : '0.0.0';
}

/** Flags `trace` and `locate` share with `retrieve`. */
const TOOL_FLAG_HELP: ReadonlyArray<readonly [string, string]> = [
  ['--root DIR', 'repository to search (default: the current directory)'],
  ['--json', 'print the result as JSON (default: text)'],
  ['--scope PATH', 'search only under PATH (root-relative; repeatable)'],
  ['--include GLOB', 'search only files matching GLOB (repeatable)'],
  ['--exclude GLOB', 'never search files matching GLOB (repeatable)'],
  ['--cache DIR', 'cache directory for parsed files (default: the user cache dir)'],
  ['--no-cache', 'do not read or write the cache'],
  ['-q, --quiet', 'stderr: errors only'],
  ['--verbose', 'stderr: debug logs, stack traces'],
  ['--no-color', 'no colour on stderr (also NO_COLOR, TERM=dumb)'],
  ['-h, --help', 'show this help'],
];

/** `ctxloop trace --help`. */
export function renderTraceHelp(): string {
  return joinSections([
    'ctxloop trace: the call chains through a symbol (who calls it, what it calls), as nested file:line nodes',
    section('Usage', ['ctxloop trace --symbol NAME [--direction callers|callees|both] [--depth N] [--json]']),
    section(
      'Flags',
      table([
        ['--symbol NAME', 'the function, method or class to start from (required)'],
        ['--direction WAY', 'callers (who calls it), callees (what it calls), or both (default: both)'],
        ['--depth N', `hops from the symbol's definitions, 1-8 (default: ${DEFAULTS.traceDepth})`],
        ...TOOL_FLAG_HELP,
      ]),
    ),
    'A chain that comes back to a definition already on it stops there: "cycle_detected": true in JSON, [cycle] in text.',
    section('Examples', ['ctxloop trace --symbol parseConfig --direction callers --depth 2', 'ctxloop trace --symbol handle_request --json > calls.json']),
    exitCodesSection(),
  ]);
}

/** `ctxloop locate --help`. */
export function renderLocateHelp(): string {
  return joinSections([
    'ctxloop locate: where a bug probably is, from its stack trace or error message (top 5 suspects with confidence and reason)',
    section('Usage', ['ctxloop locate --error FILE [flags]', 'command 2>&1 | ctxloop locate --error - [flags]']),
    section(
      'Flags',
      table([
        ['--error FILE', 'the error text: a stack trace, panic, sanitizer or gdb report, or a message ("-" = stdin; with no --error, piped stdin is read)'],
        ['--history-depth N', `commits of git history read for recency and churn, 0 = none (default: ${DEFAULTS.historyDepth})`],
        ...TOOL_FLAG_HELP,
      ]),
    ),
    'Reads Python tracebacks, Node/V8 and Firefox stacks, Java/Kotlin (Caused by), Go panics, Rust panics and backtraces, sanitizer, gdb and valgrind reports; paths from other machines are matched by their tail.',
    section('Examples', ['ctxloop locate --error crash.log', 'pytest -x 2>&1 | ctxloop locate --error - --json']),
    exitCodesSection(),
  ]);
}
