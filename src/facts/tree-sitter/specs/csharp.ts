import type { TreeSpec } from '../spec.js';

export const CSHARP: TreeSpec = {
  defs: String.raw`
(class_declaration name: (identifier) @name) @def.class
(record_declaration name: (identifier) @name) @def.class
(struct_declaration name: (identifier) @name) @def.struct
(interface_declaration name: (identifier) @name) @def.interface
(enum_declaration name: (identifier) @name) @def.enum
(method_declaration name: (identifier) @name) @def.method
(constructor_declaration name: (identifier) @name) @def.method
`,
  imports: String.raw`(using_directive) @import`,
  calls: String.raw`
(invocation_expression function: [(identifier) @call (member_access_expression name: (identifier) @call) (generic_name (identifier) @call)])
(object_creation_expression type: [(identifier) @call (generic_name (identifier) @call)])
`,
  cleanImport: (text) => /using\s+(?:static\s+)?(?:\w+\s*=\s*)?([\w.]+)\s*;/.exec(text)?.[1],
};
