import { createJsonFile, type JsonFile } from './atomic-file.js';

/**
 * Large values (the search index of a root) in files of their own next to the store, named
 * `<store>.<name>.json`: the store is read whole at every start, a blob only when asked for, and
 * rewritten only when replaced. Writes are atomic like the store's.
 */
export interface Blobs {
  /** The parsed value, or undefined when absent. Throws on unreadable or malformed files. */
  read(name: string): Promise<unknown>;
  set(name: string, value: unknown): void;
  /**
   * Writes the blobs set since the last call. One that cannot be written (a directory planted at
   * its name) is dropped and given back with its error: the others, and the store, are still written.
   */
  write(): Promise<Array<{ file: string; error: unknown }>>;
  readonly dirty: boolean;
}

const NAME = /^[a-z0-9-]{1,40}$/;

export function createBlobs(storeFile: string): Blobs {
  const files = new Map<string, JsonFile>();
  const pending = new Map<string, unknown>();
  const fileOf = (name: string): JsonFile => {
    if (!NAME.test(name)) throw new Error(`bad blob name ${JSON.stringify(name)}`);
    let file = files.get(name);
    if (!file) files.set(name, (file = createJsonFile(blobFileFor(storeFile, name))));
    return file;
  };
  return {
    async read(name) {
      if (pending.has(name)) return pending.get(name);
      return (await fileOf(name).read()) ?? undefined;
    },
    set(name, value) {
      fileOf(name);
      pending.set(name, value);
    },
    async write() {
      const failed: Array<{ file: string; error: unknown }> = [];
      for (const [name, value] of pending) {
        try {
          await fileOf(name).write(value);
        } catch (error) {
          failed.push({ file: blobFileFor(storeFile, name), error });
        }
        pending.delete(name);
      }
      return failed;
    },
    get dirty() {
      return pending.size > 0;
    },
  };
}

export function blobFileFor(storeFile: string, name: string): string {
  return storeFile.replace(/\.json$/, `.${name}.json`);
}
