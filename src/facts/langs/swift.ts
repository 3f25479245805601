import { NAME, type LangSpec, type Rule } from './walk.js';

const MODIFIERS = String.raw`(?:(?:public|private|fileprivate|internal|open|static|class|final|override|mutating|nonmutating|convenience|required|lazy|weak|unowned|dynamic|indirect|nonisolated|@\w+(?:\([^)]*\))?)\s+)*`;
const KINDS: Record<string, 'class' | 'struct' | 'enum' | 'interface'> = { class: 'class', struct: 'struct', enum: 'enum', protocol: 'interface', actor: 'class' };

const typeDecl: Rule = {
  re: new RegExp(String.raw`^\s*${MODIFIERS}(?<kw>class|struct|enum|protocol|actor|extension)\s+(?!func\b|var\b|let\b)(?<name>${NAME}(?:\.${NAME})*)`, 'u'),
  kind: 'class',
  mode: 'body',
  inner: () => MEMBERS,
  pick: (m) => ({ name: m.groups!.name!, kind: KINDS[m.groups!.kw!] ?? 'class' }),
};

/** `extension Foo` holds methods of Foo without being a definition itself. */
const extension: Rule = { ...typeDecl, re: new RegExp(String.raw`^\s*${MODIFIERS}extension\s+(?<name>${NAME}(?:\.${NAME})*)`, 'u'), hidden: true };

const func = (kind: 'function' | 'method'): Rule => ({ re: new RegExp(String.raw`^\s*${MODIFIERS}func\s+(?<name>${NAME}|[^\s(<]+)`, 'u'), kind, mode: 'body' });

const MEMBERS: readonly Rule[] = [
  extension,
  typeDecl,
  func('method'),
  { re: new RegExp(String.raw`^\s*${MODIFIERS}(?<name>init|deinit|subscript)\b[?!]?(?=\s*[({<])`), kind: 'method', mode: 'body' },
];

const TOP: readonly Rule[] = [
  extension,
  typeDecl,
  func('function'),
  { re: new RegExp(String.raw`^\s*${MODIFIERS}typealias\s+(?<name>${NAME})`, 'u'), kind: 'type', mode: 'statement' },
];

export const SWIFT: LangSpec = { top: TOP, asi: true, prefix: /^\s*@\w+\s*(?:\(.*\))?\s*$/ };
