import type { SymbolDef } from '../../../core/types.js';
import type { Node } from '../runtime.js';
import { unquote, type Refined, type TreeSpec } from '../spec.js';

const FUNCTION_VALUE = '[(function_expression) (arrow_function) (generator_function)]';

/**
 * Definitions both grammars know (JavaScript node types are a subset of TypeScript's). Besides
 * declarations, a function assigned to a property (`@def.assign`, told apart by `refineAssignment`:
 * one pattern, because four nested ones cost the query's compile, once a process, twice the time).
 */
const DEFS = String.raw`
(function_declaration name: (identifier) @name) @def.function
(generator_function_declaration name: (identifier) @name) @def.function
(class_declaration name: (_) @name) @def.class
(method_definition name: (_) @name) @def.method
(export_statement value: [(function_expression) (arrow_function)] @def.function)
(export_statement value: (class) @def.class)
(program (lexical_declaration (variable_declarator name: (identifier) @name) @def.binding))
(program (variable_declaration (variable_declarator name: (identifier) @name) @def.binding))
(export_statement declaration: (lexical_declaration (variable_declarator name: (identifier) @name) @def.binding))
(export_statement declaration: (variable_declaration (variable_declarator name: (identifier) @name) @def.binding))
(assignment_expression
  left: (member_expression property: (property_identifier) @name)
  right: ${FUNCTION_VALUE}) @def.assign
`;

const IMPORTS = String.raw`
(import_statement source: (string) @import)
(export_statement source: (string) @import)
(call_expression function: (import) arguments: (arguments . (string) @import))
(call_expression function: (identifier) @_require arguments: (arguments . (string) @import) (#eq? @_require "require"))
`;

const CALLS = String.raw`
(call_expression function: [(identifier) @call (member_expression property: (property_identifier) @call)])
(new_expression constructor: [(identifier) @call (member_expression property: (property_identifier) @call)])
`;

/**
 * A function assigned to a property: `Foo.prototype.bar = function` (a method of `Foo`),
 * `module.exports.foo =` and `exports.foo =` (functions), and at the top level
 * `app.handle = function handle(…)` (a method of `app`, as Express writes them). Any other
 * assignment is no definition.
 */
function refineAssignment(node: Node, name: string): Refined | undefined {
  const object = node.childForFieldName('left')?.childForFieldName('object');
  if (object?.type === 'member_expression') {
    const owner = object.childForFieldName('object');
    const property = object.childForFieldName('property')?.text;
    if (owner?.type !== 'identifier') return undefined;
    if (property === 'prototype') return { kind: 'method', name, parent: owner.text };
    return owner.text === 'module' && property === 'exports' ? { kind: 'function', name } : undefined;
  }
  if (object?.type !== 'identifier') return undefined;
  if (object.text === 'exports') return { kind: 'function', name };
  const statement = node.parent;
  return statement?.type === 'expression_statement' && statement.parent?.type === 'program' ? { kind: 'method', name, parent: object.text } : undefined;
}

/** `const f = () => …` is a function, `const X = …` a constant, `let`/`var` a variable. */
function refineBinding(kind: string, node: Node, name: string): Refined | undefined {
  if (kind === 'assign') return refineAssignment(node, name);
  if (kind !== 'binding') return { kind: kind as SymbolDef['kind'], name };
  const value = node.childForFieldName('value')?.type;
  if (value === 'arrow_function' || value === 'function_expression' || value === 'generator_function') return { kind: 'function', name };
  const keyword = node.parent?.child(0)?.type;
  return { kind: keyword === 'const' ? 'constant' : 'variable', name };
}

const WRAPPERS = ['export_statement', 'lexical_declaration', 'variable_declaration', 'expression_statement', 'ambient_declaration'];

export const JAVASCRIPT: TreeSpec = {
  defs: `${DEFS}\n(field_definition property: (property_identifier) @name value: ${FUNCTION_VALUE}) @def.method`,
  imports: IMPORTS,
  calls: CALLS,
  cleanImport: unquote,
  refine: refineBinding,
  wrappers: WRAPPERS,
};

export const TYPESCRIPT: TreeSpec = {
  ...JAVASCRIPT,
  defs: `${DEFS}
(function_signature name: (identifier) @name) @def.function
(abstract_class_declaration name: (type_identifier) @name) @def.class
(interface_declaration name: (type_identifier) @name) @def.interface
(type_alias_declaration name: (type_identifier) @name) @def.type
(enum_declaration name: (identifier) @name) @def.enum
(internal_module name: (_) @name) @def.module
(public_field_definition name: (property_identifier) @name value: ${FUNCTION_VALUE}) @def.method
(abstract_method_signature name: (_) @name) @def.method
(class_body (method_signature name: (_) @name) @def.method)
(internal_module body: (statement_block (lexical_declaration (variable_declarator name: (identifier) @name) @def.binding)))
(internal_module body: (statement_block (export_statement declaration: (lexical_declaration (variable_declarator name: (identifier) @name) @def.binding))))
`,
};
