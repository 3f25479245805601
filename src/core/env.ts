import { UsageError } from './errors.js';

/**
 * Environment read in one place: trimmed, empty = unset. A library caller's `env` may hold a
 * number or a boolean (`{ ...process.env, CTXLOOP_BUDGET: 5000 }`): read as its text; anything
 * else is refused by name.
 */
export function readEnv(env: Record<string, string | undefined>, name: string): string | undefined {
  const raw: unknown = env[name];
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean' && typeof raw !== 'bigint') throw new UsageError('bad_option', `env.${name} must be a string (got ${Array.isArray(raw) ? 'an array' : typeof raw})`);
  const value = String(raw).trim();
  return value ? value : undefined;
}

/** A switch's or a setting's value that turns it off, in any case: `0`, `false`, `no`, `off`. */
export function isOffValue(value: string): boolean {
  return /^(?:0|false|no|off)$/i.test(value);
}
