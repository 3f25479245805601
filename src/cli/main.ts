import { UsageError } from '../core/errors.js';
import { runRetrieveCommand, type RunRetrieve } from './commands/retrieve.js';
import { EXIT } from './exit-codes.js';
import { guessFailureView, reportFailure } from './fail.js';
import { SEE_HELP } from './flag-values.js';
import { suggestName } from '../core/suggest.js';
import { readVersion, renderHelp } from './help.js';
import type { Io } from './io.js';
import { writeOutput } from './write.js';

export type { Io } from './io.js';
export type { RunRetrieve } from './commands/retrieve.js';

/** What a subcommand gets: its argv (after the name), the io, and the injectable library calls. */
export interface CommandContext {
  io: Io;
  run: RunRetrieve;
}

export interface Command {
  summary: string;
  run(argv: string[], context: CommandContext): Promise<number>;
}

/** The subcommands. `eval`, `mcp`, `cache`, `trace` and `locate` go here as they are written. */
export const COMMANDS: ReadonlyMap<string, Command> = new Map<string, Command>([
  ['retrieve', { summary: 'find the files and regions a task needs (the loop)', run: (argv, { io, run }) => runRetrieveCommand(argv, io, run) }],
  // Loaded on use: the harness (git checkouts, BM25) is not needed to retrieve.
  ['eval', { summary: 'measure ranking quality on labelled tasks (Acc@1, Hit@5, Acc@5, MRR)', run: async (argv, { io }) => (await import('../eval/command.js')).evalCommand(argv, io) }],
  ['cache', { summary: 'show what the cache holds for a repository (stats), or remove it (clear)', run: async (argv, { io }) => (await import('./commands/cache.js')).runCacheCommand(argv, io) }],
  // Loaded on use: the MCP SDK is only needed to serve.
  ['mcp', { summary: 'serve retrieve_context and locate_bug to an agent over MCP (stdio)', run: async (argv, { io }) => (await import('../mcp/command.js')).mcpCommand(argv, io) }],
  ['trace', { summary: 'the call chains through a symbol: callers and callees as nested file:line nodes', run: async (argv, { io }) => (await import('./commands/trace.js')).traceCommand(argv, io) }],
  ['serve', { summary: 'keep one process running so retrieve, locate and trace start warm (--detach, --status, --stop)', run: async (argv, { io }) => (await import('./commands/serve.js')).serveCommand(argv, io) }],
  ['locate', { summary: 'where a bug probably is, from a stack trace or error message (top 5 suspects)', run: async (argv, { io }) => (await import('./commands/locate.js')).locateCommand(argv, io) }],
]);

// Imported on first use so `--help` and `--version` never load the search stack.
const runDefault: RunRetrieve = async (task, options) => (await import('../orchestrator/loop.js')).retrieve(task, options);

/**
 * The whole CLI: parses argv, runs a command, writes to `io`, and returns the exit code (see
 * exit-codes.ts). Never calls `process.exit()`, never reads `process.*`: the binary does that.
 */
export async function main(argv: string[], io: Io, run: RunRetrieve = runDefault): Promise<number> {
  try {
    const [first, ...rest] = argv;
    const commands = [...COMMANDS].map(([name, command]) => ({ name, summary: command.summary }));
    if (first === undefined) {
      // No command is a usage mistake: help goes to stderr so stdout stays empty for a parser.
      await writeOutput(renderHelp(commands, await readVersion()), io.stderr);
      return EXIT.usage;
    }
    if (first === '--help' || first === '-h' || first === 'help') {
      const named = first === 'help' && rest[0] !== undefined ? COMMANDS.get(rest[0]) : undefined;
      if (named) return await named.run(['--help'], { io, run });
      await writeOutput(renderHelp(commands, await readVersion()), io.stdout);
      return EXIT.ok;
    }
    if (first === '--version' || first === '-v') {
      await writeOutput(`${await readVersion()}\n`, io.stdout);
      return EXIT.ok;
    }
    const command = COMMANDS.get(first);
    if (!command) throw unknownCommand(first);
    return await command.run(rest, { io, run });
  } catch (error) {
    return reportFailure(error, guessFailureView(argv, io));
  }
}

function unknownCommand(name: string): UsageError {
  const names = [...COMMANDS.keys()];
  if (name.startsWith('-')) return new UsageError('bad_option', `expected a command before ${name}, e.g. ctxloop retrieve ${name} … ${SEE_HELP}`);
  const guess = suggestName(name, names);
  return new UsageError('bad_option', `unknown command ${JSON.stringify(name)}${guess ? `, did you mean ${guess}?` : ''} ${SEE_HELP}`);
}
