/**
 * contentFilter's run pattern (`SPELLED_OUT` in potential-start.ts) read
 * by hand (round 46, issue 16): four letters standing alone one separator
 * apart, or three with a word break of two or three blanks beside one
 * separator, from a letter with no letter or digit before it. On spaced
 * letters (`q x b a …`) the filter's reading around runs
 * (`spelledRunsMayMatch`) asked the RegExp for the next match at every
 * letter, and each `exec` (a match array a letter) was a tenth of window
 * mode's CPU on that stream. Here the same positions, read from a table of
 * the characters' classes. `spelled-out-scan.test.ts` compares both with
 * the RegExp on seeded texts.
 *
 * The classes are the pattern's: a letter of ordinary prose
 * (`A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u00ff`), a digit, a separator
 * (`[ .\-_*]` and the blanks of `BLANK_MARK_CLASS`), a blank of a word
 * break (the space and those blanks).
 */

const LETTER = 1;
const DIGIT = 2;
const SEPARATOR = 4;
const BLANK = 8;

/** Classes of the units below U+0100 (U+2028 and U+2029, separators and blanks, are tested apart). */
const classes = new Uint8Array(256);
for (let code = 65; code <= 90; code++) classes[code] = LETTER;
for (let code = 97; code <= 122; code++) classes[code] = LETTER;
for (let code = 0xc0; code <= 0xff; code++) {
  if (code !== 0xd7 && code !== 0xf7) classes[code] = LETTER;
}
for (let code = 48; code <= 57; code++) classes[code] = DIGIT;
for (const char of '.-_*') classes[char.charCodeAt(0)] = SEPARATOR;
// The space, `\t \n \v \f \r` and NEL: separators, and blanks of a word break.
for (const code of [32, 9, 10, 11, 12, 13, 0x85]) classes[code] = SEPARATOR | BLANK;

/** The class bits of the unit at `at` (0 past the text or for any other unit). */
function classAt(text: string, at: number): number {
  const code = text.charCodeAt(at);
  // Past the text `code` is NaN: no class.
  if (code < 256) return classes[code]!;
  return code === 0x2028 || code === 0x2029 ? SEPARATOR | BLANK : 0;
}

/** Each form as the class bits it needs at its units, unit `k` in bits `4k` to `4k + 3`. */
function form(...units: number[]): number {
  return units.reduce((bits, unit, k) => bits | (unit << (4 * k)), 0);
}
const L = LETTER;
const S = SEPARATOR;
const B = BLANK;
/** Four letters one separator apart; a break of two or three blanks, then a letter, a separator, a letter; the reverse. */
const FORMS = [
  form(L, S, L, S, L, S, L),
  form(L, B, B, L, S, L),
  form(L, B, B, B, L, S, L),
  form(L, S, L, B, B, L),
  form(L, S, L, B, B, B, L),
] as const;
const [F1, F2, F3, F4, F5] = FORMS;

/** Whether the classes `ahead` (7 units from a position, `4k` bits each) and `behind` (the unit before) match a form. */
function matches(behind: number, ahead: number): boolean {
  if ((ahead & (L | (S << 4))) !== (L | (S << 4)) || (behind & (LETTER | DIGIT)) !== 0)
    return false;
  return (
    (ahead & F1) === F1 ||
    (ahead & F2) === F2 ||
    (ahead & F3) === F3 ||
    (ahead & F4) === F4 ||
    (ahead & F5) === F5
  );
}

/** The classes of the 7 units from `at`, packed (`matches`). */
function aheadOf(text: string, at: number): number {
  let ahead = 0;
  for (let k = 6; k >= 0; k--) ahead = (ahead << 4) | classAt(text, at + k);
  return ahead;
}

/** Whether the run pattern matches at `at` (the unit before it looked behind at, as the RegExp does). */
export function spelledOutAt(text: string, at: number): boolean {
  return matches(at > 0 ? classAt(text, at - 1) : 0, aheadOf(text, at));
}

/**
 * The positions where the run pattern matches (`spelledOutAt`) in `text`,
 * in order, each unit read once: `next` gives the first after the last
 * it gave (-1 when none is left). Made for one reading (it keeps the text).
 */
export class SpelledOutScanner {
  private at = 0;
  private behind = 0;
  private ahead: number;

  constructor(private readonly text: string) {
    this.ahead = aheadOf(text, 0);
  }

  next(): number {
    const text = this.text;
    const length = text.length;
    let at = this.at;
    let behind = this.behind;
    let ahead = this.ahead;
    while (at < length) {
      const found = matches(behind, ahead);
      behind = ahead & 15;
      ahead = (ahead >>> 4) | (classAt(text, at + 7) << 24);
      at++;
      if (found) {
        this.at = at;
        this.behind = behind;
        this.ahead = ahead;
        return at - 1;
      }
    }
    this.at = at;
    return -1;
  }
}
