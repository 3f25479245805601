/** A repository with credentials planted in every shape the redaction and the secret-file skips must catch. */
import { makeRepo, type TempRepo } from '../helpers/make-repo.js';

/** Each must never reach a model or stdout. Unique strings, so a hit anywhere is a leak. */
export const PLANTED = {
  dbUrlPassword: 'PlantedDbPass123',
  codePassword: 'PlantedPassword456',
  awsKeyId: 'AKIAPLANTED000000000',
  awsSecret: 'PlantedAwsSecret/abc123+XYZ',
  yamlPassword: 'plantedyamlpass',
  yamlApiKey: 'PlantedApiKey789',
  pemBody: 'MIIEpAIBAAKCAQEAplanted0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef',
  jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJwbGFudGVkIjoieWVzIn0.PlantedSignature0123456789abc',
  slackToken: 'xoxb-000000000000-PlantedSlackTok',
  slackHook: 'T00PLANTED/B00PLANTED/PlantedHookSecret000000',
  githubToken: 'ghp_Planted0123456789abcdefghijABCDEFGHIJ',
  propsPassword: 'PlantedPropPass!',
  connPassword: 'PlantedConnPass1',
  stripeKey: 'sk_live_PlantedStripe0123456789',
  envFile: 'PLANTED_ENV_FILE_VALUE_77',
  credentialsFile: 'PLANTED_CREDENTIALS_FILE_VALUE_88',
  keyFile: 'PLANTED_KEY_FILE_VALUE_99',
} as const;

export const PLANTED_TASK =
  'connectDatabase, make_client, signPayload, verifyJwt and notifySlack fail after the deploy; see settings.yml, app.properties, web.config and deploy.sh';

export function plantedRepo(): TempRepo {
  const p = PLANTED;
  return makeRepo({
    'src/db/connect.ts': `export function connectDatabase() {\n  const url = "postgres://admin:${p.dbUrlPassword}@db:5432/app";\n  const password = "${p.codePassword}";\n  return open(url, password);\n}\n`,
    'src/aws/client.py': `def make_client():\n    key_id = "${p.awsKeyId}"\n    aws_secret_access_key = "${p.awsSecret}"\n    return boto3.client("s3", aws_access_key_id=key_id, aws_secret_access_key=aws_secret_access_key)\n`,
    'src/keys/sign.go': `package keys\n\nfunc signPayload(payload []byte) []byte {\n\tkey := \`-----BEGIN RSA PRIVATE KEY-----\n${p.pemBody}\nAbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKlMnOpQrStUvWx+/==\n-----END RSA PRIVATE KEY-----\`\n\treturn sign(key, payload)\n}\n`,
    'src/auth/jwt.ts': `const FIXED = "${p.jwt}";\nexport function verifyJwt(token: string): boolean {\n  return token === FIXED;\n}\n`,
    'src/notify/slack.ts': `const SLACK = "${p.slackToken}";\nconst HOOK = "https://hooks.slack.com/services/${p.slackHook}";\nexport function notifySlack(text: string) {\n  return post(HOOK, SLACK, text);\n}\n`,
    'config/settings.yml': `database:\n  host: db\n  password: ${p.yamlPassword}\n  api_key: ${p.yamlApiKey}\n`,
    'config/app.properties': `db.user=app\ndb.password=${p.propsPassword}\n`,
    'config/web.config': `<configuration>\n  <connectionStrings>\n    <add name="db" connectionString="Server=db;Database=app;User Id=sa;Password=${p.connPassword};" />\n  </connectionStrings>\n</configuration>\n`,
    'scripts/deploy.sh': `#!/bin/sh\nexport GITHUB_TOKEN=${p.githubToken}\nexport STRIPE=${p.stripeKey}\n./deploy connectDatabase\n`,
    '.env.production': `DEPLOY_SECRET=${p.envFile}\nconnectDatabase=1\n`,
    'config/credentials.json': `{ "connectDatabase": "${p.credentialsFile}" }\n`,
    'certs/server.key': `connectDatabase ${p.keyFile}\n`,
  });
}

/** Planted values found in `text`. */
export function leaksIn(text: string): string[] {
  return Object.values(PLANTED).filter((secret) => text.includes(secret));
}
