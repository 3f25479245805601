import { unquote, type TreeSpec } from '../spec.js';

export const RUBY: TreeSpec = {
  defs: String.raw`
(method name: (_) @name) @def.function
(singleton_method name: (_) @name) @def.function
(class name: (_) @name) @def.class
(module name: (_) @name) @def.module
`,
  imports: String.raw`
(call method: (identifier) @_load arguments: (argument_list . (string) @import) (#match? @_load "^(require|require_relative|load)$"))
`,
  calls: String.raw`(call method: (identifier) @call)`,
  cleanImport: unquote,
  methodOwners: ['class', 'module'],
  nested: true,
};
