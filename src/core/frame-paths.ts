/**
 * Frame paths → repository files. A trace may come from the repository itself (`src/x.py`), from
 * another machine (`/home/ci/build/proj/src/x.py`), from an installed copy
 * (`…/site-packages/proj/x.py`, `…/go/pkg/mod/github.com/o/proj@v1.2.0/x.go`), or name only a
 * file (`jv.c`): the file that shares the longest tail of path segments with it wins.
 */
import { basenameOf } from './files.js';

/** Tidies a path as a trace writes it: no scheme, drive letter, query string or `./`; POSIX slashes. */
export function normalizeFramePath(raw: string): string {
  let p = raw.trim().replace(/\\/g, '/');
  p = p.replace(/^(?:webpack(?:-internal)?:\/\/\/?(?:\([^)]*\)\/)?|file:\/\/(?:localhost)?|https?:\/\/[^/]+)/, '');
  p = p.replace(/[?#].*$/, '').replace(/^\/?[A-Za-z]:\//, '/');
  p = p.replace(/^(?:\.\/)+/, '').replace(/\/\.\//g, '/');
  return p;
}

/** Install roots: what follows them is the package's own layout. */
const INSTALL_PREFIX = /^.*\/(?:site-packages|dist-packages|node_modules|pkg\/mod\/[^@]+@[^/]+|registry\/src\/[^/]+\/[^/]+-\d[^/]*|git\/checkouts\/[^/]+\/[^/]+)\//;

/** A frame path matched to files of the repository. */
export interface FrameMatch {
  /** Best files first; several when they match equally well. */
  paths: string[];
  /** Path segments the best files share with the frame's path (their tail). */
  segments: number;
  /** True when the frame's whole path (after its install root) is the tail of the file's: no foreign prefix was dropped. */
  whole: boolean;
}

export type FrameMapper = (file: string) => FrameMatch | undefined;

/**
 * Files one frame may point at, equally well: a bare name shared by more points nowhere in
 * particular (`index.ts` in a monorepo of 1,000 packages). Each frame mapped to every such file,
 * 20,000 frames of one compiler log took 30 s and 2.6 GB, and ran a 20,000-package one out of heap.
 */
export const MAX_FRAME_FILES = 20;

/**
 * Maps frame paths to files among `files` (root-relative). `root` (absolute) is stripped when a
 * path lies under it. A path whose tail matches a file by its name alone is accepted only when
 * the path is a bare name (`jv.c`); a longer foreign path needs two segments in common, so a
 * reporter's `/home/u/main.py` never lands on the repository's `main.py`.
 */
export function createFrameMapper(files: readonly string[], root?: string): FrameMapper {
  const byName = new Map<string, string[]>();
  for (const file of files) {
    const name = basenameOf(file);
    const list = byName.get(name);
    if (list) list.push(file);
    else byName.set(name, [file]);
  }
  const rootPrefix = root === undefined ? undefined : normalizeFramePath(root).replace(/\/+$/, '') + '/';
  const listed = new Set(files);

  // a trace repeats its frames (recursion, a log of one error a line): each path is mapped once
  const seen = new Map<string, FrameMatch | undefined>();
  return (raw) => {
    if (seen.has(raw)) return seen.get(raw);
    const match = mapPath(raw);
    seen.set(raw, match);
    return match;
  };

  function mapPath(raw: string): FrameMatch | undefined {
    let path = normalizeFramePath(raw);
    if (rootPrefix && path.startsWith(rootPrefix)) path = path.slice(rootPrefix.length);
    if (listed.has(path)) return { paths: [path], segments: path.split('/').length, whole: true };
    path = path.replace(INSTALL_PREFIX, '').replace(/^(?:\.\.\/)+/, '').replace(/^\/+/, '');
    const segments = path.split('/').filter(Boolean);
    const pool = byName.get(segments[segments.length - 1] ?? '') ?? [];
    let best = 0;
    let found: string[] = [];
    for (const file of pool) {
      const n = sharedTail(file.split('/'), segments);
      if (n > best) [best, found] = [n, [file]];
      else if (n === best && n > 0) found.push(file);
    }
    if (best === 0 || found.length > MAX_FRAME_FILES) return undefined;
    const whole = best === segments.length;
    if (best < 2 && !whole) return undefined;
    return { paths: found.sort(), segments: best, whole };
  }
}

function sharedTail(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}
