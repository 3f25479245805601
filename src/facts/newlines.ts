/** CRLF → LF only: ripgrep counts lines by `\n`, so a lone `\r` must not start a line here either. */
export function normalizeNewlines(text: string): string {
  return text.includes('\r\n') ? text.replace(/\r\n/g, '\n') : text;
}
