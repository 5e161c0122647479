/**
 * YAML block scalars: a key's value written on the lines after it
 * (`password: |`, `token: >-`, then lines indented deeper than the key).
 */
import { positionsOfUnit } from '../shared/anchored-scan';
import { keywordPattern } from './assignments';

/** The number of leading blanks (a tab counts as one, as YAML forbids mixing them in one block). */
export function indentOf(line: string): number {
  let indent = 0;
  while (indent < line.length && (line[indent] === ' ' || line[indent] === '\t')) indent++;
  return indent;
}

/** Where a block scalar's content lies: its first and last character, and the line after it. */
export interface BlockScalarLines {
  /** The first content line's first non-blank character, or -1 when the block is empty. */
  start: number;
  /** The end of the last content line (before its `\n`). */
  end: number;
  /** The start of the first line after the block (the text's length past its end). */
  next: number;
}

/**
 * The content of a block scalar whose lines start at `next`: the lines
 * after its indicator line that are blank or indented deeper than
 * `keyIndent` (the column of its key). Reads each line once.
 */
export function blockScalarLines(
  source: string,
  next: number,
  keyIndent: number,
): BlockScalarLines {
  let start = -1;
  let end = next;
  while (next > 0 && next < source.length) {
    let lineEnd = source.indexOf('\n', next);
    if (lineEnd < 0) lineEnd = source.length;
    const text = source.slice(next, lineEnd);
    const deeper = indentOf(text);
    const blank = /^\s*$/.test(text);
    if (!blank && deeper <= keyIndent) break;
    if (!blank) {
      if (start < 0) start = next + deeper;
      end = lineEnd;
    }
    next = lineEnd + 1;
  }
  // The last line's trailing blanks and carriage return are not the value's.
  while (end > start && start >= 0 && /\s/.test(source[end - 1]!)) end--;
  return { start, end, next: Math.min(next, source.length) };
}

/** A block scalar's indicator (`|`, `>`, a chomping `+`/`-` and an indentation digit, either order), a comment, the line's end. */
const indicatorLine = /[|>](?:[+-]?[1-9]?|[1-9][+-])[ \t]*(?:#[^\n]*)?(?:\r?\n|$)/y;
/** A key's characters (as an assignment's key: `[A-Za-z0-9_.-]`). */
const keyChar = /[A-Za-z0-9_.-]/;
/** What stands before a key on its line: blanks, and a list item's `-` and blanks. */
const keyIndentation = /^[ \t]*(?:-[ \t]+)?$/;
/** The longest key read back from its `:` (as `assignment`'s: 40 + 14 + 30). */
const longestKey = 84;

/**
 * Calls `onValue(start, end, key)` for each block scalar under a key that
 * names a secret (holds a keyword of `assignment`: `password`, `token`,
 * `api_key`, …), `[start, end)` its content from the first non-blank
 * character of its first line to the end of its last. The key (bare or
 * quoted) is the first thing on its line (after blanks and a list item's
 * `-`), then `:`, blanks and the indicator (`|`, `>-`, `|+2`, …) end the
 * line. Before round 33 such a value was read by no scan: a password on
 * the next line reached the model unless it was random enough for the
 * entropy scan.
 */
export function scanYamlBlockScalars(
  source: string,
  onValue: (start: number, end: number, key: string) => void,
  colons: Int32Array = positionsOfUnit(source, ':'),
): void {
  forEachBlockScalar(
    source,
    (_keyStart, key, lines) => {
      if (lines.start >= 0) onValue(lines.start, lines.end, key);
    },
    colons,
  );
}

/**
 * Where the last block scalar under a secret-named key that runs to the
 * end of `source` starts (its key's line), or `source.length`: in a
 * stream, more lines of its value may still come, and the value is judged
 * whole (`password: |` then `correct horse` is no secret yet).
 */
export function openBlockScalarStart(source: string): number {
  let open = source.length;
  forEachBlockScalar(source, (keyStart, _key, lines) => {
    if (lines.next >= source.length && open === source.length) open = keyStart;
  });
  return open;
}

/**
 * Calls `visit(keyStart, key, lines)` for each block scalar under a
 * secret-named key (`keyStart`: where its key's line starts). Linear: an
 * indicator's line is read back once, and each block's lines once (the
 * scan resumes after the block).
 */
function forEachBlockScalar(
  source: string,
  visit: (keyStart: number, key: string, lines: BlockScalarLines) => void,
  colons: Int32Array = positionsOfUnit(source, ':'),
): void {
  let readUntil = 0;
  // From each `:` to its indicator, one to 16 blanks on (round 34: real
  // text holds many more `|` than `:`, in markdown tables: the dev sets'
  // first MB 28,104 `|` and 461 `>` against 3,450 `:`, each a search).
  for (let index = 0; index < colons.length; index++) {
    const colon = colons[index]!;
    let at = colon + 1;
    while (at - colon <= 17 && (source[at] === ' ' || source[at] === '\t')) at++;
    if (at === colon + 1 || at - colon > 17 || (source[at] !== '|' && source[at] !== '>')) continue;
    if (at < readUntil) continue;
    indicatorLine.lastIndex = at;
    if (!indicatorLine.test(source)) continue;
    // The key, maybe quoted, right before the `:`.
    let keyEnd = colon;
    const quote = source[keyEnd - 1];
    const quoted = quote === '"' || quote === "'";
    if (quoted) keyEnd--;
    let keyStart = keyEnd;
    while (keyStart > 0 && keyEnd - keyStart < longestKey && keyChar.test(source[keyStart - 1]!))
      keyStart--;
    if (keyStart === keyEnd) continue;
    let lineStart = keyStart;
    if (quoted) {
      if (source[keyStart - 1] !== quote) continue;
      lineStart--;
    }
    // The line's start, looked for within 41 characters (not to the text's start for each key).
    let indentStart = lineStart;
    while (indentStart > 0 && lineStart - indentStart <= 40 && source[indentStart - 1] !== '\n')
      indentStart--;
    if (!keyIndentation.test(source.slice(indentStart, lineStart))) continue;
    const key = source.slice(keyStart, keyEnd);
    if (!keywordPattern.test(key)) continue;
    const lines = blockScalarLines(source, indicatorLine.lastIndex, lineStart - indentStart);
    readUntil = lines.next;
    visit(indentStart, key, lines);
  }
}
