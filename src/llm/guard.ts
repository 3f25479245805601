import type { ChatModel, ModelRequest } from '../core/deps.js';
import { abortError, isAbortError, ProviderError, UsageError } from '../core/errors.js';
import { redactSecrets } from '../core/redact.js';
import type { EgressLog } from './egress.js';

export interface GuardOptions {
  /** Milliseconds every call of this model may take together (one run's deadline). */
  deadline: number;
  /** The caller's cancellation (SIGINT). */
  signal?: AbortSignal | undefined;
  /** Receives every request as it is sent, for the result's egress manifest. */
  egress?: EgressLog | undefined;
  /** `--no-egress`: nothing may be sent; any attempt throws `egress_refused` (not a provider error: no fallback). */
  noEgress?: boolean | undefined;
}

/**
 * The one door every prompt goes through: `--no-egress` refuses it, secret-looking values are
 * redacted, what is sent is recorded for the egress manifest, the caller's signal and the run's
 * deadline reach the SDK request, and a deadline that fires is a `timeout` (the run falls back)
 * while the caller's abort stays an abort.
 */
export function guardModel(model: ChatModel, { deadline, signal, egress, noEgress }: GuardOptions): ChatModel {
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
    ...(model.attempts ? { attempts: () => model.attempts!() } : {}),
    async complete(request: ModelRequest, callSignal?: AbortSignal) {
      if (noEgress) {
        throw new UsageError('egress_refused', `--no-egress: refusing to send a ${request.role} prompt to ${model.provider} (${model.model})`, { hint: 'run with --provider offline, or without --no-egress' });
      }
      startTimer();
      const signals = [expiry.signal, signal, callSignal].filter((s): s is AbortSignal => s !== undefined);
      const safe: ModelRequest = { ...request, prompt: redactSecrets(request.prompt) };
      if (request.repair) safe.repair = { reply: redactSecrets(request.repair.reply), problem: request.repair.problem };
      try {
        if (expiry.signal.aborted) throw abortError();
        egress?.record(model.provider, model.model, safe, Buffer.byteLength(safe.prompt) + Buffer.byteLength(safe.repair?.reply ?? ''));
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
