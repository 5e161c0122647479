/**
 * Kubernetes `Secret` manifests: every value under `data:` (base64) and
 * `stringData:` (plain) is a secret whatever its key is called
 * (`ca.pem`, `.dockercfg`, `extra`). Read only when the text declares
 * `kind: Secret`; one pass over the lines of each `data:` block.
 */

const secretKind = /^[ \t]*kind:[ \t]*["']?[Ss]ecret["']?[ \t]*$/;

/** True when a line of `source` is `kind: Secret` (found by `indexOf`, then checked on its line). */
function declaresSecret(source: string): boolean {
  return firstSecretKindLine(source) >= 0;
}

/** The start of the first `kind: Secret` line of `source`, or -1. */
export function firstSecretKindLine(source: string): number {
  for (let at = source.indexOf('kind:'); at >= 0; at = source.indexOf('kind:', at + 5)) {
    // The line's ends are looked for within 41 characters: a search to the
    // text's ends for each `kind:` made one long line of them quadratic.
    let lineStart = at;
    while (lineStart > 0 && at - lineStart <= 40 && source.charCodeAt(lineStart - 1) !== 10) {
      lineStart--;
    }
    if (at - lineStart > 40) continue;
    const limit = Math.min(source.length, at + 41);
    let lineEnd = at;
    while (lineEnd < limit && source.charCodeAt(lineEnd) !== 10) lineEnd++;
    if (lineEnd - at > 40) continue;
    if (secretKind.test(source.slice(lineStart, lineEnd).replace(/\r$/, ''))) return lineStart;
  }
  return -1;
}
const dataBlock = /^([ \t]*)(data|stringData):[ \t]*$/gm;
const entry = /^([ \t]+)(["']?)([A-Za-z0-9_.-]{1,253})\2:[ \t]*(.*)$/;
const blockScalar = /^[>|][+-]?$/;
// Ten base64 characters or more (seven bytes), as gitleaks requires: `YmFyCg==` ("bar") is a sample.
const base64Value = /^[A-Za-z0-9+/_-]{10,}={0,3}$/;

/** The number of leading blanks (a tab counts as one, as YAML forbids mixing them in one block). */
function indentOf(line: string): number {
  let indent = 0;
  while (indent < line.length && (line[indent] === ' ' || line[indent] === '\t')) indent++;
  return indent;
}

/**
 * Calls `onValue(start, end, key)` for every value of a `data:` or
 * `stringData:` block of a text that declares `kind: Secret`. A block scalar
 * (`key: >` then indented lines) is reported from its first to its last
 * line. Linear: each line is read once, by the block it belongs to.
 */
export function scanKubernetesSecrets(
  source: string,
  onValue: (start: number, end: number, key: string) => void,
): void {
  // `kind:` first: its `k` is rarer than the `a` a search for `ata:` stops at.
  if (!declaresSecret(source) || !source.includes('ata:')) return;
  dataBlock.lastIndex = 0;
  for (let block = dataBlock.exec(source); block; block = dataBlock.exec(source)) {
    const baseIndent = block[1]!.length;
    const plain = block[2] === 'stringData';
    let lineStart = source.indexOf('\n', block.index + block[0].length) + 1;
    while (lineStart > 0 && lineStart < source.length) {
      let lineEnd = source.indexOf('\n', lineStart);
      if (lineEnd < 0) lineEnd = source.length;
      const line = source.slice(lineStart, lineEnd).replace(/\r$/, '');
      const indent = indentOf(line);
      if (indent === line.length || line[indent] === '#') {
        lineStart = lineEnd + 1; // blank or comment line
        continue;
      }
      if (indent <= baseIndent) break; // the block is over
      const match = entry.exec(line);
      if (!match) break;
      const keyIndent = match[1]!.length;
      let value = match[4]!.trim();
      let valueStart =
        lineStart +
        line.length -
        match[4]!.length +
        (match[4]!.length - match[4]!.trimStart().length);
      let valueEnd = valueStart + value.length;
      let next = lineEnd + 1;
      if (blockScalar.test(value)) {
        // The value is the following lines indented deeper than the key.
        valueStart = -1;
        while (next > 0 && next < source.length) {
          let end = source.indexOf('\n', next);
          if (end < 0) end = source.length;
          const text = source.slice(next, end);
          const deeper = indentOf(text);
          if (deeper < text.length && deeper <= keyIndent) break;
          if (deeper < text.length) {
            if (valueStart < 0) valueStart = next + deeper;
            valueEnd = end;
          }
          next = end + 1;
        }
        if (valueStart < 0) {
          lineStart = next;
          continue;
        }
        value = source.slice(valueStart, valueEnd).replace(/\s+/g, '');
      } else if (/^(["']).*\1$/.test(value)) {
        value = value.slice(1, -1);
        valueStart++;
        valueEnd--;
      }
      if (plain ? value.length >= 6 : base64Value.test(value)) {
        onValue(valueStart, valueEnd, match[3]!);
      }
      lineStart = next;
    }
    // Resume after the block (at the line that ended it): a `data:` nested
    // inside it is not read again, so each line is read once (a staircase of
    // ever deeper `data:` lines stays linear).
    if (lineStart <= 0 || lineStart >= source.length) return;
    dataBlock.lastIndex = Math.max(dataBlock.lastIndex, lineStart);
  }
}
