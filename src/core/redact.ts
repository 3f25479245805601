/**
 * Secret-looking values are masked before any text leaves ctxloop: every model prompt (the guard
 * in `llm/guard.ts`), the signatures built for it, and region contents in the printed pack. One
 * function for all of them, so what a prompt may not carry the pack does not print either.
 * Pure and conservative: a false positive costs a word of context, a miss leaks a credential;
 * still, ordinary code (identifiers, references such as `config.password`, calls) is left alone.
 * Secret *files* (`.env`, keys) are already kept out by dispatch; this catches values that live
 * in ordinary files. A value known only by its context (`password=…`) is masked wherever the same
 * text repeats it. The line count never changes, so line numbers stay true.
 */
import { languageOf } from './files.js';
import { secretKeyKind } from './secret-keys.js';

export const REDACTED = '[REDACTED]';

/** Masks a value a rule found, noting it so its repeats are masked too: gives `[REDACTED]`. */
type Hide = (value: string) => string;

export interface RedactOptions {
  /**
   * Root-relative path of the file the text comes from. In data files (YAML, INI, TOML,
   * `.properties`, JSON, XML, `.env`-like) and shell scripts, a bare value after a secret-named
   * key is a literal whatever its shape; in code it may be a variable, so only values that look
   * like data are masked there. Without a path, the code rules apply.
   */
  path?: string;
  /**
   * The text is written by a person (a task, an error report): a bare value after a
   * secret-named key is a value there (`login fails with password=hunter2hunter2`), as in a
   * data file, not a variable.
   */
  prose?: boolean;
}

/** PEM private keys, whole block (or to the end of the text when the block is cut off). */
const PRIVATE_KEY_BLOCK = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g;

/**
 * An AWS key id and its secret key side by side: as one value (`AKIA…:wJalr…`), or as the
 * console's CSV and people write them (`AKIA…,wJalr…`, `AKIA… wJalr…`). Both go; the secret key
 * has no shape of its own, so it is also masked wherever the text repeats it.
 */
const AWS_KEY_PAIR = /\b((?:AKIA|ASIA)[0-9A-Z]{16})([:/]|[ \t]{1,4}|[ \t]{0,4}[,;|][ \t]{0,4})([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/g;

/** Values whose shape alone says "credential", wherever they appear. */
const TOKEN_PATTERNS: readonly RegExp[] = [
  // Anthropic, OpenAI (project, service account, admin) keys.
  /\bsk-(?:ant-(?:api|admin|oat)\d{2}-|proj-|svcacct-|admin-)[A-Za-z0-9_-]{20,}/g,
  // Legacy OpenAI keys and other `sk-` keys: long, alphanumeric, with a digit (not `sk-spinner-…`).
  /\bsk-(?=[A-Za-z0-9]{0,64}[0-9])[A-Za-z0-9]{32,}\b/g,
  // Stripe style: sk_live_…, rk_test_…, pk_live_…, and webhook secrets.
  /\b(?:sk|rk|pk)[-_](?:live|test)[-_][A-Za-z0-9]{10,}/g,
  /\bwhsec_[A-Za-z0-9]{20,}/g,
  // AWS access key ids.
  /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b/g,
  // GitHub, GitLab, npm, PyPI, Hugging Face tokens.
  /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g,
  /\bnpm_[A-Za-z0-9]{36}\b/g,
  /\bpypi-AgE[A-Za-z0-9_-]{50,}/g,
  /\bhf_[A-Za-z0-9]{30,}\b/g,
  // Slack tokens and webhook paths.
  /\bxox[abposre]-[A-Za-z0-9-]{10,}/g,
  /\bxapp-\d-[A-Za-z0-9-]{10,}/g,
  /(?<=hooks\.slack\.com\/(?:services|workflows|triggers)\/)[A-Za-z0-9/_-]{10,}/g,
  // Google: API keys, OAuth client secrets, access tokens.
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
  /\bGOCSPX-[A-Za-z0-9_-]{20,}/g,
  /\bya29\.[0-9A-Za-z_-]{20,}/g,
  // Azure AD client secrets (`abc8Q~…`).
  /\b[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}/g,
  // SendGrid, Twilio, Shopify, DigitalOcean, Databricks, Mailgun.
  /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g,
  /\bSK[0-9a-fA-F]{32}\b/g,
  /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/g,
  /\bdo[opr]_v1_[a-f0-9]{64}\b/g,
  /\bdapi[a-f0-9]{32}\b/g,
  /\bkey-[0-9a-f]{32}\b/g,
  // JSON Web Tokens: three base64url parts, the first two starting with `{"`.
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
];

/**
 * A line that is nothing but a long base64 run: the body of a key or certificate whose BEGIN
 * line is elsewhere (a region or a matched line cut out of the middle of a block).
 */
const BASE64_LINE = /^([ \t]*["'`]?)([A-Za-z0-9+/]{60,65536}={0,2})(["'`]?[,;]?[ \t]*)$/gm;

/** `scheme://user:password@host` (also `redis://:password@host`): the password goes, the rest stays readable. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]{0,30}:\/\/[^\s:/@'"`]{0,256}:)([^\s@/'"`]{1,256})(@)/gi;

/** `Authorization: Bearer …`, `Basic …`: a token-shaped value with a digit in it. */
const AUTH_HEADER = /\b((?:Bearer|Basic|Token)[ \t]+)((?=[A-Za-z0-9._~+/-]{0,200}[0-9])[A-Za-z0-9._~+/-]{16,}=*)/g;
/** The same after an `Authorization` key, in any case (GitHub's `Authorization: token …`); elsewhere `token …` is prose (`Unexpected token …`). */
const AUTHORIZATION_VALUE = /(\bauthorization["']?[ \t]*[:=][ \t]*["']?(?:bearer|basic|token)[ \t]+)((?=[A-Za-z0-9._~+/-]{0,200}[0-9])[A-Za-z0-9._~+/-]{16,}=*)/gi;

/** `?password=…`, `&access_token=…`, `&sig=…` in URLs and JDBC strings. */
const QUERY_SECRET = /([?&](?:password|passwd|pwd|pass|secret|client_secret|token|access_token|refresh_token|id_token|api_key|apikey|sig|signature)=)(?![${%<])([^&\s'"`#]+)/gi;

/** `Server=…;User Id=…;Password=…;` (ADO.NET, Azure, ODBC connection strings). */
const CONNECTION_PASSWORD = /([;"'](?:password|pwd|accountkey|sharedaccesskey|sharedaccesssignature)[ \t]*=[ \t]*)(?![${%<])([^;"'\n]+)/gi;

/** `<password>…</password>` in XML configuration. */
const XML_SECRET = /(<([A-Za-z0-9_.:-]{0,60}(?:password|passwd|secret|token|apikey|api_key|accesskey|access_key)[A-Za-z0-9_.-]{0,60})>)([^<\n]+)(<\/\2>)/gi;
/** The same with the value on a line of its own, as a formatter lays it out: `<password>`, the value, `</password>`. */
const XML_SECRET_LINES = /(<([A-Za-z0-9_.:-]{0,60}(?:password|passwd|secret|token|apikey|api_key|accesskey|access_key)[A-Za-z0-9_.-]{0,60})>[ \t]*\r?\n[ \t]*)([^<\s][^<\n]*?)([ \t]*\r?\n[ \t]*<\/\2>)/gi;

/**
 * `password = "…"`, `apiKey: '…'`, `SECRET_TOKEN=…`, `token := "…"`: an assignment, the value
 * quoted or bare. Whether the key names a credential is decided in `secretKeyKind`, whether the
 * value is one in `maskAssignment`. The key is bounded so a long dotted run stays linear, and so
 * is the bare value: a match left as it is is scanned again from its value (`replaceAssignments`),
 * so a line of `a:a:a:…` read to its end at every `a:` took minutes on a 1 MB file. A key starts
 * a word (not `password` inside `x-password`, whose key is the whole), or follows the dashes of a
 * command-line flag or a lone dot (`--password=…`, `-token=…`, `.password=…`).
 */
const ASSIGNMENT = /(?:(?<![\w.-])|(?<=(?:^|[^\w.-])[.-]{1,2}))([A-Za-z_][\w.-]{0,80})(["']?[ \t]*(?::=|[:=])[ \t]*)(?:(["'`])([^"'`\n]{3,})\3|([^\s"'`,;)\]}]{1,256}))/g;
/** A bare value's characters (`ASSIGNMENT` reads at most 256; the rest of a longer one is measured with this). */
const BARE_RUN = /[^\s"'`,;)\]}]*/y;

/**
 * A typed declaration: `password: string = '…'` (TypeScript, Python), `val password: String = "…"`
 * (Kotlin, Scala), `let secret: &str = "…"` (Rust). `ASSIGNMENT` reads `password: string` there,
 * a type, and the value after it goes unread.
 */
const TYPED_ASSIGNMENT = /(?:(?<![\w.-])|(?<=(?:^|[^\w.-])[.-]{1,2}))([A-Za-z_][\w.-]{0,80})([ \t]*:[ \t]*[A-Za-z_&(\[][\w<>\[\]&'|.?, ()]{0,60}?[ \t]*=[ \t]*(?:[rbfuRBFU@$]{1,2}#*)?)(["'`])([^"'`\n]{3,})\3/g;
/**
 * A quoted key and its quoted value side by side: call arguments (`define('DB_PASSWORD', '…')`,
 * `os.Setenv("DB_PASSWORD", "…")`, `setProperty("db.password", "…")`, `env::set_var(…)`), hash and
 * array entries (`{ "password" => "…" }`, `['password' => '…']`, Scala's `"password" -> "…"`,
 * Kotlin's `"password" to "…"`) and subscripts
 * (`ENV["DB_PASSWORD"] = "…"`, `headers['X-Api-Key'] = '…'`).
 */
const QUOTED_PAIR = /(["'])([A-Za-z_][\w.-]{0,80})\1([ \t]*(,|=>|->|\bto\b|\.to\(|\][ \t]*(?:\|\||\?\?)?=)[ \t]*)(["'`])([^"'`\n]{3,})\5/g;

/**
 * A password given after its keyword and a space, as configuration files and command lines write
 * it: `requirepass …` and `masterauth …` (Redis), `password …` (netrc), a key ending so
 * (`smtp_pass …`, `DBPassword …`, `VERIFY_SMTP_PASSWORD …`), prose (`the password is …`), `curl -u user:…`, `mysql -p…`,
 * `docker login -p …`, `sshpass -p …`. Masked only when the value looks random (see
 * `isRandomValue`): `password string` in a Go struct is a field's type.
 */
const SPACED_SECRET = /\b((?:requirepass|masterauth|password|passwd|passphrase)[ \t]+(?:(?:is|was)[ \t]+)?)([^\s'"`]{8,})/gi;
/** A key ending in such a word, opening a configuration line (`smtp_pass …`, `DBPassword …`): mid-line, `two_pass renderer2d` is prose. */
const KEYED_SPACED_SECRET = /^([ \t]*[\w-]{0,80}?(?:password|passwd|passphrase|[_-]pass)[ \t]+)([^\s'"`]{8,})[ \t]*\r?$/gim;
/**
 * `curl -u user:…`, also quoted (`-u 'admin:…'`, the quotes kept). Each of the flag rules reads a
 * quoted value or a bare one: their first characters differ, so either branch is tried once.
 */
const USER_PASSWORD_FLAG = /((?:^|[ \t])(?:-u|--user)[ \t]+)(?:(["'])([^\s:'"`]{1,100}:)([^'"`\n]{1,200})\2|([^\s:'"`]{1,100}:)([^\s'"`@]{1,200}))/gm;
/** `mysql -p…` and `-p'…'`: the password glued to the flag (with a space, `-p` prompts and the next word is the database). */
const MYSQL_PASSWORD_FLAG = /(\bmysql(?:dump|admin)?\b[^\n]{0,400}?[ \t]-p)(?:(["'])([^'"`\n]{1,200})\2|([^\s'"`-][^\s'"`]{5,}))/g;
/**
 * `-p` as a password (not a port, as for ssh) on the commands that take it so: registry logins
 * and `sshpass`, among their own words (not past `&&`, `;` or `|`, and for sshpass before the
 * command it runs: `sshpass -f file ssh -p 2222` is ssh's port).
 */
const LOGIN_PASSWORD_FLAG = /(\b(?:sshpass|(?:docker|podman|nerdctl|buildah|skopeo|oras|helm[ \t]+registry)[ \t]+login(?:[ \t]+(?!-p)[^\s;&|]{1,200}){0,8})[ \t]+-p[ \t]*)(?:(["'])([^'"`\n]{1,200})\2|([^\s'"`;&|-][^\s'"`;&|]{3,}))/g;
/**
 * A value masked by its first word in a configuration file whose values run to the end of the
 * line (`password: correct horse battery staple` in YAML, `.properties`, INI): the rest of it.
 */
const LINE_VALUE_HEAD = /^[ \t]*["']?[A-Za-z_][\w.-]{0,80}["']?[ \t]*([:=])[ \t]*\[REDACTED\]/;
/** Files whose `key = value` lines run to the end of the line; elsewhere `KEY=… npm start` is a shell line. */
const LINE_VALUE_FILES = /\.(?:properties|ini|cfg|conf|toml)$/i;
/**
 * A secret-named YAML key whose value is on the next line (`password:` then the value indented,
 * or a `|` / `>` block), or a quoted key so (`"password":` in JSON or a Python dict): the
 * value's first line is masked.
 */
const YAML_KEY_LINE = /^([ \t]*)(["']?)([A-Za-z_][\w.-]{0,80})\2[ \t]*:[ \t]*(?:[|>][-+]?[ \t]*)?$/;
/** Ruby's `:password => '…'`: a symbol key, a hash rocket, a quoted value. */
const SYMBOL_ROCKET = /(?<![\w:]):([A-Za-z_]\w{0,80})([ \t]*=>[ \t]*)(["'])([^"'\n]{3,})\3/g;
/**
 * The literal an environment variable falls back to: `process.env.DB_PASSWORD || "…"`, `??`,
 * `||=`, Kotlin's `?:`, Python's `or`, a default argument (`os.getenv("DB_PASSWORD", "…")`,
 * `ENV.fetch('API_KEY', '…')`) and a default method (Scala's `getOrElse("…")`, Rust's
 * `unwrap_or("…")`, `unwrap_or_else(|_| "…")`); the lookup by any name (C#'s
 * `GetEnvironmentVariable`, Swift's `environment[…]`, Rust's `env::var`), the variable's name as the key.
 */
const ENV_FALLBACK = /(\b(?:env|ENV|environ|environment|getenv|Getenv|GetEnvironmentVariable|env::var)(?:\.get|\.fetch)?[.[(][ \t]*["'`]?([A-Za-z_]\w{0,80})["'`]?[ \t]*(?:[\])][ \t]*)?(\|\|=?|\?\?=?|\?:|\bor\b|,|\){0,3}\.(?:ok\(\)\.)?(?:getOrElse|orElse|unwrap_or|unwrap_or_else)\((?:[ \t]*\|[\w ,]{0,20}\|)?(?:[ \t]*\{)?(?:[ \t]*String::from\()?)[ \t]*)(["'`])([^"'`\n]{3,})\4/g;
/**
 * A builder's or fluent setter's call named for the secret, the value its first argument and one
 * run without blanks (a label, `field.password("Your password")`, has them):
 * `DataSourceBuilder.create().password("…")`, `.apiKey('…')`, `.password("…".toCharArray())`.
 */
const NAMED_CALL = /(\.([A-Za-z_][A-Za-z0-9_]{1,60})[ \t]*\([ \t]*)(["'`])([^"'`\s]{3,})\3(?=[ \t]*[).,])/g;
/** A setter given the value: `ds.setPassword("…")`, `->setApiKey('…')`, `.withClientSecret("…")`. */
const SETTER_CALL = /\b((?:set|with)([A-Z][A-Za-z0-9]{1,60})[ \t]*\([ \t]*)(["'])([^"'\n]{3,})\3/g;
/** SQL's `IDENTIFIED BY '…'` and `[WITH] PASSWORD '…'` (CREATE USER, ALTER ROLE). */
const SQL_PASSWORD = /(\b(?:IDENTIFIED[ \t]+BY|PASSWORD)[ \t]+)(['"])([^'"\s][^'"\n]{0,255})\2/gi;
/** XML settings as a key and a value attribute: `<add key="Password" value="…"/>`, Spring's `<property name="password" value="…"/>`. */
const XML_KEY_VALUE = /(\b(?:key|name)[ \t]*=[ \t]*(["'])([\w.:-]{1,80})\2[ \t]+value[ \t]*=[ \t]*)(["'])([^"'\n]+)\4/gi;
/** An element keyed by an attribute: `<entry key="password">…</entry>`. */
const XML_KEYED_ELEMENT = /(<([\w:.-]{1,60})\b[^<>\n]{0,200}?\b(?:key|name)[ \t]*=[ \t]*(["'])([\w.:-]{1,80})\3[^<>\n]{0,200}?>)([^<\n]+)(<\/\2>)/gi;
/** A Dockerfile's older `ENV KEY value` (no `=`): the value is the rest of the line. */
const DOCKER_ENV_SPACED = /^([ \t]*ENV[ \t]+)([A-Za-z_][\w.-]{0,80})([ \t]+)([^\s=](?:[^\n]*\S)?)([ \t]*\r?)$/gm;
/**
 * A PostgreSQL password file's line, `host:port:database:user:password` (`.pgpass` and its copies
 * in READMEs, scripts, Dockerfiles); the host has a letter, a dot or is `*`, so `12:30:45:67:89` is not one.
 */
const PGPASS_LINE = /^(?=[^:\s]*[A-Za-z.*\[])((?:[^\s:\\]|\\.){1,256}:(?:\d{1,5}|\*):(?:[^\s:\\]|\\.){1,256}:(?:[^\s:\\]|\\.){1,256}:)((?:[^\s:\\]|\\.){1,256})(\r?)$/gm;

/**
 * Go's MySQL DSN, `user:password@tcp(host:3306)/db` (also `@unix(…)/`, and `@/db` for the
 * default address): no scheme, so `URL_CREDENTIALS` does not read it. Read from its `:`, the user
 * behind it (starting a word: after a space, a quote, `=`, `(` or `,`) and the address ahead,
 * so a line of `=a:=a:…` is not read to the end from each of its characters. A password holding
 * `:`, `@`, a slash or a bracket is not read: a regex's `([\w+.-]+:)\/\/([^@/#?]*@)` is not a DSN.
 */
const GO_DSN = /:(?<=(?:^|[\s'"`=(,])[^\s:@'"`/=(),]{1,64}:)([^\s:@'"`/\\()[\]{}<>]{1,256})(?=@(?:[A-Za-z][A-Za-z0-9]{0,15}\([^\s()'"`]{0,256}\))?\/)/g;
/**
 * An environment entry as Kubernetes, ECS task definitions and Azure app settings write it: a
 * `name` and, on the next line, its `value` (`- name: DB_PASSWORD` then `  value: …`, or
 * `"name": "DB_PASSWORD",` then `"value": "…"`). Read line by line (`maskEnvEntryValues`).
 */
const ENV_ENTRY_NAME = /^[ \t]*(?:-[ \t]+)?(["']?)name\1[ \t]*:[ \t]*(["']?)([A-Za-z_][\w.-]{0,80})\2[ \t]*(?:,[ \t]*)?\r?$/;
const ENV_ENTRY_VALUE = /^([ \t]*(["']?)value\2[ \t]*:[ \t]*)([^\n]*)$/;

/** Whether `key` names a credential for this value: a strong key always, a weak one (`token`, `pwd`, `auth`) when the value looks random or is a base64 `user:password`. */
function keyHoldsSecret(key: string, value: string): boolean {
  const kind = secretKeyKind(key);
  return kind === 'strong' || (kind === 'weak' && (isRandomValue(value) || isBasicCredentials(value)));
}

/** `user:password` in base64, as HTTP Basic, npm's `_auth` and Docker's `auth` keep it. */
function isBasicCredentials(value: string): boolean {
  if (!/^[A-Za-z0-9+/]{8,}={0,2}$/.test(value) || value.length % 4 !== 0) return false;
  return /^[\x21-\x7e]{1,256}:[\x20-\x7e]{1,256}$/.test(Buffer.from(value, 'base64').toString('latin1'));
}

/** A quoted value under a secret-named key that is a value, not a reference. */
function isSecretValue(key: string, value: string): boolean {
  return keyHoldsSecret(key, value) && !value.includes(REDACTED) && !isReference(value);
}

/** Masks secret-looking values in `text`; everything else, and the number of lines, is unchanged. */
export function redactSecrets(text: string, options: RedactOptions = {}): string {
  const dataFile = options.prose === true || (options.path !== undefined && isDataFile(options.path));
  // Values masked by their context (`password=…`, `-p …`), masked again wherever the text repeats
  // them (`retrying with …`), where no rule would know them. Shapes find their own repeats.
  const found = new Set<string>();
  const hide: Hide = (value) => {
    found.add(value.trim());
    return REDACTED;
  };
  // Under a weak key (`token`, `pass`) a value is masked for its looks: in a file such a guess
  // (`pass_str: "SELECT\n\t1"`) is not spread to the text's other copies of it.
  const hideUnder = (key: string): Hide => (options.prose === true || secretKeyKind(key) === 'strong' ? hide : () => REDACTED);
  let out = text.replace(PRIVATE_KEY_BLOCK, (block) => block.split('\n').map(() => REDACTED).join('\n'));
  out = out.replace(AWS_KEY_PAIR, (match, _id: string, separator: string, secret: string) => {
    if (separator === ':' || separator === '/') return hide(secret);
    // side by side, the secret key is taken by its looks: base64 of both cases, with a digit
    return isRandomLooking(secret) ? `${REDACTED}${separator}${hide(secret)}` : match;
  });
  for (const pattern of TOKEN_PATTERNS) out = out.replace(pattern, REDACTED);
  out = out.replace(BASE64_LINE, (line, head: string, body: string, tail: string) => (isRandomLooking(body) ? `${head}${REDACTED}${tail}` : line));
  out = out.replace(URL_CREDENTIALS, (match, head: string, password: string, at: string) => (isReference(password) ? match : `${head}${hide(password)}${at}`));
  out = out.replace(GO_DSN, (match, password: string) => (isReference(password) ? match : `:${hide(password)}`));
  out = out.replace(AUTH_HEADER, (_, head: string, value: string) => `${head}${hide(value)}`);
  out = out.replace(AUTHORIZATION_VALUE, (_, head: string, value: string) => `${head}${hide(value)}`);
  out = out.replace(QUERY_SECRET, (_, head: string, value: string) => `${head}${hide(value)}`);
  out = out.replace(CONNECTION_PASSWORD, (_, head: string, value: string) => `${head}${hide(value)}`);
  out = out.replace(SPACED_SECRET, (match, head: string, value: string) => (isRandomValue(value) && !isReference(value) ? `${head}${hide(value)}` : match));
  out = out.replace(KEYED_SPACED_SECRET, (match, head: string, value: string) => (isRandomValue(value) && !isReference(value) ? `${head}${hide(value)}` : match));
  out = out.replace(USER_PASSWORD_FLAG, (match, head: string, quote?: string, quotedUser?: string, quoted?: string, user?: string, bare?: string) => {
    const value = quoted ?? bare ?? '';
    // quoted, the quotes hold `user:password` both: the closing one stays after the mask
    return isReference(value) ? match : `${head}${quote ?? ''}${quotedUser ?? user}${hide(value)}${quote ?? ''}`;
  });
  out = out.replace(MYSQL_PASSWORD_FLAG, (match, head: string, quote?: string, quoted?: string, bare?: string) => maskFlagValue(match, head, quote, quoted, bare, hide));
  out = out.replace(LOGIN_PASSWORD_FLAG, (match, head: string, quote?: string, quoted?: string, bare?: string) => maskFlagValue(match, head, quote, quoted, bare, hide));
  if (/:[ \t]*(?:[|>][-+]?[ \t]*)?\r?\n/.test(out)) out = maskNextLineValues(out, hide);
  if (out.includes('value')) out = maskEnvEntryValues(out, hideUnder, dataFile);
  out = out.replace(DOCKER_ENV_SPACED, (match, head: string, key: string, space: string, value: string, tail: string) =>
    isSecretValue(key, value) && !/^["'`]?(?:\$|\{\{)/.test(value) ? `${head}${key}${space}${hideUnder(key)(unquoted(value))}${tail}` : match,
  );
  out = out.replace(PGPASS_LINE, (match, head: string, password: string, tail: string) => (password === '*' || isReference(password) ? match : `${head}${hide(password)}${tail}`));
  out = out.replace(XML_SECRET, (match, open: string, _name: string, value: string, close: string) => (isReference(value.trim()) ? match : `${open}${hide(value)}${close}`));
  out = out.replace(XML_SECRET_LINES, (match, open: string, _name: string, value: string, close: string) => (isReference(value.trim()) ? match : `${open}${hide(value)}${close}`));
  out = out.replace(SYMBOL_ROCKET, (match, key: string, arrow: string, quote: string, value: string) => (isSecretValue(key, value) ? `:${key}${arrow}${quote}${hideUnder(key)(value)}${quote}` : match));
  out = out.replace(ENV_FALLBACK, (match, head: string, key: string, separator: string, quote: string, value: string) =>
    // a default argument may be a placeholder (`getenv("DB_PASSWORD", "DEFAULT_PASSWORD")`): one that looks like a value only
    isSecretValue(key, value) && (separator !== ',' || isRandomValue(value) || looksLikeData(value)) ? `${head}${quote}${hideUnder(key)(value)}${quote}` : match,
  );
  const maskCall = (match: string, head: string, key: string, quote: string, value: string): string => (isSecretValue(key, value) ? `${head}${quote}${hideUnder(key)(value)}${quote}` : match);
  out = out.replace(SETTER_CALL, maskCall);
  out = out.replace(NAMED_CALL, maskCall);
  out = out.replace(SQL_PASSWORD, (match, head: string, quote: string, value: string) => (isReference(value) ? match : `${head}${quote}${hide(value)}${quote}`));
  out = out.replace(XML_KEY_VALUE, (match, head: string, _quote: string, key: string, quote: string, value: string) => (isSecretValue(key, value) ? `${head}${quote}${hideUnder(key)(value)}${quote}` : match));
  out = out.replace(XML_KEYED_ELEMENT, (match, open: string, _tag: string, _quote: string, key: string, value: string, close: string) => (isSecretValue(key, value.trim()) ? `${open}${hideUnder(key)(value)}${close}` : match));
  out = out.replace(TYPED_ASSIGNMENT, (match, key: string, head: string, quote: string, value: string) =>
    isSecretValue(key, value) ? `${key}${head}${quote}${hideUnder(key)(value)}${quote}` : match,
  );
  out = out.replace(QUOTED_PAIR, (match, keyQuote: string, key: string, between: string, separator: string, quote: string, value: string) =>
    // two items side by side may be a label and its text (`t("password", "Your password")`) or a
    // list of names (`['password', 'email']`): there, a value that looks like one only
    // so may `"password" to "Passwort"` in a sentence
    isSecretValue(key, value) && (!/^(?:,|to|->)$/.test(separator) || isRandomValue(value) || looksLikeData(value)) ? `${keyQuote}${key}${keyQuote}${between}${quote}${hideUnder(key)(value)}${quote}` : match,
  );
  out = replaceAssignments(out, (match, key, operator, quote, quoted, bare) => {
    if (!keyHoldsSecret(key, quoted ?? bare ?? '')) return match;
    // `DB_PASSWORD=…` is the dotenv and shell form wherever it appears (a README, a workflow): data.
    const envStyle = /^[A-Z][A-Z0-9_]*$/.test(key) && operator === '=';
    return maskAssignment(match, key + operator, quote, quoted, bare, dataFile || envStyle, hideUnder(key));
  });
  if (options.path !== undefined && languageOf(options.path) === 'text' && out.includes(REDACTED)) out = maskLineValueRest(out, LINE_VALUE_FILES.test(options.path));
  return found.size === 0 ? out : maskRepeats(out, found, options.prose === true ? 'prose' : dataFile ? 'data' : 'code');
}

/** The shortest value masked again where it repeats: shorter ones are too often a word or a number of the text. */
const MIN_REPEATED_CHARS = 8;
/**
 * In a task, a shorter value is masked again from this length when it is not all letters
 * (`hunter2`, `Zx9!kq`, a PIN): a person's short password, given once after its key and then
 * bare, was sent on in clear. Outside a task such a value is as often a version or a port.
 */
const MIN_REPEATED_MIXED_CHARS = 6;
/** A word is masked again only in a task, and only from this length: `postgres`, `Password` are words elsewhere. */
const MIN_REPEATED_WORD_CHARS = 12;
/** At most this many values are looked for again, of at most this length and this much together: each costs a pass over the text. */
const MAX_REPEATED_VALUES = 64;
const MAX_REPEATED_CHARS = 256;
const MAX_REPEATED_TOTAL_CHARS = 16_384;

/**
 * Every other occurrence of a masked value, masked too: a task that gives a password once after
 * its key and then bare (`password=…; retrying with …`) shows, searches and sends it no more.
 * Exact and case-sensitive, not inside a longer run of letters and digits, longest values first.
 * Each value is found with `indexOf`, a pass over the text apiece: one regex of the values as
 * alternatives took 28 s on a megabyte of values that start alike (V8 shares no prefix but the
 * first character), and the values are bounded in number and length together.
 */
function maskRepeats(text: string, values: ReadonlySet<string>, kind: TextKind): string {
  const repeated: string[] = [];
  let total = 0;
  for (const value of [...values].filter((v) => isRepeatable(v, kind)).sort((a, b) => b.length - a.length || (a < b ? -1 : 1))) {
    if (repeated.length >= MAX_REPEATED_VALUES || total + value.length > MAX_REPEATED_TOTAL_CHARS) break;
    repeated.push(value);
    total += value.length;
  }
  if (repeated.length === 0) return text;
  const spans: Array<[number, number]> = [];
  // characters already masked: a longer value masked here holds a shorter one
  const taken = repeated.length > 1 ? new Uint8Array(text.length) : undefined;
  for (const value of repeated) {
    for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + value.length)) {
      const end = at + value.length;
      if (isWordChar(text, at - 1) || isWordChar(text, end) || taken?.[at] === 1 || taken?.[end - 1] === 1) continue;
      taken?.fill(1, at, end);
      spans.push([at, end]);
    }
  }
  spans.sort((a, b) => a[0] - b[0]);
  let out = '';
  let done = 0;
  for (const [from, to] of spans) {
    out += text.slice(done, from) + REDACTED;
    done = to;
  }
  return out + text.slice(done);
}

/** Whether the character at `index` (a whole code point, either half of a pair) is a letter or a digit. */
function isWordChar(text: string, index: number): boolean {
  if (index < 0 || index >= text.length) return false;
  const code = text.charCodeAt(index);
  if (code < 128) return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  const start = code >= 0xdc00 && code <= 0xdfff && index > 0 ? index - 1 : index;
  return /^[\p{L}\p{N}]/u.test(String.fromCodePoint(text.codePointAt(start)!));
}

/** What a text is, for `isRepeatable`: written by a person, data (configuration, scripts), or code. */
type TextKind = 'prose' | 'data' | 'code';

/**
 * A value worth looking for again: one run without blanks (a quoted span may be words a rule
 * misread: `-p "… "` across a line), long enough not to be an ordinary word. In a file, never a
 * word (`postgres`, `non-reserved`: sqlfluff's `("PASSWORD", "non-reserved")` would mask the
 * word in its 1,000 other keyword lines), and in code no name unless too random for one (a
 * forward reference taken for a value, `private_key: "_RSAPrivateKey"`, is a class). In a task,
 * a long word is a passphrase.
 */
function isRepeatable(value: string, kind: TextKind): boolean {
  if (value.length > MAX_REPEATED_CHARS || /\s/.test(value) || value.includes(REDACTED)) return false;
  if (value.length < MIN_REPEATED_CHARS && (kind !== 'prose' || value.length < MIN_REPEATED_MIXED_CHARS || /^\p{L}+$/u.test(value))) return false;
  if (/^\p{L}+(?:[-_.]\p{L}+)*$/u.test(value)) return kind === 'prose' && value.length >= MIN_REPEATED_WORD_CHARS;
  // a path named as the value (`password: ../secrets/db-password.txt`) is where a secret is, not it
  if (kind !== 'prose' && PATH_LIKE.test(value)) return false;
  // in code, a name or an expression taken for a value (`&self.password`, `this.#password`,
  // `user.password!!`) would be masked at every use: only one too random for a name is spread
  if (kind !== 'code' || !EXPRESSION_LIKE.test(value)) return true;
  return /^[A-Za-z_$][\w$]*$/.test(value) && looksLikeData(value);
}

/** A name, a member chain, a dereference or an unwrap: what code writes where a value may stand. */
const EXPRESSION_LIKE = /^[&*!]*[A-Za-z_$#][\w$#]*(?:(?:\.|->|::|\?\.)[A-Za-z_$#][\w$#]*)*(?:!!|[!?])?$/;
const PATH_LIKE = /^(?:\.{1,2}\/|~\/|\/)/;

/** A value as a quoted or listed item writes it (`"…",`): without its quotes and its comma. */
function unquoted(value: string): string {
  const item = value.trim().replace(/[,;]$/, '');
  return /^(["'`]).+\1$/.test(item) ? item.slice(1, -1) : item;
}

/** A command-line flag's value (`-p '…'`, `-p…`): masked unless a reference (`"$PASS"`); quotes kept. */
function maskFlagValue(match: string, head: string, quote: string | undefined, quoted: string | undefined, bare: string | undefined, hide: Hide): string {
  const value = quoted ?? bare ?? '';
  if (isReference(value)) return match;
  return quote === undefined ? `${head}${hide(value)}` : `${head}${quote}${hide(value)}${quote}`;
}

/**
 * A value masked by its first word whose line goes on (`password: correct horse battery staple`):
 * the rest of it masked too, up to a comment. A `key: value` line anywhere in a text file; a
 * `key = value` one in configuration formats only. Cut in code, in linear time: a regex for it
 * backtracked over long runs of spaces.
 */
function maskLineValueRest(text: string, equalsToo: boolean): string {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.includes(REDACTED)) continue;
    const head = LINE_VALUE_HEAD.exec(line);
    if (!head || (head[1] === '=' && !equalsToo)) continue;
    const rest = line.slice(head[0].length);
    if (!/^[ \t]+[^\s#;]/.test(rest)) continue;
    const comment = rest.search(/[#;]/);
    const value = comment < 0 ? rest : rest.slice(0, comment);
    const kept = value.length - value.trimEnd().length;
    lines[i] = head[0] + value.slice(value.length - kept) + (comment < 0 ? '' : rest.slice(comment));
  }
  return lines.join('\n');
}

/** `YAML_KEY_LINE` with a secret-named key: the first line of its value, indented below it, masked. */
function maskNextLineValues(text: string, hide: Hide): string {
  const lines = text.split('\n');
  for (let i = 0; i + 1 < lines.length; i++) {
    const key = YAML_KEY_LINE.exec(lines[i]!.replace(/\r$/, ''));
    if (!key || secretKeyKind(key[3]!) !== 'strong') continue;
    const next = /^([ \t]+)(\S.*?)(\r?)$/.exec(lines[i + 1]!);
    if (!next || next[1]!.length <= key[1]!.length || next[2]!.includes(REDACTED) || isReference(next[2]!) || /^[A-Za-z_][\w.-]*[ \t]*:/.test(next[2]!) || next[2]!.startsWith('- ')) continue;
    lines[i + 1] = `${next[1]}${hide(unquoted(next[2]!))}${next[3]}`;
  }
  return lines.join('\n');
}

/**
 * `ENV_ENTRY_NAME` with a secret-named name, and the `value` on the next line: the value masked
 * (its quotes and comma kept). A reference (`$(DB_PASSWORD)`, `{{ … }}`) and `valueFrom:` stay,
 * and in code a bare name (a variable).
 * The value is cut in code: a regex ending in optional blanks backtracks over long runs of them.
 */
function maskEnvEntryValues(text: string, hideUnder: (key: string) => Hide, dataFile: boolean): string {
  const lines = text.split('\n');
  for (let i = 0; i + 1 < lines.length; i++) {
    const name = ENV_ENTRY_NAME.exec(lines[i]!);
    if (!name) continue;
    const entry = ENV_ENTRY_VALUE.exec(lines[i + 1]!);
    if (!entry) continue;
    const [, head, , rest] = entry as unknown as [string, string, string, string];
    const quote = /^["'`]/.test(rest) ? rest[0]! : '';
    const end = quote === '' ? bareValueEnd(rest) : rest.indexOf(quote, 1);
    const value = quote === '' ? rest.slice(0, Math.max(end, 0)) : rest.slice(1, Math.max(end, 1));
    if (value === '' || !isSecretValue(name[3]!, value)) continue;
    // in code a bare word is a variable (`{ name: "password", value: userPassword }`), as in `maskAssignment`
    if (quote === '' && !dataFile && !looksLikeData(value)) continue;
    lines[i + 1] = `${head}${quote}${hideUnder(name[3]!)(value)}${rest.slice(end)}`;
  }
  return lines.join('\n');
}

/** Where a bare YAML value ends: before a comment, a trailing comma, blanks or a `\r`. */
function bareValueEnd(body: string): number {
  const comment = body.search(/[ \t]#/);
  const value = (comment < 0 ? body : body.slice(0, comment)).trimEnd();
  return value.endsWith(',') ? value.length - 1 : value.length;
}

/**
 * `ASSIGNMENT` replaced left to right, where a match left as it is gives its value back: in prose
 * (`login fails: password = "…"`) the first "assignment" is `fails: password`, and the real one
 * starts at its value.
 */
function replaceAssignments(text: string, mask: (match: string, key: string, operator: string, quote: string | undefined, quoted: string | undefined, bare: string | undefined) => string): string {
  const pattern = new RegExp(ASSIGNMENT.source, 'g');
  let out = '';
  let done = 0;
  // where the last bare run measured past the regex's bound ends: a later value starting inside it ends there too
  let runEnd = -1;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    const [, key, operator] = m as unknown as [string, string, string];
    let [match] = m;
    let bare = m[5];
    if (bare !== undefined && bare.length === 256) {
      const start = m.index + match.length - bare.length;
      if (start >= runEnd) {
        BARE_RUN.lastIndex = start;
        BARE_RUN.exec(text);
        runEnd = BARE_RUN.lastIndex;
      }
      bare = text.slice(start, runEnd);
      match = text.slice(m.index, runEnd);
    }
    const replaced = mask(match, key, operator, m[3], m[4], bare);
    if (replaced === match) {
      // rescan from the value: it may be the key of the next assignment
      pattern.lastIndex = m.index + key.length + operator.length;
      continue;
    }
    out += text.slice(done, m.index) + replaced;
    done = m.index + match.length;
    pattern.lastIndex = done;
  }
  return out + text.slice(done);
}

function maskAssignment(match: string, head: string, quote: string | undefined, quoted: string | undefined, bare: string | undefined, dataFile: boolean, hide: Hide): string {
  if (quoted !== undefined) {
    if (quoted.includes(REDACTED) || isReference(quoted)) return match;
    return `${head}${quote}${hide(quoted)}${quote}`;
  }
  const value = bare ?? '';
  if (value === '' || value.includes(REDACTED) || isReference(value)) return match;
  // In code a bare word is a variable (`password = user_password`); a value needs a data shape.
  if (!dataFile && !looksLikeData(value)) return match;
  return `${head}${hide(value)}`;
}

/**
 * A reference or a placeholder, not a value: `config.password`, `process.env.TOKEN`, `${DB_PASS}`,
 * `{{ secret }}`, `%s`, `<your-token>`, `true`, `None`, a type name, a call, a regex, a URL
 * without credentials, an environment variable's name, a value naming a secret (`'refresh_token'`).
 */
function isReference(value: string): boolean {
  const plain = value.replace(/[!?]$/, '');
  return (
    /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(plain) ||
    /^(?:true|false|null|nil|none|undefined|string|str|number|int|bool|boolean|bytes|required|optional|changeme|xxx+|\*+)$/i.test(plain) ||
    /^[=<>~^/\\{[(|]/.test(value) ||
    /^(?:\$\{.*|\$[A-Za-z_0-9][\w]*|\$\(.*|\{\{.*\}\}|\{[A-Za-z_]\w*\}|%[sdr]|%\([^)]*\)s|<[^>]*>|\[[^\]]*\]|os\.environ.*|process\.env.*|ENV\[.*)$/.test(value) ||
    /^[A-Za-z_$][\w$.]*\(/.test(value) ||
    /^[a-z][a-z0-9+.-]*:\/\/[^@\s]*$/i.test(value) ||
    /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(value) ||
    (/^[a-z]+(?:_[a-z]+)*$/.test(value) && secretKeyKind(value) !== undefined) ||
    // an error's class named after the key, as a report writes it (`Failed to read password:
    // PasswordDecryptionException`): a name the task is about, which masked was never searched
    ERROR_CLASS.test(plain)
  );
}

/** A class name ending as errors' do (`SecretNotFoundException`, `MalformedTokenError2`). */
const ERROR_CLASS = /^[A-Z][A-Za-z0-9]*(?:Exception|Error|Failure|Fault)\d{0,3}$/;

/** Eight or more characters without spaces, with a digit and a letter. */
function isRandomValue(value: string): boolean {
  return value.length >= 8 && !/\s/.test(value) && /[0-9]/.test(value) && /[A-Za-z]/.test(value);
}

/** A bare value in code that is not an identifier: it has a digit or a symbol a name cannot have, or is a name too random for one. */
function looksLikeData(value: string): boolean {
  // a name-shaped run of mixed case and digits scattered through it, long, is generated
  // (`Xk9mQ2vL8rT4wZ6p`), not a variable (`createO200KSpecialTokenMap` has one run of digits)
  if (/^[A-Za-z_$][\w$]*[!?]?$/.test(value)) return value.length >= 12 && (value.match(/[0-9]+/g)?.length ?? 0) >= 3 && (value.match(/[A-Z]/g)?.length ?? 0) >= 2 && (value.match(/[a-z]/g)?.length ?? 0) >= 2;
  // Brackets, parentheses, member access: an expression (`apps[0]`, `tokens.get(i)`).
  if (!/^[A-Za-z0-9+/=_.~!@#%^&*-]+$/.test(value)) return false;
  // A number in code is a setting (`maxTokens: 4096`, `TOKEN_TTL = 3600`), not a credential.
  if (/^[0-9.]+$/.test(value)) return false;
  return value.length >= 6 && /[0-9+/=!@#%^&*~-]/.test(value);
}

/** Mixed case and a digit: a base64 run rather than a long word. */
function isRandomLooking(body: string): boolean {
  return /[0-9]/.test(body) && /[a-z]/.test(body) && /[A-Z]/.test(body);
}

/** Files whose values are literals: data and configuration formats, shell scripts, Dockerfiles, Makefiles. */
function isDataFile(path: string): boolean {
  const language = languageOf(path);
  return language === 'text' || language === 'shell' || language === 'docker' || language === 'make';
}
