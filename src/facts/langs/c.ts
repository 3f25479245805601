import type { LangSpec, PickContext, Rule } from './walk.js';
import { headText, transparentBlock } from './walk.js';

const NOT_FUNCTIONS = String.raw`(?!\s*(?:if|for|while|switch|return|else|do|case|typedef|using|namespace|template|static_assert|goto|sizeof|throw|delete|new)\b)`;
/** `int`, `static inline struct foo *`, `std::vector<int>&`, `Foo::Foo`, `operator==`. */
const FUNCTION = new RegExp(
  // Each token parses one way only (stars never split), so a failing line can't backtrack exponentially.
  String.raw`^${NOT_FUNCTIONS}\s*(?:[\w:<>,~\[\]]+[*&]*\s+|[*&]+(?![*&])\s*)*?(?<name>(?:\w+::)*(?:~?\w+|operator\s*(?:\(\)|[^\s(]+)))(?=\s*\()`,
);
const MACRO_LIKE = /^[A-Z][A-Z0-9_]+$/;

/** `Foo::bar` → method `bar` of `Foo`. */
function pickFunction(m: RegExpExecArray) {
  const full = m.groups!.name!;
  const cut = full.lastIndexOf('::');
  if (cut < 0) return { name: full };
  const owner = full.slice(0, cut);
  const outer = owner.lastIndexOf('::');
  return { name: full.slice(cut + 2), kind: 'method' as const, parent: outer < 0 ? owner : owner.slice(outer + 2) };
}

/** `typedef struct { … } Name;` is named after the brace; `typedef int (*cb)(int);` by its last identifier. */
function pickTypedef(m: RegExpExecArray, ctx: PickContext) {
  const last = ctx.src.lines[ctx.end] ?? '';
  const after = /\}\s*\**\s*(\w+)/.exec(last);
  if (after) return { name: after[1]! };
  if (m.groups?.tag) return { name: m.groups.tag };
  const text = headText(ctx, 8);
  const pointer = /\(\s*\*\s*(\w+)\s*\)/.exec(text);
  if (pointer) return { name: pointer[1]! };
  const plain = /(\w+)\s*(?:\[[^\]]*\])*\s*;/.exec(text);
  return plain ? { name: plain[1]! } : undefined;
}

const KINDS: Record<string, 'struct' | 'enum' | 'class'> = { struct: 'struct', union: 'struct', enum: 'enum', class: 'class' };

const RECORD = /^\s*(?:typedef\s+)?(?:(?:static|extern)\s+)?(?:template\s*<[^>]*>\s*)?(?<kw>struct|union|enum|class)(?:\s+(?:class|struct))?\s+(?:__attribute__\s*\(\([^)]*\)\)\s*|alignas\s*\([^)]*\)\s*|[A-Z_]+_EXPORT\s+)?(?<name>\w+)(?:\s+final)?(?=\s*\{|\s*:(?!:)|\s*$)/;

const members = (): readonly Rule[] => [
  record,
  {
    re: FUNCTION,
    kind: 'method',
    mode: 'body',
    pick: (m) => (MACRO_LIKE.test(m.groups!.name!) ? undefined : pickFunction(m)),
  },
];

const record: Rule = {
  re: RECORD,
  kind: 'struct',
  mode: 'body',
  requireBody: true,
  inner: members,
  pick: (m) => ({ name: m.groups!.name!, kind: KINDS[m.groups!.kw!] ?? 'struct' }),
};

const TOP: readonly Rule[] = [
  { re: /^\s*#\s*define\s+(?<name>\w+)/, kind: 'macro', mode: 'macro' },
  {
    re: /^\s*typedef\s+(?<kw>struct|union|enum)\s*(?<tag>\w+)?(?=\s*\{|\s*$)/,
    kind: 'struct',
    mode: 'body',
    requireBody: true,
    pick: (m, ctx) => {
      const picked = pickTypedef(m, ctx);
      return picked && { ...picked, kind: KINDS[m.groups!.kw!] ?? 'struct' };
    },
  },
  record,
  { re: /^\s*typedef\b/, kind: 'type', mode: 'statement', pick: pickTypedef },
  transparentBlock(/^\s*extern\s+"[^"]*"(?=\s*\{)/, () => TOP, 'extern'),
  transparentBlock(/^\s*(?:inline\s+)?namespace\b\s*(?<name>[\w:]*)(?=\s*\{|\s*$)/, () => TOP, 'namespace'),
  { re: FUNCTION, kind: 'function', mode: 'body', requireBody: true, pick: pickFunction },
];

/** `template <…>` lines, and a return type written alone on the line above (`static int` ⏎ `name(…)`). */
export const C: LangSpec = { top: TOP, asi: false, prefix: /^\s*template\s*<|^(?!.*:\s*$)\s*[A-Za-z_][\w\s*&:<>,]*$/ };
