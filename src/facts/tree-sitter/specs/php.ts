import { unquote, type TreeSpec } from '../spec.js';

export const PHP: TreeSpec = {
  defs: String.raw`
(function_definition name: (name) @name) @def.function
(class_declaration name: (name) @name) @def.class
(interface_declaration name: (name) @name) @def.interface
(trait_declaration name: (name) @name) @def.trait
(enum_declaration name: (name) @name) @def.enum
(method_declaration name: (name) @name) @def.method
(program (const_declaration (const_element (name) @name)) @def.constant)
`,
  imports: String.raw`
(namespace_use_clause) @import
(require_expression (string) @import)
(require_once_expression (string) @import)
(include_expression (string) @import)
(include_once_expression (string) @import)
`,
  calls: String.raw`
(function_call_expression function: [(name) @call (qualified_name (name) @call)])
(member_call_expression name: (name) @call)
(nullsafe_member_call_expression name: (name) @call)
(scoped_call_expression name: (name) @call)
(object_creation_expression [(name) @call (qualified_name (name) @call)] (#not-match? @call "^(self|static|parent)$"))
`,
  // `App\Models\User` as written, without a leading `\`; strings without quotes.
  cleanImport: (text) => (/^['"]/.test(text) ? unquote(text) : /^(?:(?:function|const)\s+)?\\?([\w\\]+)/.exec(text)?.[1]?.replace(/\\$/, '')),
};
