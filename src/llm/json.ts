import type { z } from 'zod';

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

/**
 * A model's JSON reply, leniently read: servers without structured output wrap it in a Markdown
 * fence or a sentence. The first `{` to the last `}` is parsed, then validated with `schema`;
 * failing that, each whole object in the reply. `problem` is one line the model can act on in a
 * repair turn.
 */
export function parseReply<S extends z.ZodType>(text: string, schema: S): Parsed<z.output<S>> {
  const read = readJson(text);
  const checked: Parsed<z.output<S>> = 'problem' in read ? { ok: false, problem: read.problem } : check(read.value, schema);
  if (checked.ok) return checked;
  // JSON then prose holding a brace ("Hope this helps {x}"), or a reasoning model's <think> with
  // a draft before the answer: the first `{` to the last `}` is no JSON then, so each whole
  // object of the reply is tried, the last first (the answer follows the thinking).
  const objects = objectsIn(text);
  for (const value of [...objects].reverse()) {
    const found = check(value, schema);
    if (found.ok) return found;
  }
  // an object that parsed says more to the repair turn than the text around it failing to
  return 'problem' in read && objects.length > 0 ? check(objects.at(-1), schema) : checked;
}

function check<S extends z.ZodType>(value: unknown, schema: S): Parsed<z.output<S>> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : 'the top level';
  return { ok: false, problem: `the reply does not match the schema at ${where}: ${issue?.message ?? 'invalid'}` };
}

/** Objects tried at most: a reply is clipped to 200,000 characters, so this bounds the work. */
const MAX_TRIES = 64;

/**
 * The JSON objects of `text`, in order: from each `{`, the span to its balanced `}` (braces in
 * strings count for nothing), parsed; one that does not parse was no object, and the next `{`
 * after its start is tried (a brace in the prose before it).
 */
function objectsIn(text: string): unknown[] {
  const values: unknown[] = [];
  let from = 0;
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    const start = text.indexOf('{', from);
    if (start < 0) break;
    const end = closingBrace(text, start);
    if (end < 0) {
      from = start + 1;
      continue;
    }
    try {
      values.push(JSON.parse(text.slice(start, end + 1)));
      from = end + 1;
    } catch {
      from = start + 1;
    }
  }
  return values;
}

/** Where the object opening at `start` closes, or -1 when it does not. */
function closingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
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
