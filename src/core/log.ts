/** Where the library reports. It never prints on its own. */
export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};

/**
 * A caller's callback made harmless to the run: what it throws, and what a promise it returns
 * rejects with, is dropped (a library user's `onProgress` that fails must not fail the
 * retrieval, nor kill their process with an unhandled rejection).
 */
export function guardCallback<A extends unknown[]>(callback: (...args: A) => unknown): (...args: A) => void {
  return (...args) => {
    try {
      const returned = callback(...args);
      if (returned instanceof Promise) returned.catch(() => undefined);
    } catch {
      // the caller's own failure: not the run's
    }
  };
}

/** A caller's logger whose methods are guarded as `guardCallback` guards a callback. */
export function guardLogger(logger: Logger): Logger {
  return {
    debug: guardCallback((message: string) => logger.debug(message)),
    info: guardCallback((message: string) => logger.info(message)),
    warn: guardCallback((message: string) => logger.warn(message)),
    error: guardCallback((message: string) => logger.error(message)),
  };
}
