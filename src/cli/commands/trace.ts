import { UsageError } from '../../core/errors.js';
import type { TraceOptions } from '../../core/options.js';
import type { TraceResult } from '../../core/types.js';
import { trace } from '../../orchestrator/call-trace.js';
import { parseChoiceFlag, parseIntFlag, SEE_HELP } from '../flag-values.js';
import { renderTraceHelp } from '../help.js';
import type { Io } from '../io.js';
import { renderTraceJson, renderTraceText } from '../render/trace.js';
import { runToolCommand } from './tool.js';

const DIRECTIONS = ['callers', 'callees', 'both'] as const;

/** `ctxloop trace --symbol NAME`: the call chains through a symbol. */
export function traceCommand(argv: string[], io: Io): Promise<number> {
  return runToolCommand<TraceResult>(argv, io, {
    help: renderTraceHelp,
    flags: { symbol: { type: 'string' }, direction: { type: 'string' }, depth: { type: 'string' } },
    positional: 'pass the symbol with --symbol NAME',
    async run(values, common, { logger }) {
      const symbol = typeof values.symbol === 'string' ? values.symbol.trim() : '';
      if (!symbol) throw new UsageError('bad_option', `--symbol is required: the function, method or class to trace ${SEE_HELP}`);
      const options: TraceOptions = { root: common.root, ...common.search, logger, env: io.env };
      if (typeof values.direction === 'string') options.direction = parseChoiceFlag('--direction', values.direction, DIRECTIONS);
      if (typeof values.depth === 'string') options.depth = parseIntFlag('--depth', values.depth, 1, 8);
      if (io.signal) options.signal = io.signal;
      return trace(symbol, options);
    },
    renderJson: renderTraceJson,
    renderText: renderTraceText,
  });
}
