import type { ChatModel, ModelRequest } from '../core/deps.js';
import { abortError, isAbortError, ProviderError } from '../core/errors.js';
import { redactSecrets } from '../core/redact.js';

export interface GuardOptions {
  /** Milliseconds every call of this model may take together (one run's deadline). */
  deadline: number;
  /** The caller's cancellation (SIGINT). */
  signal?: AbortSignal | undefined;
}

/**
 * The one door every prompt goes through: secret-looking values are redacted, the caller's
 * signal and the run's deadline reach the SDK request, and a deadline that fires is a
 * `timeout` (the run falls back) while the caller's abort stays an abort.
 */
export function guardModel(model: ChatModel, { deadline, signal }: GuardOptions): ChatModel {
  const expiry = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const startTimer = (): void => {
    if (timer) return;
    timer = setTimeout(() => expiry.abort(), deadline);
    timer.unref(); // a finished run must not wait for its deadline
  };
  return {
    provider: model.provider,
    model: model.model,
    async complete(request: ModelRequest, callSignal?: AbortSignal) {
      startTimer();
      const signals = [expiry.signal, signal, callSignal].filter((s): s is AbortSignal => s !== undefined);
      const safe: ModelRequest = { ...request, prompt: redactSecrets(request.prompt) };
      if (request.repair) safe.repair = { reply: redactSecrets(request.repair.reply), problem: request.repair.problem };
      try {
        if (expiry.signal.aborted) throw abortError();
        return await model.complete(safe, AbortSignal.any(signals));
      } catch (error) {
        if (isAbortError(error) && expiry.signal.aborted && !signal?.aborted && !callSignal?.aborted) {
          throw new ProviderError('timeout', `${model.provider} calls exceeded the run's deadline of ${deadline} ms`, { provider: model.provider, cause: error });
        }
        throw error;
      }
    },
  };
}
