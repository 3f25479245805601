import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets } from '../../src/core/redact.js';

const PEM = ['-----BEGIN RSA PRIVATE KEY-----', 'MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB', 'aFDrBz9vFqU4yN0BhN9n3HP8KbjNr6rFgq0y1mV0dG5z8Q6s3mT1kN2L+4t9wN/E', '-----END RSA PRIVATE KEY-----'].join('\n');

describe('redactSecrets', () => {
  it.each([
    ['const API_KEY = "sk-live-4f9a8b7c6d5e4f3a2b1c0d9e";', 'sk-live-4f9a8b7c6d5e4f3a2b1c0d9e'],
    ['key: sk-ant-api03-abcdefghijklmnopqrstu', 'sk-ant-api03-abcdefghijklmnopqrstu'],
    ['OPENAI = "sk-proj-Abc123Def456Ghi789Jkl012"', 'sk-proj-Abc123Def456Ghi789Jkl012'],
    ['legacy sk-A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0U1v2W3x4', 'sk-A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0U1v2W3x4'],
    ["aws = 'AKIAIOSFODNN7EXAMPLE'", 'AKIAIOSFODNN7EXAMPLE'],
    ['token ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789'],
    ['pat = github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz', 'github_pat_11ABCDEFG0123456789'],
    ['CI_TOKEN: glpat-abcdefghij0123456789', 'glpat-abcdefghij0123456789'],
    ['//registry.npmjs.org/:_authToken=npm_abcdefghijklmnopqrstuvwxyz0123456789', 'npm_abcdefghijklmnopqrstuvwxyz0123456789'],
    ['SLACK=xoxb-123456789012-abcdefghij', 'xoxb-123456789012-abcdefghij'],
    ['hook = "https://hooks.slack.com/services/T0000AAAA/B0000BBBB/abcdefghijklmnopqrstuvwx"', 'T0000AAAA/B0000BBBB'],
    ['stripe.api_key = "sk_live_51HxYzABCDEF1234567890"', 'sk_live_51HxYzABCDEF1234567890'],
    ['endpoint_secret = "whsec_abcdefghijklmnopqrstuvwxyz012345"', 'whsec_abcdefghijklmnopqrstuvwxyz012345'],
    ['maps = "AIzaSyA1234567890abcdefghijklmnopqrstuv"', 'AIzaSyA1234567890abcdefghijklmnopqrstuv'],
    ['"client_secret": "GOCSPX-abcdefghijklmnopqrstuvwx"', 'GOCSPX-abcdefghijklmnopqrstuvwx'],
    ['access = ya29.a0AfH6SMBx1234567890abcdefghij', 'ya29.a0AfH6SMBx1234567890abcdefghij'],
    ['AZURE_CLIENT_SECRET=abc8Q~abcdefghijklmnopqrstuvwxyz0123456', 'abc8Q~abcdefghijklmnopqrstuvwxyz0123456'],
    ['"DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=AbC+dEf/123==;EndpointSuffix=core.windows.net"', 'AbC+dEf/123=='],
    ['https://acct.blob.core.windows.net/c?sv=2020-08-04&sig=AbCdEf%2Bg123xyz&se=2030', 'AbCdEf%2Bg123xyz'],
    ['SENDGRID = "SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG"', 'SG.abcdefghijklmnopqrstuv'],
    ['Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U', 'eyJhbGciOiJIUzI1NiJ9'],
    ['headers["Authorization"] = "Bearer abc123def456ghi789jkl"', 'abc123def456ghi789jkl'],
    ['url = "postgres://app:hunter2-db-password@db:5432/app"', 'hunter2-db-password'],
    ['REDIS_URL=redis://:s3cretpass@cache:6379/0', 's3cretpass'],
    ['jdbc:mysql://db/app?user=root&password=toor123', 'toor123'],
    ['"Server=tcp:db;Database=app;User Id=sa;Password=Pa55w0rd;"', 'Pa55w0rd'],
    ['<connection><password>Tr0ub4dor</password></connection>', 'Tr0ub4dor'],
    ['password = "correct horse battery"', 'correct horse battery'],
    ['DB_PASSWORD=s3cr3tValue99', 's3cr3tValue99'],
    ['"client_secret": "abcd1234efgh5678"', 'abcd1234efgh5678'],
    ['conn = connect(host, password="hunter2")', 'hunter2'],
    ['dbPass := "pa55word"; password := "hunter2"', 'hunter2'],
    ['BOT_TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"', 'AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw'],
    [PEM, 'MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn'],
    ['"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\\n-----END PRIVATE KEY-----\\n"', 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC'],
  ])('masks %s', (text, secret) => {
    const out = redactSecrets(text);
    expect(out).not.toContain(secret);
    expect(out).toContain(REDACTED);
  });

  it.each([
    ['config/database.yml', 'password: hunter2', 'hunter2'],
    ['app.properties', 'db.password=s3cret!', 's3cret!'],
    ['settings.ini', 'api_key = abcdefgh', 'abcdefgh'],
    ['deploy.sh', 'export db_password=letmein', 'letmein'],
    ['docker-compose.yaml', '      POSTGRES_PASSWORD: example', 'example'],
  ])('masks any bare value after a secret-named key in a data file or script (%s)', (path, text, secret) => {
    expect(redactSecrets(text, { path })).not.toContain(secret);
    // in code the same bare word would be a variable, and stays
    expect(redactSecrets(text, { path: 'src/app.py' })).toContain(secret);
  });

  it.each([
    ['login fails: password = "Hunter2Planted" in settings', 'Hunter2Planted'],
    ['retry=3 timeout=10 api_key="q8Zx7Lp2Vb6Nc4Mm1Kj9"', 'q8Zx7Lp2Vb6Nc4Mm1Kj9'],
    ['see note: secret: "Wq9Zp3Lk7Xc2Vb5Nm8Aa"', 'Wq9Zp3Lk7Xc2Vb5Nm8Aa'],
  ])('masks an assignment that follows another "key: value" in prose (%s)', (text, secret) => {
    const out = redactSecrets(text);
    expect(out).not.toContain(secret);
    expect(out).toContain('[REDACTED]');
  });

  it('keeps a key block line for line, so line numbers stay true', () => {
    const text = `before\n${PEM}\nafter`;
    const out = redactSecrets(text);
    expect(out.split('\n')).toHaveLength(text.split('\n').length);
    expect(out.split('\n')[0]).toBe('before');
    expect(out.split('\n').at(-1)).toBe('after');
  });

  it('masks the body of a key block whose BEGIN line is elsewhere', () => {
    const body = PEM.split('\n').slice(1, 3).join('\n');
    expect(redactSecrets(body)).toBe(`${REDACTED}\n${REDACTED}`);
  });

  it.each([
    'const password = input.value;',
    'if (token === undefined) return;',
    'function verifyEmail(address: string): boolean {',
    'const apiKey = process.env.OPENAI_API_KEY;',
    'https://example.com/docs/page',
    'apiKey: anthropicKey!,',
    "const key = provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';",
    "export const GRANT_TYPE_REFRESH_TOKEN = 'refresh_token';",
    'app, token := apps[0], tokens[0]',
    'importToken := nestedApi.Import[0].Import',
    'search_token = "async"',
    'maxTokens: 4096,',
    'const tokenizer = "o200k_base";',
    'password_field = "password"',
    'self.password = password_hash',
    'password: ${{ secrets.PYPI_TOKEN }}',
    'connect(password=password, user=user)',
    'token = tokenize(text)',
    'pwd = os.getcwd()',
    '"registry-auth-token": "^4.0.0",',
    'struct sk_buff *skb = sk_buff_alloc_node(len);',
    'const SECRET_PREFIXES = /^(?:\\.env\\.|id_rsa)/;',
    'git checkout a94a8fe5ccb19ba61c4c0873d391e987982fbbd3',
    'id = "550e8400-e29b-41d4-a716-446655440000"',
    'const spinner = "sk-spinner-container-large";',
    "fetch(url, { credentials: 'include' })",
  ])('keeps ordinary code: %s', (text) => {
    expect(redactSecrets(text)).toBe(text);
  });

  it('leaves real source files as they are: this project and the two provider SDKs', () => {
    const root = resolve(__dirname, '../..');
    const files = [...listTs(join(root, 'src')).filter((f) => !f.endsWith('core/redact.ts')), join(root, 'node_modules/openai/src/client.ts'), join(root, 'node_modules/@anthropic-ai/sdk/src/client.ts')];
    expect(files.length).toBeGreaterThan(100);
    const changed: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const out = redactSecrets(text, { path: relative(root, file) });
      if (out !== text) changed.push(relative(root, file));
    }
    expect(changed).toEqual([]);
  });

  it('survives a 12 MB line of base64 letters (a model reply of this crashed it: the stack overflowed in the base64 rule)', () => {
    expect(redactSecrets('a'.repeat(12_000_000))).toHaveLength(12_000_000);
  });

  it('stays linear on a megabyte-long line of dotted names and URL-like runs', () => {
    const line = 'a.'.repeat(300_000) + 'b://'.repeat(50_000) + 'x='.repeat(100_000);
    expect(redactSecrets(line)).toHaveLength(line.length);
  });

  it('stays linear on a line of assignments whose values run to its end (`a:a:a:…` read to the end at every `a:` took minutes on a 1 MB file)', () => {
    for (const unit of ['a:', 'a=', 'a:=']) {
      const line = `const t = "${unit.repeat(400_000)}";`;
      expect(redactSecrets(line, { path: 'src/a.ts' })).toBe(line);
      expect(redactSecrets(line, { prose: true })).toBe(line);
    }
  });

  it('masks the rest of a line value in linear time (a regex for it backtracked over long runs of spaces: minutes a line)', () => {
    const line = `password: Xk9mQ2vL8rT4wZ6p a${' '.repeat(200_000)}b\n`;
    const started = performance.now();
    expect(redactSecrets(line, { path: 'config/mail.txt' })).toBe(`password: ${REDACTED}\n`);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('masks a bare value longer than the assignment rule reads at once, whole', () => {
    const value = 'Q9f'.repeat(400);
    expect(redactSecrets(`API_KEY=${value}\nNEXT=1\n`, { path: '.env' })).toBe('API_KEY=[REDACTED]\nNEXT=1\n');
    expect(redactSecrets(`password: ${value} # trailing\n`, { path: 'config.yml' })).toBe('password: [REDACTED] # trailing\n');
  });
});

function listTs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? listTs(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

describe('redactSecrets on passwords written as tools write them (each came out in clear)', () => {
  it.each([
    ['export PGPASSWORD=Hx7pQ2vLm9Rt4WzA', `export PGPASSWORD=${REDACTED}`, 'scripts/deploy.sh'],
    ['export DB_PASS=Kd83jfLq0PzX7mNa', `export DB_PASS=${REDACTED}`, 'scripts/deploy.sh'],
    ['export SMTP_PASS="Yt5rEw3qAz8xSc1v"', `export SMTP_PASS="${REDACTED}"`, 'scripts/deploy.sh'],
    ['HTPASSWD=Gh5jKl4zXc3vBn2m', `HTPASSWD=${REDACTED}`, '.env'],
    ['curl -u deploy:Pl0kIj9uHy8gTf7r https://ci/x', `curl -u deploy:${REDACTED} https://ci/x`, 'ci.sh'],
    ['mysql -u root -pWs2xEd3cRf4vTg5b db', `mysql -u root -p${REDACTED} db`, 'ci.sh'],
    // long options with `=`, quoted or not, and a key after a lone dot
    ['mysql --user=root --password=Zq8vN3kL9pX2mR7t --host=db', `mysql --user=root --password=${REDACTED} --host=db`, 'deploy.sh'],
    ['psql "--password=Zq8vN3kL9pX2mR7t" -c 1', `psql "--password=${REDACTED}" -c 1`, 'deploy.sh'],
    ['./tool --api-key=Zq8vN3kL9pX2mR7t --db-password=Zq8vN3kL9pX2mR7t -token=Zq8vN3kL9pX2mR7t', `./tool --api-key=${REDACTED} --db-password=${REDACTED} -token=${REDACTED}`, 'Makefile'],
    ['.password=Zq8vN3kL9pX2mR7t', `.password=${REDACTED}`, 'app.properties'],
    // registry logins and sshpass take -p as the password; keys that end in a password word; a libpq DSN; GitHub's lowercase `token`
    ['docker login -u mailer -p Hq3Zt8Wm5Ks2Nv7R r.io', `docker login -u mailer -p ${REDACTED} r.io`, 'deploy.sh'],
    ['sshpass -pHq3Zt8Wm5Ks2Nv7R ssh host', `sshpass -p${REDACTED} ssh host`, 'deploy.sh'],
    ['smtp_pass Xk9mQ2vL8rT4wZ6p\nDBPassword Xk9mQ2vL8rT4wZ6p\nVERIFY_SMTP_PASSWORD Xk9mQ2vL8rT4wZ6p', `smtp_pass ${REDACTED}\nDBPassword ${REDACTED}\nVERIFY_SMTP_PASSWORD ${REDACTED}`, 'svc.conf'],
    ['conn = psycopg2.connect("host=db user=mailer password=Qz7Lp2Vx9Rk4Mw8N")', `conn = psycopg2.connect("host=db user=mailer password=${REDACTED}")`, 'mail.py'],
    ['requests.get(u, headers={"Authorization": "token 4f2c1e9b8a7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b"})', `requests.get(u, headers={"Authorization": "token ${REDACTED}"})`, 'gh.py'],
    // a value running to the end of its line, in a configuration file: all of it
    ['password: correct horse battery staple\nuser: bob', `password: ${REDACTED}\nuser: bob`, 'config.yml'],
    ['db.password=correct horse 3 staples  # rotated\n', `db.password=${REDACTED}  # rotated\n`, 'app.properties'],
    // a shell line in a README keeps its command
    ['Run `DB_PASSWORD=Qz7Lp2Vx9 npm start`, then open the app.', `Run \`DB_PASSWORD=${REDACTED} npm start\`, then open the app.`, 'README.md'],
    ['requirepass Zq8wXc7vBn6mLk5jRD', `requirepass ${REDACTED}`, 'redis.conf'],
    ['machine github.com login bob password Zq8wXc7vBn6mLk5jNN', `machine github.com login bob password ${REDACTED}`, 'netrc'],
    ['db:\n  password:\n    Zq8wXc7vBn6mLk5jY1\n  secret: |\n    Zq8wXc7vBn6mLk5jY3\n  host: db', `db:\n  password:\n    ${REDACTED}\n  secret: |\n    ${REDACTED}\n  host: db`, 'app.yml'],
    // npm's `_auth` and Docker's `auth`: `user:password` in base64, with or without a digit
    ['//registry.example.com/:_auth=ZGVwbG95OlMzY3JldFB1Ymxpc2hQYXNz', `//registry.example.com/:_auth=${REDACTED}`, '.npmrc.example'],
    ['//r.example/:_auth=dXNlcjpwYXNz', `//r.example/:_auth=${REDACTED}`, 'docs/npm.md'],
    ['{ "auths": { "r.example": { "auth": "ZGVwbG95OlMzY3JldERvY2tlclBhc3M=" } } }', `{ "auths": { "r.example": { "auth": "${REDACTED}" } } }`, 'deploy/docker-config.json'],
    // a Dockerfile's `ENV KEY value`, and pgpass lines wherever they are pasted
    ['FROM postgres:16\nENV POSTGRES_PASSWORD S3cretDockerPass9\n', `FROM postgres:16\nENV POSTGRES_PASSWORD ${REDACTED}\n`, 'deploy/Dockerfile'],
    ['ENV MYSQL_ROOT_PASSWORD two words  \r\n', `ENV MYSQL_ROOT_PASSWORD ${REDACTED}  \r\n`, 'Dockerfile'],
    ['db.example.com:5432:app:deploy:S3cretPgpassLine7\n*:*:*:*:hunter2\nlocalhost:5432:*:postgres:pa\\:ss', `db.example.com:5432:app:deploy:${REDACTED}\n*:*:*:*:${REDACTED}\nlocalhost:5432:*:postgres:${REDACTED}`, 'README.md'],
    // the value on a line of its own below a quoted key, or between XML tags a formatter split
    ['{\n  "password":\n    "Zq8wXc7vBn6mLk5jJS",\n  "host": "db"\n}', `{\n  "password":\n    ${REDACTED}\n  "host": "db"\n}`, 'config/db.json'],
    ["cfg = {\n    'api_key':\n        'Zq8wXc7vBn6mLk5jPY',\n}", `cfg = {\n    'api_key':\n        ${REDACTED}\n}`, 'settings.py'],
    ['<db>\n  <password>\n    Zq8wXc7vBn6mLk5jXM\n  </password>\n</db>', `<db>\n  <password>\n    ${REDACTED}\n  </password>\n</db>`, 'conf/app.xml'],
    // the flags' values quoted: the quotes kept, the value masked
    ["sshpass -p 'Zx9pQ2mL7vB4' scp backup.sql host:/backups", `sshpass -p '${REDACTED}' scp backup.sql host:/backups`, 'deploy.sh'],
    ["mysql -u root -p'Qw8rTy6uIo4p' app < backup.sql", `mysql -u root -p'${REDACTED}' app < backup.sql`, 'deploy.sh'],
    ['docker login -u me -p "Lk3jHg5fDs7a" registry.example.com', `docker login -u me -p "${REDACTED}" registry.example.com`, 'deploy.sh'],
    ["curl -u 'admin:Mn2bVc4xZl9k' https://api.example.com/backup", `curl -u 'admin:${REDACTED}' https://api.example.com/backup`, 'deploy.sh'],
    ['curl --user "admin:two words" https://x', `curl --user "admin:${REDACTED}" https://x`, 'README.md'],
    // Go's MySQL DSN: user:password@protocol(address)/db
    ['db, err := sql.Open("mysql", "root:S3cr3tPass@tcp(db:3306)/app")', `db, err := sql.Open("mysql", "root:${REDACTED}@tcp(db:3306)/app")`, 'main.go'],
    ['DSN=app:Xk9mQ2vL8rT4@unix(/run/mysqld/mysqld.sock)/app?parseTime=true', `DSN=app:${REDACTED}@unix(/run/mysqld/mysqld.sock)/app?parseTime=true`, 'README.md'],
    // an environment entry's value on the line below its name: Kubernetes, ECS, Azure app settings
    ['env:\n  - name: DB_PASSWORD\n    value: Kq7wZ3xL9vB2\n  - name: API_TOKEN\n    value: "Kq7wZ3xL9vB2aa"  # rotated\n', `env:\n  - name: DB_PASSWORD\n    value: ${REDACTED}\n  - name: API_TOKEN\n    value: "${REDACTED}"  # rotated\n`, 'k8s/deploy.yaml'],
    ['[\r\n  {\r\n    "name": "DB_PASSWORD",\r\n    "value": "Kq7wZ3xL9vB2"\r\n  }\r\n]', `[\r\n  {\r\n    "name": "DB_PASSWORD",\r\n    "value": "${REDACTED}"\r\n  }\r\n]`, 'ecs/task.json'],
  ])('%s', (text, masked, path) => {
    expect(redactSecrets(text, { path })).toBe(masked);
  });

  it.each([
    ['type Login struct {\n\tUser string\n\tPassword string\n}', 'login.go'],
    ['password:\n  min_length: 8\n  required: true', 'app.yml'],
    ['password:\n  - ${{ secrets.DB }}', 'ci.yml'],
    ['bypass = compass_heading_2024', 'nav.py'],
    ['mkdir -p build/out && ssh -p 2222 host', 'ci.sh'],
    ['./tool --password-file=/run/secrets/db --token-ttl=3600 --log-level=debug', 'run.sh'],
    ['ssh -p 2222 deploy@host && docker run -p 8080:80 app', 'run.sh'],
    ['sshpass -f pwfile ssh -p 2222 user@host', 'run.sh'],
    ['docker login && docker run -p 8080:80 nginx', 'run.sh'],
    ['exports.createO200KSpecialTokenMap = createO200KSpecialTokenMap;', 'o200k_base.js'],
    ['// the single-pass x86_64-linux-gnu build, two_pass renderer2d, resetPassword 2fa-required', 'notes.ts'],
    ['bypass compass_heading', 'nav.conf'],
    ['conn = connect(user=user, password=user_password2)', 'db.py'],
    ['title: the password field is required', 'strings.yml'],
    ['x.y-password-policy=strict', 'app.properties'],
    ['the password is wrong', 'README.md'],
    ['const auth = require("./auth");\nlet auth = "basic";\nconfig.auth = authMode2;\nalways-auth=true', 'src/app.js'],
    ['ENV PATH /usr/local/bin\nENV DB_PASSWORD_FILE /run/secrets/db\nENV POSTGRES_PASSWORD ${PG_PASSWORD}', 'Dockerfile'],
    ['00:11:22:33:44:55\n12:30:45:67:89\n*:*:*:*:${PGPASS}', 'notes.txt'],
    ['<password>\n  ${DB_PASSWORD}\n</password>\n<token>\n  <value>x</value>\n</token>', 'conf/app.xml'],
    ['{\n  "password":\n    {\n      "minLength": 8\n    }\n}', 'schema.json'],
    // a port, a prompt, a variable: not a quoted password
    ["ssh -p 2222 host && mysql -p\nmysql -u root -p app\nmysql -u root -p 'app'", 'run.sh'],
    ['curl -u "$USER:$PASS" https://x\nsshpass -p "$SSHPASS" ssh host\ndocker login -u me -p "${TOKEN}" r.io', 'run.sh'],
    // a DSN without a password, a format string, a placeholder, and a regex that reads URLs
    ['root@tcp(db:3306)/app\nfmt.Sprintf("%s:%s@tcp(%s)/%s", u, p, h, d)\n"user:password@tcp(localhost:3306)/dbname"', 'db.go'],
    ['const urlRegex = /^([\\w+.-]+:)\\/\\/([^@/#?]*@)?([^:/#?]*)(:\\d+)?/;', 'source-map.js'],
    // an entry that is not a secret, one that refers to one, and an empty one
    ['env:\n  - name: LOG_LEVEL\n    value: debug\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef: { name: db, key: password }\n  - name: API_TOKEN\n    value: $(TOKEN)\n  - name: DB_PASSWORD\n    value: ""', 'k8s/deploy.yaml'],
  ])('keeps what is not one: %s', (text, path) => expectKept(text, path));
});

describe('redactSecrets on passwords in typed declarations, call arguments, hashes and subscripts (each came out in clear)', () => {
  const secret = 'q8Fr2vLzxKp9';
  it.each([
    [`  const password: string = '${secret}';`, 'src/db.ts'],
    [`    password: str = "${secret}"`, 'settings.py'],
    [`val password: String = "${secret}"`, 'Db.kt'],
    [`let secret: &str = "${secret}";`, 'main.rs'],
    [`let secret: &'static str = r#"${secret}"#;`, 'main.rs'],
    [`define( 'DB_PASSWORD', '${secret}' );`, 'wp-config.php'],
    [`os.environ.setdefault("DB_PASSWORD", "${secret}")`, 'manage.py'],
    [`System.setProperty("db.password", "${secret}");`, 'App.java'],
    [`os.Setenv("DB_PASSWORD", "${secret}")`, 'main.go'],
    [`env::set_var("DB_PASSWORD", "${secret}");`, 'main.rs'],
    [`ENV["DB_PASSWORD"] = "${secret}"`, 'config.rb'],
    [`{ "password" => "${secret}" }`, 'config.rb'],
    [`['password' => '${secret}']`, 'config.php'],
    [`headers['X-Api-Key'] = '${secret}';`, 'client.js'],
  ])('%s', (text, path) => expectOnlyMasked(text, path, secret));

  it.each([
    ['t("password", "Your password")', 'form.ts'],
    ["fields = ['password', 'email']", 'forms.py'],
    ['const password: string = input.value;', 'form.ts'],
    ["label: string = 'Password'", 'form.ts'],
    ['getenv("DB_PASSWORD", "DEFAULT_PASSWORD")', 'db.py'],
    ['password: Optional[str] = None', 'db.py'],
    ["def connect(password: str = 'changeme'):", 'db.py'],
  ])('keeps what is not one: %s', (text, path) => expectKept(text, path));
});

describe('redactSecrets on credentials in Ruby hashes, environment fallbacks, setters, SQL and XML settings (each came out in clear)', () => {
  const secret = 'q8Fr2vLzxKp9';
  it.each([
    [`opts = { :password => '${secret}' }`, 'a.rb'],
    [`ENV['DB_PASSWORD'] ||= '${secret}'`, 'a.rb'],
    [`module.exports = { password: process.env.DB_PASSWORD || "${secret}" };`, 'db.js'],
    [`process.env.DB_PASSWORD ||= "${secret}";`, 'db.js'],
    [`const key = process.env.API_KEY ?? '${secret}';`, 'db.ts'],
    [`password = os.environ.get("DB_PASSWORD") or "${secret}"`, 'db.py'],
    [`ds.setPassword("${secret}");`, 'Main.java'],
    [`cfg.setApiKey("${secret}");`, 'Main.java'],
    [`$mailer->setPassword('${secret}');`, 'mail.php'],
    [`CREATE USER app IDENTIFIED BY '${secret}';`, 'init.sql'],
    [`ALTER ROLE app WITH PASSWORD '${secret}';`, 'init.sql'],
    [`<appSettings><add key="Password" value="${secret}"/></appSettings>`, 'web.config'],
    [`<bean><property name="password" value="${secret}"/></bean>`, 'beans.xml'],
    [`<entry key="password">${secret}</entry>`, 'settings.xml'],
    // the JVM's, .NET's, Swift's and Rust's ways to say the same (each came out in clear)
    [`val dbPassword = System.getenv("DB_PASSWORD") ?: "${secret}"`, 'Config.kt'],
    [`val creds = mapOf("password" to "${secret}")`, 'Config.kt'],
    [`val adminCreds = Map("password" -> "${secret}")`, 'Settings.scala'],
    [`val apiToken = Option(System.getenv("API_TOKEN")).getOrElse("${secret}")`, 'Settings.scala'],
    [`return DataSourceBuilder.create().username("sa").password("${secret}").build();`, 'Db.java'],
    [`string Pw() => Environment.GetEnvironmentVariable("DB_PASSWORD") ?? "${secret}";`, 'Env.cs'],
    [`let pw = ProcessInfo.processInfo.environment["DB_PASSWORD"] ?? "${secret}"`, 'Env.swift'],
    [`let pw = env::var("DB_PASSWORD").unwrap_or_else(|_| "${secret}".to_string());`, 'main.rs'],
    [`let pw = std::env::var("DB_PASSWORD").unwrap_or("${secret}".into());`, 'main.rs'],
    [`let pw = env::var("DB_PASSWORD").unwrap_or_else(|_| String::from("${secret}"));`, 'main.rs'],
    [`let pw = env::var("DB_PASSWORD").ok().unwrap_or("${secret}".into());`, 'main.rs'],
    [`ks.load(in, Keys.builder().password("${secret}".toCharArray()));`, 'Keys.java'],
    [`val m = "password".to("${secret}")`, 'Config.kt'],
  ])('%s', (text, path) => expectOnlyMasked(text, path, secret));

  it.each([
    ['form.password("Enter your password", required = true)', 'Form.kt'],
    ['form.password("Enter your password")', 'Form.kt'],
    ['val x = mapOf("name" to "Alice", "password" to passwordField)', 'Form.kt'],
    ['field.label("password")', 'Form.kt'],
    ['val p = cache.getOrElse("Zz9yY8xX7wW6vV5")', 'Cache.kt'],
  ])('keeps what only looks like one: %s', (text, path) => expect(redactSecrets(text, { path })).toBe(text));

  it.each(['Change "password" to "Passwort" in the German translation', 'the error "password" -> "invalid credentials" shows'])('keeps a sentence that pairs the word with another: %s', (text) => {
    expect(redactSecrets(text, { prose: true })).toBe(text);
  });

  it('masks an AWS key id and its secret written as one value, both', () => {
    const text = '"auth": "AKIAIOSFODNN7EXAMPLE:wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"';
    expect(redactSecrets(text, { path: 'c.json' })).toBe(`"auth": "${REDACTED}"`);
  });

  it.each([
    ['const port = process.env.PORT || "3000";', 'server.js'],
    ['password = os.getenv("DB_PASSWORD", "changeme")', 'db.py'],
    ['form.setTitle("Password");', 'Form.java'],
    ['client.withToken("Bearer");', 'Client.java'],
    ['throw new Error("password " + reason);', 'auth.ts'],
    ['<add key="Timeout" value="30"/>', 'web.config'],
    ['<property name="password" value="${db.password}"/>', 'beans.xml'],
    ['<entry key="username">bob</entry>', 'settings.xml'],
    ['{ :name => "Password" }', 'a.rb'],
  ])('keeps what is not one: %s', (text, path) => expectKept(text, path));
});

describe('redactSecrets on a value the text repeats (masked once, every repeat came out in clear)', () => {
  it.each([
    ['login fails with password=Qz8vLm3xPw7k; retrying with Qz8vLm3xPw7k gives the same error', `login fails with password=${REDACTED}; retrying with ${REDACTED} gives the same error`],
    ['aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY fails; so does wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', `aws_secret_access_key = ${REDACTED} fails; so does ${REDACTED}`],
    ['the key AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY is refused', `the key ${REDACTED} ${REDACTED} is refused`],
    ['db at postgres://app:S3cretDbPass9@db/app; psql with S3cretDbPass9 works', `db at postgres://app:${REDACTED}@db/app; psql with ${REDACTED} works`],
    ["sshpass -p 'Zx9pQ2mL7vB4' ssh host fails, Zx9pQ2mL7vB4 is right", `sshpass -p '${REDACTED}' ssh host fails, ${REDACTED} is right`],
    ['auth fails with token=a1b2c3d4e5f6g7h8; the header sends a1b2c3d4e5f6g7h8', `auth fails with token=${REDACTED}; the header sends ${REDACTED}`],
    ['root:S3cr3tPass@tcp(db:3306)/app refused; mysql -pS3cr3tPass works', `root:${REDACTED}@tcp(db:3306)/app refused; mysql -p${REDACTED} works`],
    // short ones too, when not all letters: a person's short password, a PIN
    ['login fails with password=hunter2; retrying with hunter2 gives the same error', `login fails with password=${REDACTED}; retrying with ${REDACTED} gives the same error`],
    ['password: Zx9!kq, then Zx9!kq again', `password: ${REDACTED}, then ${REDACTED} again`],
    ['password=482913 fails; 482913 is right, 14829130 is not it', `password=${REDACTED} fails; ${REDACTED} is right, 14829130 is not it`],
  ])('in a task: %s', (text, masked) => {
    expect(redactSecrets(text, { prose: true })).toBe(masked);
  });

  it.each([
    ['const password = "Qz8vLm3xPw7k";\n// was Qz8vLm3xPw7k until May\n', `const password = "${REDACTED}";\n// was ${REDACTED} until May\n`, 'src/db.ts'],
    ['database:\n  password: hunter2hunter2\n  # the old one, hunter2hunter2, leaked\n', `database:\n  password: ${REDACTED}\n  # the old one, ${REDACTED}, leaked\n`, 'config.yml'],
    ['AKIAIOSFODNN7EXAMPLE,wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n', `${REDACTED},${REDACTED}\n`, 'keys.csv'],
  ])('in a file: %s', (text, masked, path) => {
    expect(redactSecrets(text, { path })).toBe(masked);
  });

  it.each([
    // an ordinary word given as a value is a word everywhere else
    ['POSTGRES_PASSWORD: postgres\nimage: postgres:16\n', `POSTGRES_PASSWORD: ${REDACTED}\nimage: postgres:16\n`, 'docker-compose.yml'],
    ['password: Password\nlabel: Password\n', `password: ${REDACTED}\nlabel: Password\n`, 'form.yml'],
    ['("PASSWORD", "non-reserved"),\n("ABORT", "non-reserved"),', `("PASSWORD", "${REDACTED}"),\n("ABORT", "non-reserved"),`, 'dialect_postgres_keywords.py'],
    // in code, a name taken for a value (a Python forward reference) stays a name elsewhere
    ['def f(private_key: "_RSAPrivateKey"):\nclass _RSAPrivateKey(RSAPrivateKey):', `def f(private_key: "${REDACTED}"):\nclass _RSAPrivateKey(RSAPrivateKey):`, 'rsa.py'],
    // under a weak key (`pass`, `token`) a value is masked for its looks, a guess not spread in a file
    ['pass_str: "SELECT\\n\\t1"\nfix_str: "SELECT\\n\\t1"', `pass_str: "${REDACTED}"\nfix_str: "SELECT\\n\\t1"`, 'LT02-tab-space.yml'],
    // inside a longer run of letters and digits it is another word
    ['password=Qz8vLm3xPw7k; see XQz8vLm3xPw7k9', `password=${REDACTED}; see XQz8vLm3xPw7k9`, 'notes.txt'],
    // a short value is spread in a task only: in a file it is as often a version or a port
    ['password: hunter2\nrelease: hunter2\n', `password: ${REDACTED}\nrelease: hunter2\n`, 'deploy.yml'],
  ])('not a word or a name that only equals it: %s', (text, masked, path) => {
    expect(redactSecrets(text, { path })).toBe(masked);
  });

  // in code, an expression taken for a value stays an expression at its other uses; a file a value names, a name
  it.each([
    ['let c = Config { password: &self.password };\nwarn!("{}", &self.password);\n', 'warn!("{}", &self.password);', 'src/config.rs'],
    ['const o = { password: this.#password };\nreturn this.#password.length;\n', 'return this.#password.length;', 'src/user.ts'],
    ['cfg := Config{Password: *flagPassword}\nlog.Println(*flagPassword)\n', 'log.Println(*flagPassword)', 'main.go'],
    ['val password = user.password!!\nprintln(user.password!!)\n', 'println(user.password!!)', 'Login.kt'],
    ['password: ../secrets/db-password.txt\nfiles:\n  - ../secrets/db-password.txt\n', '  - ../secrets/db-password.txt', 'compose.yml'],
  ])('keeps every other use of %s', (text, kept, path) => {
    expect(redactSecrets(text, { path })).toContain(kept);
  });

  it('reads a bare name under an env entry in code as a variable, not a value (a form field: `{ name: "password", value: userPassword }`)', () => {
    const code = 'const fields = [\n  {\n    name: "password",\n    value: userPassword,\n  },\n];';
    expect(redactSecrets(code, { path: 'form.ts' })).toBe(code);
    // in a manifest it is the value
    expect(redactSecrets('- name: DB_PASSWORD\n  value: hunter2hunter2\n', { path: 'deploy.yaml' })).toBe(`- name: DB_PASSWORD\n  value: ${REDACTED}\n`);
  });
});

describe('redactSecrets stays linear on adversarial lines for each rule (a quadratic one takes minutes on them)', () => {
  const quick = (text: string, options: { path?: string; prose?: boolean } = {}): string => {
    const started = performance.now();
    const out = redactSecrets(text, options);
    expect(performance.now() - started).toBeLessThan(3_000);
    return out;
  };
  // each line opens with the shape its rule masks, so the rule is seen to work there too
  const DSN = ['root:S3cr3tPass@tcp(db:3306)/app ', `root:${REDACTED}@tcp(db:3306)/app `];
  it.each([
    ['a DSN user before every `:`', DSN, '=a:'.repeat(100_000)],
    ['DSN users of 64 characters, passwords of 255', DSN, `(${'a'.repeat(64)}:${'b'.repeat(255)}`.repeat(1_000)],
    ['a DSN address that never closes', DSN, ` a:b@tcp(${'y'.repeat(300_000)}`],
    ['quoted `-u` values that never close', ["curl -u 'admin:Mn2bVc4xZl9k' x", `curl -u 'admin:${REDACTED}' x`], " -u 'a:".repeat(50_000)],
    ['quoted `mysql -p` values', ["mysql -p'Qw8rTy6uIo4p'", `mysql -p'${REDACTED}'`], " -p'x".repeat(80_000)],
    ['quoted `sshpass -p` values', ["sshpass -p 'Zx9pQ2mL7vB4' ", `sshpass -p '${REDACTED}' `], 'sshpass -p "'.repeat(30_000)],
    ['AWS key ids and separators', ['AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY ', `${REDACTED} ${REDACTED} `], 'AKIAIOSFODNN7EXAMPLE    ,    '.repeat(10_000)],
    ['environment lookups whose fallback never comes', ['getenv("DB_PASSWORD") ?: "Qw8rTy6uIo4p" ', `getenv("DB_PASSWORD") ?: "${REDACTED}" `], 'env::var("A")))) .unwrap_or_else(|x, y| '.repeat(20_000)],
    ['a lookup, then a run of blanks (three ways to split them took 27 s at 4,000)', ['getenv("DB_PASSWORD") ?: "Qw8rTy6uIo4p" ', `getenv("DB_PASSWORD") ?: "${REDACTED}" `], `x = env("DB_PASSWORD"${' '.repeat(20_000)}\t)${' \t'.repeat(10_000)}.unwrap_or_else(${' '.repeat(20_000)}|_|${' '.repeat(20_000)}!`],
    ['named calls whose argument never closes', ['.password("Qw8rTy6uIo4p") ', `.password("${REDACTED}") `], '.password("a'.repeat(60_000)],
  ])('%s', (_label, [head, masked], tail) => {
    // booleans, not the text: a failure would diff a line of 300 kB
    expect(quick(head + tail).startsWith(masked!)).toBe(true);
    expect(quick(head + tail, { prose: true }).startsWith(masked!)).toBe(true);
  });

  it('an environment entry followed by long runs of blanks', () => {
    const text = `- name: DB_PASSWORD${' '.repeat(200_000)}b\n  value: x${' '.repeat(200_000)}\n- name: DB_PASSWORD\n  value: Kq7wZ3xL9vB2 a${' '.repeat(200_000)}b\n`;
    // a boolean, not the text: a failure would diff 600 kB
    expect(quick(text, { path: 'k8s.yaml' }).includes(`value: ${REDACTED}\n`)).toBe(true);
  });

  it('256 masked values sharing a long prefix, looked for again along a line that matches it everywhere', () => {
    const values = Array.from({ length: 256 }, (_, i) => `password=${'Z-'.repeat(120)}${i}`).join('\n');
    // and at its end, one of them again (the longest are looked for: 64 values, 16 kB together)
    const out = quick(`${values}\n${'Z-'.repeat(150_000)} ${'Z-'.repeat(120)}100`, { path: '.env' });
    expect(out.split(REDACTED).length).toBe(258);
    expect(out.endsWith(` ${REDACTED}`)).toBe(true);
  });

  it('256 masked values that differ early, looked for again along a megabyte (one regex of them took 28 s)', () => {
    const values = Array.from({ length: 256 }, (_, i) => '-'.repeat(i % 250) + 'x' + '-'.repeat(250 - (i % 250)));
    const text = `${values.map((v) => `password="${v}"`).join('\n')}\n${'-'.repeat(950_000)}`;
    for (const options of [{ path: 'a.yaml' }, {}, { prose: true }]) expect(quick(text, options).split(REDACTED).length).toBe(257);
  });
});

describe('redactSecrets on a task (prose)', () => {
  it('masks a bare value after a secret-named key, which code keeps as a variable', () => {
    const task = 'login fails with password=hunter2hunter2 and api_key=d41d8cd98f00b204e9800998ecf8427e';
    expect(redactSecrets(task, { prose: true })).toBe(`login fails with password=${REDACTED} and api_key=${REDACTED}`);
    expect(redactSecrets('login fails: mysql --password=Zq8vN3kL9pX2mR7t -h db', { prose: true })).toBe(`login fails: mysql --password=${REDACTED} -h db`);
    expect(redactSecrets('The admin password is Xk9mQ2vL8rT4wZ6p since Monday', { prose: true })).toBe(`The admin password is ${REDACTED} since Monday`);
    expect(redactSecrets('the password is required and must be 8 characters', { prose: true })).toBe('the password is required and must be 8 characters');
    // `token` is a word of error messages: only after an `Authorization` key is its value masked in any case
    for (const text of ['SyntaxError: Unexpected token 1234567890abcdefgh', 'parse error: invalid token 3fa85f64-5717-4562-b3fc-2c963f66afa6']) expect(redactSecrets(text, { prose: true })).toBe(text);
    // in code, `password = user_password` names a variable
    expect(redactSecrets('password = user_password')).toBe('password = user_password');
  });
});

describe('an error class a report names after the key', () => {
  it('is a name the task is about, not a value: left in the task and searched for', async () => {
    const { makeRepo } = await import('../helpers/make-repo.js');
    const { retrieve } = await import('../../src/orchestrator/loop.js');
    for (const text of ['Error reading secret: SecretNotFoundException in vault', 'Could not decode token: MalformedTokenError2 on refresh']) expect(redactSecrets(text, { prose: true })).toBe(text);
    const r = makeRepo({ 'src/keys/errors.ts': 'export class PasswordDecryptionException extends Error {}\n', 'src/store.ts': 'export function open() {}\n' });
    try {
      const task = 'Failed to read password: PasswordDecryptionException thrown when opening the store.\nWhere is PasswordDecryptionException raised?';
      const result = await retrieve(task, { root: r.root, cache: false, provider: 'offline' });
      expect(result.cycles[0]?.query.symbols).toContain('PasswordDecryptionException');
      expect(result.files[0]?.path).toBe('src/keys/errors.ts');
    } finally {
      r.cleanup();
    }
  });
});

describe('a secret pasted into a task', () => {
  it('is not searched, not kept in the cache, and masked in what a model would be sent', async () => {
    const { makeRepo } = await import('../helpers/make-repo.js');
    const { retrieve } = await import('../../src/orchestrator/loop.js');
    const { clipTask } = await import('../../src/llm/task.js');
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const r = makeRepo({ 'src/login.ts': 'export function login(password: string) {\n  return check(password);\n}\n' });
    const cache = mkdtempSync(join(tmpdir(), 'ctxloop-secret-'));
    try {
      const task = 'login fails with password=hunter2hunter2 and token ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789';
      const result = await retrieve(task, { root: r.root, cache, provider: 'offline', threshold: 0 });
      expect(result.files.map((f) => f.path)).toContain('src/login.ts');
      const stored = readdirSync(cache).map((name) => readFileSync(join(cache, name), 'utf8')).join('\n');
      expect(stored).toContain('k:login');
      expect(stored.toLowerCase()).not.toContain('hunter2hunter2');
      expect(stored.toLowerCase()).not.toContain('abcdefghijklmnopqrstuvwxyz0123456789');
      expect(clipTask(task, 1000)).toBe(`login fails with password=${REDACTED} and token ${REDACTED}`);
    } finally {
      rmSync(cache, { recursive: true, force: true });
      r.cleanup();
    }
  });

  it('gives the run no term from it or its repeats, nor from the mark that replaces it', async () => {
    const { taskToPlan } = await import('../../src/core/redact-query.js');
    const { planQuery } = await import('../../src/refine/plan.js');
    const task = 'loginUser fails with password=Qz8vLm3xPw7k; retrying with Qz8vLm3xPw7k gives the same error';
    const plan = planQuery(taskToPlan(task));
    const terms = [...plan.keywords, ...plan.symbols, ...plan.literals].map((t) => t.toLowerCase());
    expect(terms.filter((t) => /qz8|lm3|pw7|redact/.test(t))).toEqual([]);
    expect(plan.symbols).toContain('loginUser');
    expect(plan.keywords).toContain('retry');
  });
});

/** `secret` masked in `text`, and nothing else changed. */
function expectOnlyMasked(text: string, path: string, secret: string): void {
  const masked = redactSecrets(text, { path });
  expect(masked).not.toContain(secret);
  expect(masked).toBe(text.replace(secret, REDACTED));
}

/** `text` left as it is. */
function expectKept(text: string, path: string): void {
  expect(redactSecrets(text, { path })).toBe(text);
}
