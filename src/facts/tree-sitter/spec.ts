import type { SymbolDef } from '../../core/types.js';
import type { Node } from './runtime.js';

/**
 * How one grammar's tree becomes facts. Queries use these capture names:
 * - `@def.KIND` on a definition node (KIND a `SymbolDef` kind, or `binding`/`assign` for the
 *   spec's `refine` to decide), with `@name` on its name (absent: `nameOf`, else `default`);
 *   `@parent` names an owner that does not contain it (a Go receiver, `Foo.prototype.bar`).
 * - `@scope` (with `@name`) on a container that owns definitions but is not one (Rust `impl`).
 * - `@import` on an import specifier; `@call` on a called name. Other captures start with `_`.
 */
export interface TreeSpec {
  defs: string;
  imports: string;
  calls: string;
  /** The specifier as the pattern extractor writes it (quotes removed, `use` paths cut). */
  cleanImport?: (text: string) => string | undefined;
  /** The name node of a definition captured without `@name` (C declarators). */
  nameOf?: (node: Node) => Node | undefined;
  /** Final say on a definition: its kind and name (and an owner outside it), or undefined to drop it. */
  refine?: (kind: string, node: Node, name: string) => Refined | undefined;
  /** Ancestors that start the definition when they hold nothing else like it (`export`, decorators, `template <…>`). */
  wrappers?: readonly string[];
  /** Siblings right above a definition that belong to it (Rust `#[…]`). */
  prefixes?: readonly string[];
  /** Joins qualified names. @default '.' */
  separator?: string;
  /** Kinds whose functions are methods. @default class, struct, interface, trait, enum and `@scope` containers */
  methodOwners?: readonly SymbolDef['kind'][];
  /** Definitions inside function bodies count (Python, Ruby); elsewhere they are local detail. */
  nested?: boolean;
  /** Names written `Owner::name` (C++ out-of-class members) are split into parent and name. */
  scopedNames?: boolean;
}

/** A definition as a spec's `refine` has it; `parent` as `@parent` gives it. */
export interface Refined {
  kind: SymbolDef['kind'];
  name: string;
  parent?: string;
}

/** A string literal's content: quotes (and a Go raw string's backticks) removed. */
export function unquote(text: string): string {
  return text.replace(/^[`'"]|[`'"]$/g, '');
}
