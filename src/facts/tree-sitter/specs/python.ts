import { unquote, type TreeSpec } from '../spec.js';

export const PYTHON: TreeSpec = {
  defs: String.raw`
(function_definition name: (identifier) @name) @def.function
(class_definition name: (identifier) @name) @def.class
(module (expression_statement (assignment left: (identifier) @name) @def.assign))
`,
  imports: String.raw`
(import_statement name: (dotted_name) @import)
(import_statement name: (aliased_import name: (dotted_name) @import))
(import_from_statement module_name: (_) @import)
`,
  calls: String.raw`(call function: [(identifier) @call (attribute attribute: (identifier) @call)])`,
  cleanImport: unquote,
  // Module-level NAME = … : UPPER_CASE is a constant.
  refine: (kind, _node, name) => (kind === 'assign' ? { kind: /^[A-Z][A-Z0-9_]*$/.test(name) ? 'constant' : 'variable', name } : { kind: kind as 'function', name }),
  wrappers: ['decorated_definition'],
  nested: true,
};
