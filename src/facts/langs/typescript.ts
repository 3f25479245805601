import type { LangSpec, PickContext, Rule } from './walk.js';
import { ANNOTATION_LINE, headText, nameOr } from './walk.js';

const ID = String.raw`[A-Za-z_$][\w$]*`;
const EXPORT = String.raw`(?:export\s+(?:default\s+)?)?(?:declare\s+)?`;
const NOT_NAMES = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'function', 'super', 'this', 'with', 'typeof', 'new', 'await', 'yield']);

const member = (m: RegExpExecArray) => {
  const name = m.groups?.name ?? '';
  return NOT_NAMES.has(name) ? undefined : { name };
};

const MEMBERS: readonly Rule[] = [
  {
    // foo() {, async foo(), static get size(), #secret(), @Input() handler(e) {
    re: new RegExp(String.raw`^\s*(?:@${ID}(?:\.${ID})*(?:\([^)]*\))?\s+)*(?:(?:public|private|protected|static|async|readonly|override|abstract|declare|accessor|get|set)\s+)*\*?\s*(?<name>#?${ID})\s*\??\s*(?:<[^()]*>)?(?=\s*\()`),
    kind: 'method',
    mode: 'body',
    pick: member,
  },
  {
    // handleClick = async (e) => { … }
    re: new RegExp(String.raw`^\s*(?:(?:public|private|protected|static|readonly|override)\s+)*(?<name>#?${ID})\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|${ID}\s*=>|\($)`),
    kind: 'method',
    mode: 'statement',
    pick: member,
  },
];

/** `const f = (…) => …` and `const f = function …` are functions; other bindings are values. */
function pickBinding(m: RegExpExecArray, ctx: PickContext) {
  const name = m.groups?.name ?? '';
  const after = headText(ctx).slice(m.index + m[0].length);
  const rhs = after.slice(after.indexOf('=') + 1).trimStart();
  const isFunction = /^(?:async\s*)?(?:function\b|\(|<|[A-Za-z_$][\w$]*\s*=>)/.test(rhs) && /=>|^(?:async\s+)?function\b/.test(rhs);
  return { name, kind: isFunction ? ('function' as const) : m.groups?.kw === 'const' ? ('constant' as const) : ('variable' as const) };
}

const TOP: readonly Rule[] = [
  {
    re: new RegExp(String.raw`^\s*${EXPORT}(?:async\s+)?function\b\s*\*?\s*(?<name>${ID})?`),
    kind: 'function',
    mode: 'body',
    pick: (m) => ({ name: nameOr(m, 'default') }),
  },
  {
    re: new RegExp(String.raw`^\s*${EXPORT}(?:abstract\s+)?class\b\s*(?<name>${ID})?`),
    kind: 'class',
    mode: 'body',
    inner: () => MEMBERS,
    pick: (m) => ({ name: m.groups?.name && !/^(?:extends|implements)$/.test(m.groups.name) ? m.groups.name : 'default' }),
  },
  { re: new RegExp(String.raw`^\s*(?:export\s+)?(?:declare\s+)?interface\s+(?<name>${ID})`), kind: 'interface', mode: 'body' },
  { re: new RegExp(String.raw`^\s*(?:export\s+)?(?:declare\s+)?type\s+(?<name>${ID})(?=\s*[<=])`), kind: 'type', mode: 'statement' },
  { re: new RegExp(String.raw`^\s*(?:export\s+)?(?:declare\s+)?(?:const\s+)?enum\s+(?<name>${ID})`), kind: 'enum', mode: 'body' },
  {
    re: new RegExp(String.raw`^\s*(?:export\s+)?(?:declare\s+)?(?:namespace|module)\s+(?<name>${ID}(?:\.${ID})*)(?=\s*\{|\s*$)`),
    kind: 'module',
    mode: 'body',
    inner: () => TOP,
  },
  {
    re: new RegExp(String.raw`^\s*(?:export\s+)?(?:declare\s+)?(?<kw>const|let|var)\s+(?<name>${ID})(?=\s*[:=!])`),
    kind: 'constant',
    mode: 'statement',
    pick: pickBinding,
  },
  {
    // Foo.prototype.bar = function (…) {
    re: new RegExp(String.raw`^\s*(?<parent>${ID})\.prototype\.(?<name>${ID})(?=\s*=\s*(?:async\s+)?(?:function\b|\())`),
    kind: 'method',
    mode: 'statement',
    pick: (m) => ({ name: m.groups!.name!, parent: m.groups!.parent! }),
  },
  {
    // module.exports.foo = function (…) {, exports.foo = (…) =>
    re: new RegExp(String.raw`^\s*(?:module\.)?exports\.(?<name>${ID})(?=\s*=\s*(?:async\s+)?(?:function\b|\(|${ID}\s*=>))`),
    kind: 'function',
    mode: 'statement',
  },
];

export const TYPESCRIPT: LangSpec = { top: TOP, asi: true, prefix: ANNOTATION_LINE };
