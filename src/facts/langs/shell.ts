import type { LangSpec } from './walk.js';

/** `function name {…}`, `name() {…}`. */
export const SHELL: LangSpec = {
  top: [
    { re: /^\s*function\s+(?<name>[\w:.-]+)/, kind: 'function', mode: 'body' },
    { re: /^\s*(?<name>[\w:.-]+)(?=\s*\(\s*\))/, kind: 'function', mode: 'body' },
  ],
  asi: true,
};
