import type { Cache, FileStamp, MemoEntry } from '../core/deps.js';
import type { FileFacts, Score } from '../core/types.js';

/** A cache that lives for the process only (`--no-cache`): same behaviour, nothing written. */
export function createMemoryCache(): Cache {
  const facts = new Map<string, FileFacts>();
  const scores = new Map<string, Score>();
  const replies = new Map<string, unknown>();
  const stamps = new Map<string, FileStamp>();
  const results = new Map<string, MemoEntry>();
  const blobs = new Map<string, unknown>();
  return {
    getFacts: (key) => facts.get(key),
    setFacts: (key, value) => void facts.set(key, value),
    getScore: (key) => scores.get(key),
    setScore: (key, value) => void scores.set(key, value),
    getReply: (key) => replies.get(key),
    setReply: (key, value) => void replies.set(key, value),
    getStamp: (path) => stamps.get(path),
    setStamp: (path, stamp) => void stamps.set(path, stamp),
    getResult: (key) => results.get(key),
    setResult: (key, entry) => void results.set(key, entry),
    readBlob: async (name) => blobs.get(name),
    writeBlob: (name, value) => void blobs.set(name, value),
    flush: async () => {},
  };
}
