import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * `mkdir -p` one level at a time. Node's own recursive mkdir never returns under `/proc` (a
 * `--cache /proc/x` hung the run): here each missing directory is made on its own, and the
 * first that cannot be made is the error.
 */
export async function makeDirectory(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let at = dir; ; at = dirname(at)) {
    const found = await stat(at).catch(() => undefined);
    if (found) {
      if (!found.isDirectory()) throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${at}'`), { code: 'ENOTDIR' });
      break;
    }
    if (dirname(at) === at) break;
    missing.push(at);
  }
  for (const path of missing.reverse()) {
    await mkdir(path).catch((error: unknown) => {
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
    });
  }
}
