import { codePointBefore } from './invisible-code-points';
import { isInvisibleCodePoint } from './normalize-text';

/**
 * Most invisible code points read through at one place (before a word
 * start's blank, between the units of a spaced-out run): past them the
 * reading stops, so a question costs a bounded look back however long the
 * run.
 */
export const INVISIBLES_READ = 32;

/**
 * The start of the run of at most `most` (`INVISIBLES_READ`) invisible
 * code points (`isInvisibleCodePoint`: the ones every detector and the
 * content filter's matcher read past, and the fold drops) that ends at
 * `at`; -1 when the run is longer.
 */
export function beforeInvisibles(text: string, at: number, most = INVISIBLES_READ): number {
  let from = at;
  for (let read = 0; from > 0; read++) {
    const unit = text.charCodeAt(from - 1);
    // Printable ASCII, tab and line breaks are never invisible.
    if (unit < 0x80 && (unit >= 0x20 || (unit >= 9 && unit <= 13))) return from;
    const codePoint = codePointBefore(text, from)!;
    if (!isInvisibleCodePoint(codePoint)) return from;
    if (read === most) return -1;
    from -= codePoint > 0xffff ? 2 : 1;
  }
  return from;
}

/**
 * `beforeInvisibles` without a bound, for text the window holds (at most
 * its hold bound long, and read again only as it grows: linear in all).
 */
export function beforeAllInvisibles(text: string, at: number): number {
  return beforeInvisibles(text, at, Number.POSITIVE_INFINITY);
}
