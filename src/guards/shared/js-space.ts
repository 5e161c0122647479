/**
 * True for a UTF-16 unit that JavaScript's `\s` matches (the characters
 * `trim()` removes): ASCII tab to carriage return and space, and the
 * Unicode spaces and line/paragraph separators. One table, so every scanner
 * that stands in for a `\s` regex reads blanks exactly as the regex does.
 */
export function isJsSpace(code: number): boolean {
  if (code < 0x80) return code === 32 || (code >= 9 && code <= 13);
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}
