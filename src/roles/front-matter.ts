import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { UsageError } from '../core/errors.js';

export type RoleErrorCode = 'bad_agent' | 'bad_prompt';

export interface FrontMatterDocument<T> {
  data: T;
  /** The text after the closing `---`, trimmed. */
  body: string;
}

/**
 * Splits `---\n<yaml>\n---\n<body>`, parses the YAML and validates it with `schema`. Every
 * failure is one line naming the file and the field: `agents/evaluator.md: description is required`.
 */
export function parseFrontMatter<S extends z.ZodType>(text: string, file: string, schema: S, code: RoleErrorCode): FrontMatterDocument<z.output<S>> {
  const fail = (message: string, cause?: unknown): UsageError => new UsageError(code, `${file}: ${message}`, cause === undefined ? {} : { cause });
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trimEnd() !== '---') throw fail('missing front matter (the file must start with a "---" line)');
  const close = lines.findIndex((line, index) => index > 0 && line.trimEnd() === '---');
  if (close < 0) throw fail('front matter is not closed (no second "---" line)');

  let raw: unknown;
  try {
    // errors throw; warnings (an unknown `!tag`) are not printed: the yaml package wrote them to
    // stderr through process.emitWarning, several lines quoting the file raw, under --quiet too
    raw = parseYaml(lines.slice(1, close).join('\n'), { logLevel: 'error' });
  } catch (error) {
    const first = (error instanceof Error ? error.message : String(error)).split('\n', 1)[0];
    throw fail(`invalid YAML in front matter: ${first}`, error);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw fail('front matter must be a YAML mapping (key: value lines)');

  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    // A misspelt field also makes the real one "required": naming the stranger helps more.
    const issues = parsed.error.issues;
    throw fail(describeIssue(issues.find((issue) => issue.code === 'unrecognized_keys') ?? issues[0], raw));
  }
  return { data: parsed.data, body: lines.slice(close + 1).join('\n').trim() };
}

function describeIssue(issue: z.core.$ZodIssue | undefined, raw: unknown): string {
  if (!issue) return 'invalid front matter';
  if (issue.code === 'unrecognized_keys') return `unknown field ${issue.keys.join(', ')}`;
  const field = issue.path.map(String).join('.') || 'front matter';
  const value = pick(raw, issue.path);
  if (value === undefined) return `${field} is required`;
  return `${field}: ${issue.message} (got ${show(value)})`;
}

function pick(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
