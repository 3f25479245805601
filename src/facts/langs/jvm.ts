import { ANNOTATION_LINE, NAME, type LangSpec, type Rule } from './walk.js';

const ANNOTATIONS = String.raw`(?:@[\w.]+(?:\([^)]*\))?\s+)*`;
const NOT_TYPES = new Set(['return', 'new', 'throw', 'else', 'case', 'yield', 'await', 'goto', 'assert']);
const NOT_NAMES = new Set(['if', 'for', 'while', 'switch', 'catch', 'synchronized', 'return', 'try', 'super', 'this', 'when']);

const CLASS_KINDS: Record<string, 'class' | 'interface' | 'enum'> = { class: 'class', interface: 'interface', enum: 'enum', record: 'class', '@interface': 'interface', object: 'class' };

const JAVA_MODIFIERS = String.raw`(?:(?:public|protected|private|static|final|abstract|sealed|non-sealed|strictfp|default|synchronized|native|transient|volatile)\s+)*`;

const javaClass: Rule = {
  re: new RegExp(String.raw`^\s*${ANNOTATIONS}${JAVA_MODIFIERS}(?<kw>class|interface|enum|record|@interface)\s+(?<name>\w+)`),
  kind: 'class',
  mode: 'body',
  inner: () => JAVA_MEMBERS,
  pick: (m) => ({ name: m.groups!.name!, kind: CLASS_KINDS[m.groups!.kw!] ?? 'class' }),
};

const JAVA_MEMBERS: readonly Rule[] = [
  javaClass,
  {
    // void run(), public <T> List<T> find(…), Foo(…) constructors
    re: new RegExp(String.raw`^\s*${ANNOTATIONS}${JAVA_MODIFIERS}(?:<[^>]*>\s+)?(?:(?<type>[\w$.]+(?:<[^()]*?>)?(?:\[\])*)\s+)?(?<name>[\w$]+)(?=\s*\()`),
    kind: 'method',
    mode: 'body',
    pick: (m) => (NOT_TYPES.has(m.groups?.type ?? '') || NOT_NAMES.has(m.groups!.name!) ? undefined : { name: m.groups!.name! }),
  },
];

export const JAVA: LangSpec = { top: [javaClass], asi: false, prefix: ANNOTATION_LINE };

const KOTLIN_MODIFIERS = String.raw`(?:(?:public|private|protected|internal|open|abstract|sealed|data|enum|annotation|inner|value|inline|override|final|companion|expect|actual|lateinit|const|suspend|operator|infix|tailrec|external|fun)\s+)*`;

const kotlinClass: Rule = {
  re: new RegExp(String.raw`^\s*${ANNOTATIONS}(?<mods>${KOTLIN_MODIFIERS})(?<kw>class|interface|object)\b\s*(?<name>${NAME})?`, 'u'),
  kind: 'class',
  mode: 'body',
  inner: () => KOTLIN_MEMBERS,
  pick: (m) => ({
    name: m.groups!.name ?? 'Companion',
    kind: /\benum\s/.test(m.groups!.mods ?? '') ? 'enum' : (CLASS_KINDS[m.groups!.kw!] ?? 'class'),
  }),
};

const kotlinFun = (kind: 'function' | 'method'): Rule => ({
  re: new RegExp(String.raw`^\s*${ANNOTATIONS}${KOTLIN_MODIFIERS}fun\s+(?:<[^>]*>\s*)?(?:[\p{L}\p{M}\p{N}_$.]+(?:<[^>]*>)?\??\.)?(?<name>${NAME})(?=\s*\()`, 'u'),
  kind,
  mode: 'body',
});

const KOTLIN_MEMBERS: readonly Rule[] = [kotlinClass, kotlinFun('method')];

const KOTLIN_TOP: readonly Rule[] = [
  kotlinClass,
  kotlinFun('function'),
  { re: new RegExp(String.raw`^\s*${KOTLIN_MODIFIERS}typealias\s+(?<name>${NAME})`, 'u'), kind: 'type', mode: 'statement' },
  {
    re: new RegExp(String.raw`^\s*${ANNOTATIONS}(?<mods>${KOTLIN_MODIFIERS})(?:val|var)\s+(?<name>${NAME})`, 'u'),
    kind: 'variable',
    mode: 'statement',
    pick: (m) => ({ name: m.groups!.name!, kind: /\bconst\s/.test(m.groups!.mods ?? '') ? 'constant' : 'variable' }),
  },
];

export const KOTLIN: LangSpec = { top: KOTLIN_TOP, asi: true, prefix: ANNOTATION_LINE };

const SCALA_MODIFIERS = String.raw`(?:(?:(?:private|protected)(?:\[\w+\])?|final|sealed|abstract|implicit|lazy|override|case|inline|opaque|transparent|open|infix)\s+)*`;
const SCALA_KINDS: Record<string, 'class' | 'interface' | 'enum'> = { class: 'class', trait: 'interface', object: 'class', enum: 'enum' };

const scalaType: Rule = {
  re: new RegExp(String.raw`^\s*${ANNOTATIONS}${SCALA_MODIFIERS}(?:package\s+)?(?<kw>class|trait|object|enum)\s+(?<name>${NAME})`, 'u'),
  kind: 'class',
  mode: 'body',
  inner: () => SCALA_MEMBERS,
  pick: (m) => ({ name: m.groups!.name!, kind: SCALA_KINDS[m.groups!.kw!] ?? 'class' }),
};

/** `def name`, also a backticked name; an operator (`def +(…)`) names nothing a task would. */
const scalaDef = (kind: 'function' | 'method'): Rule => ({
  re: new RegExp(String.raw`^\s*${ANNOTATIONS}${SCALA_MODIFIERS}def\s+\x60?(?<name>${NAME})\x60?`, 'u'),
  kind,
  mode: 'body',
});

const SCALA_VALUES: readonly Rule[] = [
  { re: new RegExp(String.raw`^\s*${ANNOTATIONS}${SCALA_MODIFIERS}(?:val|var)\s+(?<name>${NAME})\s*[:=]`, 'u'), kind: 'variable', mode: 'statement' },
  { re: new RegExp(String.raw`^\s*${SCALA_MODIFIERS}type\s+(?<name>${NAME})`, 'u'), kind: 'type', mode: 'statement' },
  { re: new RegExp(String.raw`^\s*${ANNOTATIONS}${SCALA_MODIFIERS}given\s+(?<name>\p{Ll}[\p{L}\p{M}\p{N}_$]*)\s*[:\[(]`, 'u'), kind: 'variable', mode: 'body' },
];

const SCALA_MEMBERS: readonly Rule[] = [scalaType, scalaDef('method'), ...SCALA_VALUES];

/** Scala 2 and 3 with braces; a body by indentation alone (Scala 3's `object Parser:`) ends at its header, and its members read as top-level. */
export const SCALA: LangSpec = { top: [scalaType, scalaDef('function'), ...SCALA_VALUES], asi: true, prefix: ANNOTATION_LINE, colonBody: true };
