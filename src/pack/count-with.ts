import type { Tokenizer } from '../core/deps.js';

/** gpt-tokenizer's `countTokens`, whichever build (ES module or CommonJS) it came from. */
export type CountTokens = (text: string, options: { disallowedSpecial: Set<string> }) => number;

/** Special-token text (`<|endoftext|>`) in a file is counted as plain text instead of throwing. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/** The tokenizer over gpt-tokenizer's count: the empty text is 0 tokens. */
export function tokenizerOf(countTokens: CountTokens): Tokenizer {
  return { count: (text) => (text.length === 0 ? 0 : countTokens(text, AS_TEXT)) };
}
