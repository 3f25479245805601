import type { LangSpec, PickContext, Rule } from './walk.js';
import { attributeLine, headText } from './walk.js';

const VIS = String.raw`(?:pub(?:\s*\([^)]*\))?\s+)?`;
const QUALIFIERS = String.raw`(?:(?:default|const|async|unsafe|extern(?:\s+"[^"]*")?)\s+)*`;
const FN = new RegExp(String.raw`^\s*${VIS}${QUALIFIERS}fn\s+(?<name>\w+)`);

/** `impl<T: X> Trait for Foo<T> where …` → `Foo`: generics removed, the type after `for` (or `impl`). */
function implTarget(_m: RegExpExecArray, ctx: PickContext) {
  let head = headText(ctx, 6);
  const brace = head.indexOf('{');
  if (brace >= 0) head = head.slice(0, brace);
  head = head.replace(/\bwhere\b[\s\S]*$/, '');
  for (let k = 0; k < 8 && /<[^<>]*>/.test(head); k++) head = head.replace(/<[^<>]*>/g, '');
  const m = /\bimpl\s+(?:.*?\bfor\s+)?(?:&\s*)?(?:dyn\s+)?(?<path>[\w:]+)/.exec(head);
  const path = m?.groups?.path;
  return path ? { name: path.slice(path.lastIndexOf(':') + 1) } : undefined;
}

const MEMBERS: readonly Rule[] = [{ re: FN, kind: 'method', mode: 'body' }];

const TOP: readonly Rule[] = [
  { re: FN, kind: 'function', mode: 'body' },
  { re: new RegExp(String.raw`^\s*${VIS}(?:struct|union)\s+(?<name>\w+)`), kind: 'struct', mode: 'body' },
  { re: new RegExp(String.raw`^\s*${VIS}enum\s+(?<name>\w+)`), kind: 'enum', mode: 'body' },
  { re: new RegExp(String.raw`^\s*${VIS}(?:unsafe\s+)?(?:auto\s+)?trait\s+(?<name>\w+)`), kind: 'trait', mode: 'body', inner: () => MEMBERS },
  { re: /^\s*(?:unsafe\s+)?impl\b/, kind: 'class', mode: 'body', hidden: true, inner: () => MEMBERS, pick: implTarget },
  { re: new RegExp(String.raw`^\s*${VIS}type\s+(?<name>\w+)`), kind: 'type', mode: 'statement' },
  { re: new RegExp(String.raw`^\s*${VIS}(?:const|static)\s+(?:mut\s+)?(?<name>\w+)(?=\s*:)`), kind: 'constant', mode: 'statement' },
  { re: /^\s*macro_rules!\s*(?<name>\w+)/, kind: 'macro', mode: 'body' },
  { re: new RegExp(String.raw`^\s*${VIS}mod\s+(?<name>\w+)(?=\s*\{|\s*$)`), kind: 'module', mode: 'body', inner: () => TOP },
];

export const RUST: LangSpec = { top: TOP, asi: false, prefix: attributeLine('#!?[') };
