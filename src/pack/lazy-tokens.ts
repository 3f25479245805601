import type { Tokenizer } from '../core/deps.js';

export interface LazyTokenizer {
  tokenizer: Tokenizer;
  /** Resolves once `tokenizer.count` can be called. */
  ready: Promise<void>;
}

/**
 * The o200k tokenizer, loaded in the background: its tables take about 130 ms to evaluate, which
 * a run can spend while ripgrep scans. Counting before `ready` resolves throws.
 */
export function loadTokenizer(): LazyTokenizer {
  let real: Tokenizer | undefined;
  const ready = import('./tokens.js').then((m) => {
    real = m.createTokenizer();
  });
  ready.catch(() => undefined); // reported to whoever awaits `ready`
  return {
    tokenizer: {
      count(text) {
        if (!real) throw new Error('the tokenizer is still loading: await `ready` first');
        return real.count(text);
      },
    },
    ready,
  };
}
