/**
 * Whether a key (a variable, a field, a setting) names a credential, from its words: what
 * `redactSecrets` asks before masking the value assigned to it.
 */

/** Words (of a key split at case changes, `_`, `-`, `.`) that name a credential on their own. */
const SECRET_WORDS = new Set(['password', 'passwd', 'passphrase', 'secret', 'apikey', 'credential', 'privatekey', 'accesskey', 'accountkey', 'sharedaccesskey']);
/**
 * Words that name a credential only sometimes (a lexer's `token = "def"`, `pwd` the directory,
 * `pass` a step, `auth` a module or a mode): the value must also look random — long enough, with
 * a digit — or be a `user:password` pair in base64 (npm's `_auth=`, Docker's `"auth":`).
 */
const WEAK_SECRET_WORDS = new Set(['token', 'pwd', 'sas', 'pass', 'auth']);
/** A word ending in one of these names a password in a name run together: `PGPASSWORD`, `DBPASSWORD`, `HTPASSWD`. */
const SECRET_ENDINGS = /(?:password|passwd)$/;
/** Word pairs that do: `api_key`, `clientSecret`, `SIGNING_KEY`, … */
const SECRET_PAIRS = new Set(['api key', 'access key', 'account key', 'private key', 'signing key', 'encryption key', 'master key', 'secret key', 'session key', 'auth token', 'access token', 'refresh token', 'client secret']);
/** A last word saying the key holds something *about* the secret, not the secret itself. */
const DESCRIPTOR_WORDS = new Set(['type', 'name', 'names', 'length', 'len', 'count', 'size', 'url', 'uri', 'endpoint', 'path', 'file', 'dir', 'field', 'label', 'prefix', 'header', 'param', 'env', 'var', 'id', 'hint', 'policy', 'expiry', 'expires', 'ttl', 'timeout', 'regex', 'pattern', 'format', 'placeholder', 'min', 'max', 'required', 'enabled', 'reset', 'changed', 'confirm', 'confirmation', 'valid', 'invalid', 'error', 'message', 'text', 'input', 'form', 'kind', 'mode', 'store', 'provider', 'source', 'location', 'manager', 'service', 'class', 'schema', 'status', 'state', 'prefixes', 'patterns', 'fields', 'headers', 'words', 'types', 'keys', 'extensions', 'dirs', 'files', 'data', 'vars']);

/**
 * `strong`: the key surely names a credential (`DB_PASSWORD`, `clientSecret`,
 * `aws.secret_access_key`); `weak`: only with a random-looking value (`token`); undefined: it does
 * not (`maxTokens`, `tokenizer`, `password_field`).
 */
export function secretKeyKind(key: string): 'strong' | 'weak' | undefined {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const last = words[words.length - 1];
  if (last === undefined || DESCRIPTOR_WORDS.has(last)) return undefined;
  let kind: 'weak' | undefined;
  for (let i = 0; i < words.length; i++) {
    if (SECRET_WORDS.has(words[i]!) || SECRET_ENDINGS.test(words[i]!)) return 'strong';
    if (i > 0 && SECRET_PAIRS.has(`${words[i - 1]} ${words[i]}`)) return 'strong';
    if (WEAK_SECRET_WORDS.has(words[i]!)) kind = 'weak';
  }
  return kind;
}
