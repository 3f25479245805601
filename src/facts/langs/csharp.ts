import type { LangSpec, Rule } from './walk.js';
import { attributeLine, transparentBlock } from './walk.js';

const MODIFIERS = String.raw`(?:(?:public|private|protected|internal|static|sealed|abstract|partial|readonly|ref|unsafe|new|file|virtual|override|async|extern|volatile|required)\s+)*`;
const NOT_TYPES = new Set(['return', 'new', 'throw', 'else', 'case', 'yield', 'await', 'using', 'lock', 'goto', 'in', 'is', 'as']);
const NOT_NAMES = new Set(['if', 'for', 'foreach', 'while', 'switch', 'catch', 'using', 'lock', 'fixed', 'return', 'nameof', 'typeof', 'sizeof', 'base', 'this']);
const KINDS: Record<string, 'class' | 'interface' | 'struct' | 'enum'> = { class: 'class', interface: 'interface', struct: 'struct', enum: 'enum', record: 'class' };

const classLike: Rule = {
  re: new RegExp(String.raw`^\s*${MODIFIERS}(?<kw>class|interface|struct|enum|record)(?:\s+(?:class|struct))?\s+(?<name>\w+)`),
  kind: 'class',
  mode: 'body',
  inner: () => MEMBERS,
  pick: (m) => ({ name: m.groups!.name!, kind: KINDS[m.groups!.kw!] ?? 'class' }),
};

const MEMBERS: readonly Rule[] = [
  classLike,
  {
    re: new RegExp(String.raw`^\s*${MODIFIERS}(?:(?<type>[\w.]+(?:<[^()]*?>)?(?:\[[,\s]*\])*\??|\([^)]*\))\s+)?(?<name>\w+)\s*(?:<[^()]*?>)?(?=\s*\()`),
    kind: 'method',
    mode: 'body',
    pick: (m) => (NOT_TYPES.has(m.groups?.type ?? '') || NOT_NAMES.has(m.groups!.name!) ? undefined : { name: m.groups!.name! }),
  },
];

const namespace: Rule = transparentBlock(/^\s*namespace\s+[\w.]+(?=\s*\{|\s*$)/, () => TOP, 'namespace');

const TOP: readonly Rule[] = [namespace, classLike];

export const CSHARP: LangSpec = { top: TOP, asi: false, prefix: attributeLine('[') };
