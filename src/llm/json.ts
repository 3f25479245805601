import type { z } from 'zod';

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

/**
 * A model's JSON reply, leniently read: servers without structured output wrap it in a Markdown
 * fence or a sentence. The first `{` to the last `}` is parsed, then validated with `schema`.
 * `problem` is one line the model can act on in a repair turn.
 */
export function parseReply<S extends z.ZodType>(text: string, schema: S): Parsed<z.output<S>> {
  const read = readJson(text);
  if ('problem' in read) return { ok: false, problem: read.problem };
  const parsed = schema.safeParse(read.value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : 'the top level';
  return { ok: false, problem: `the reply does not match the schema at ${where}: ${issue?.message ?? 'invalid'}` };
}

/**
 * The reply's JSON value. The reply as it should be, a JSON object alone, is read whole first: a
 * fence looked for first was found inside a string of it (a reason quoting ```), and the JSON was
 * cut there. Otherwise the object is dug out of a fence or a sentence (`extractJson`).
 */
function readJson(text: string): { value: unknown } | { problem: string } {
  const whole = text.trim();
  if (whole.startsWith('{') && whole.endsWith('}')) {
    try {
      return { value: JSON.parse(whole) };
    } catch {
      // a wrapped reply that happens to start and end with braces: dug out below
    }
  }
  const json = extractJson(text);
  if (json === undefined) return { problem: 'the reply holds no JSON object' };
  try {
    return { value: JSON.parse(json) };
  } catch (error) {
    return { problem: `the reply is not valid JSON (${(error as Error).message.split('\n')[0]})` };
  }
}

function extractJson(text: string): string | undefined {
  const fenced = /```(?:json|JSON)?\s*\n?([\s\S]*?)(?:```|$)/.exec(text);
  const body = fenced?.[1]?.includes('{') ? fenced[1] : text;
  const start = body.indexOf('{');
  if (start < 0) return undefined;
  const end = body.lastIndexOf('}');
  // A truncated reply has no closing brace: hand JSON.parse the rest so it names the problem.
  return end > start ? body.slice(start, end + 1) : body.slice(start);
}
