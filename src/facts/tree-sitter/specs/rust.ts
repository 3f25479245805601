import type { TreeSpec } from '../spec.js';

const IMPL_TYPE = String.raw`[
  (type_identifier) @name
  (generic_type type: (type_identifier) @name)
  (scoped_type_identifier name: (type_identifier) @name)
  (generic_type type: (scoped_type_identifier name: (type_identifier) @name))
  (reference_type type: (type_identifier) @name)
]`;

export const RUST: TreeSpec = {
  defs: String.raw`
(function_item name: (identifier) @name) @def.function
(function_signature_item name: (identifier) @name) @def.function
(struct_item name: (type_identifier) @name) @def.struct
(union_item name: (type_identifier) @name) @def.struct
(enum_item name: (type_identifier) @name) @def.enum
(trait_item name: (type_identifier) @name) @def.trait
(impl_item type: ${IMPL_TYPE}) @scope
(type_item name: (type_identifier) @name) @def.type
(const_item name: (identifier) @name) @def.constant
(static_item name: (identifier) @name) @def.constant
(macro_definition name: (identifier) @name) @def.macro
(mod_item name: (identifier) @name body: (declaration_list)) @def.module
`,
  imports: String.raw`
(use_declaration) @import
(mod_item !body) @import
(extern_crate_declaration name: (identifier) @import)
`,
  calls: String.raw`(call_expression function: [(identifier) @call (field_expression field: (field_identifier) @call) (scoped_identifier name: (identifier) @call)])`,
  // `use crate::a::{b, c};` → `crate::a`; `mod parser;` → `parser`.
  cleanImport: (text) => {
    const mod = /^\s*(?:pub(?:\s*\([^)]*\))?\s+)?mod\s+(\w+)/.exec(text);
    if (mod) return mod[1];
    const use = /^\s*(?:pub(?:\s*\([^)]*\))?\s+)?use\s+(?:::)?([\w:]+)/.exec(text);
    return use ? use[1]!.replace(/:+$/, '') : text.trim();
  },
  prefixes: ['attribute_item'],
  separator: '::',
};
