import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { Tokenizer } from '../core/deps.js';

/** Special-token text (`<|endoftext|>`) in a file is counted as plain text instead of throwing. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/** Counts with o200k_base (GPT-4o family), bundled with gpt-tokenizer: works offline. */
export function createTokenizer(): Tokenizer {
  return {
    count: (text) => (text.length === 0 ? 0 : countTokens(text, AS_TEXT)),
  };
}
