import { createRequire } from 'node:module';
import type { Cache, Tokenizer } from '../core/deps.js';
import { tokenizerOf, type CountTokens } from './count-with.js';
import { createTokenCounts, type TokenCounts } from './token-counts.js';
import { startTokenThread } from './token-thread.js';

export interface LazyTokenizer {
  tokenizer: Tokenizer;
  /** Resolves once `tokenizer.count` can be called: after `start()`, never before. */
  ready: Promise<void>;
  /** Reads the counts kept from earlier runs, and loads the tokenizer ahead when there are none. */
  start(): void;
}

export interface LazyTokenizerOptions {
  /** Where counts are kept between runs (the `tokens` blob); none: every text is counted. */
  cache?: Cache | undefined;
}

/**
 * The o200k tokenizer behind a memo of counts kept between runs (by a hash of the text, so an
 * exact count either way). Its tables take about 130 ms to load: with no counts kept (a cold
 * cache) they load at once on a thread of their own (`token-thread.ts`), as every text will need
 * them; with counts kept the tokenizer loads only when a text misses, synchronously then, so a
 * warm run that packs what it packed before never loads it. Counting before `ready` resolves throws.
 */
export function loadTokenizer(options: LazyTokenizerOptions = {}): LazyTokenizer {
  let counts: TokenCounts | undefined;
  let real: Tokenizer | undefined;
  let begin: () => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    begin = () => {
      void (async () => {
        counts = await createTokenCounts(options.cache);
        if (counts.size === 0 && !real) {
          // Every text will need counting: the tables load on a thread of their own meanwhile, or here.
          real = startTokenThread(loadNow);
          if (!real) {
            const loaded = (await import('./tokens.js')).createTokenizer();
            real ??= loaded;
          }
        }
      })().then(resolve, reject);
    };
  });
  ready.catch(() => undefined); // reported to whoever awaits `ready`
  let started = false;
  return {
    tokenizer: {
      count(text) {
        if (!counts) throw new Error('the tokenizer is still loading: await `ready` first');
        return counts.count(text, () => (real ??= loadNow()).count(text));
      },
    },
    ready,
    start() {
      if (started) return;
      started = true;
      begin();
    },
  };
}

/** The same tokenizer as `tokens.ts`, loaded synchronously (its CommonJS build): for a text the counts kept do not hold. */
function loadNow(): Tokenizer {
  const require = createRequire(import.meta.url);
  return tokenizerOf((require('gpt-tokenizer/cjs/encoding/o200k_base') as { countTokens: CountTokens }).countTokens);
}
