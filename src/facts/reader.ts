import { createHash } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import pLimit from 'p-limit';
import { FACTS_VERSION, factsKey } from '../core/keys.js';
import type { Cache, FactsReader } from '../core/deps.js';
import { throwIfAborted } from '../core/errors.js';
import { extensionOf, languageOf } from '../core/files.js';
import { silentLogger, type Logger } from '../core/log.js';
import type { FileFacts } from '../core/types.js';
import type { TreeInput } from './extract.js';
import { normalizeNewlines } from './newlines.js';
import { readInsideRoot } from '../core/read-inside.js';
import { isSettledAt } from '../core/settle.js';
import { statInsideRoot } from './stamp.js';

export interface FactsReaderOptions {
  cache: Cache;
  logger?: Logger;
  /**
   * Files larger than this (bytes) are skipped.
   * @default 1000000
   */
  maxFileSize?: number;
  /**
   * Files read at once.
   * @default 4
   */
  concurrency?: number;
  /**
   * Parse with tree-sitter where a grammar is bundled (patterns read the rest, and any file
   * whose parse fails). False: patterns only. Either is the default of `read`, which a caller
   * may override per call.
   * @default true
   */
  treeSitter?: boolean;
  /**
   * Time one parse may take (ms) before patterns read the file instead; by default it grows
   * with the file (`parseTimeLimit`). For tests.
   */
  parseTimeLimit?: number;
  /**
   * Time (ms) spent on parses that ran out of time before the reader stops parsing. For tests.
   * @default 3000
   */
  parseBudget?: number;
}

/** Longer texts (bundles, generated tables) are read with patterns: a parse would cost more than it tells. */
const MAX_PARSE_CHARS = 400_000;

const decoders = {
  utf8: new TextDecoder('utf-8', { fatal: false }),
  utf16le: new TextDecoder('utf-16le', { fatal: false }),
  utf16be: new TextDecoder('utf-16be', { fatal: false }),
};

/**
 * UTF-8 with invalid bytes replaced, CRLF normalized: the text every stage sees. A file with a
 * UTF-16 byte-order mark (Windows tools write them; ripgrep transcodes them too) is read as
 * UTF-16, so its regions are text rather than NUL-riddled bytes. BOMs are dropped.
 */
function decode(bytes: Buffer): string {
  const decoder = bytes[0] === 0xff && bytes[1] === 0xfe ? decoders.utf16le : bytes[0] === 0xfe && bytes[1] === 0xff ? decoders.utf16be : decoders.utf8;
  return normalizeNewlines(decoder.decode(bytes));
}

/**
 * Reads files under a root and extracts their facts, cached by content hash (sha1 of the raw
 * bytes), so an edited file invalidates itself and an unchanged one is never parsed twice. A file
 * whose modification time and size match the stamp taken when it was last hashed is not even
 * read: its facts come from the cache under the hash the stamp names.
 */
export function createFactsReader({ cache, logger = silentLogger, maxFileSize = 1_000_000, concurrency = 4, treeSitter = true, parseTimeLimit, parseBudget = 3_000 }: FactsReaderOptions): FactsReader {
  const limit = pLimit(concurrency);
  // Time spent on parses that ran out of time. Past `parseBudget`, the reader stops parsing: a
  // repository of hundreds of files a grammar reads in exponential time costs seconds, not
  // minutes. The files after it are read with patterns and not cached, so a later reader parses them.
  let lateMs = 0;

  // said once a root: a root removed during a run is met by every later read (each cycle, the pack)
  const unreadable = new Set<string>();
  const realRootOf = async (root: string): Promise<string | undefined> => {
    try {
      return await realpath(root);
    } catch {
      if (!unreadable.has(root)) logger.warn(`cannot read root ${root}: it does not exist or is not accessible`);
      unreadable.add(root);
      return undefined;
    }
  };

  const readBytes = async (realRoot: string, path: string): Promise<Buffer | undefined> => {
    const outcome = await readInsideRoot(realRoot, path, maxFileSize);
    if ('bytes' in outcome) return outcome.bytes;
    if (outcome.skipped !== 'missing') logger.debug(`facts: skipped ${path} (${outcome.skipped})`);
    return undefined;
  };

  // Grammars load lazily, the first time a file of their language is read, and stay loaded.
  // A grammar that should have loaded and did not, or a spent parse budget, leaves `missing`
  // set: those facts are not cached.
  const treeFor = async (path: string, text: string, exact: boolean): Promise<{ tree?: TreeInput; missing?: boolean }> => {
    const choice = exact && text.length <= MAX_PARSE_CHARS ? (await import('./tree-sitter/grammars.js')).grammarFor(path, text) : undefined;
    if (!choice) return {};
    if (lateMs >= parseBudget) return { missing: true };
    const grammar = await (await import('./tree-sitter/runtime.js')).loadGrammar(choice.grammar, (message) => logger.warn(message));
    if (!grammar) return { missing: true };
    const started = performance.now();
    const onLate = (): void => {
      logger.debug(`facts: ${path} took too long to parse; read with patterns`);
      const before = lateMs;
      lateMs += performance.now() - started;
      if (before < parseBudget && lateMs >= parseBudget) logger.warn(`tree-sitter ran out of time on files like ${path}; the rest of this run's files are read with patterns`);
    };
    return { tree: { grammar, spec: choice.spec, onLate, ...(parseTimeLimit === undefined ? {} : { limitMs: parseTimeLimit }) } };
  };

  // Pattern-only facts are another extractor's output: another key.
  // Keyed by extension too: the same bytes as `.ts` and `.tsx` are one language read by two
  // grammars (a `<T>x` cast parses in one only), and one's facts were served for the other.
  const keyOf = (path: string, hash: string, exact: boolean): string => factsKey(hash, exact ? FACTS_VERSION : `${FACTS_VERSION}-patterns`, extensionOf(path));

  const cachedFacts = (path: string, hash: string, exact: boolean): FileFacts | undefined => {
    const cached = cache.getFacts(keyOf(path, hash, exact));
    // Same bytes under another name (empty files, mostly) read as another language: a miss.
    if (!cached || cached.language !== languageOf(path)) return undefined;
    return cached.path === path ? cached : { ...cached, path };
  };

  const factsOf = async (path: string, bytes: Buffer, exact: boolean): Promise<FileFacts> => {
    const hash = createHash('sha1').update(bytes).digest('hex');
    const cached = cachedFacts(path, hash, exact);
    if (cached) return cached;
    const text = decode(bytes);
    const { tree, missing } = await treeFor(path, text, exact);
    // The extractors (and tree-sitter) are loaded with the first file not in the cache: a warm run never needs them.
    const { extractFacts } = await import('./extract.js');
    const facts: FileFacts = { path, hash, ...extractFacts(path, text, tree) };
    if (!missing) cache.setFacts(keyOf(path, hash, exact), facts);
    return facts;
  };

  /** The freshness check: stat, then facts by the hash a matching stamp names, or read and hash and stamp. */
  const readFacts = async (realRoot: string, path: string, exact: boolean): Promise<FileFacts | undefined> => {
    const now = await statInsideRoot(realRoot, path, maxFileSize);
    const stamp = now && cache.getStamp(path);
    const known = stamp && stamp.mtimeMs === now.mtimeMs && stamp.size === now.size && stamp.ctimeMs === now.ctimeMs && stamp.ino === now.ino ? cachedFacts(path, stamp.hash, exact) : undefined;
    if (known) return known;
    const bytes = await readBytes(realRoot, path);
    const facts = bytes && (await factsOf(path, bytes, exact));
    // a stamp younger than the settle time is hashed again next time rather than trusted
    if (facts && now && isSettledAt(now.mtimeMs, Date.now())) cache.setStamp(path, { ...now, hash: facts.hash });
    return facts;
  };

  return {
    async read(root, paths, signal, exact = treeSitter) {
      const out = new Map<string, FileFacts>();
      const realRoot = await realRootOf(root);
      if (!realRoot) return out;
      const found = await Promise.all(
        paths.map((path) =>
          limit(async () => {
            if (signal?.aborted) return undefined;
            return readFacts(realRoot, path, exact);
          }),
        ),
      );
      throwIfAborted(signal);
      for (const facts of found) if (facts) out.set(facts.path, facts);
      return out;
    },
    async readText(root, path) {
      const realRoot = await realRootOf(root);
      const bytes = realRoot && (await limit(() => readBytes(realRoot, path)));
      return bytes ? decode(bytes) : undefined;
    },
  };
}
