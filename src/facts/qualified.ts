/**
 * The longest qualified name kept. Each nested definition's name holds its owner's, so a file of
 * thousands of nested classes would give names of quadratic total length (a 111 kB file made a
 * 140 MB cache); real owners sit a few levels up.
 */
export const MAX_QUALIFIED_CHARS = 200;

/**
 * `prefix` + `sep` + `name`, its outermost owners dropped (written `…`) when longer than
 * `MAX_QUALIFIED_CHARS`: the innermost owners are the ones a reader or a task names. A name
 * longer on its own is kept whole.
 */
export function joinQualified(prefix: string | undefined, sep: string, name: string): string {
  if (!prefix) return name;
  const whole = `${prefix}${sep}${name}`;
  if (whole.length <= MAX_QUALIFIED_CHARS) return whole;
  const cut = whole.indexOf(sep, whole.length - MAX_QUALIFIED_CHARS + 1 + sep.length);
  return cut < 0 || cut >= whole.length - name.length - sep.length ? `…${sep}${name}` : `…${whole.slice(cut)}`;
}
