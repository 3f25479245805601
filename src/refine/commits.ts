/**
 * Commits a task names by hash: "4a55850 was a bit aggressive", "broken since 6d3d2750", a link
 * to `…/commit/<sha>`. The files such a commit changed are where a regression or a revert starts.
 */

/** Hashes looked up at most: a task quoting a log of many commits is about none of them in particular. */
export const MAX_NAMED_COMMITS = 3;

/**
 * A hex run of 7 to 40 characters standing alone (not part of a word, a file name or a folder of
 * a path, a `#` colour, a UUID's dashes, a `0x` number or a longer hex run), with a digit and a letter in it:
 * `deadbeef` and `1234567` are words and numbers as often as hashes. Whether it is a commit is
 * for the repository to say.
 */
const HASH = /(?<![\w.#-])([0-9a-f]{7,40})(?![\w/-]|\.\w)/g;

/** The distinct commit-like hashes of `text`, in order, at most `MAX_NAMED_COMMITS`. */
export function commitMentions(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(HASH)) {
    const hash = match[1]!;
    if (!/[a-f]/.test(hash) || !/[0-9]/.test(hash) || found.includes(hash)) continue;
    found.push(hash);
    if (found.length === MAX_NAMED_COMMITS) break;
  }
  return found;
}
