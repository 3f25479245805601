import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { Tokenizer } from '../core/deps.js';
import { tokenizerOf } from './count-with.js';

/** Counts with o200k_base (GPT-4o family), bundled with gpt-tokenizer: works offline. */
export function createTokenizer(): Tokenizer {
  return tokenizerOf(countTokens);
}
