import type { RetrieveResult } from '../../core/types.js';

// The contract's top-level fields, in the order DESIGN.md shows them. Anything else a future
// orchestrator attaches stays internal until it is added here on purpose.
const CONTRACT_KEYS = ['task', 'root', 'provider', 'files', 'candidates', 'gaps', 'cycles', 'usage', 'tokens', 'cut', 'fallback', 'roots', 'egress'] as const;

/** The result contract of DESIGN.md, exactly: its fields, in order, those set. */
export function contractOf(result: RetrieveResult): Partial<Record<(typeof CONTRACT_KEYS)[number], unknown>> {
  const out: Partial<Record<(typeof CONTRACT_KEYS)[number], unknown>> = {};
  for (const key of CONTRACT_KEYS) if (result[key] !== undefined) out[key] = result[key];
  return out;
}

/** What `--json` prints: the contract. */
export function renderJson(result: RetrieveResult): string {
  return `${JSON.stringify(contractOf(result), null, 2)}\n`;
}

/** What `--json` prints on stdout when the run fails, so a parser never gets an empty string. */
export function renderJsonError(code: string, message: string): string {
  return `${JSON.stringify({ error: { code, message } }, null, 2)}\n`;
}
