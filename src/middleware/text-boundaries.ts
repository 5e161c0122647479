/**
 * Where streamed text may be cut without changing what a guardrail sees.
 *
 * A match can only be judged the same in a piece of text as in the whole
 * answer if the piece starts where a match could start in the whole answer
 * too: never inside a surrogate pair, a grapheme (ZWJ sequence, flag,
 * combining marks), or a run of digits or word characters that a detector
 * reads as one token ("…4567890" of a 20-digit id is a different number).
 */

import {
  isLetterOrNumber,
  isSpacedUnit,
  lastSpacedUnit,
  SPACED_BREAK,
  spacedStep,
} from '../guards/prompt-injection/fold-text';
import { beforeAllInvisibles, beforeInvisibles } from '../guards/shared/invisible-run';

const WHITESPACE = /\s/;
const DIGIT = /\p{Nd}/u;
const LETTER = /\p{L}/u;
/** Code points that join the previous one into a grapheme: marks, ZWJ, variation selectors, tags, skin tones. */
// biome-ignore lint/suspicious/noMisleadingCharacterClass: tested on a single code point, never on a sequence
const EXTENDS = /[\p{M}\u200D\uFE00-\uFE0F\u{E0020}-\u{E007F}\u{1F3FB}-\u{1F3FF}]/u;
const REGIONAL_INDICATOR = /\p{Regional_Indicator}/u;

function codePointAt(text: string, at: number): string {
  const code = text.codePointAt(at);
  return code === undefined ? '' : String.fromCodePoint(code);
}

/**
 * True when a word starts at `at`: the character before is whitespace, the
 * one before that is not a digit (so `at` does not split a spaced number
 * such as a card or an IBAN), and a letter follows. A detector sees the same
 * left edge of every token after `at` alone as within the whole text.
 * Invisible characters (`isInvisibleCodePoint`) between the letter, the
 * blank and the digit are read through, as the detectors read them (round
 * 38: with a U+200B or a soft hyphen after each blank no position was a word
 * start, and the window began its checks' left context inside a word:
 * `bull|shit` read as an entry generate does not find).
 */
export function isWordStart(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return false;
  // ASCII first, without a regex: the window asks about every position of its context.
  let blank = at;
  if (!isWhitespace(text.charCodeAt(at - 1), text, at - 1)) {
    blank = beforeInvisibles(text, at);
    if (blank <= 0 || blank === at || !isWhitespace(text.charCodeAt(blank - 1), text, blank - 1))
      return false;
  }
  if (blank >= 2) {
    const digit = beforeInvisibles(text, blank - 1);
    if (digit > 0) {
      const code = text.charCodeAt(digit - 1);
      if (code < 0x80 ? code >= 48 && code <= 57 : DIGIT.test(text[digit - 1]!)) return false;
    }
  }
  const code = text.charCodeAt(at);
  if (code < 0x80) return (code | 0x20) >= 97 && (code | 0x20) <= 122;
  return LETTER.test(codePointAt(text, at));
}

/**
 * True when `at` is a grapheme boundary as far as cutting is concerned: not
 * between the halves of a surrogate pair, not before a joining code point,
 * not after a ZWJ, and not between the two regional indicators of a flag.
 */
export function isGraphemeBoundary(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return true;
  const before = text.charCodeAt(at - 1);
  const after = text.charCodeAt(at);
  // Below U+0300 nothing joins the previous character (no mark, joiner, selector or indicator).
  if (after < 0x300) return before !== 0x200d;
  if (before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff) return false;
  if (EXTENDS.test(codePointAt(text, at))) return false;
  if (before === 0x200d) return false;
  if (REGIONAL_INDICATOR.test(codePointAt(text, at))) {
    // Count the indicators before `at`: an odd count means `at` splits a flag.
    let count = 0;
    let i = at;
    while (i >= 2 && REGIONAL_INDICATOR.test(text.slice(i - 2, i))) {
      count++;
      i -= 2;
    }
    if (count % 2 === 1) return false;
  }
  return true;
}

/** The last grapheme boundary at or before `at` (at least `min`). */
export function graphemeBoundaryBefore(text: string, at: number, min = 0): number {
  let i = at;
  while (i > min && !isGraphemeBoundary(text, i)) i--;
  return i;
}

/**
 * The first unit of the spaced-out run that holds the unit at `at` (`at`
 * itself when it is the first, or in no run): the fold joins single letters
 * (or leet digits) with one separator between each (`s k i l l`, `s.k.i.l.l`)
 * into one word, and a text cut after the run's first unit reads another
 * word (`k i l l yourself` is `kill yourself`, `s k i l l yourself` is not).
 * Walks back unit by unit, invisible characters read through as the fold
 * drops them (at most `INVISIBLES_READ` at each place, else it stops there),
 * never before `min`.
 */
export function spacedRunStart(text: string, at: number, min: number): number {
  if (at >= text.length || !isSpacedUnit(text.charCodeAt(at))) return at;
  let start = at;
  for (;;) {
    // One separator back (`spacedStep`, the fold's rule); a word break of blanks ends the word.
    const step = spacedStep(text, start, -1, beforeInvisibles);
    if (step < 0 || (step & 3) === SPACED_BREAK) return start;
    const unit = step >> 2;
    if (unit < min) return start;
    // A unit ending a longer word (`ab c d e f`) starts no run: the run starts after it.
    const before = unit > 0 ? beforeInvisibles(text, unit) : 0;
    if (before < 0 || (before > 0 && isLetterOrNumber(text.charCodeAt(before - 1)))) return start;
    start = unit;
  }
}

/**
 * The last break (a space or a line break) before which more text cannot
 * change what a guardrail reads: the text's last one, or, when the text
 * ends with a spaced-out run of two units or more that more text may
 * continue (one separator, or up to three blanks, after its last unit),
 * the last one before the run's first unit. The fold reads such a run
 * whole: `k.i.l.l y.o.u.r.s.e.l.f ` is `kill yourself`, and with `a s k i
 * l l` after it `kill yourselfaskill` (round 39: a window check ending at
 * the space confirmed its block on the text up to that space, and the
 * stream ended blocked where `generate` passes). The run is walked as
 * `spacedRunStart` walks it (`spacedStep`, word breaks too, invisible
 * characters read through), from a unit standing alone. -1 when there is
 * no such break.
 */
export function lastSettledBreak(text: string): number {
  const before = trailingRunStart(text);
  if (before <= 0) return -1;
  return Math.max(text.lastIndexOf(' ', before - 1), text.lastIndexOf('\n', before - 1));
}

/**
 * The first unit of the spaced-out run of two units or more that ends
 * `text` and more text may continue (`lastSettledBreak`), else
 * `text.length`.
 */
function trailingRunStart(text: string): number {
  let first = lastSpacedUnit(text, beforeAllInvisibles);
  if (first < 0) return text.length;
  let second = -1;
  for (let step = spacedStep(text, first, -1, beforeAllInvisibles); step >= 0; ) {
    second = first;
    first = step >> 2;
    step = spacedStep(text, first, -1, beforeAllInvisibles);
  }
  // A unit ending a word (`ab c d`) is none: the run starts after it.
  const before = first > 0 ? beforeAllInvisibles(text, first) : 0;
  if (before > 0 && isLetterOrNumber(text.charCodeAt(before - 1))) first = second;
  return first >= 0 ? first : text.length;
}

/** The last word start in `(min, at]`, or -1. */
export function wordStartBefore(text: string, at: number, min: number): number {
  for (let i = at; i > min; i--) if (isWordStart(text, i)) return i;
  return -1;
}

/** The first word start in `[from, to)`, or -1. */
export function wordStartAfter(text: string, from: number, to: number): number {
  for (let i = Math.max(1, from); i < to; i++) if (isWordStart(text, i)) return i;
  return -1;
}

/**
 * The end of `text` that holds its last `reach` characters, a run of
 * whitespace counting as one (the whole text when it holds fewer): what a
 * pre-filter with `mayMatchReach` must see of the text before new text.
 * Never starts between the halves of a surrogate pair.
 */
export function reachTail(text: string, reach: number): string {
  let at = text.length;
  for (let units = 0; units < reach && at > 0; units++) {
    if (isWhitespace(text.charCodeAt(at - 1), text, at - 1)) {
      at--;
      while (at > 0 && isWhitespace(text.charCodeAt(at - 1), text, at - 1)) at--;
    } else {
      at--;
    }
  }
  if (at > 0 && at < text.length) {
    const code = text.charCodeAt(at);
    if (code >= 0xdc00 && code <= 0xdfff) at--;
  }
  return at === 0 ? text : text.slice(at);
}

function isWhitespace(code: number, text: string, at: number): boolean {
  if (code < 0x80) return code === 32 || (code >= 9 && code <= 13);
  return WHITESPACE.test(text[at]!);
}
