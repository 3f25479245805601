import { createMemoryCache } from '../../src/cache/memory.js';
import type { FileFacts } from '../../src/core/types.js';
import { createFactsReader } from '../../src/facts/reader.js';
import { makeRepo } from '../helpers/make-repo.js';

/** Facts of one file as the reader gives them: written to a temp repo, read, parsed. */
export async function readFacts(path: string, text: string, treeSitter = true): Promise<FileFacts> {
  const repo = makeRepo({ [path]: text }, { git: false });
  try {
    const facts = await createFactsReader({ cache: createMemoryCache(), treeSitter }).read(repo.root, [path]);
    const found = facts.get(path);
    if (!found) throw new Error(`no facts for ${path}`);
    return found;
  } finally {
    repo.cleanup();
  }
}

/** Definitions as one readable line each: `method UserService.getUser 23-26`. */
export function defLines(facts: FileFacts): string[] {
  return facts.defs.map((d) => `${d.kind} ${d.qualified} ${d.start}-${d.end}`);
}
