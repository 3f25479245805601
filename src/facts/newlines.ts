/**
 * Lines as ripgrep counts them, by `\n`: CRLF → LF, and a lone `\r` in a text that has LFs does
 * not start a line (a CR inside a string literal). A text with CRs and no LF at all breaks its
 * lines at its CRs (classic Mac OS): read as one line, its whole content was one region, shown
 * with each CR as U+FFFD. rg sees that file as one line too; `readHits` places its hits.
 */
export function normalizeNewlines(text: string): string {
  if (text.includes('\n')) return text.includes('\r\n') ? text.replace(/\r\n/g, '\n') : text;
  return text.includes('\r') ? text.replace(/\r/g, '\n') : text;
}
