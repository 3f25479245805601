import type { Cache } from '../core/deps.js';
import type { FileFacts, Score } from '../core/types.js';

/** A cache that lives for the process only (`--no-cache`): same behaviour, nothing written. */
export function createMemoryCache(): Cache {
  const facts = new Map<string, FileFacts>();
  const scores = new Map<string, Score>();
  return {
    getFacts: (key) => facts.get(key),
    setFacts: (key, value) => void facts.set(key, value),
    getScore: (key) => scores.get(key),
    setScore: (key, value) => void scores.set(key, value),
    flush: async () => {},
  };
}
