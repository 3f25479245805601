/**
 * Fenced blocks (```) in a task. Most hold the reporter's own input (their SQL, JSON, shell
 * session or app code), whose names (`my_table`, `handleClick`) are not the repository's; some
 * hold a log or a trace, whose lines are the repository's own code and are worth full weight.
 */

/** A fence that shows a program failing: frames, a traceback, a panic or an error line. */
const LOG_SIGNS = [
  /Traceback \(most recent call last\)/,
  /File "[^"]+", line \d+/,
  /^\s+at [\w$.<>]+ ?\(/m,
  /\b[\w/.-]+\.[A-Za-z]{1,5}:\d+(?::\d+)?\b/,
  /panicked at|^panic:|^goroutine \d+/m,
  /^\s*(?:[\w.]*(?:Error|Exception)|error(?:\[\w+\])?|fatal):/m,
];

/** Character ranges [start, end) of fenced blocks that are examples rather than logs. */
export function exampleFenceRanges(text: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  const fence = /^[ \t]*(`{3,}|~{3,})[^\n]*\n([\s\S]*?)^[ \t]*\1[ \t]*$/gm;
  for (const m of text.matchAll(fence)) {
    const body = m[2]!;
    if (LOG_SIGNS.some((sign) => sign.test(body))) continue;
    ranges.push([m.index, m.index + m[0].length]);
  }
  return ranges;
}

/**
 * Whether an index falls inside one of `ranges` [start, end), for indexes asked in increasing
 * order (the matches of one pass over a text; an earlier index starts the walk again). The
 * ranges are sorted and merged once and each is passed once, so a task of thousands of URLs
 * costs one pass, not a pass per word.
 */
export function createRangeTest(ranges: ReadonlyArray<[number, number]>): (index: number) => boolean {
  const merged: Array<[number, number]> = [];
  for (const [start, end] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  let i = 0;
  let previous = -Infinity;
  return (index) => {
    if (index < previous) i = 0; // asked out of order: start again
    previous = index;
    while (i < merged.length && merged[i]![1] <= index) i++;
    return i < merged.length && index >= merged[i]![0];
  };
}
