/**
 * What a content scan printed that holds a term, kept compactly while the scan runs (a line number
 * and the identifier, or span, of each match, file by file), so the candidates' lines can later be
 * had without a second pass (`replayLines`). Numbers only, per match: the identifiers are kept
 * once each. Bounded: past `maxMatches` it drops everything and says so, and the lines are scanned
 * as before.
 */

/** Matches kept at most (8 bytes each): a repository of 20,000 files of code, or more. */
export const MAX_KEPT_MATCHES = 1_000_000;

/** An identifier (or span) as the scan's reader knows it: the log numbers it on first sight. */
export interface LoggedText {
  text: string;
  logId?: number;
}

export class MatchLog<T extends LoggedText = LoggedText> {
  /** Line and text number of each match, side by side. */
  private matches = new Int32Array(8192);
  private count = 0;
  /** Each identifier as the reader knows it, with what it already cut from it. */
  private texts: T[] = [];
  private readonly files = new Map<string, [start: number, end: number]>();
  private open: { path: string; start: number } | undefined;
  private full = false;
  /** What the fragments were cut for (the scan's terms, set by the reader filling the log): a replay for the same terms takes its cuts as they are. */
  cutFor: unknown;

  constructor(private readonly maxMatches = MAX_KEPT_MATCHES) {}

  /** True once the budget was passed: nothing is kept, and no file's matches can be replayed. */
  get overflowed(): boolean {
    return this.full;
  }

  /** A file's matches start; the previous file's end. */
  startFile(path: string): void {
    this.endFile();
    if (!this.full) this.open = { path, start: this.count };
  }

  add(line: number, fragment: T): void {
    if (this.full || !this.open) return;
    if (this.count >= this.maxMatches) {
      this.drop();
      return;
    }
    if (fragment.logId === undefined) {
      fragment.logId = this.texts.length;
      this.texts.push(fragment);
    }
    if (2 * this.count === this.matches.length) {
      const grown = new Int32Array(Math.min(2 * this.maxMatches, this.matches.length * 2));
      grown.set(this.matches);
      this.matches = grown;
    }
    this.matches[2 * this.count] = line;
    this.matches[2 * this.count + 1] = fragment.logId;
    this.count++;
  }

  /** Forgets the open file's matches (rg found it binary part-way: it counts for nothing). */
  discardFile(): void {
    if (this.open) this.count = this.open.start;
    this.open = undefined;
  }

  endFile(): void {
    if (this.open && this.count > this.open.start) this.files.set(this.open.path, [this.open.start, this.count]);
    this.open = undefined;
  }

  /** Calls `onMatch` for each kept match of `path`, in the order rg printed them, with the fragment as `add` was given it. */
  forEachMatch(path: string, onMatch: (line: number, fragment: T) => void): void {
    const range = this.files.get(path);
    if (!range) return;
    for (let i = range[0]; i < range[1]; i++) onMatch(this.matches[2 * i]!, this.texts[this.matches[2 * i + 1]!]!);
  }

  private drop(): void {
    this.full = true;
    this.matches = new Int32Array(0);
    this.texts = [];
    this.files.clear();
    this.open = undefined;
  }
}
