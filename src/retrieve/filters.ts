/**
 * The built-in skips: files never searched whatever the .gitignore says. One list feeds the
 * predicate used on listed paths and the negated globs handed to ripgrep, so both agree.
 * Matching is case-insensitive on every platform (`Cargo.LOCK` is still a lock file).
 */
import { extensionOf, languageOf } from '../core/files.js';

export type SkipReason = 'vendored' | 'generated' | 'lock' | 'minified' | 'secret' | 'binary' | 'oversized';

/** Directories of third-party or tool-managed code. Build output (dist, build) is kept: it is only demoted later. */
export const VENDORED_DIRS = ['node_modules', 'vendor', 'third_party', 'bower_components', '.venv', 'venv', 'site-packages', '__pycache__', '.git'] as const;

/** Directories holding credentials: cloud CLIs, SSH, GnuPG, kubectl. */
const SECRET_DIRS = ['.aws', '.ssh', '.gnupg', '.azure', '.kube'] as const;

const VENDORED = new Set<string>(VENDORED_DIRS);
const SECRET_DIR_NAMES = new Set<string>(SECRET_DIRS);

/** Directories never entered: vendored code and secret stores. */
export const PRUNED_DIRS: readonly string[] = [...VENDORED_DIRS, ...SECRET_DIRS];

/** Credential files known by their place rather than their name alone. */
const SECRET_PATHS = /(?:^|\/)(?:\.docker\/config\.json|\.config\/gcloud\/.*|\.gem\/credentials|\.m2\/settings(?:-security)?\.xml)$/;

const LOCK_NAMES = new Set(['package-lock.json', 'yarn.lock', 'pnpm-lock.yaml', 'cargo.lock', 'poetry.lock', 'go.sum', 'composer.lock', 'gemfile.lock']);

const MINIFIED = /\.min\.(?:js|css)$/;
const GENERATED = /(?:\.pb\.go|_pb2\.py|_pb2_grpc\.py|\.map|\.bundle\.js)$/;

/**
 * Files that exist to hold credentials: dotenv, package-registry tokens, netrc, database and cloud
 * CLI logins; and the history files of shells and REPLs, which keep every `export TOKEN=…`,
 * `mysql -p…` and `ALTER USER` typed, committed by mistake with a home directory.
 */
const SECRET_NAMES = new Set([
  '.env', '.envrc', '.npmrc', '.pypirc', '.netrc', '_netrc', '.git-credentials', '.pgpass', '.my.cnf', '.htpasswd',
  '.boto', '.s3cfg', '.dockercfg', '.vault-token', '.terraformrc', 'terraform.rc', 'kubeconfig',
  'application_default_credentials.json', 'terraform.tfvars', 'terraform.tfvars.json', 'pgpass', 'pgpass.conf',
  '.bash_history', '.zsh_history', '.sh_history', '.history', '.psql_history', '.mysql_history', '.sqlite_history',
  '.rediscli_history', '.python_history', '.node_repl_history',
]);
/**
 * A copy of a file kept aside (`.npmrc.bak`, `.netrc~`, `.pgpass.orig`, an editor's `.env.swp`,
 * a name with a stray space): the same secrets under a name the list above did not know.
 */
const BACKUP_SUFFIX = /(?:\.(?:bak|backup|orig|old|save|sav|swp|swo|tmp|copy|[0-9]+)|~|\s)+$/i;
/** Key stores, private keys and state files that hold secrets (Terraform state keeps them in clear). */
/** `env`: dotenv files named as docker compose's `env_file` has them (`prod.env`, `app.env`). */
const SECRET_EXTENSIONS = new Set(['pem', 'key', 'p12', 'pfx', 'p8', 'ppk', 'jks', 'jceks', 'bks', 'keystore', 'keychain', 'kdbx', 'gpg', 'pgp', 'tfstate', 'tfvars', 'ovpn', 'env']);
const SECRET_PREFIXES = /^(?:\.env\.|id_rsa|id_ed25519|id_ecdsa|id_dsa|service-account.*\.json$|client_secret.*\.json$|.*-adminsdk-.*\.json$|.*\.tfstate\.backup$)/;
/**
 * `credentials*` and `secrets.*` are secrets when they hold data (`credentials.json`,
 * `secrets.yaml`) but source code when they have a language extension (`secrets.py` is a
 * Python standard module, `credentials.ts` may be what the task is about).
 */
const SECRET_DATA = /^(?:credentials|secrets\.)/;

/** Binary formats recognised by extension; ripgrep still skips binary content it meets anywhere else. */
export const BINARY_EXTENSIONS: readonly string[] = [
  // images
  'png', 'jpg', 'jpeg', 'gif', 'bmp', 'ico', 'icns', 'webp', 'tif', 'tiff', 'psd', 'avif', 'heic', 'xcf',
  // fonts
  'ttf', 'otf', 'woff', 'woff2', 'eot',
  // archives and packages
  'zip', 'tar', 'gz', 'tgz', 'bz2', 'xz', 'zst', '7z', 'rar', 'jar', 'war', 'ear', 'whl', 'egg', 'deb', 'rpm', 'dmg', 'iso', 'apk', 'ipa', 'msi', 'nupkg',
  // executables and objects
  'exe', 'dll', 'so', 'dylib', 'bin', 'o', 'obj', 'a', 'lib', 'class', 'pyc', 'pyo', 'pyd', 'wasm', 'node',
  // media
  'mp3', 'mp4', 'm4a', 'aac', 'wav', 'ogg', 'flac', 'avi', 'mov', 'mkv', 'webm', 'wmv',
  // documents
  'pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'odt', 'ods', 'odp',
  // databases and data blobs
  'sqlite', 'sqlite3', 'db', 'npy', 'npz', 'pkl', 'pickle', 'h5', 'hdf5', 'parquet', 'onnx', 'pt', 'pth', 'ckpt', 'safetensors', 'tflite',
];
const BINARY = new Set(BINARY_EXTENSIONS);

/**
 * Why a file is passed over, or undefined when it is searchable.
 * `path` is root-relative POSIX; `size` in bytes.
 */
export function skipReason(path: string, size: number, maxFileSize: number): SkipReason | undefined {
  const lower = path.toLowerCase();
  const dirs = lower.split('/');
  const base = dirs.pop() ?? '';
  if (dirs.some((d) => VENDORED.has(d))) return 'vendored';
  if (isSecret(lower, base, dirs)) return 'secret';
  if (LOCK_NAMES.has(base) || base.endsWith('.lock')) return 'lock';
  if (MINIFIED.test(base)) return 'minified';
  if (GENERATED.test(base)) return 'generated';
  if (BINARY.has(extensionOf(base))) return 'binary';
  if (size > maxFileSize) return 'oversized';
  return undefined;
}

/** `lower`: the whole path in lower case; `base` its last segment, `dirs` the others. */
function isSecret(lower: string, base: string, dirs: readonly string[]): boolean {
  if (dirs.some((d) => SECRET_DIR_NAMES.has(d))) return true;
  if (SECRET_PATHS.test(lower)) return true;
  if (SECRET_NAMES.has(base) || SECRET_PREFIXES.test(base)) return true;
  if (SECRET_EXTENSIONS.has(extensionOf(base))) return true;
  const kept = base.replace(BACKUP_SUFFIX, '');
  if (kept !== base && kept !== '' && (SECRET_NAMES.has(kept) || SECRET_PREFIXES.test(kept) || SECRET_EXTENSIONS.has(extensionOf(kept)))) return true;
  return SECRET_DATA.test(base) && languageOf(base) === 'text';
}

/** Negated globs for ripgrep that keep the walk out of vendored and secret directories. */
export function ripgrepPruneGlobs(): string[] {
  return PRUNED_DIRS.map((dir) => `!${dir}/`);
}

/**
 * Negated globs for ripgrep (`--iglob`, gitignore syntax: a name without a slash matches at
 * any depth). They prune the walk; rg's results are still filtered through `skipReason`, so a
 * rule left out here (the `credentials*` exception) costs time, never correctness.
 */
export function ripgrepSkipGlobs(): string[] {
  return [
    ...ripgrepPruneGlobs(),
    ...[...LOCK_NAMES, '*.lock'].map((name) => `!${name}`),
    '!*.min.js', '!*.min.css', '!*.pb.go', '!*_pb2.py', '!*_pb2_grpc.py', '!*.map', '!*.bundle.js',
    ...[...SECRET_NAMES, '.env.*', 'id_rsa*', 'id_ed25519*', 'id_ecdsa*', 'id_dsa*', 'service-account*.json', 'client_secret*.json', '*-adminsdk-*.json', '*.tfstate.backup'].map((name) => `!${name}`),
    `!*.{${[...SECRET_EXTENSIONS].join(',')}}`,
    `!*.{${BINARY_EXTENSIONS.join(',')}}`,
  ];
}
