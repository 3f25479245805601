/**
 * Secret-looking values are masked before any text leaves the machine (model prompts now, the
 * packer later). Pure and conservative: a false positive costs a word of context, a miss leaks
 * a credential. Secret *files* (`.env`, keys) are already kept out by dispatch; this catches
 * values that live in ordinary source files.
 */

export const REDACTED = '[REDACTED]';

/** Values whose shape alone says "credential", wherever they appear. */
const TOKEN_PATTERNS: readonly RegExp[] = [
  // PEM private keys, whole block (or to the end of the text when the block is cut off).
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
  // OpenAI / Anthropic / Stripe style keys: sk-…, sk-ant-…, sk_live_…, rk_live_…, pk_live_…
  /\b(?:sk|rk|pk)[-_](?:live[-_]|test[-_]|proj[-_]|ant[-_])?[A-Za-z0-9_-]{12,}/g,
  // AWS access key ids.
  /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b/g,
  // GitHub tokens.
  /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g,
  // Slack tokens.
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  // Google API keys.
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
  // JSON Web Tokens: three base64url parts, the first two starting with `{"`.
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
];

/** `scheme://user:password@host`: the password goes, the rest stays readable. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@'"`]+:)([^\s@/'"`]+)(@)/gi;

/**
 * `password = "…"`, `apiKey: '…'`, `SECRET_TOKEN=…`: an assignment to a secret-named key. The
 * value must look like data (quoted, or a bare run of 8+ token characters), so code such as
 * `password = input.value` or `token = getToken()` stays intact.
 */
const SECRET_ASSIGNMENT =
  /\b([A-Za-z0-9_.-]*(?:passw(?:or)?d|passwd|pwd|secret|api[-_]?key|apikey|access[-_]?key|auth[-_]?token|access[-_]?token|private[-_]?key|client[-_]?secret|token)[A-Za-z0-9_-]*["']?\s*[:=]\s*)(?:(["'`])([^"'`\n]{4,})\2|([A-Za-z0-9_\-+/=.]{8,})(?=\s|$|[;,)]))/gi;

/** Masks secret-looking values in `text`; everything else is returned unchanged. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const pattern of TOKEN_PATTERNS) out = out.replace(pattern, REDACTED);
  out = out.replace(URL_CREDENTIALS, (_, head: string, _password: string, at: string) => `${head}${REDACTED}${at}`);
  out = out.replace(SECRET_ASSIGNMENT, (match, head: string, quote: string | undefined, quoted: string | undefined, bare: string | undefined) => {
    const value = quoted ?? bare ?? '';
    if (value === REDACTED || looksLikeCode(value)) return match;
    return quote ? `${head}${quote}${REDACTED}${quote}` : `${head}${REDACTED}`;
  });
  return out;
}

/** A bare identifier path (`config.password`, `process.env.TOKEN`) is a reference, not a value. */
function looksLikeCode(value: string): boolean {
  return /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value) || /^(?:true|false|null|undefined|none|string|number)$/i.test(value);
}
