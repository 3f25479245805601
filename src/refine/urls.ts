/**
 * URLs in a task. Their host, query string and fragment name no code (`github`, `com`, `utf8`,
 * the `L38` of `#L38`), and a code host's links to a file (`…/blob/<ref>/lib/x.js`) name a file
 * of the repository by the path after the ref. What is left (the path of any other URL) is
 * searched, with little weight.
 */

/** A URL: the scheme, then up to a space, a closing bracket or a quote. */
const URL = /\b(?:https?|ftp|file):\/\/[^\s)\]>"'`]+/g;

/** The code hosts whose links are read (both patterns below). */
const HOST = String.raw`(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org|gitee\.com)`;

/**
 * A code host's link to a file or directory of a repository: `/<owner>/<repo>/blob/<ref>/<path>`
 * (GitLab adds `/-`, Bitbucket and Gitea write `src`). The ref is one segment: a commit, a tag
 * or a branch without a slash, as links copied from a host mostly are.
 */
const CODE_HOST_FILE = new RegExp(String.raw`^(?:[a-z]+:\/\/)?${HOST}\/[^/\s?#]+\/[^/\s?#]+\/(?:-\/)?(?:blob|tree|raw|src)\/[^/\s?#]+\/([^\s?#]+)`, 'di');

/** Any link to a code host: all of it but a file's path names the host's pages, not code. */
const CODE_HOST = new RegExp(String.raw`^[a-z]+:\/\/${HOST}\/`, 'i');

/** The repository path a code host's file link names (`lib/helpers/buildURL.js`) and where it starts, or undefined for any other URL. */
function codeHostFile(url: string): { path: string; at: number } | undefined {
  const m = CODE_HOST_FILE.exec(url);
  const path = m?.[1]?.replace(/\/+$/, '');
  return m?.indices?.[1] && path ? { path, at: m.indices[1][0] } : undefined;
}

/** The repository path a code host's file link names (`lib/helpers/buildURL.js`), or undefined for any other URL. */
export function codeHostPath(url: string): string | undefined {
  return codeHostFile(url)?.path;
}

/** Character ranges [start, end) of the URLs in `text`. */
export function urlRanges(text: string): Array<[number, number]> {
  return [...text.matchAll(URL)].map((m) => [m.index, m.index + m[0].length]);
}

/**
 * Character ranges [start, end) of the parts of URLs that name no code: the scheme and host, a
 * query string and a fragment; of a code host's link, all but the path of the file it names (its
 * owner, repository and ref too, and the whole of an issue, pull request or commit link).
 */
export function urlNoiseRanges(text: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const m of text.matchAll(URL)) {
    const url = m[0];
    const start = m.index;
    const tail = url.search(/[?#]/);
    const end = tail < 0 ? url.length : tail;
    const file = codeHostFile(url);
    if (file !== undefined) {
      ranges.push([start, start + file.at]);
    } else if (CODE_HOST.test(url)) {
      ranges.push([start, start + end]);
    } else {
      const host = url.indexOf('/', url.indexOf('://') + 3);
      ranges.push([start, start + (host < 0 ? end : Math.min(host, end))]);
    }
    if (tail >= 0) ranges.push([start + tail, start + url.length]);
  }
  return ranges;
}
