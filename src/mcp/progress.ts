import type { ProgressEvent } from '../core/types.js';

/** A `notifications/progress` message as the MCP SDK sends it. */
export interface ProgressNotification {
  method: 'notifications/progress';
  params: { progressToken: string | number; progress: number; message: string };
}

/**
 * `onProgress` for one tool call: each loop event becomes a progress notification with a
 * growing count and a line a person can read. Undefined when the client sent no progress token
 * (it did not ask). A notification that cannot be sent is dropped: progress is never worth
 * failing the call for.
 */
export function createProgressNotifier(
  token: string | number | undefined,
  send: (notification: ProgressNotification) => Promise<void>,
): ((event: ProgressEvent) => void) | undefined {
  if (token === undefined) return undefined;
  let progress = 0;
  return (event) => {
    progress += 1;
    send({ method: 'notifications/progress', params: { progressToken: token, progress, message: describeEvent(event) } }).catch(() => {});
  };
}

/** One line per loop event: `cycle 1: 42 candidates`. */
export function describeEvent(event: ProgressEvent): string {
  switch (event.type) {
    case 'plan':
      return `planned: ${event.query.keywords.length} keywords, ${event.query.symbols.length} symbols, ${event.query.paths.length} paths`;
    case 'dispatch':
      return `cycle ${event.cycle}: ${event.candidates} candidates`;
    case 'evaluate':
      return `cycle ${event.cycle}: ${event.scored} scored, ${event.kept} kept`;
    case 'refine':
      return `cycle ${event.cycle}: ${event.stop ? 'done' : 'refining'} (${event.why})`;
    case 'pack':
      return `packed ${event.files} ${event.files === 1 ? 'file' : 'files'}, ${event.tokens} tokens`;
  }
}
