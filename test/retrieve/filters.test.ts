import { describe, expect, it } from 'vitest';
import { skipReason } from '../../src/retrieve/filters.js';

const MB = 1_000_000;

describe('skipReason', () => {
  it('keeps ordinary source, docs and build output', () => {
    for (const path of ['src/history.ts', 'docs/history.md', 'src/auth/verify.ts', 'README.md', 'dist/index.js', 'build/lib/x.py', 'lib/secrets.py', 'src/credentials.ts', '.gitignore', 'docs/environment.md', 'docker/config.json', 'src/keyboard.ts', 'src/tokens.py', 'infra/main.tf', 'src/gcloud/client.go']) {
      expect(skipReason(path, 100, MB), path).toBeUndefined();
    }
  });

  it.each([
    ['node_modules/left-pad/index.js', 'vendored'],
    ['a/vendor/github.com/x/y.go', 'vendored'],
    ['third_party/zlib/zlib.h', 'vendored'],
    ['.venv/lib/python3.12/site-packages/x.py', 'vendored'],
    ['pkg/__pycache__/m.cpython-312.pyc', 'vendored'],
    ['api/service.pb.go', 'generated'],
    ['proto/user_pb2.py', 'generated'],
    ['proto/user_pb2_grpc.py', 'generated'],
    ['static/app.js.map', 'generated'],
    ['static/app.bundle.js', 'generated'],
    ['static/jquery.min.js', 'minified'],
    ['static/site.MIN.css', 'minified'],
    ['package-lock.json', 'lock'],
    ['web/yarn.lock', 'lock'],
    ['Cargo.lock', 'lock'],
    ['go.sum', 'lock'],
    ['flake.lock', 'lock'],
    ['.env', 'secret'],
    ['config/.env.production', 'secret'],
    ['certs/server.pem', 'secret'],
    ['tls.key', 'secret'],
    ['home/.ssh/config', 'secret'],
    ['.aws/credentials', 'secret'],
    ['deploy/id_rsa', 'secret'],
    ['deploy/id_ed25519.pub', 'secret'],
    ['credentials.json', 'secret'],
    ['secrets.yaml', 'secret'],
    ['gcp/service-account-prod.json', 'secret'],
    ['.npmrc', 'secret'],
    ['.envrc', 'secret'],
    ['.git-credentials', 'secret'],
    ['db/.pgpass', 'secret'],
    ['.my.cnf', 'secret'],
    ['web/.htpasswd', 'secret'],
    ['.docker/config.json', 'secret'],
    ['.kube/config', 'secret'],
    ['home/.gnupg/pubring.kbx', 'secret'],
    ['home/.config/gcloud/application_default_credentials.json', 'secret'],
    ['.azure/accessTokens.json', 'secret'],
    ['infra/terraform.tfstate', 'secret'],
    ['infra/terraform.tfstate.backup', 'secret'],
    ['infra/prod.tfvars', 'secret'],
    ['ios/AuthKey_ABC123.p8', 'secret'],
    ['keys/server.ppk', 'secret'],
    ['android/release.jks', 'secret'],
    ['deploy/id_ecdsa', 'secret'],
    ['client_secret_1234.apps.googleusercontent.com.json', 'secret'],
    ['firebase/app-firebase-adminsdk-x1y2z.json', 'secret'],
    ['.vault-token', 'secret'],
    ['vpn/office.ovpn', 'secret'],
    // docker compose's env_file: read, and a password in it shown (masking guesses by name and shape)
    ['deploy/prod.env', 'secret'],
    ['app.env', 'secret'],
    // copies kept aside hold the same secrets (each was packed in clear)
    ['.npmrc.bak', 'secret'],
    ['home/.netrc~', 'secret'],
    ['sub/.pgpass.orig', 'secret'],
    ['.env ', 'secret'],
    ['deploy/id_rsa.old', 'secret'],
    ['certs/server.key.1', 'secret'],
    ['config/pgpass.conf', 'secret'],
    ['deploy/pgpass', 'secret'],
    // shell and REPL histories keep what was typed: `export TOKEN=…`, `mysql -p…`
    ['home/.bash_history', 'secret'],
    ['.zsh_history', 'secret'],
    ['.history', 'secret'],
    ['ops/.psql_history', 'secret'],
    ['.mysql_history', 'secret'],
    ['.python_history', 'secret'],
    ['.node_repl_history', 'secret'],
    ['.bash_history.bak', 'secret'],
    ['img/logo.PNG', 'binary'],
    ['fonts/a.woff2', 'binary'],
    ['bin/app.exe', 'binary'],
    ['data/model.sqlite', 'binary'],
  ])('%s → %s', (path, reason) => {
    expect(skipReason(path, 10, MB)).toBe(reason);
  });

  it('keeps a copy of a file that holds no secret', () => {
    for (const path of ['src/config.ts.bak', 'notes.txt~', 'lib/parser.py.orig', 'docs/env.md.old']) expect(skipReason(path, 10, MB), path).toBeUndefined();
  });

  it('skips files over the size limit, and only those', () => {
    expect(skipReason('src/big.ts', MB + 1, MB)).toBe('oversized');
    expect(skipReason('src/big.ts', MB, MB)).toBeUndefined();
  });
});
