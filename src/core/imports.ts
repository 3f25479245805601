import { pathIndexOf } from './files.js';

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
