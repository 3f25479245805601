import type { ProgressEvent } from '../core/types.js';

/** A `notifications/progress` message as the MCP SDK sends it. */
export interface ProgressNotification {
  method: 'notifications/progress';
  params: { progressToken: string | number; progress: number; message: string };
}

export interface ProgressNotifier {
  onProgress: (event: ProgressEvent) => void;
  /** Resolves when every notification so far has been sent (or dropped): await it before answering. */
  settled(): Promise<void>;
}

/** Milliseconds between the last progress notification and the answer. */
const AFTER_LAST_MS = 15;

/**
 * `onProgress` for one tool call: each loop event becomes a progress notification with a
 * growing count and a line a person can read, sent one after another in event order. Undefined
 * when the client sent no progress token (it did not ask). A notification that cannot be sent
 * is dropped: progress is never worth failing the call for.
 */
export function createProgressNotifier(
  token: string | number | undefined,
  send: (notification: ProgressNotification) => Promise<void>,
): ProgressNotifier | undefined {
  if (token === undefined) return undefined;
  let progress = 0;
  let chain: Promise<void> = Promise.resolve();
  return {
    onProgress: (event) => {
      progress += 1;
      const notification: ProgressNotification = { method: 'notifications/progress', params: { progressToken: token, progress, message: describeEvent(event) } };
      chain = chain.then(() => send(notification)).catch(() => {});
    },
    // A client SDK runs a notification's handler a microtask later but an answer's at once: an
    // answer read in the same chunk as the last notification would drop it. A short pause after
    // the last one lets the client read it first.
    settled: () => chain.then(() => new Promise((resolve) => setTimeout(resolve, AFTER_LAST_MS))),
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
