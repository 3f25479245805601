import type { Evaluator } from '../core/deps.js';
import { UsageError } from '../core/errors.js';
import type { ProviderName } from '../core/options.js';
import type { FallbackReason } from '../core/types.js';
import { createOfflineEvaluator } from './offline/index.js';

export interface EvaluatorChoice {
  evaluator: Evaluator;
  /** The provider named in the result. */
  provider: string;
  /** Set when `auto` or an explicit provider could not be used and offline stands in. */
  fallback?: { reason: FallbackReason; message: string };
}

/**
 * Holds the `auto` choice. LLM providers (Anthropic, OpenAI-compatible) arrive with the LLM
 * roles; until then `auto` is offline, and asking for a provider by name says so plainly.
 */
export function createEvaluator(provider: ProviderName): EvaluatorChoice {
  if (provider === 'auto' || provider === 'offline') return { evaluator: createOfflineEvaluator(), provider: 'offline' };
  throw new UsageError('bad_option', `provider "${provider}" is not available in this version (use --provider offline or auto)`);
}
