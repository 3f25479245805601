import { lstat, readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { readRegularFile } from '../core/regular-file.js';
import { UsageError } from '../core/errors.js';
import { BUNDLED_AGENTS_DIR, BUNDLED_PROMPTS_DIR } from './bundled-dirs.js';
import type { RoleErrorCode } from './front-matter.js';

export interface RoleFile {
  /** Absolute path. */
  path: string;
  /** How messages name it: `agents/evaluator.md` for bundled files, the absolute path otherwise. */
  display: string;
  text: string;
}

/** The largest agent or prompt file read (the bundled ones are a few kB). */
const MAX_ROLE_FILE = 1024 * 1024;
/**
 * Role files a folder may hold, and their bytes together: the bundled folders hold four each. A
 * repository's config may name its own folder, and 8,000 files of a megabyte there (sparse on
 * disk, one blob in git) were read all at once: 8 GB, then a V8 out-of-memory abort.
 */
const MAX_ROLE_FILES = 100;
const MAX_ROLE_BYTES = 4 * 1024 * 1024;

/** Every `*.md` in `dir` but a README, sorted by name. A missing folder is a usage error. */
export async function readRoleFiles(dir: string, code: RoleErrorCode): Promise<RoleFile[]> {
  const what = code === 'bad_agent' ? 'agents' : 'prompts';
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    const errno = (error as { code?: unknown }).code;
    const why = errno === 'ENOENT' ? 'not found' : errno === 'ENOTDIR' ? 'is not a directory' : `cannot be read (${String(errno ?? error)})`;
    throw new UsageError(code, `${what} folder ${why}: ${dir}`, { cause: error, hint: `check --${what}-dir` });
  }
  const bundled = dir === BUNDLED_AGENTS_DIR || dir === BUNDLED_PROMPTS_DIR;
  const files = names.filter((name) => name.endsWith('.md') && !/^readme\.md$/i.test(name)).sort();
  if (files.length > MAX_ROLE_FILES) throw new UsageError(code, `${what} folder holds ${files.length} .md files, more than a role folder holds (at most ${MAX_ROLE_FILES}): ${dir}`, { hint: `check --${what}-dir` });
  // one after another, each checked before the next is read: the first bad file fails the load
  const read: RoleFile[] = [];
  let bytes = 0;
  for (const name of files) {
    const path = join(dir, name);
    const display = bundled ? `${basename(dir)}/${name}` : path;
    // a regular file of its own, of a sensible size: a FIFO hung the run, a link could bring in
    // any file (a prompt from outside the repository), a device would never end
    const info = await lstat(path).catch(() => undefined);
    if (info && !info.isFile()) throw new UsageError(code, `${display}: not a regular file (a link, a FIFO, a device or a folder), so not read`, { hint: `put the ${what.slice(0, -1)} file itself in the folder` });
    if (info && info.size > MAX_ROLE_FILE) throw new UsageError(code, `${display}: ${info.size} bytes, more than a role file holds (at most ${MAX_ROLE_FILE})`);
    let text: string;
    try {
      text = await readRegularFile(path);
    } catch (error) {
      throw new UsageError(code, `${display}: cannot be read (${String((error as { code?: unknown }).code ?? error)})`, { cause: error });
    }
    bytes += Buffer.byteLength(text);
    if (bytes > MAX_ROLE_BYTES) throw new UsageError(code, `${what} folder holds more than ${MAX_ROLE_BYTES} bytes of role files: ${dir}`, { hint: `check --${what}-dir` });
    read.push({ path, display, text });
  }
  return read;
}

/** Names must be unique across a folder: two files claiming one role is a mistake, not an override. */
export function addUnique<T extends { name: string; file: string }>(map: Map<string, T>, item: T, code: RoleErrorCode): void {
  const existing = map.get(item.name);
  if (existing) throw new UsageError(code, `${item.file}: name ${JSON.stringify(item.name)} is already used by ${existing.file}`);
  map.set(item.name, item);
}

/** Role and prompt names: lowercase words joined by dashes (`context-scout`). */
export const ROLE_NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
