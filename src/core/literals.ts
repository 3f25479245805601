/**
 * The part of an error message worth a verbatim search: the code holds a template (`"no such
 * table %s"`, f-strings, `${name}`), not the rendered message, so the values in it are cut out.
 */

/**
 * The longest static piece of a message (several words, values removed), or a code-ish token
 * (`config.yaml`, `some_key`); undefined when the message is too short or too plain to search.
 * @example messageLiteral("Dropped elements in sequence matching! 'select 1;;' != ';'") // 'Dropped elements in sequence matching!'
 */
export function messageLiteral(raw: string): string | undefined {
  const text = raw.trim();
  if (text.length < 6) return undefined;
  const pieces = text
    .split(/'[^']*'|"[^"]*"|`[^`]*`|\b\d[\d.,:x]*\b|\{[^}]*\}|<[^>]*>|\([^)]*\)/)
    .map((s) => s.trim().replace(/[.:;,]+$/, ''))
    .filter((s) => s.length >= 8 && /\s/.test(s));
  const best = pieces.sort((a, b) => b.length - a.length)[0];
  if (best) return best.slice(0, 120);
  return !/\s/.test(text) && /[._/-]/.test(text) && text.length <= 80 ? text : undefined;
}
