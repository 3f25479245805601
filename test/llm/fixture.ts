import { makeRepo, type TempRepo } from '../helpers/make-repo.js';

/** Planted secrets: none of these may appear in any request body. */
export const SECRETS = ['sk-live-4f9a8b7c6d5e4f3a2b1c0d9e', 'AKIAIOSFODNN7EXAMPLE', 'hunter2-db-password', 'ENV_FILE_SECRET_VALUE_91'];

/**
 * A small repository: the task names `verifyEmail`; `src/auth/verify.ts` defines it next to a
 * hard-coded key; the signup route calls it and a `sendMail` defined far away.
 */
export function emailRepo(): TempRepo {
  const files: Record<string, string> = {
    'src/auth/verify.ts': [
      `const API_KEY = "${SECRETS[0]}";`,
      `const AWS_ID = '${SECRETS[1]}';`,
      '',
      'export function verifyEmail(address: string): boolean {',
      '  // verifyEmail rejects addresses without a domain',
      "  return /@.+\\./.test(address) && API_KEY.length > 0;",
      '}',
    ].join('\n'),
    'src/routes/signup.ts': [
      "import { verifyEmail } from '../auth/verify';",
      "import { sendMail } from '../lib/transport';",
      'export async function signup(email: string) {',
      "  if (!verifyEmail(email)) throw new Error('invalid email');",
      "  await sendMail(email, 'welcome');",
      '}',
    ].join('\n'),
    'src/routes/invite.ts': "import { verifyEmail } from '../auth/verify';\nexport const invite = (e: string) => verifyEmail(e);\n",
    'src/lib/transport.ts': 'export async function sendMail(to: string, body: string): Promise<void> {\n  await fetch("https://mail.example/send", { method: "POST", body });\n}\n',
    'src/lib/smtp.ts': 'export class SmtpTransport {\n  async deliver(to: string, body: string): Promise<void> {}\n}\n',
    'src/db/connect.ts': `export const url = "postgres://app:${SECRETS[2]}@db.internal:5432/app"; // verifyEmail users\n`,
    '.env': `API_KEY=${SECRETS[3]}\n`,
  };
  for (let i = 0; i < 6; i++) files[`src/misc/util${i}.ts`] = `export function helper${i}(email: string) {\n  return email.trim(); // email helper\n}\n`;
  return makeRepo(files);
}
