import { isReadThrough } from '../shared/normalize-text';
import { PieceJoiner } from '../shared/piece-joiner';

/**
 * contentFilter's reading of tabs and line breaks between spelled-out
 * letters (round 45, issue 16). `foldText` joins a spelled-out run over
 * single separators and word breaks of two or three spaces, and NFKC
 * writes the compatibility blanks (NBSP, U+2000-U+200A, U+3000, ...) as
 * spaces before that, but a tab or a line break stays as written until
 * blanks are collapsed, after the runs are joined. So `k\ti\tl\tl   y\to\tu`
 * (letters one tab apart) joined nothing and passed, and window mode,
 * whose hold reads runs by the same rule, released `k i l l\t\ty o u r s e
 * l f` (a word break of two tabs or two line breaks), which `generateText`
 * blocks once the fold has joined both words.
 *
 * Now the check also reads the text with each such blank written as a
 * space (`withMarksAsSpaces`, one character for one, so positions hold),
 * when one stands in a place a spelled-out run could pass through
 * (`spelledAcrossMarks`); window mode's hold of a run ending the text reads
 * it so too, and its filter says "maybe" around such a run (the run pattern
 * takes these blanks as separators). The first reading is unchanged: the
 * marks keep their meaning elsewhere (a blank line ends a bidirectional
 * paragraph), and the fold, which both models read, is not changed.
 */

/** The blanks that neither NFKC nor the fold writes as a space before runs are joined. */
export const BLANK_MARK_CLASS = '\\t\\n\\v\\f\\r\\x85\\u2028\\u2029';

const BLANK_MARK = new RegExp(`[${BLANK_MARK_CLASS}]`);
const BLANK_MARKS = new RegExp(`[${BLANK_MARK_CLASS}]`, 'g');

/** Whether `code` is one of those blanks (`BLANK_MARK_CLASS`). */
export function isBlankMark(code: number): boolean {
  return (code >= 9 && code <= 13) || code === 0x85 || code === 0x2028 || code === 0x2029;
}

/** `text` with each tab and line break written as a space (one for one), or `text` when it holds none. */
export function withMarksAsSpaces(text: string): string {
  return BLANK_MARK.test(text) ? text.replace(BLANK_MARKS, ' ') : text;
}

/**
 * A unit a spelled-out run may hold (`isSpacedUnit` of fold-text, widened):
 * an ASCII letter, a digit or symbol the fold reads as a letter
 * (`0134578@$`), or any unit beyond ASCII but a surrogate and NEL (U+0085,
 * a mark the check writes as a space: a gap, not a unit).
 */
const UNIT = '[A-Za-z0134578@$\\u0080-\\u0084\\u0086-\\ud7ff\\ue000-\\uffff]';
/** Between two units of a run: one separator, or one to three blanks (marks written as spaces; `\s` has no NEL). */
const GAP = '(?:[.\\-_*]|[\\s\\x85]{1,3})';

/**
 * Four units one separator or one to three blanks apart, read from a
 * position: the widest form of four units in a row of a run the fold may
 * join once its marks are spaces (at most 13 characters).
 */
const FOUR_UNITS = new RegExp(`${UNIT}${GAP}${UNIT}${GAP}${UNIT}${GAP}${UNIT}`, 'y');

/** The most characters `FOUR_UNITS` reads. */
const FOUR_UNITS_SPAN = 13;

/**
 * Whether a tab or line break of `text` lies inside four units one
 * separator or one to three blanks apart (`FOUR_UNITS`), in the text as
 * written or with the characters the fold reads through removed
 * (`isReadThrough`: a zero-width space, a soft hyphen, a variation
 * selector beside each tab is gone before the fold joins runs; the second
 * read of round 45 found `s\u200b\th\u200b\ti\u200b\tt` passing). Every
 * separator of a run `foldText` joins lies between two units of it, so
 * inside some four units in a row of the run (it has four or more): when
 * no mark does, writing the marks as spaces joins no run the text did not,
 * and the second reading is not needed. Linear: each mark tries the
 * `FOUR_UNITS_SPAN` starts before it, in each of the two texts.
 */
export function spelledAcrossMarks(text: string): boolean {
  if (!BLANK_MARK.test(text)) return false;
  if (marksInsideFourUnits(text)) return true;
  const compact = withoutReadThrough(text);
  return compact !== text && marksInsideFourUnits(compact);
}

function marksInsideFourUnits(text: string): boolean {
  BLANK_MARKS.lastIndex = 0;
  let tried = -1;
  for (let mark = BLANK_MARKS.exec(text); mark !== null; mark = BLANK_MARKS.exec(text)) {
    const at = mark.index;
    for (let from = Math.max(tried + 1, at - FOUR_UNITS_SPAN + 1); from < at; from++) {
      FOUR_UNITS.lastIndex = from;
      const found = FOUR_UNITS.exec(text);
      if (found !== null && from + found[0].length > at) return true;
    }
    tried = at - 1;
  }
  return false;
}

/** Any unit past ASCII: where a read-through character may be. */
const BEYOND_ASCII = /[\u0080-\uffff]/;

/** `text` without the code points `isReadThrough` takes (itself when it holds none past ASCII). */
function withoutReadThrough(text: string): string {
  if (!BEYOND_ASCII.test(text)) return text;
  const pieces = new PieceJoiner();
  let kept = 0;
  for (let at = 0; at < text.length; ) {
    const code = text.codePointAt(at)!;
    const width = code > 0xffff ? 2 : 1;
    if (code >= 0x80 && isReadThrough(code)) {
      pieces.push(text.slice(kept, at));
      kept = at + width;
    }
    at += width;
  }
  if (kept === 0) return text;
  pieces.push(text.slice(kept));
  return pieces.join();
}
