import type { LangSpec, Rule } from './walk.js';
import { attributeLine, transparentBlock } from './walk.js';

const KINDS: Record<string, 'class' | 'interface' | 'trait' | 'enum'> = { class: 'class', interface: 'interface', trait: 'trait', enum: 'enum' };

const MEMBERS: readonly Rule[] = [
  {
    re: /^\s*(?:#\[[^\]]*\]\s*)*(?:(?:public|private|protected|static|abstract|final)\s+)*function\s+&?\s*(?<name>\w+)(?=\s*\()/,
    kind: 'method',
    mode: 'body',
  },
];

const TOP: readonly Rule[] = [
  transparentBlock(/^\s*namespace\b[\w\\\s]*(?=\{|$)/, () => TOP, 'namespace'),
  {
    re: /^\s*(?:(?:abstract|final|readonly)\s+)*(?<kw>class|interface|trait|enum)\s+(?<name>\w+)/,
    kind: 'class',
    mode: 'body',
    inner: () => MEMBERS,
    pick: (m) => ({ name: m.groups!.name!, kind: KINDS[m.groups!.kw!] ?? 'class' }),
  },
  { re: /^\s*function\s+&?\s*(?<name>\w+)(?=\s*\()/, kind: 'function', mode: 'body' },
];

export const PHP: LangSpec = { top: TOP, asi: false, prefix: attributeLine('#[') };
