import type { Node } from '../runtime.js';
import { unquote, type TreeSpec } from '../spec.js';

const NAMES = new Set(['identifier', 'field_identifier', 'type_identifier', 'qualified_identifier', 'destructor_name', 'operator_name', 'primitive_type']);

/** The declared name inside a C declarator: `*f(…)`, `(*cb)(int)`, `Foo::bar(…)`. */
export function declaredName(node: Node): Node | undefined {
  let at: Node | null = node.childForFieldName('declarator');
  for (let depth = 0; at && depth < 12; depth++) {
    if (NAMES.has(at.type)) return at;
    at = at.childForFieldName('declarator') ?? at.namedChildren.find((c) => c !== null && c.type !== 'parameter_list' && c.type !== 'attribute_specifier') ?? null;
  }
  return undefined;
}

const C_DEFS = String.raw`
(function_definition) @def.function
(preproc_def name: (identifier) @name) @def.macro
(preproc_function_def name: (identifier) @name) @def.macro
(type_definition type: [(struct_specifier body: (_)) (union_specifier body: (_))]) @def.struct
(type_definition type: (enum_specifier body: (_))) @def.enum
(type_definition) @def.type
(struct_specifier name: (type_identifier) @name body: (_)) @def.struct
(union_specifier name: (type_identifier) @name body: (_)) @def.struct
(enum_specifier name: (type_identifier) @name body: (_)) @def.enum
`;

const CALLS = String.raw`(call_expression function: [(identifier) @call (field_expression field: (field_identifier) @call)])`;

/** A record inside `typedef … { } name;` is the typedef's: one definition, named after the brace. */
function refineRecord(kind: string, node: Node, name: string) {
  const isRecord = node.type === 'struct_specifier' || node.type === 'union_specifier' || node.type === 'enum_specifier' || node.type === 'class_specifier';
  if (isRecord && node.parent?.type === 'type_definition') return undefined;
  return { kind: kind as 'struct', name };
}

export const C: TreeSpec = {
  defs: C_DEFS,
  imports: String.raw`(preproc_include path: (string_literal) @import)`,
  calls: CALLS,
  cleanImport: unquote,
  nameOf: declaredName,
  refine: refineRecord,
};

export const CPP: TreeSpec = {
  ...C,
  defs: `${C_DEFS}
(class_specifier name: (type_identifier) @name body: (_)) @def.class
(field_declaration_list (field_declaration declarator: (function_declarator)) @def.method)
(field_declaration_list (declaration declarator: (function_declarator)) @def.method)
(field_declaration_list (template_declaration (declaration declarator: (function_declarator)) @def.method))
`,
  calls: String.raw`(call_expression function: [(identifier) @call (field_expression field: (field_identifier) @call) (qualified_identifier name: (identifier) @call)])`,
  wrappers: ['template_declaration'],
  separator: '::',
  scopedNames: true,
};
