/**
 * The task with its HTML comments blanked (each character but a line break made a space, so
 * offsets and lines stay): an issue filed through a form keeps the form's instructions in
 * comments GitHub never shows ("Read all our documentation…", "Don't remove any title…"), words
 * of the form, not of the reporter. A comment inside code (a fence or backticks) is the
 * reporter's input and stays, and so does an unclosed `<!--`. Linear in the text.
 */
export function blankIssueComments(text: string): string {
  if (!text.includes('<!--')) return text;
  const code = codeRanges(text);
  let out = '';
  let from = 0;
  let next = 0; // the first code range that may hold a later comment (both are in text order)
  for (let open = text.indexOf('<!--'); open >= 0; open = text.indexOf('<!--', from)) {
    const close = text.indexOf('-->', open + 4);
    if (close < 0) break;
    const end = close + 3;
    while (next < code.length && code[next]![1] <= open) next++;
    if (next < code.length && code[next]![0] <= open) {
      out += text.slice(from, open + 4);
      from = open + 4;
      continue;
    }
    out += text.slice(from, open) + text.slice(open, end).replace(/[^\n]/g, ' ');
    from = end;
  }
  return out + text.slice(from);
}

/** Character ranges [start, end), in order, of fenced blocks (an unclosed one runs to the end) and of backtick spans on one line. */
function codeRanges(text: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let fence: { marker: string; start: number } | undefined;
  let offset = 0;
  for (const line of text.split('\n')) {
    const marker = /^[ \t]*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && line.trim() === marker && marker.startsWith(fence.marker)) {
        ranges.push([fence.start, offset + line.length]);
        fence = undefined;
      }
    } else if (marker) {
      fence = { marker, start: offset };
    } else {
      for (const span of line.matchAll(/`[^`]+`/g)) ranges.push([offset + span.index, offset + span.index + span[0].length]);
    }
    offset += line.length + 1;
  }
  if (fence) ranges.push([fence.start, text.length]);
  return ranges;
}
