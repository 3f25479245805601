/** Globs a person or a model gives, checked before picomatch reads them (`retrieve/match.ts`). */

/** The longest glob read: picomatch refuses past 65,536 characters (with a stack trace, once). */
export const MAX_GLOB_CHARS = 1024;
/**
 * Wildcards a glob may hold (`*` and the extglob groups, not a `**` segment). picomatch's regex
 * backtracks over the ways `*`s can split a name that does not match: at 255 characters a name
 * costs 1.5 ms with three and 63 ms with four, and each one more multiplies it by about forty
 * (`*a*a*a*a*a*a*a*a*ab` took a second a name of 40 characters, and a run for ever).
 */
export const MAX_GLOB_WILDCARDS = 4;

/** Why `glob` is not read (too long, too many wildcards); undefined when it is fine. */
export function globHazard(glob: string): string | undefined {
  if (glob.length > MAX_GLOB_CHARS) return `a glob may hold at most ${MAX_GLOB_CHARS.toLocaleString('en-US')} characters (this one holds ${glob.length.toLocaleString('en-US')})`;
  const wildcards = wildcardsOf(glob);
  if (wildcards > MAX_GLOB_WILDCARDS) return `a glob may hold at most ${MAX_GLOB_WILDCARDS} * wildcards besides ** (this one holds ${wildcards}: matching it backtracks for seconds a path)`;
  return undefined;
}

/** The `*` wildcards and extglob groups of a glob, its `**` segments aside. */
export function wildcardsOf(glob: string): number {
  return glob.replace(/(^|\/)\*\*(?=\/|$)/g, '$1').replace(/[*+@?!]\(/g, '*').split('*').length - 1;
}

/** The `**` segments of a glob. */
export function globstarsOf(glob: string): number {
  return glob.match(/(?:^|\/)\*\*(?=\/|$)/g)?.length ?? 0;
}
