import type { TreeSpec } from '../spec.js';

export const JAVA: TreeSpec = {
  defs: String.raw`
(class_declaration name: (identifier) @name) @def.class
(record_declaration name: (identifier) @name) @def.class
(interface_declaration name: (identifier) @name) @def.interface
(annotation_type_declaration name: (identifier) @name) @def.interface
(enum_declaration name: (identifier) @name) @def.enum
(method_declaration name: (identifier) @name) @def.method
(constructor_declaration name: (identifier) @name) @def.method
(compact_constructor_declaration name: (identifier) @name) @def.method
`,
  imports: String.raw`(import_declaration) @import`,
  calls: String.raw`
(method_invocation name: (identifier) @call)
(object_creation_expression type: [(type_identifier) @call (generic_type (type_identifier) @call)])
`,
  cleanImport: (text) => /import\s+(?:static\s+)?([\w.]+(?:\.\*)?)/.exec(text)?.[1]?.replace(/\.$/, ''),
};
