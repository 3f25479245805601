import { fileKindOf, pathIndexOf } from './files.js';

/**
 * Where an import specifier may live, as path mentions relative to the root: `./verify` in
 * `src/auth/index.ts` → `src/auth/verify`; `a.b.c` (Python, Java) → `a/b/c`; `crate::x::y` → `x/y`.
 * Package imports (`react`, `os`) give mentions too; they simply match no file in the repository.
 */
export function importMentions(fromFile: string, specifier: string, language: string): string[] {
  const spec = specifier.trim();
  if (!spec) return [];
  const dir = fromFile.includes('/') ? fromFile.slice(0, fromFile.lastIndexOf('/')) : '';
  if (spec.startsWith('./') || spec.startsWith('../')) return [joinPath(dir, spec)];
  if (language === 'python' && spec.startsWith('.')) {
    const dots = spec.match(/^\.+/)![0].length;
    let base = dir;
    for (let i = 1; i < dots; i++) base = base.includes('/') ? base.slice(0, base.lastIndexOf('/')) : '';
    const rest = spec.slice(dots).replace(/\./g, '/');
    return [rest ? (base ? `${base}/${rest}` : rest) : base].filter(Boolean);
  }
  if (language === 'rust') {
    const parts = spec.replace(/^(?:crate|self|super)::/, '').split('::').filter((p) => /^[a-z_][a-z0-9_]*$/.test(p));
    const out: string[] = [];
    for (let n = parts.length; n >= 1; n--) out.push(parts.slice(0, n).join('/'));
    return out.slice(0, 2);
  }
  if (language === 'c' || language === 'cpp') return [spec];
  if (language === 'go') {
    const parts = spec.split('/');
    return parts.length > 1 ? [parts.slice(-2).join('/'), parts.slice(-1).join('/')] : [spec];
  }
  if (/^[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)+$/.test(spec)) {
    const parts = spec.split('.');
    return [parts.join('/'), parts.slice(0, -1).join('/')].filter((p) => p.includes('/') || parts.length === 2);
  }
  return [spec];
}

function joinPath(dir: string, relative: string): string {
  const out = dir ? dir.split('/') : [];
  for (const part of relative.split('/')) {
    if (part === '..') out.pop();
    else if (part !== '.' && part !== '') out.push(part);
  }
  return out.join('/');
}

/** Files an import resolves to (best suffix match first), among `files`. */
export function resolveImport(fromFile: string, specifier: string, language: string, files: readonly string[]): string[] {
  if (language === 'go') return resolveGoImport(fromFile, specifier, files);
  const index = pathIndexOf(files);
  for (const mention of importMentions(fromFile, specifier, language)) {
    const found = index.lookup(mention).filter((f) => f !== fromFile);
    if (found.length === 0) continue;
    // A one-segment match of a bare name (`utils`) is ambiguous across a repository: keep only when unique.
    const segments = mention.split('/').length;
    if (segments > 1 || found.length === 1) return found.slice(0, 3);
  }
  return [];
}

/**
 * Files a file sees without importing them: in Go, the other files of its package (its
 * directory) share one namespace, so a fix there often spans several of them. (Java packages
 * do too, but they are large and their files import what they use across packages anyway:
 * measured, the siblings only pushed real files down.)
 */
export function packageSiblings(file: string, language: string, files: readonly string[]): string[] {
  if (language !== 'go') return [];
  const slash = file.lastIndexOf('/');
  const dir = slash < 0 ? '' : file.slice(0, slash);
  return (goPackagesOf(files).files.get(dir) ?? []).filter((f) => f !== file).slice(0, MAX_PACKAGE_FILES);
}

/** A Go package's own files (tests left out) at most: a package is a directory, not a file. */
const MAX_PACKAGE_FILES = 24;

/**
 * A Go import names a package, that is a directory: `github.com/org/repo/core/logx` → the `.go`
 * files of `core/logx/`, found by the longest tail of the import path that is a directory of the
 * repository. The standard library (`context`, `net/http`: no dot in the first segment) is
 * never a repository file, even when a file happens to be called `context.go`.
 */
function resolveGoImport(fromFile: string, specifier: string, files: readonly string[]): string[] {
  const parts = specifier.trim().split('/').filter(Boolean);
  if (parts.length === 0 || !parts[0]!.includes('.')) return [];
  const packages = goPackagesOf(files);
  for (let n = parts.length - 1; n >= 1; n--) {
    const tail = parts.slice(-n).join('/');
    const dirs = packages.byTail.get(tail) ?? [];
    // A one-segment tail (`logx`) may name several directories: keep it only when unique.
    if (dirs.length === 1 || (dirs.length > 1 && n > 1)) {
      return dirs.flatMap((d) => packages.files.get(d) ?? []).filter((f) => f !== fromFile).slice(0, MAX_PACKAGE_FILES);
    }
  }
  return [];
}

interface GoPackages {
  /** Directory → its non-test `.go` files. */
  files: Map<string, string[]>;
  /** Every tail of a package directory (`core/logx`, `logx`) → the directories it ends. */
  byTail: Map<string, string[]>;
}

const goPackages = new WeakMap<readonly string[], GoPackages>();

function goPackagesOf(files: readonly string[]): GoPackages {
  let packages = goPackages.get(files);
  if (packages) return packages;
  packages = { files: new Map(), byTail: new Map() };
  for (const file of files) {
    if (!file.endsWith('.go') || fileKindOf(file) !== 'code') continue;
    const slash = file.lastIndexOf('/');
    const dir = slash < 0 ? '' : file.slice(0, slash);
    const list = packages.files.get(dir);
    if (list) {
      list.push(file);
      continue;
    }
    packages.files.set(dir, [file]);
    const segments = dir.split('/');
    for (let i = 0; i < segments.length; i++) {
      const tail = segments.slice(i).join('/');
      if (!tail) continue;
      const dirs = packages.byTail.get(tail);
      if (dirs) dirs.push(dir);
      else packages.byTail.set(tail, [dir]);
    }
  }
  goPackages.set(files, packages);
  return packages;
}
