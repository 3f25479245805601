export interface Brackets {
  /** Brackets open at the start of each line. */
  depth: Int32Array;
  /** Offset of each opening bracket → offset of its closing bracket (the text length when unclosed). */
  close: Map<number, number>;
}

const PAIRS: Record<number, number> = { 41: 40, 93: 91, 125: 123 }; // ) ( ] [ } {

/**
 * Matches `()[]{}` in masked text. A closer that doesn't match the innermost opener closes the
 * nearest matching one within a few levels (the skipped ones end there too); a stray closer is
 * ignored. So unbalanced input degrades locally instead of shifting every later definition.
 */
export function matchBrackets(text: string, lineCount: number): Brackets {
  const depth = new Int32Array(lineCount);
  const close = new Map<number, number>();
  const stack: number[] = [];
  let line = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      line++;
      if (line < lineCount) depth[line] = stack.length;
    } else if (c === 40 || c === 91 || c === 123) {
      stack.push(i);
    } else if (c === 41 || c === 93 || c === 125) {
      const want = PAIRS[c];
      const floor = Math.max(0, stack.length - 4);
      let k = stack.length - 1;
      while (k >= floor && text.charCodeAt(stack[k]!) !== want) k--;
      if (k < floor) continue;
      while (stack.length > k) close.set(stack.pop()!, i);
    }
  }
  for (const open of stack) close.set(open, text.length);
  return { depth, close };
}
