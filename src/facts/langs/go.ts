import type { LangSpec, Rule } from './walk.js';

const TYPE_PARAMS = String.raw`(?:\[[^\]]*\])?`;

/** Members of `var (…)`, `const (…)`, `type (…)` groups. */
const group = (kind: 'variable' | 'constant'): readonly Rule[] => [{ re: /^\s*(?<name>[A-Za-z_]\w*)\b/, kind, mode: 'statement' }];

const structOrInterface = (m: RegExpExecArray) => ({ name: m.groups!.name!, kind: m.groups!.kw === 'interface' ? ('interface' as const) : ('struct' as const) });

const TYPE_MEMBERS: readonly Rule[] = [
  { re: new RegExp(String.raw`^\s*(?<name>[A-Za-z_]\w*)${TYPE_PARAMS}\s+(?<kw>struct|interface)\b`), kind: 'struct', mode: 'body', pick: structOrInterface },
  { re: /^\s*(?<name>[A-Za-z_]\w*)\b/, kind: 'type', mode: 'statement' },
];

const TOP: readonly Rule[] = [
  {
    // func (s *Server) Handle(…) — the receiver's type is the parent
    re: new RegExp(String.raw`^func\s*\(\s*(?:\w+\s+)?\*?\s*(?<parent>\w+)\s*${TYPE_PARAMS}\s*\)\s*(?<name>\w+)`),
    kind: 'method',
    mode: 'body',
    pick: (m) => ({ name: m.groups!.name!, parent: m.groups!.parent! }),
  },
  { re: /^func\s+(?<name>\w+)/, kind: 'function', mode: 'body' },
  { re: new RegExp(String.raw`^type\s+(?<name>\w+)${TYPE_PARAMS}\s+(?<kw>struct|interface)\b`), kind: 'struct', mode: 'body', pick: structOrInterface },
  { re: /^type\s+(?<name>\w+)\b(?!\s*\()/, kind: 'type', mode: 'statement' },
  { re: /^var\s*(?=\()/, kind: 'variable', mode: 'paren', hidden: true, transparent: true, inner: () => group('variable'), pick: () => ({ name: 'var' }) },
  { re: /^const\s*(?=\()/, kind: 'constant', mode: 'paren', hidden: true, transparent: true, inner: () => group('constant'), pick: () => ({ name: 'const' }) },
  { re: /^type\s*(?=\()/, kind: 'type', mode: 'paren', hidden: true, transparent: true, inner: () => TYPE_MEMBERS, pick: () => ({ name: 'type' }) },
  {
    re: /^(?<kw>var|const)\s+(?<name>[A-Za-z_]\w*)\b/,
    kind: 'variable',
    mode: 'statement',
    pick: (m) => ({ name: m.groups!.name!, kind: m.groups!.kw === 'const' ? 'constant' : 'variable' }),
  },
];

export const GO: LangSpec = { top: TOP, asi: true };
