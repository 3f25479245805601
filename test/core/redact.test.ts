import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../src/core/redact.js';

describe('redactSecrets', () => {
  it.each([
    ['const API_KEY = "sk-live-4f9a8b7c6d5e4f3a2b1c0d9e";', 'sk-live-4f9a8b7c6d5e4f3a2b1c0d9e'],
    ['key: sk-ant-api03-abcdefghijklmnopqrstu', 'sk-ant-api03-abcdefghijklmnopqrstu'],
    ["aws = 'AKIAIOSFODNN7EXAMPLE'", 'AKIAIOSFODNN7EXAMPLE'],
    ['token ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789'],
    ['SLACK=xoxb-123456789012-abcdefghij', 'xoxb-123456789012-abcdefghij'],
    ['Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U', 'eyJhbGciOiJIUzI1NiJ9'],
    ['url = "postgres://app:hunter2-db-password@db:5432/app"', 'hunter2-db-password'],
    ['password = "correct horse battery"', 'correct horse battery'],
    ['DB_PASSWORD=s3cr3tValue99', 's3cr3tValue99'],
    ['"client_secret": "abcd1234efgh5678"', 'abcd1234efgh5678'],
    ['-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----', 'MIIEowIBAAKCAQEA'],
  ])('masks %s', (text, secret) => {
    const out = redactSecrets(text);
    expect(out).not.toContain(secret);
    expect(out).toContain('[REDACTED]');
  });

  it.each([
    'const password = input.value;',
    'if (token === undefined) return;',
    'function verifyEmail(address: string): boolean {',
    'const apiKey = process.env.OPENAI_API_KEY;',
    'https://example.com/docs/page',
  ])('keeps code that only names a secret: %s', (text) => {
    expect(redactSecrets(text)).toBe(text);
  });
});
