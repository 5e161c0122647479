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
 * (`0134578@$`), or any unit beyond ASCII but a surrogate.
 */
const UNIT = '[A-Za-z0134578@$\\u0080-\\ud7ff\\ue000-\\uffff]';
/** Between two units of a run: one separator, or one to three blanks (marks written as spaces). */
const GAP = '(?:[.\\-_*]|\\s{1,3})';

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
 * separator or one to three blanks apart (`FOUR_UNITS`). Every separator
 * of a run `foldText` joins lies between two units of it, so inside some
 * four units in a row of the run (it has four or more): when no mark
 * does, writing the marks as spaces joins no run the text did not, and
 * the second reading is not needed. Linear: each mark tries the
 * `FOUR_UNITS_SPAN` starts before it.
 */
export function spelledAcrossMarks(text: string): boolean {
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
