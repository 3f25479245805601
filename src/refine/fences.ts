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

/** Whether `index` falls inside one of the (sorted, disjoint) ranges. */
export function isInRanges(ranges: ReadonlyArray<[number, number]>, index: number): boolean {
  return ranges.some(([start, end]) => index >= start && index < end);
}
