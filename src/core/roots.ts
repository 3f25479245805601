/** Labels of several roots: what one looks like, and how it prefixes a path (`api:src/x.ts`). */

const LABEL = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** Separates a root's label from a path in results, and in `scope` entries. */
export const LABEL_SEPARATOR = ':';

/** True for a usable root label: letters, digits, `_`, `.`, `-`, starting with a letter or digit, at most 64. */
export function isRootLabel(value: string): boolean {
  return LABEL.test(value);
}

/** `api` + `src/x.ts` → `api:src/x.ts`. */
export function labelPath(label: string, path: string): string {
  return `${label}${LABEL_SEPARATOR}${path}`;
}

export const LABEL_RULE = 'use letters, digits, "_", "." and "-", starting with a letter or digit';
