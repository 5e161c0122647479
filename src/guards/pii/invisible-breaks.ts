import { codePointBefore } from '../shared/invisible-code-points';
import { isInvisibleCodePoint, type NormalizedText } from '../shared/normalize-text';
import { privateUseReadThrough } from '../shared/private-use';

/** A letter of any script. */
const letter = /\p{L}/u;
const blank = /\s/u;

function isLetterCodePoint(codePoint: number | undefined): boolean {
  if (codePoint === undefined) return false;
  if (codePoint < 0x80) {
    return (codePoint >= 65 && codePoint <= 90) || (codePoint >= 97 && codePoint <= 122);
  }
  return letter.test(String.fromCodePoint(codePoint));
}

/** A blank (`\s`), or no character: a value beside it is not glued to anything. */
function isBlankOrEnd(codePoint: number | undefined): boolean {
  if (codePoint === undefined) return true;
  if (codePoint < 0x80) return codePoint === 32 || (codePoint >= 9 && codePoint <= 13);
  return blank.test(String.fromCodePoint(codePoint));
}

/**
 * `text` with each invisible character (`isInvisibleCodePoint`: zero-width
 * and format characters, controls, code points that stand for no character)
 * between two characters that are no blanks, a letter one of them, written
 * as blanks (one per UTF-16 unit: same length, same offsets), or undefined
 * when there is none. Round 24: the
 * normaliser reads through such characters, so one between a word and a
 * value glued the value to the word, and a value glued to letters is none:
 * `cc\u200B4111 1111 1111 1111`, `ssn\uFFFD536-22-1234` passed. Between
 * two digits (`4111\u200B1111`) it stays read through in this reading too.
 * One pass; called only for a text the normaliser removed such a character from.
 */
export function lettersBrokenAtInvisibles(text: string): string | undefined {
  let units: Uint16Array | undefined;
  for (let at = 0; at < text.length; ) {
    const unit = text.charCodeAt(at);
    if ((unit >= 0x20 && unit < 0x7f) || unit === 9 || unit === 10 || unit === 13) {
      at++;
      continue;
    }
    const codePoint = text.codePointAt(at)!;
    const end = at + (codePoint > 0xffff ? 2 : 1);
    if (!isInvisibleCodePoint(codePoint)) {
      at = end;
      continue;
    }
    // The run of invisible characters this one starts, and what is on each side of it.
    let runEnd = end;
    while (runEnd < text.length) {
      const next = text.codePointAt(runEnd)!;
      if (!isInvisibleCodePoint(next)) break;
      runEnd += next > 0xffff ? 2 : 1;
    }
    const start = at;
    at = runEnd;
    // Between two characters that are no blanks, a letter one of them: else nothing is glued.
    const before = codePointBefore(text, start);
    const after = text.codePointAt(runEnd);
    if (isBlankOrEnd(before) || isBlankOrEnd(after)) continue;
    if (!isLetterCodePoint(before) && !isLetterCodePoint(after)) continue;
    if (units === undefined) {
      units = new Uint16Array(text.length);
      for (let index = 0; index < text.length; index++) units[index] = text.charCodeAt(index);
    }
    units.fill(32, start, runEnd);
  }
  if (units === undefined) return undefined;
  let copy = '';
  for (let from = 0; from < units.length; from += 8192) {
    copy += String.fromCharCode.apply(
      null,
      units.subarray(from, Math.min(units.length, from + 8192)) as unknown as number[],
    );
  }
  return copy;
}

/**
 * The texts `findPii` and `findSecrets` read besides `normalized`, same
 * offsets: `readThrough`, with its private-use characters as zero-width
 * spaces (when it holds one); `broken`, with the invisible characters
 * beside letters (of it, or of the text read through) as blanks (when the
 * normaliser removed one and one is beside a letter).
 */
export function otherReadings(normalized: NormalizedText): {
  readThrough: string | undefined;
  broken: string | undefined;
} {
  const readThrough = privateUseReadThrough(normalized.original);
  const broken =
    readThrough !== undefined
      ? lettersBrokenAtInvisibles(readThrough)
      : normalized.removedInvisible
        ? lettersBrokenAtInvisibles(normalized.original)
        : undefined;
  return { readThrough, broken };
}
