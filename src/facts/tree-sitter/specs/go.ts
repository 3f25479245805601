import { unquote, type TreeSpec } from '../spec.js';

const RECEIVER = String.raw`[
  (type_identifier) @parent
  (pointer_type (type_identifier) @parent)
  (generic_type type: (type_identifier) @parent)
  (pointer_type (generic_type type: (type_identifier) @parent))
]`;

export const GO: TreeSpec = {
  defs: String.raw`
(function_declaration name: (identifier) @name) @def.function
(method_declaration receiver: (parameter_list (parameter_declaration type: ${RECEIVER})) name: (field_identifier) @name) @def.method
(type_spec name: (type_identifier) @name type: (struct_type)) @def.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @def.interface
(type_spec name: (type_identifier) @name) @def.type
(type_alias name: (type_identifier) @name) @def.type
(source_file (const_declaration (const_spec name: (identifier) @name) @def.constant))
(source_file (var_declaration (var_spec name: (identifier) @name) @def.variable))
(source_file (var_declaration (var_spec_list (var_spec name: (identifier) @name) @def.variable)))
`,
  imports: String.raw`(import_spec path: (_) @import)`,
  calls: String.raw`(call_expression function: [(identifier) @call (selector_expression field: (field_identifier) @call)])`,
  cleanImport: unquote,
  wrappers: ['type_declaration', 'const_declaration', 'var_declaration'],
};
