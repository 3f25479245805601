import { extractFacts } from '../../src/facts/extract.js';

/** Definitions as one readable line each: `method UserService.getUser 52-57`. */
export function outline(path: string, text: string): string[] {
  return extractFacts(path, text).defs.map((d) => `${d.kind} ${d.parent ? `${d.parent}.` : ''}${d.name} ${d.start}-${d.end}`);
}

/** Source text from a template literal (escapes applied), the first newline (after the backtick) dropped. */
export function code(strings: TemplateStringsArray, ...values: unknown[]): string {
  return strings.reduce((text, part, k) => text + (k > 0 ? String(values[k - 1]) : '') + part, '').replace(/^\n/, '');
}
