import { isJsSpace } from '../shared/js-space';
import { isReadThrough, normalizeText } from '../shared/normalize-text';
import { PieceJoiner } from '../shared/piece-joiner';
import {
  TURNED,
  TURNED_DIGITS,
  TURNED_MORE,
  UNTURNED,
  UNTURNED_DIGITS,
  UNTURNED_MORE,
  upsideDownRegions,
} from '../shared/upside-down';

/**
 * Latin look-alikes from other scripts (Cyrillic, Greek, Armenian, Cherokee,
 * Canadian syllabics, Lisu), after NFKC and lower case: the letters whose
 * prototype in Unicode's confusables data (UTS #39 `confusables.txt`, as the
 * npm package `unhomoglyph` 1.0.6 ships it) is one ASCII letter, or one with
 * marks (Cherokee `Ꮎ` is `o̵`), a capital's look-alike read in lower case
 * (`В` is `B`, so `в` is `b`); where the data gives two (`σ` c or o, `ι` i
 * or l) the one a reader takes, and `ғ` as the `f` it is drawn like. In a
 * word with a Latin letter they always fold; in a word made only of them
 * when it mixes scripts or no word of its script that is more than
 * look-alikes stands next to it (`withLookAlikeWordsFolded`): a Russian or
 * Greek sentence stays as it is.
 */
export const homoglyphs: Record<string, string> = {
  // Cyrillic
  а: 'a',
  б: 'b',
  в: 'b',
  г: 'r',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ь: 'b',
  і: 'i',
  ї: 'i',
  ј: 'j',
  ѕ: 's',
  ћ: 'h',
  ѡ: 'w',
  ѣ: 'b',
  ѳ: 'o',
  ѵ: 'v',
  ѽ: 'w',
  ҍ: 'b',
  ғ: 'f',
  қ: 'k',
  ҟ: 'k',
  ң: 'h',
  ҫ: 'c',
  ҭ: 't',
  ү: 'y',
  ұ: 'y',
  ҳ: 'x',
  һ: 'h',
  ҽ: 'e',
  ҿ: 'e',
  ӈ: 'h',
  ӊ: 'h',
  ӎ: 'm',
  ӏ: 'l',
  ө: 'o',
  ԁ: 'd',
  ԍ: 'g',
  ԛ: 'q',
  ԝ: 'w',
  ꙇ: 'i',
  ꚕ: 'h',
  // Greek
  α: 'a',
  β: 'b',
  γ: 'y',
  ε: 'e',
  ζ: 'z',
  η: 'n',
  θ: 'o',
  ι: 'i',
  κ: 'k',
  μ: 'm',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  ς: 'c',
  σ: 'o',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ϝ: 'f',
  ϳ: 'j',
  ϻ: 'm',
  ᴦ: 'r',
  // Armenian
  ա: 'w',
  գ: 'q',
  զ: 'q',
  հ: 'h',
  ո: 'n',
  ռ: 'n',
  ս: 'u',
  տ: 's',
  ց: 'g',
  ք: 'f',
  օ: 'o',
  // Cherokee (the capitals lower-case to these)
  ᏺ: 'h',
  ᏻ: 'g',
  ᏼ: 'b',
  ꭰ: 'd',
  ꭱ: 'r',
  ꭲ: 't',
  ꭴ: 'o',
  ꭵ: 'i',
  ꭹ: 'y',
  ꭺ: 'a',
  ꭻ: 'j',
  ꭼ: 'e',
  ꮁ: 'r',
  ꮃ: 'w',
  ꮇ: 'm',
  ꮋ: 'h',
  ꮍ: 'y',
  ꮎ: 'o',
  ꮐ: 'g',
  ꮒ: 'h',
  ꮓ: 'z',
  ꮜ: 'u',
  ꮟ: 'b',
  ꮢ: 'r',
  ꮤ: 'w',
  ꮥ: 's',
  ꮩ: 'v',
  ꮪ: 's',
  ꮮ: 'l',
  ꮯ: 'c',
  ꮲ: 'p',
  ꮶ: 'k',
  ꮷ: 'd',
  ꮻ: 'o',
  // Canadian syllabics
  ᐯ: 'v',
  ᑌ: 'u',
  ᑭ: 'p',
  ᑯ: 'd',
  ᑲ: 'b',
  ᑳ: 'b',
  ᒍ: 'j',
  ᒪ: 'l',
  ᕁ: 'x',
  ᕼ: 'h',
  ᕽ: 'x',
  ᖇ: 'r',
  ᖯ: 'b',
  ᖴ: 'f',
  ᗅ: 'a',
  ᗞ: 'd',
  ᗪ: 'd',
  ᗰ: 'm',
  ᗷ: 'b',
  // Lisu
  ꓐ: 'b',
  ꓑ: 'p',
  ꓒ: 'd',
  ꓓ: 'd',
  ꓔ: 't',
  ꓖ: 'g',
  ꓗ: 'k',
  ꓙ: 'j',
  ꓚ: 'c',
  ꓜ: 'z',
  ꓝ: 'f',
  ꓟ: 'm',
  ꓠ: 'n',
  ꓡ: 'l',
  ꓢ: 's',
  ꓣ: 'r',
  ꓦ: 'v',
  ꓧ: 'h',
  ꓪ: 'w',
  ꓫ: 'x',
  ꓬ: 'y',
  ꓮ: 'a',
  ꓰ: 'e',
  ꓲ: 'l',
  ꓳ: 'o',
  ꓴ: 'u',
};

/** Leetspeak digits and symbols, folded only inside words that also contain letters. */
export const leet: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '8': 'b',
  '@': 'a',
  $: 's',
  '|': 'l',
};

// A word-like token: letters, digits and the leet symbols, at most 64 long so a
// single regex step stays cheap.
const wordToken = /[\p{L}\p{N}@$|]{2,64}/gu;
// Single letters (or leet digits) separated by one space or dot, e.g.
// "i g n o r e", "i.g.n.o.r.e" or "1 g n 0 r 3": found by `joinSpacedRuns`.
const letter = /\p{L}/u;
const markUnit = /\p{M}/u;

/**
 * Per UTF-16 unit, computed on first sight and kept (facts about
 * characters, never text): bit 1 "known", 2 "`letter` matches it", 4
 * "`letterOrNumber` matches it", 8 "a mark (`\p{M}`)". A regex test per non-ASCII character was
 * most of the cost of folding text in other scripts.
 */
const unitFacts = new Uint8Array(0x10000);
const UNIT_KNOWN = 1;
const UNIT_LETTER = 2;
const UNIT_LETTER_OR_NUMBER = 4;
const UNIT_MARK = 8;

function factsOfUnit(code: number): number {
  const known = unitFacts[code]!;
  if (known !== 0) return known;
  const char = String.fromCharCode(code);
  const facts =
    UNIT_KNOWN |
    (letter.test(char) ? UNIT_LETTER : 0) |
    (letterOrNumber.test(char) ? UNIT_LETTER_OR_NUMBER : 0) |
    (markUnit.test(char) ? UNIT_MARK : 0);
  unitFacts[code] = facts;
  return facts;
}

/**
 * Bits of ASCII characters: a letter (and a lower-case one), a digit, one of
 * the symbols `wordToken` takes (@ $ |), a leet character (0 1 3 4 5 7 8
 * @ $ |), a unit `isSpacedUnit` takes.
 */
const ASCII_LETTER = 1;
const ASCII_LOWER = 2;
const ASCII_DIGIT = 4;
const ASCII_SYMBOL = 8;
const ASCII_LEET = 16;
const ASCII_SPACED = 32;
const ASCII_WORD = ASCII_LETTER | ASCII_DIGIT | ASCII_SYMBOL;
const asciiClass = new Uint8Array(128);
for (let code = 97; code <= 122; code++) {
  asciiClass[code] = ASCII_LETTER | ASCII_LOWER | ASCII_SPACED;
}
for (let code = 65; code <= 90; code++) asciiClass[code] = ASCII_LETTER | ASCII_SPACED;
for (let code = 48; code <= 57; code++) asciiClass[code] = ASCII_DIGIT;
for (const char of '@$|') asciiClass[char.charCodeAt(0)] = ASCII_SYMBOL;
for (const char of '0134578@$|') asciiClass[char.charCodeAt(0)]! |= ASCII_LEET;
for (const char of '0134578@$') asciiClass[char.charCodeAt(0)]! |= ASCII_SPACED;

export function isSpacedUnit(code: number): boolean {
  if (code < 0x80) return (asciiClass[code]! & ASCII_SPACED) !== 0;
  return code < 0xd800 || code > 0xdfff ? (factsOfUnit(code) & UNIT_LETTER) !== 0 : false;
}

export function isSeparator(code: number): boolean {
  return code === 32 || code === 46 || code === 45 || code === 95 || code === 42;
}

/** A step of a spaced-out run (`spacedStep`): one separator other than a blank (`k.i`), always joined. */
export const SPACED_JOIN = 0;
/** One blank (`k i`): joined, or read as a blank where it cuts the run's words. */
export const SPACED_SPACE = 1;
/** A word break of two or three blanks (`k i l l   y o u`): the run's words are joined apart. */
export const SPACED_BREAK = 2;
/** `spacedStep` or `lastSpacedUnit` gave up reading (its `readThrough` did): the run may go on. */
export const SPACED_UNREAD = -2;

/**
 * The spaced-unit rule, in one place: `joinSpacedRuns` joins runs by it,
 * and window mode reads them back by it (`spacedRunStart` in
 * middleware/text-boundaries, contentFilter's `spelledRunHold`). From the
 * unit of a run at `at` (`isSpacedUnit`), the next one in `direction` (1:
 * after, -1: before): across one separator (`isSeparator`), or a word break
 * of two or three blanks. -1 when the run does not go on; else that unit's
 * position `<< 2`, with the kind of the step (`SPACED_JOIN`,
 * `SPACED_SPACE`, `SPACED_BREAK`) in the two low bits (a string is shorter
 * than 2^29 units). `readThrough` (only with `direction` -1): the start of
 * the characters read through that end at a position (-1: too many), for
 * raw text whose invisible characters the fold drops; where it gives up,
 * `SPACED_UNREAD` (-2): the run may go on past what was read.
 */
export function spacedStep(
  text: string,
  at: number,
  direction: 1 | -1,
  readThrough?: (text: string, at: number) => number,
): number {
  const separator = spacedNeighbour(text, at, direction, readThrough);
  if (separator < 0) return separator;
  const code = text.charCodeAt(separator);
  if (!isSeparator(code)) return -1;
  const unit = spacedNeighbour(text, separator, direction, readThrough);
  if (unit < 0) return unit;
  const after = text.charCodeAt(unit);
  if (isSpacedUnit(after)) return (unit << 2) | (code === 32 ? SPACED_SPACE : SPACED_JOIN);
  if (code !== 32 || after !== 32) return -1;
  let next = spacedNeighbour(text, unit, direction, readThrough);
  if (next >= 0 && text.charCodeAt(next) === 32) {
    next = spacedNeighbour(text, next, direction, readThrough);
  }
  if (next < 0) return next;
  return isSpacedUnit(text.charCodeAt(next)) ? (next << 2) | SPACED_BREAK : -1;
}

/**
 * The last unit of a spaced-out run that ends `text` and that more text may
 * continue by `spacedStep`'s rule: a unit followed by nothing, by one
 * separator, or by up to three blanks (a word break still to be closed);
 * -1 when none; `SPACED_UNREAD` where `readThrough` (as for `spacedStep`)
 * gives up.
 */
export function lastSpacedUnit(
  text: string,
  readThrough?: (text: string, at: number) => number,
): number {
  // No closure over `readThrough` (`readBack` is a plain function): one made
  // per call showed in profiles of window mode, which calls this on every check.
  let end = readBack(text, text.length, readThrough);
  let blanks = 0;
  while (end > 0 && text.charCodeAt(end - 1) === 32) {
    if (++blanks === 4) return -1;
    end = readBack(text, end - 1, readThrough);
  }
  if (blanks === 0 && end > 0 && isSeparator(text.charCodeAt(end - 1))) {
    end = readBack(text, end - 1, readThrough);
  }
  if (end < 0) return SPACED_UNREAD;
  return end > 0 && isSpacedUnit(text.charCodeAt(end - 1)) ? end - 1 : -1;
}

/** The start of the characters `readThrough` reads through that end at `at` (`at` itself without one; -1: too many). */
function readBack(
  text: string,
  at: number,
  readThrough: ((text: string, at: number) => number) | undefined,
): number {
  return readThrough === undefined ? at : readThrough(text, at);
}

/** The position beside `at` in `direction` (`spacedStep`), -1 past the text, `SPACED_UNREAD` where `readThrough` gives up. */
function spacedNeighbour(
  text: string,
  at: number,
  direction: 1 | -1,
  readThrough: ((text: string, at: number) => number) | undefined,
): number {
  if (direction > 0) return at + 1 < text.length ? at + 1 : -1;
  if (readThrough === undefined) return at - 1;
  const start = readThrough(text, at);
  return start > 0 ? start - 1 : start < 0 ? SPACED_UNREAD : -1;
}

export function isLetterOrNumber(code: number): boolean {
  if (code < 0x80) return (asciiClass[code]! & (ASCII_LETTER | ASCII_DIGIT)) !== 0;
  return (factsOfUnit(code) & UNIT_LETTER_OR_NUMBER) !== 0;
}

// Three separators one character apart, or a word break of two or three
// blanks for any of them: where a spaced run of four units can start (one before).
// (A separator and up to two more blanks each: a class first, which the engine scans for fast.)
const spacedRunCandidates = /[ .\-_*] {0,2}[\s\S][ .\-_*] {0,2}[\s\S][ .\-_*]/g;

/**
 * Joins runs of at least four single characters separated by one
 * separator ("i g n o r e"), where the run spells a word (`joinSpaced`).
 * A run may go on past two or three blanks, a word break, when some
 * letters of it are one separator apart: the run is then those words
 * (`joinSpaced`). Round 38: letter spacing writes a blank between every
 * two characters, so a word's own space shows as three blanks (`W r i t e
 *   a   t u t o r i a l   o n   h o w`, the corpora's and garak's form), or
 * two when typed so, and it read `o n h o w`: words of two and three
 * letters stayed apart. One pass: each character is looked at a bounded
 * number of times.
 */
function joinSpacedRuns(text: string, aggressive: boolean): string {
  const pieces = new PieceJoiner();
  let copied = 0;
  const length = text.length;
  let index = 0;
  while (index < length - 6) {
    // A run of four units has separators at index + 1, + 3 and + 5: a native
    // search skips to the next such place. (Where the test below passes
    // without one, the run is too short to join and no later start is
    // skipped, so the result is that of trying every index.)
    spacedRunCandidates.lastIndex = index + 1;
    const candidate = spacedRunCandidates.exec(text);
    if (candidate === null) break;
    index = candidate.index - 1;
    if (index >= length - 6) break;
    if (
      !isSeparator(text.charCodeAt(index + 1)) ||
      !isSpacedUnit(text.charCodeAt(index)) ||
      (index > 0 && isLetterOrNumber(text.charCodeAt(index - 1)))
    ) {
      index++;
      continue;
    }
    // Units at index, then one separator or two or three blanks apart; the
    // run ends at the last unit not followed by a letter or digit, with a
    // separator of one before it (wider breaks alone are wide spacing: `a  b  c  d`).
    let last = index;
    let end = -1;
    let units = 1;
    let single = false;
    for (;;) {
      const step = spacedStep(text, last, 1);
      if (step < 0) break;
      if ((step & 3) !== SPACED_BREAK) single = true;
      last = step >> 2;
      units++;
      const after = last + 1 < length ? text.charCodeAt(last + 1) : -1;
      if (units >= 4 && single && (after < 0 || !isLetterOrNumber(after))) end = last + 1;
    }
    if (end < 0) {
      index = last + 1;
      continue;
    }
    pieces.push(text.slice(copied, index));
    const run = text.slice(index, end);
    const joined = joinSpaced(run, aggressive);
    pieces.push(joined);
    if (joinedRunSink !== undefined && joined !== run) joinedRunSink.push(joined);
    copied = end;
    index = end;
  }
  if (copied === 0) return text;
  pieces.push(text.slice(copied));
  return pieces.join();
}

/** Where `withJoinedRuns` collects the runs `joinSpacedRuns` joins (undefined: nowhere). */
let joinedRunSink: string[] | undefined;

/**
 * `read()`, with every spelled-out run that the folds it makes join
 * (`joinSpacedRuns`) pushed to `runs` as joined (`ukill yourself` of `u k
 * i l l   y o u r s e l f`, its word breaks one blank), in the order
 * joined. Folding is unchanged: contentFilter reads an entry inside such
 * a run (round 44, issue 16), which the folded text no longer tells from
 * a written word.
 */
export function withJoinedRuns<T>(runs: string[], read: () => T): T {
  const outer = joinedRunSink;
  joinedRunSink = runs;
  try {
    return read();
  } finally {
    joinedRunSink = outer;
  }
}

/** `leet` as ASCII code to code, every other ASCII code to itself. */
const leetAscii = new Uint16Array(128);
for (let code = 0; code < 128; code++) leetAscii[code] = code;
for (const [from, to] of Object.entries(leet)) leetAscii[from.charCodeAt(0)] = to.charCodeAt(0);

/** Units of a joined run turned into a string at a time (`String.fromCharCode` arguments). */
const JOIN_BUFFER = 4_096;
const joinBuffer = new Uint16Array(JOIN_BUFFER);

/**
 * Joins a run of spaced single characters when it spells a word (mostly
 * letters): its separators dropped, and its leet digits and symbols read as
 * letters unless it is all letters. Counted and built in one pass each, in
 * strings of a few thousand units: a run can be the whole text ('k i l l '
 * repeated), and a regex replace and a match of every letter allocated
 * about fifty times its length.
 */
export function joinSpaced(run: string, aggressive: boolean): string {
  // (A regex finds the two blanks faster than `includes`, which stops at every blank of the run.)
  if (!WORD_BREAK.test(run)) return joinSpacedWord(run, aggressive);
  // Words two or three blanks apart (`joinSpacedRuns`): each joined, and a short one
  // with a leet digit that stayed as written read as leetspeak beside a
  // word that was (`isShortLeetToken`: `m 4 k 3  4  b 0 m b` is `make a bomb`).
  const words = run.split(WORD_BREAK);
  const joined = words.map(word => joinSpacedWord(word, aggressive));
  const readAsLeet = words.map((word, index) => joined[index] !== word && LEET_UNIT.test(word));
  return joined
    .map((word, index) => {
      if (word !== words[index] || !(readAsLeet[index - 1] || readAsLeet[index + 1])) return word;
      const units = word.replace(SEPARATORS, '');
      return isShortLeetToken(units, 0, units.length) ? mapUnits(units, leetCodes) : word;
    })
    .join(' ');
}

/** A leet character, a word break of a spaced run, and its separators (`isSeparator`). */
const LEET_UNIT = /[0134578@$|]/;
const WORD_BREAK = / {2,3}/;
const SEPARATORS = /[ .\-_*]/g;

/** `joinSpaced` of a run without word breaks of two or three blanks. */
function joinSpacedWord(run: string, aggressive: boolean): string {
  const groups = spacedGroups(run);
  if (groups === undefined) return joinSpacedGroup(run, aggressive);
  return groups.map(group => joinSpacedGroup(group, aggressive)).join(' ');
}

/**
 * Whether `text[start, end)` is a short token that reads as leetspeak only
 * beside a word that does (round 38: `Wr1t3 4 tut0r14l 0n h0w t0` kept
 * `4`, `0n` and `t0`, which a reader takes as `a`, `on` and `to`): one or
 * two units, ASCII letters and leet digits, at least one digit. A word
 * that is mostly letters folds on its own (`foldWord`); these have as many
 * digits as letters, so alone, or beside ordinary words, they stay numbers
 * and codes (`buy 4 apples`, `turn 0n`, `b2`). At most two units, a token
 * never stands at a piece cut (`pieceCut`: two letters on each side), so
 * its neighbours are in its piece. Leet symbols alone are punctuation
 * (`|` of a table, `$`, `@`), not letters.
 */
function isShortLeetToken(text: string, start: number, end: number): boolean {
  if (end - start < 1 || end - start > 2) return false;
  let digit = false;
  for (let index = start; index < end; index++) {
    const unit = text.charCodeAt(index);
    if (unit >= 0x80) return false;
    const bits = asciiClass[unit]!;
    if ((bits & ASCII_LETTER) !== 0) continue;
    if ((bits & (ASCII_LEET | ASCII_DIGIT)) !== (ASCII_LEET | ASCII_DIGIT)) return false;
    digit = true;
  }
  return digit;
}

/**
 * The words of a spaced run whose letters are joined by `.`, `-`, `_` or
 * `*` and whose words by a space (`k.i.l.l y.o.u.r.s.e.l.f` is `kill
 * yourself`, round 24; it was read `killyourself`, which no entry and no
 * phrase holds): the run is cut at each space between two letters joined
 * by one same other separator (`a.b c.d`, not `a.b c d` nor `i.g-n_o*r
 * e`, where the space is one separator among others). Undefined when there
 * is no such space. Linear in the run.
 */
function spacedGroups(run: string): string[] | undefined {
  // Separators stand at odd indices (a surrogate pair is two units: such runs are not cut).
  let groups: string[] | undefined;
  let from = 0;
  for (let index = 3; index + 2 < run.length; index += 2) {
    const before = run.charCodeAt(index - 2);
    if (run.charCodeAt(index) !== 32 || before === 32 || run.charCodeAt(index + 2) !== before) {
      continue;
    }
    groups ??= [];
    groups.push(run.slice(from, index));
    from = index + 1;
  }
  if (groups === undefined || /[\ud800-\udfff]/.test(run)) return undefined;
  groups.push(run.slice(from));
  return groups;
}

/** `joinSpaced` of a run (or one word of it) read as one spelled-out word. */
function joinSpacedGroup(run: string, aggressive: boolean): string {
  // Units of the run without its separators, and the letters among them,
  // counted as the run is joined (one pass: most runs spell a word).
  let units = 0;
  let letters = 0;
  // A run of letters holds no leet character: mapping every unit gives the run joined.
  let joined: PieceJoiner | undefined;
  let filled = 0;
  for (let index = 0; index < run.length; index++) {
    const unit = run.charCodeAt(index);
    if (isSeparator(unit)) continue;
    // A surrogate (never in the runs joinSpacedRuns finds) may pair across a separator.
    if (unit >= 0xd800 && unit <= 0xdfff) return joinSpacedWithSurrogates(run, aggressive);
    units++;
    if (
      unit < 0x80
        ? (asciiClass[unit]! & ASCII_LETTER) !== 0
        : (factsOfUnit(unit) & UNIT_LETTER) !== 0
    ) {
      letters++;
    }
    joinBuffer[filled++] = unit < 0x80 ? leetAscii[unit]! : unit;
    if (filled === JOIN_BUFFER) {
      joined ??= new PieceJoiner();
      joined.push(String.fromCharCode.apply(null, joinBuffer as unknown as number[]));
      filled = 0;
    }
  }
  if (letters * (aggressive ? 3 : 2) < units) return run;
  const rest = String.fromCharCode.apply(
    null,
    joinBuffer.subarray(0, filled) as unknown as number[],
  );
  if (!joined) return rest;
  joined.push(rest);
  return joined.join();
}

/** `joinSpaced` of a run with a surrogate, read by code points as the regexes read it. */
function joinSpacedWithSurrogates(run: string, aggressive: boolean): string {
  const joined = run.replace(/[ .\-_*]/g, '');
  const letters = joined.match(/\p{L}/gu)?.length ?? 0;
  if (letters * (aggressive ? 3 : 2) < joined.length) return run;
  return letters === joined.length
    ? joined
    : Array.from(joined, char => leet[char] ?? char).join('');
}

/** `homoglyphs` and `leet` as UTF-16 code to code (every key and value is one unit). */
const homoglyphCodes = new Map<number, number>();
for (const [from, to] of Object.entries(homoglyphs)) {
  homoglyphCodes.set(from.charCodeAt(0), to.charCodeAt(0));
}
const leetCodes = new Map<number, number>();
for (const [from, to] of Object.entries(leet)) leetCodes.set(from.charCodeAt(0), to.charCodeAt(0));

/** `word` with every unit that `table` has replaced (code for code). */
function mapUnits(word: string, table: Map<number, number>): string {
  const codes: number[] = [];
  for (let index = 0; index < word.length; index++) {
    const code = word.charCodeAt(index);
    codes.push(table.get(code) ?? code);
  }
  return String.fromCharCode.apply(null, codes);
}

/**
 * Folds one word (`wordToken`, at most 64 code points): Cyrillic and Greek
 * homoglyphs when it has a Latin letter, leetspeak when it is mostly letters.
 * One pass over its units counts what the rules look at.
 */
function foldWord(
  word: string,
  offset: number,
  whole: string,
  foldLeet: boolean | 'aggressive',
): string {
  const folded = withHomoglyphsFolded(word);
  return readsAsLeet(folded, offset, whole, foldLeet) ? mapUnits(folded, leetCodes) : folded;
}

/** What `withHomoglyphsFolded` counted of the word it read last, for `readsAsLeet`. */
let countedLetters = 0;
let countedLeet = 0;
let countedAt = false;

/**
 * `word` with its homoglyphs folded when it has a Latin letter; counts its
 * letters and leet characters (`countedLetters`, `countedLeet`, `countedAt`)
 * for `readsAsLeet`, in the same pass.
 */
function withHomoglyphsFolded(word: string): string {
  let latin = false;
  let nonAscii = false;
  let hasAt = false;
  let letters = 0;
  let leetCount = 0;
  for (let index = 0; index < word.length; index++) {
    const unit = word.charCodeAt(index);
    if (unit < 0x80) {
      const bits = asciiClass[unit]!;
      if ((bits & ASCII_LETTER) !== 0) {
        letters++;
        if ((bits & ASCII_LOWER) !== 0) latin = true;
      } else if ((bits & ASCII_LEET) !== 0) {
        leetCount++;
        if (unit === 64) hasAt = true;
      }
      if (unit < 0x20 || unit === 0x7f) nonAscii = true;
      continue;
    }
    nonAscii = true;
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < word.length) {
      const low = word.charCodeAt(index + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        if (letter.test(word.slice(index, index + 2))) letters++;
        index++;
        continue;
      }
    }
    if ((factsOfUnit(unit) & UNIT_LETTER) !== 0) letters++;
  }
  countedLetters = letters;
  countedLeet = leetCount;
  countedAt = hasAt;
  // Homoglyphs are letters, and fold to letters: the counts stay.
  return latin && nonAscii ? mapUnits(word, homoglyphCodes) : word;
}

/**
 * Whether the word `withHomoglyphsFolded` just read (`folded`, at `offset`
 * of `whole`) reads as leetspeak: it has a leet character and is mostly
 * letters ("h4ck3r" does, "2134@gmail" or "1st" do not), or has a letter
 * at all when `foldLeet` is 'aggressive'.
 */
function readsAsLeet(
  folded: string,
  offset: number,
  whole: string,
  foldLeet: boolean | 'aggressive',
): boolean {
  if (!foldLeet || countedLeet === 0) return false;
  // 'name@example.com' is an address, not leetspeak.
  if (countedAt && whole[offset + folded.length] === '.') return false;
  return foldLeet === 'aggressive'
    ? countedLetters > 0
    : countedLetters > countedLeet && !/\d{3}|^\d+(?:st|nd|rd|th)$/.test(folded);
}

/**
 * The canonical form injection signals are matched on: the shared
 * normalisation (NFKC, invisible characters removed), lower case, Cyrillic
 * and Greek homoglyphs and leetspeak folded inside Latin words, letters
 * spelled out with spaces joined, and whitespace collapsed (line breaks
 * kept, one per run); look-alike words where the text reads as Latin
 * (`withLookAlikeWordsFolded`), and what a right-to-left override shows on
 * a line after the text (`rightToLeftOverrideReadings`). Linear time. `{ leet: false }` keeps digits and
 * symbols, for matchers that try both readings (`$project` is not `sproject`);
 * `{ leet: 'aggressive' }` folds every word with a letter in it ("1n57ruc710n5"
 * too) and joins spaced runs that are a third letters, for a second reading
 * of text that looks like heavy leetspeak. Where the first reading keeps
 * a word made only of look-alikes as written (a word of its script stands
 * beside it, or the text holds one), the text is read again after it with
 * every such word folded (`withLookAlikeWordsFolded`): `да кіӏӏ` reads `да
 * кіӏӏ` and `да kill`. `{ lookAlikeWords: 'first' }` gives the first
 * reading alone, `'all'` the second alone, `false` leaves every word made
 * only of look-alikes as written (`foldTermReadings`).
 *
 * @example
 * foldText('1gn0re   аll previous'); // 'ignore all previous'
 */
export function foldText(
  text: string,
  {
    leet: foldLeet = true,
    lookAlikeWords = true,
  }: { leet?: boolean | 'aggressive'; lookAlikeWords?: LookAlikeWords } = {},
): string {
  const pieces = foldInPieces(text, foldLeet, FOLD_PIECE, lookAlikeWords);
  return pieces.length === 1 ? pieces[0]! : pieces.join('');
}

/**
 * Whether a leet character reached the word folding (`foldWords`) of the
 * last `foldText` with leetspeak folded (set there, read right after).
 */
let leetRead = false;

/**
 * `foldText(text)` and, when asked, `foldText(text, { leet: false })`.
 * Leetspeak folding changes only words with a leet character
 * (`foldWords`: every other word folds the same in both readings), so
 * where none reached it the second reading is the first, and is not
 * folded again: random spaced letters (`q x b a …`), which a stream
 * checks many times over, folded twice (round 39).
 */
export function foldTextReadings(text: string): { folded: string; plain: () => string } {
  leetRead = false;
  const folded = foldText(text);
  const plain = leetRead ? () => foldText(text, { leet: false }) : () => folded;
  return { folded, plain };
}

/**
 * The readings a listed term (a blocklist entry, a lexicon term) must be
 * matched in: `foldText` of it alone, and, when that differs, with its
 * look-alike words left as written. A word made only of look-alikes folds
 * to Latin where no native word stands beside it (`withLookAlikeWordsFolded`),
 * so a term alone (`бомба`: `bomba`) reads otherwise than the same word in
 * a sentence of its script (`купить бомба сейчас` keeps it); a term is
 * matched in both.
 */
export function foldTermReadings(
  term: string,
  { leet: foldLeet = true }: { leet?: boolean | 'aggressive' } = {},
): string[] {
  // A text's second reading (every look-alike word folded) is matched by the first reading of a term.
  const folded = foldText(term, { leet: foldLeet, lookAlikeWords: 'first' });
  const asWritten = foldText(term, { leet: foldLeet, lookAlikeWords: false });
  return asWritten === folded ? [folded] : [folded, asWritten];
}

/**
 * `foldText` as pieces whose concatenation is the folded text, for readers
 * that take pieces (`InjectionScorer.bestWindow`): a long text is folded in
 * pieces anyway, and joining them makes a string as long as the text.
 */
export function foldTextPieces(
  text: string,
  { leet: foldLeet = true }: { leet?: boolean | 'aggressive' } = {},
): string[] {
  return foldInPieces(text, foldLeet, FOLD_PIECE);
}

/** Characters of text folded at a time (see `foldInPieces`). */
export const FOLD_PIECE = 16_384;

/**
 * Where text may be cut into pieces that fold on their own: a space with two
 * ASCII letters on either side ("ab cd", cut after the space). Every step of
 * folding gives the same result on the two sides as on the whole there:
 * normalisation and lower case leave the five characters as letters and a
 * space (and no combining mark, final sigma or word reaches across a
 * space); a folded word ends at the space; no spaced-out run can hold the
 * letter before the space (a letter precedes it) nor the space, so none
 * crosses it, and a run on either side reads the same neighbours; the space
 * is a blank run of one that stays as it is. A blank that folding reads as a
 * space (the fillers of `withFillersAsSpaces`, and U+1680 and U+2800, which
 * the normaliser writes as one) is such a space (round 25): a text of words
 * joined by fillers was one piece, and folded at several times the cost of
 * the same text with spaces (cachegrind below `withFillersAsSpaces`).
 */
const pieceCut = /[A-Za-z]{2}[ \u115f\u1160\u1680\u180e\u2800\u3164\uffa0][A-Za-z]{2}/g;

/**
 * The folded pieces of `text`, cut every `pieceLength` characters or so
 * where folding the pieces apart gives the same text as folding the whole
 * (`pieceCut`). Each step of folding makes a new string of the text's
 * length; made piece by piece they are small, short-lived strings, cheap to
 * allocate (a fresh megabyte-sized string costs several ms: most of the
 * cost of folding a long text was such copies). A text with no cut is one
 * piece. Exported for the differential test, which folds with tiny pieces.
 */
export function foldInPieces(
  text: string,
  foldLeet: boolean | 'aggressive',
  pieceLength: number,
  lookAlikeWords: LookAlikeWords = true,
): string[] {
  const folded = foldLogicalOrder(text, foldLeet, pieceLength, lookAlikeWords);
  // What a right-to-left override shows, and upside-down text turned, after the units' reading.
  const reversed = secondReadings(text);
  if (reversed === '') return folded;
  const readings = foldLogicalOrder(reversed, foldLeet, pieceLength, lookAlikeWords);
  if (readings.every(piece => piece === '')) return folded;
  return folded.every(piece => piece === '') ? readings : [...folded, '\n', ...readings];
}

/**
 * How `foldText` reads words made only of look-alikes: `true` (the
 * default) its first reading and, where that kept such a word as written,
 * a second with every one folded; `'first'` or `'all'` one of the two;
 * `false` every such word as written.
 */
export type LookAlikeWords = boolean | 'first' | 'all';

/**
 * `foldInPieces` of the text in the order of its units: its first reading,
 * and when that kept a word made only of look-alikes as written (and
 * `lookAlikeWords` is `true`), a line break and the reading with every
 * such word folded (round 25). At most two readings, each linear; the
 * second starts from the first's pieces as they were before their
 * look-alike words were read (`preparedPiece`: normalised, lower-cased,
 * letters folded), so it pays only the steps after (round 26: Russian or
 * Greek prose, which nearly always keeps such a word, folded twice).
 */
function foldLogicalOrder(
  text: string,
  foldLeet: boolean | 'aggressive',
  pieceLength: number,
  lookAlikeWords: LookAlikeWords,
): string[] {
  const words = new LookAlikeWordReading(text, lookAlikeWords === true ? 'first' : lookAlikeWords);
  const prepared = preparedPieces(text, pieceLength);
  const folded = prepared.map((piece, index) =>
    finishPiece(piece, foldLeet, index === prepared.length - 1, words),
  );
  if (lookAlikeWords !== true || !words.kept) return folded;
  words.mode = 'all';
  const second = prepared.map((piece, index) =>
    finishPiece(piece, foldLeet, index === prepared.length - 1, words),
  );
  return [...folded, '\n', ...second];
}

/**
 * The pieces of `text` (cut where folding them apart gives what folding
 * the whole does, `pieceCut`), each as `preparedPiece` gives it.
 */
function preparedPieces(text: string, pieceLength: number): string[] {
  const prepared: string[] = [];
  let from = 0;
  while (text.length - from > 2 * pieceLength) {
    pieceCut.lastIndex = from + pieceLength;
    if (!pieceCut.test(text)) break;
    // The cut is after the space: the match is two letters, the space, two letters.
    const cut = pieceCut.lastIndex - 2;
    prepared.push(preparedPiece(text.slice(from, cut), pieceLength));
    from = cut;
  }
  prepared.push(preparedPiece(from === 0 ? text : text.slice(from), pieceLength));
  return prepared;
}

/**
 * One reading of a text's words made only of look-alikes, for
 * `withLookAlikeWordsFolded`: its mode, the scripts the whole text holds a
 * letter of that is no look-alike (read once, when a word asks), and
 * whether the reading kept such a word as written.
 */
export class LookAlikeWordReading {
  kept = false;
  private scripts = -1;
  constructor(
    private readonly text: string,
    public mode: 'first' | 'all' | false,
  ) {}

  /** Bits (`scriptBit`) of the scripts the text holds a letter of that is no look-alike. */
  nativeScripts(): number {
    if (this.scripts < 0) this.scripts = nativeScriptsOf(this.text);
    return this.scripts;
  }
}

/**
 * Where text may be cut for normalisation alone: before a printable ASCII character
 * or a CJK ideograph. Neither is a combining mark nor half of a surrogate
 * pair, so the character before the cut ends its segment (a character with
 * its combining marks) and both sides normalise as they do in the whole.
 */
const normalizationCut = /[ -~\u4e00-\u9fff]/g;

/**
 * `normalizeText(text).text`, normalised in pieces of about `pieceLength`
 * characters (`normalizationCut`) when the text is longer: a long text that
 * folding cannot cut (other scripts have no "ab cd") would otherwise build
 * an offset map as long as the text, which folding does not read (1 MB of
 * Thai and Chinese: most of the cost of folding it).
 */
function normalizedText(text: string, pieceLength: number): string {
  if (text.length <= 2 * pieceLength) return normalizeText(text).text;
  const pieces: string[] = [];
  // A text that normalises to itself is not copied.
  let changed = false;
  let from = 0;
  while (text.length - from > 2 * pieceLength) {
    normalizationCut.lastIndex = from + pieceLength;
    if (!normalizationCut.test(text)) break;
    const cut = normalizationCut.lastIndex - 1;
    const normalized = normalizeText(text.slice(from, cut));
    changed ||= normalized.changed;
    pieces.push(normalized.text);
    from = cut;
  }
  if (from === 0) return normalizeText(text).text;
  const normalized = normalizeText(text.slice(from));
  if (!changed && !normalized.changed) return text;
  pieces.push(normalized.text);
  return pieces.join('');
}

/**
 * Lower-cased text with the dot of a lowered Turkish capital `İ` (U+0130)
 * dropped: JavaScript lowers it to `i` and a combining dot above (U+0307),
 * which no listed word holds (`KİLL YOURSELF` passed `contentFilter`).
 * NFKC ran before the lowering, and a dot written after an ASCII `i` is
 * gone already (a decoration, see `normalizeText`), so every `i\u0307` left
 * here came from an `İ`.
 */
export function withoutTurkishDot(lowered: string): string {
  return lowered.includes('\u0307') ? lowered.replace(/i\u0307/g, 'i') : lowered;
}

/**
 * Small capitals as the letters they are (`ᴋɪʟʟ` is `kill`), in any word:
 * NFKC and lower case keep them, and "small text" generators write whole
 * sentences in them, which a person and a model read as Latin (round 22:
 * an injection in them scored 0.007). One unit for one unit. `ʏ` is a
 * homoglyph already; IPA's `ɪ ʊ ʀ` in a transcription fold too, harmlessly.
 */
export const smallCapitals: Record<string, string> = {
  ᴀ: 'a',
  ʙ: 'b',
  ᴄ: 'c',
  ᴅ: 'd',
  ᴇ: 'e',
  ꜰ: 'f',
  ɢ: 'g',
  ʜ: 'h',
  ɪ: 'i',
  ᴊ: 'j',
  ᴋ: 'k',
  ʟ: 'l',
  ᴍ: 'm',
  ɴ: 'n',
  ᴏ: 'o',
  ᴘ: 'p',
  ꞯ: 'q',
  ʀ: 'r',
  ꜱ: 's',
  ᴛ: 't',
  ᴜ: 'u',
  ᴠ: 'v',
  ᴡ: 'w',
  ʏ: 'y',
  ᴢ: 'z',
};
const smallCapital = new RegExp(`[${Object.keys(smallCapitals).join('')}]`);
const smallCapitalAll = new RegExp(smallCapital.source, 'g');

/** `lowered` with small capitals folded ({@link smallCapitals}). */
export function withoutSmallCapitals(lowered: string): string {
  return smallCapital.test(lowered)
    ? lowered.replace(smallCapitalAll, char => smallCapitals[char]!)
    : lowered;
}

/**
 * Latin letters that look like others as those letters, in any word (they
 * are Latin script: a word of them reads as Latin, `ĸɩʟʟ` as `kill`): IPA
 * and other Latin letters whose prototype in Unicode's confusables data is
 * one ASCII letter (with marks: `ɨ` is `i̵`), as `homoglyphs` takes them;
 * `ĸ ɛ ʊ`, whose prototype is a Cyrillic or Greek look-alike; and the
 * turned letters of "upside-down" text read unturned (`ɐ ɔ ǝ ɟ ɥ ɹ ʇ ʌ ʍ ʎ
 * ʞ`: `ʞill ʎouɹsǝlf`), except `ɯ`: LATIN SMALL LETTER TURNED M is drawn
 * as a `w`, which the data gives as its prototype and a reader sees in text
 * read the right way up (`ɯeapon`); upside-down text, turned back, reads
 * it as the `m` it is (`upsideDownReading`). Until round 25 it read `m`
 * here, and `ɯeapon` passed a blocklist entry `weapon`.
 * `ð` (Icelandic) and `ə` (Azerbaijani) are letters of languages and stay,
 * as do `ŋ ʃ ʒ`. One unit for one unit; small capitals are `smallCapitals`.
 */
export const latinLookAlikes: Record<string, string> = {
  ı: 'i',
  ƀ: 'b',
  ƃ: 'b',
  ƅ: 'b',
  ƌ: 'd',
  ƍ: 'g',
  ƒ: 'f',
  ƙ: 'k',
  ƚ: 'l',
  ƞ: 'n',
  ƥ: 'p',
  ƭ: 't',
  ƴ: 'y',
  ƶ: 'z',
  ƽ: 's',
  ǀ: 'l',
  ǥ: 'g',
  ǿ: 'o',
  ȥ: 'z',
  ȼ: 'c',
  ɇ: 'e',
  ɉ: 'j',
  ɍ: 'r',
  ɏ: 'y',
  ɑ: 'a',
  ɓ: 'b',
  ɖ: 'd',
  ɗ: 'd',
  ɠ: 'g',
  ɡ: 'g',
  ɣ: 'y',
  ɦ: 'h',
  ɨ: 'i',
  ɩ: 'i',
  ɫ: 'l',
  ɭ: 'l',
  ɲ: 'n',
  ɳ: 'n',
  ɵ: 'o',
  ɼ: 'r',
  ɽ: 'r',
  ʂ: 's',
  ʈ: 't',
  ʉ: 'u',
  ʋ: 'u',
  ʐ: 'z',
  ʝ: 'j',
  ʠ: 'q',
  ᴑ: 'o',
  ᵮ: 'f',
  ᵰ: 'n',
  ᵲ: 'r',
  ᵴ: 's',
  ᵵ: 't',
  ᵶ: 'z',
  ᵻ: 'i',
  ᵼ: 'i',
  ᵽ: 'p',
  ᵾ: 'u',
  ᶃ: 'g',
  ᶌ: 'y',
  ẝ: 'f',
  ỿ: 'y',
  ⱦ: 't',
  ⱨ: 'h',
  ⱪ: 'k',
  ꝁ: 'k',
  ꝋ: 'o',
  ꝡ: 'w',
  ꞙ: 'f',
  ꞟ: 'u',
  ꞵ: 'b',
  ꬲ: 'e',
  ꬵ: 'f',
  ꬽ: 'o',
  ꬾ: 'o',
  ꭇ: 'r',
  ꭈ: 'r',
  ꭎ: 'u',
  ꭒ: 'u',
  ꭓ: 'x',
  ꭚ: 'y',
  ĸ: 'k',
  ɛ: 'e',
  ʊ: 'u',
  ɐ: 'a',
  ɔ: 'c',
  ǝ: 'e',
  ɟ: 'f',
  ɥ: 'h',
  ɯ: 'w',
  ɹ: 'r',
  ʇ: 't',
  ʌ: 'v',
  ʍ: 'w',
  ʎ: 'y',
  ʞ: 'k',
};
const latinLookAlike = new RegExp(`[${Object.keys(latinLookAlikes).join('')}]`, 'g');
/** Per BMP unit, the ASCII letter `latinLookAlikes` folds it to (0: none). */
const latinLookAlikeTarget = new Uint8Array(0x10000);
for (const [from, to] of Object.entries(latinLookAlikes)) {
  latinLookAlikeTarget[from.charCodeAt(0)] = to.charCodeAt(0);
}

/**
 * `lowered` with Latin look-alike letters folded ({@link latinLookAlikes}):
 * from the first one on, a unit at a time (a callback per letter cost four
 * times as much on a text of them).
 */
export function withoutLatinLookAlikes(lowered: string): string {
  latinLookAlike.lastIndex = 0;
  if (!latinLookAlike.test(lowered)) return lowered;
  const first = latinLookAlike.lastIndex - 1;
  const pieces = new PieceJoiner();
  pieces.push(lowered.slice(0, first));
  for (let chunk = first; chunk < lowered.length; chunk += JOIN_BUFFER) {
    const end = Math.min(lowered.length, chunk + JOIN_BUFFER);
    for (let index = chunk; index < end; index++) {
      const unit = lowered.charCodeAt(index);
      joinBuffer[index - chunk] = latinLookAlikeTarget[unit] || unit;
    }
    pieces.push(
      String.fromCharCode.apply(null, joinBuffer.subarray(0, end - chunk) as unknown as number[]),
    );
  }
  return pieces.join();
}

/**
 * Latin letters with diacritics as their base letters (`kíll yoursélf` is
 * `kill yourself`, `ígnóré áll prévíóús ínstrúctíóns` an injection): NFKC
 * composes a letter and its accent into one letter, which no listed word
 * and no injection phrase holds, so an accent on every few letters (what
 * "zalgo" and accent generators write, read by a person and a model as the
 * plain words) passed `contentFilter` and scored 0.004 in `promptInjection`
 * (round 23). Every letter of Latin-1, Latin Extended-A/B and Latin
 * Extended Additional whose canonical decomposition is an ASCII letter and
 * marks, in lower case, and the few with a stroke (`ø ł đ ħ ŧ`); one unit
 * for one unit. Built from `normalize('NFD')`, so it is the platform's
 * Unicode data.
 */
export const latinDiacritics: ReadonlyMap<number, number> = (() => {
  const table = new Map<number, number>();
  const ranges: Array<[number, number]> = [
    [0xc0, 0x24f],
    [0x1e00, 0x1eff],
  ];
  for (const [first, last] of ranges) {
    for (let code = first; code <= last; code++) {
      const char = String.fromCharCode(code);
      if (char.toLowerCase() !== char) continue;
      const decomposed = char.normalize('NFD');
      const base = decomposed.charCodeAt(0);
      if (decomposed.length < 2 || base < 97 || base > 122) continue;
      if (!/^\p{Mn}+$/u.test(decomposed.slice(1))) continue;
      table.set(code, base);
    }
  }
  for (const [char, base] of [
    ['ø', 'o'],
    ['ł', 'l'],
    ['đ', 'd'],
    ['ħ', 'h'],
    ['ŧ', 't'],
  ] as const) {
    table.set(char.charCodeAt(0), base.charCodeAt(0));
  }
  return table;
})();
const latinDiacritic = new RegExp(
  `[${[...latinDiacritics.keys()].map(code => `\\u${code.toString(16).padStart(4, '0')}`).join('')}]`,
);
// Such a letter and the marks NFKC could not compose into it (`ḱ\u0302\u0303`): the marks go with the accent.
const latinDiacriticWithMarks = new RegExp(`${latinDiacritic.source}\\p{Mn}*`, 'gu');

/** `lowered` with Latin letters' diacritics dropped ({@link latinDiacritics}), in any word. */
export function withoutLatinDiacritics(lowered: string): string {
  if (!latinDiacritic.test(lowered)) return lowered;
  return lowered.replace(latinDiacriticWithMarks, letter =>
    String.fromCharCode(latinDiacritics.get(letter.charCodeAt(0))!),
  );
}

/**
 * Enclosed Latin letters that NFKC leaves alone or writes as more than the
 * letter, as the letters a person and a model read (round 23): negative
 * circled and negative squared capitals (`🅚🅘🅛🅛`, `🅺🅸🅻🅻`, what "fancy
 * text" generators write), parenthesized small letters (`⒦⒤⒧⒧`, which
 * NFKC writes `(k)(i)(l)(l)`), and a keycap or other enclosing mark on an
 * ASCII letter or a blank (`k\u20E3`). Read on the text before normalisation. Digits
 * in a keycap stay (the normaliser's rule: a list item's number). Regional
 * indicator letters (`🇰🇮🇱🇱`, round 24) are letters too, flag pairs
 * included: a pair is drawn as a flag only when it names a region (`🇰🇮`
 * is one, `🇱🇱` is not, and reads `LL`), and as its two letters where
 * flags are not drawn (Windows), so a pair rule would read half a word.
 */
const enclosedLetter =
  /[\u249c-\u24b5]|\ud83c[\udd50-\udd69\udd70-\udd89\udde6-\uddff]|(?<=[A-Za-z\s])\ufe0f?[\u20dd-\u20e4]/g;
const enclosedLetterTest = new RegExp(enclosedLetter.source);

/** `text` with enclosed Latin letters as their letters ({@link enclosedLetter}). */
export function withoutEnclosedLetters(text: string): string {
  if (!enclosedLetterTest.test(text)) return text;
  return text.replace(enclosedLetter, found => {
    const first = found.charCodeAt(0);
    if (first >= 0x249c && first <= 0x24b5) return String.fromCharCode(97 + first - 0x249c);
    if (first !== 0xd83c) return '';
    const low = found.charCodeAt(1);
    if (low >= 0xdde6) return String.fromCharCode(97 + low - 0xdde6);
    return String.fromCharCode(97 + low - (low <= 0xdd69 ? 0xdd50 : 0xdd70));
  });
}

/**
 * Blanks that normalisation removes as invisible but that stand between
 * words as spaces: the Hangul fillers (U+3164, its half-width U+FFA0, and
 * the jamo fillers U+115F, U+1160), which fonts draw as a blank, and the
 * Mongolian vowel separator U+180E (a space before Unicode 6.3, still drawn
 * as one by some renderers). `kill\u3164yourself` reads `kill yourself`
 * (round 24); one inside a word splits it, as it is drawn. Read on the text
 * before normalisation, with the blanks NFKC keeps (U+1680 ogham space
 * mark, U+2800 braille blank), which the normaliser writes as spaces one
 * character at a time on its slow path (round 25). With `pieceCut` taking
 * them as spaces, `word` + blank x 200,000 folds in about 515 M
 * instructions over node's start (cachegrind), against 806 M (U+3164) and
 * 1,060 M (U+2800) before; spaces: 97 M. The rest was the searches of the
 * steps after it, slower on a string V8 keeps in two bytes a unit: since
 * round 26 the fillers' text is rebuilt in one byte a unit where it can
 * be (`withFillersAsSpaces`), 339 M (U+3164, U+2800); what is left is the
 * searches that read the text as written (`pieceCut`, `enclosedLetter`).
 */
const blankFiller = /[\u115f\u1160\u1680\u180e\u2800\u3164\uffa0]/g;

/**
 * `text` with blank fillers as spaces ({@link blankFiller}), built a few
 * thousand units at a time (`String.fromCharCode`): where no
 * unit past U+00FF is left, V8 keeps the result one byte a unit, and the
 * searches of every step after it (their classes hold no such unit) read
 * it at the cost of a text of spaces; `replace` kept two bytes a unit
 * (round 26).
 */
export function withFillersAsSpaces(text: string): string {
  blankFiller.lastIndex = 0;
  if (!blankFiller.test(text)) return text;
  // From the start: a slice of the text before the first filler keeps its two bytes a unit.
  const pieces = new PieceJoiner();
  for (let chunk = 0; chunk < text.length; chunk += JOIN_BUFFER) {
    const end = Math.min(text.length, chunk + JOIN_BUFFER);
    for (let index = chunk; index < end; index++) {
      const unit = text.charCodeAt(index);
      joinBuffer[index - chunk] = isBlankFiller(unit) ? 32 : unit;
    }
    pieces.push(
      String.fromCharCode.apply(null, joinBuffer.subarray(0, end - chunk) as unknown as number[]),
    );
  }
  return pieces.join();
}

/** True for a unit of {@link blankFiller}. */
function isBlankFiller(unit: number): boolean {
  return (
    unit === 0x115f ||
    unit === 0x1160 ||
    unit === 0x1680 ||
    unit === 0x180e ||
    unit === 0x2800 ||
    unit === 0x3164 ||
    unit === 0xffa0
  );
}

/**
 * `text` with its private-use characters (U+E000–F8FF, planes 15 and 16)
 * read through as invisible ones, as pii and secrets read them since round
 * 24: the normaliser keeps them (icon fonts draw them), so one inside a word
 * split it and `k\uE000ill` passed `contentFilter` (round 25): they are
 * removed before normalisation (which reads the text around them as it
 * reads it around a removed zero-width space; `privateUseReadThrough`
 * writes such spaces where offsets must be kept, which folding does not).
 */
export function withPrivateUseReadThrough(text: string): string {
  return privateUseTest.test(text) ? text.replace(privateUseAll, '') : text;
}
const privateUseTest = /[\uE000-\uF8FF\uDB80-\uDBFF]/;
// A replacement string, not a function: a function call per character cost four times the fold of a flood of them.
const privateUseAll = /[\uE000-\uF8FF]|[\uDB80-\uDBFF][\uDC00-\uDFFF]/g;

/** Scripts of `homoglyphs` (bits), by code point: Greek, Cyrillic, Armenian, Cherokee, Canadian, Lisu. */
function scriptBit(code: number): number {
  if (code >= 0x370 && code <= 0x3ff) return 1;
  if (code >= 0x1d00 && code <= 0x1dbf) return 1; // ᴦ, Greek in the phonetic block
  if (code >= 0x400 && code <= 0x52f) return 2;
  if (code >= 0xa640 && code <= 0xa69f) return 2;
  if (code >= 0x530 && code <= 0x58f) return 4;
  if ((code >= 0x13a0 && code <= 0x13ff) || (code >= 0xab70 && code <= 0xabbf)) return 8;
  if (code >= 0x1400 && code <= 0x167f) return 16;
  return 32;
}

/** Per BMP unit: the ASCII letter `homoglyphs` folds it to (0: none), and its script's bit. */
const lookAlikeTarget = new Uint8Array(0x10000);
const lookAlikeScript = new Uint8Array(0x10000);
for (const [from, to] of Object.entries(homoglyphs)) {
  const code = from.charCodeAt(0);
  lookAlikeTarget[code] = to.charCodeAt(0);
  lookAlikeScript[code] = scriptBit(code);
}
const lookAlikeChar = new RegExp(`[${Object.keys(homoglyphs).join('')}]`);

/**
 * Per BMP unit of the scripts `homoglyphs` draws from, the bit of its
 * script (`scriptBit`) when it is a letter that, lower-cased, is no
 * look-alike (`д`, `λ`, `ά`, `Д`): a letter only that script's words have.
 */
const nativeScriptOfUnit = new Uint8Array(0x10000);
for (const [first, last] of [
  [0x370, 0x3ff],
  [0x400, 0x52f],
  [0xa640, 0xa69f],
  [0x530, 0x58f],
  [0x13a0, 0x13ff],
  [0xab70, 0xabbf],
  [0x1400, 0x167f],
  [0xa4d0, 0xa4ff],
] as const) {
  for (let code = first; code <= last; code++) {
    const lowered = String.fromCharCode(code).toLowerCase();
    if (lowered.length !== 1 || !letter.test(lowered)) continue;
    const unit = lowered.charCodeAt(0);
    if (lookAlikeTarget[unit] === 0) nativeScriptOfUnit[code] = scriptBit(unit);
  }
}

/**
 * The scripts (`scriptBit`) `text` holds a letter of that is no look-alike
 * (`nativeScriptOfUnit`): where the text writes a language of that script,
 * a word of its look-alikes is a word of that language first. One pass.
 */
export function nativeScriptsOf(text: string): number {
  let scripts = 0;
  for (let index = 0; index < text.length; index++) {
    scripts |= nativeScriptOfUnit[text.charCodeAt(index)]!;
  }
  return scripts;
}

/** True for a unit of Latin script (letters beyond ASCII that stay Latin: `ß`, `þ`, `ŋ`, `ə`). */
function isLatinScript(code: number): boolean {
  return (
    (code >= 0xc0 && code <= 0x2af) ||
    (code >= 0x1d00 && code <= 0x1dbf && code !== 0x1d26) ||
    (code >= 0x1e00 && code <= 0x1eff) ||
    (code >= 0x2c60 && code <= 0x2c7f) ||
    (code >= 0xa720 && code <= 0xa7ff) ||
    (code >= 0xab30 && code <= 0xab6f)
  );
}

// What the nearest word with letters is, for `withLookAlikeWordsFolded`.
const NONE = 0;
const LATIN = 1;
const NATIVE = 2;

/**
 * Words made only of look-alikes (`homoglyphs`) folded to the Latin words
 * they read as, where the text around them reads as Latin (round 24: `ĸɩӏӏ
 * уουгѕеӏғ`, `ᏦᎥᏞᏞ ᎩᎾᑌᖇᏚᎬᏞᖴ` passed every folding detector, which folded
 * look-alikes only beside a Latin letter). A word (letters, digits and
 * marks) of look-alikes and no other letter folds when its letters are of
 * two scripts or more (no language mixes Cyrillic and Greek in a word),
 * and otherwise, when it has three look-alikes or more (a word of one or
 * two spells little, and in a noisy suffix it is noise; one between
 * longer ones that fold folds with them), unless the
 * nearest word with a letter on either side is a
 * "native" one: a letter beyond Latin that is no look-alike (`д`, `λ`,
 * `中`). So a Russian or Greek sentence stays (`все` beside `люди`), a
 * look-alike word between Latin words folds, and so does a text of
 * look-alike words only; a look-alike word with a native neighbour stays
 * (`д кіӏӏ`: a real reading of the script wins there), and so does one of
 * a script the whole text holds a letter of that is no look-alike (round
 * 25: `και` between Latin names in a Greek text, 83 of the corpora's 1,861
 * rows with Greek or Cyrillic letters folded such a word, 15 after, all in
 * gibberish suffixes). That is the first reading (`reading.mode`
 * `'first'`, which notes in `reading.kept` that it kept a word); `'all'`
 * folds every such word, the second reading `foldText` adds where the
 * first kept one (`да кіӏӏ` is `kill` to a reader of Latin). Lower-cased text;
 * one pass, each unit read once (a run of look-alike words waiting for its
 * right neighbour is mapped when it comes). Texts without a look-alike are
 * not walked.
 */
export function withLookAlikeWordsFolded(
  text: string,
  reading: LookAlikeWordReading = new LookAlikeWordReading(text, 'first'),
): string {
  if (!lookAlikeChar.test(text)) return text;
  const all = reading.mode === 'all';
  const pieces = new PieceJoiner();
  let copied = 0;
  // The nearest word with a letter before the one read, and the look-alike words waiting since it.
  let left = NONE;
  let pendingFrom = -1;
  let pendingTo = -1;
  const fold = (from: number, to: number) => {
    pieces.push(text.slice(copied, from));
    const codes: number[] = [];
    for (let at = from; at < to; at++) {
      const unit = text.charCodeAt(at);
      codes.push(lookAlikeTarget[unit] || unit);
      if (codes.length === 4_096) {
        pieces.push(String.fromCharCode.apply(null, codes));
        codes.length = 0;
      }
    }
    pieces.push(String.fromCharCode.apply(null, codes));
    copied = to;
  };
  const length = text.length;
  let index = 0;
  while (index < length) {
    const unit = text.charCodeAt(index);
    if (!isWordUnit(text, index, unit)) {
      index++;
      continue;
    }
    const start = index;
    let ascii = false;
    let native = false;
    let scripts = 0;
    let lookAlikes = 0;
    while (index < length) {
      const code = text.charCodeAt(index);
      if (code < 0x80) {
        const bits = asciiClass[code]!;
        if ((bits & ASCII_LETTER) !== 0) ascii = true;
        else if ((bits & ASCII_DIGIT) === 0) break;
        index++;
        continue;
      }
      if (code >= 0xd800 && code <= 0xdfff) {
        const point = text.codePointAt(index)!;
        if (point <= 0xffff || !letterOrNumberOrMark.test(String.fromCodePoint(point))) break;
        if (letter.test(String.fromCodePoint(point))) native = true;
        index += 2;
        continue;
      }
      const facts = factsOfUnit(code);
      if ((facts & UNIT_LETTER) !== 0) {
        if (lookAlikeTarget[code] !== 0) {
          scripts |= lookAlikeScript[code]!;
          lookAlikes++;
        } else if (isLatinScript(code)) ascii = true;
        else native = true;
      } else if ((facts & (UNIT_LETTER_OR_NUMBER | UNIT_MARK)) === 0) {
        break;
      }
      index++;
    }
    const kind = ascii ? LATIN : native ? NATIVE : scripts === 0 ? NONE : -1;
    if (kind === NONE) continue;
    if (kind === -1 && (scripts & (scripts - 1)) === 0) {
      // Look-alikes of one script: they wait for the word after them, unless a native
      // word came before. Words of one or two (`на`, `ко`, `οι`) stay: they spell little.
      if (lookAlikes < 3) continue;
      // The first reading keeps them where a native word came before, or where the
      // text holds a letter of their script that is no look-alike (`και` in Greek).
      if (!all && (left === NATIVE || (reading.nativeScripts() & scripts) !== 0)) {
        reading.kept = true;
        continue;
      }
      if (pendingFrom < 0) pendingFrom = start;
      pendingTo = index;
      continue;
    }
    // A word that decides: Latin, native, or look-alikes of several scripts (read as Latin).
    if (pendingFrom >= 0) {
      if (kind !== NATIVE || all) fold(pendingFrom, pendingTo);
      else reading.kept = true;
      pendingFrom = -1;
    }
    if (kind === -1) fold(start, index);
    left = kind === NATIVE ? NATIVE : LATIN;
  }
  if (pendingFrom >= 0) fold(pendingFrom, pendingTo);
  if (copied === 0) return text;
  pieces.push(text.slice(copied));
  return pieces.join();
}

const letterOrNumberOrMark = /[\p{L}\p{N}\p{M}]/u;

/** True for a unit that begins a word `withLookAlikeWordsFolded` reads (a letter, digit or mark). */
function isWordUnit(text: string, index: number, unit: number): boolean {
  if (unit < 0x80) return (asciiClass[unit]! & (ASCII_LETTER | ASCII_DIGIT)) !== 0;
  if (unit >= 0xd800 && unit <= 0xdfff) {
    const point = text.codePointAt(index)!;
    return point > 0xffff && letterOrNumberOrMark.test(String.fromCodePoint(point));
  }
  return (factsOfUnit(unit) & (UNIT_LETTER_OR_NUMBER | UNIT_MARK)) !== 0;
}

/**
 * The text a right-to-left override shows: the characters U+202E (RLO)
 * overrides are drawn in reverse, so `\u202Eflesruoy llik` reads `kill
 * yourself` on screen while the units run backwards (round 24). Each run
 * an override reorders as the screen shows it (a character with its marks
 * kept together), one a line: a second reading that `foldText` appends,
 * since a model may read the units and a person the screen. Which
 * characters an override covers is read as Unicode's bidirectional
 * algorithm reads the explicit controls (`overrideRuns`, round 25): a
 * U+202C (PDF) closes only the embedding or override opened last (an RLE
 * inside, `\u202E\u202Bx\u202C flesruoy llik`, no longer ended it), a
 * U+2069 (PDI) only an isolate (a stray one ended it); an isolate, an
 * embedding or a left-to-right override inside it is drawn in its own
 * order, where the override's reversal puts it (round 27). An embedding
 * or isolate of either direction (RLE, RLI, FSI) reverses no Latin
 * letter: they keep their order in it, as the screen shows them. Empty
 * when the text has no override; at most the text's length, in one pass.
 */
export function rightToLeftOverrideReadings(text: string): string {
  if (text.indexOf('\u202e') < 0) return '';
  const readings = new PieceJoiner();
  overrideRuns(text, readings);
  const plain = readings.join();
  // Where Markdown joins the lines, the override reads on across them (round 27).
  const soft = withSoftBreaksAsSpaces(text);
  if (soft === text) return plain;
  const joined = new PieceJoiner();
  overrideRuns(soft, joined);
  const markdown = joined.join();
  return markdown === '' || markdown === plain
    ? plain
    : plain === ''
      ? markdown
      : `${plain}\n${markdown}`;
}

/**
 * `text` as Markdown shows a paragraph (round 27): a single line break (LF,
 * CR, CRLF, U+2028) between two lines with something on them is a soft
 * break, drawn as a space, and a tab is a blank like a space, so neither
 * ends an override nor cuts its reordering: `\u202Eflesruoy\nllik` shows
 * `kill yourself` in a chat window, `yourself` over `llik` in a terminal.
 * A break before or after a blank line (only spaces and tabs) ends the
 * paragraph and stays; a last line with nothing on it yet counts as one
 * with something (a stream may still write it). Each such unit becomes a
 * space, so offsets are those of `text`; `text` itself when there is none.
 * One pass.
 */
export function withSoftBreaksAsSpaces(text: string): string {
  softBreakCandidate.lastIndex = 0;
  if (!softBreakCandidate.test(text)) return text;
  // The units that become spaces, as [from, to) pairs in order: tabs, and soft breaks.
  const tabs: number[] = [];
  const breaks: number[] = [];
  let lineStart = 0;
  // The break after the line before (-1: none), its end, and whether that line was blank.
  let breakAt = -1;
  let breakEnd = -1;
  let beforeBlank = true;
  let beforeDepth = 0;
  const length = text.length;
  let at = 0;
  for (;;) {
    // A native search to the next tab or line break (-1: the text's end).
    softBreakCandidate.lastIndex = at;
    const found = softBreakCandidate.test(text);
    at = found ? softBreakCandidate.lastIndex - 1 : length;
    const unit = found ? text.charCodeAt(at) : -1;
    if (unit === 9) {
      tabs.push(at, at + 1);
      at++;
      continue;
    }
    // The line's blockquote markers (`> `, round 28), then what it holds.
    const depth = quoteMarkers(text, lineStart, at);
    const markersEnd = quoteMarkersEnd;
    let blank = true;
    for (let index = markersEnd; blank && index < at; index++) {
      const code = text.charCodeAt(index);
      blank = code === 32 || code === 9;
    }
    // The text's last line, with nothing yet: what comes may fill it.
    if (unit === -1 && blank) blank = false;
    if (
      breakAt >= 0 &&
      !beforeBlank &&
      !blank &&
      // In the same quote, or a lazy line continuing the quote before (`> a` then `b`).
      (depth === beforeDepth || (depth === 0 && beforeDepth > 0)) &&
      !startsMarkdownBlock(text, markersEnd, at)
    ) {
      breaks.push(breakAt, breakEnd);
      // The markers of a line that goes on the paragraph are not shown.
      if (markersEnd > lineStart) breaks.push(lineStart, markersEnd);
    }
    if (unit === -1) break;
    breakAt = at;
    breakEnd = unit === 13 && text.charCodeAt(at + 1) === 10 ? at + 2 : at + 1;
    beforeBlank = blank;
    beforeDepth = depth;
    at = breakEnd;
    lineStart = breakEnd;
  }
  if (tabs.length === 0 && breaks.length === 0) return text;
  const pieces = new PieceJoiner();
  let copied = 0;
  let tab = 0;
  let line = 0;
  while (tab < tabs.length || line < breaks.length) {
    const fromTabs = line >= breaks.length || (tab < tabs.length && tabs[tab]! < breaks[line]!);
    const start = fromTabs ? tabs[tab]! : breaks[line]!;
    const end = fromTabs ? tabs[tab + 1]! : breaks[line + 1]!;
    if (fromTabs) tab += 2;
    else line += 2;
    pieces.push(text.slice(copied, start));
    pieces.push(' '.repeat(end - start));
    copied = end;
  }
  pieces.push(text.slice(copied));
  return pieces.join();
}

/** Where the blockquote markers `quoteMarkers` last read end. */
let quoteMarkersEnd = 0;

/**
 * How many blockquote markers `text[from, to)` (a line) begins with, as
 * CommonMark reads them: each `>` after at most three spaces, with one
 * blank after it; where they end is left in `quoteMarkersEnd`.
 */
function quoteMarkers(text: string, from: number, to: number): number {
  let depth = 0;
  let at = from;
  for (;;) {
    let next = at;
    while (next < to && next - at < 3 && text.charCodeAt(next) === 32) next++;
    if (next >= to || text.charCodeAt(next) !== 0x3e) break;
    next++;
    if (next < to && (text.charCodeAt(next) === 32 || text.charCodeAt(next) === 9)) next++;
    depth++;
    at = next;
  }
  quoteMarkersEnd = at;
  return depth;
}

/**
 * True when the line `text[from, to)` (after its quote markers) starts a
 * Markdown block that ends the paragraph before it (round 28): an ATX
 * heading (`# `), a bullet item (`- `, `* `, `+ `), an ordered item
 * starting at 1 (`1. `, `1) `: another number goes on the paragraph), a
 * code fence, or a rule or setext underline (`---`, `===`). Such a line
 * was read as going on the line before, so an override ran into it.
 */
function startsMarkdownBlock(text: string, from: number, to: number): boolean {
  let at = from;
  while (at < to && at - from < 3 && text.charCodeAt(at) === 32) at++;
  const first = text.charCodeAt(at);
  const blankOrEnd = (index: number) =>
    index >= to || text.charCodeAt(index) === 32 || text.charCodeAt(index) === 9;
  if (first === 0x23) {
    let hashes = at;
    while (hashes < to && text.charCodeAt(hashes) === 0x23) hashes++;
    return hashes - at <= 6 && blankOrEnd(hashes);
  }
  if (first === 0x2d || first === 0x2a || first === 0x2b) {
    if (at + 1 < to && blankOrEnd(at + 1)) return true;
  }
  if (first === 0x31) {
    const mark = text.charCodeAt(at + 1);
    if (at + 1 < to && (mark === 0x2e || mark === 0x29) && blankOrEnd(at + 2)) return true;
  }
  if (first === 0x60 || first === 0x7e) {
    return text.startsWith(first === 0x60 ? '```' : '~~~', at);
  }
  // A rule or an underline: three or more of one of `- * _ =`, blanks between.
  if (first === 0x2d || first === 0x2a || first === 0x5f || first === 0x3d) {
    let count = 0;
    for (let index = at; index < to; index++) {
      const code = text.charCodeAt(index);
      if (code === first) count++;
      else if (code !== 32 && code !== 9) return false;
    }
    return count >= 3;
  }
  return false;
}

/** A tab or a line break, for `withSoftBreaksAsSpaces`'s native search. */
const softBreakCandidate = /[\t\n\r\u2028]/g;

/**
 * Where the right-to-left override still in force at the text's end
 * began (the control that made the characters after it overridden:
 * its U+202E, or the U+2069 or U+202C that closed what interrupted it), or
 * -1 when none is (see `rightToLeftOverrideReadings`). For stream windows:
 * more text may still join what `rightToLeftOverrideReadings` reverses.
 * One pass over the text's last paragraph, from one control to the next
 * (none when the text holds no U+202E).
 */
export function openRightToLeftOverride(text: string): number {
  if (text.indexOf('\u202e') < 0) return -1;
  // A paragraph break resets every override: only the last paragraph is read, as
  // the text is and as Markdown joins its lines (`withSoftBreaksAsSpaces`).
  const open = overrideRuns(text, undefined, lastParagraphStart(text));
  const soft = withSoftBreaksAsSpaces(text);
  if (soft === text) return open;
  return earliest(open, overrideRuns(soft, undefined, lastParagraphStart(soft)));
}

/** Where the last paragraph of `text` starts (after its last paragraph break). */
function lastParagraphStart(text: string): number {
  let from = 0;
  for (const paragraph of PARAGRAPH_BREAKS) from = Math.max(from, text.lastIndexOf(paragraph) + 1);
  return from;
}

/** The lesser of two positions, -1 standing for none. */
function earliest(first: number, second: number): number {
  return first < 0 ? second : second < 0 ? first : Math.min(first, second);
}

/**
 * Where the entry at the bottom of the explicit bidirectional stack still
 * open at the text's end began (an LRE, RLE, LRO, RLO, LRI, RLI or FSI of
 * the last paragraph that no PDF or PDI closed), or -1 when none is open.
 * For stream windows: what later controls do depends on every entry still
 * open before them (62 RLE, then an RLO and an LRO, leave the RLO in
 * force past the depth limit, while the RLO and LRO alone do not), so a
 * window must not release an open entry and then judge what follows
 * without it. Counts entries without the depth limit (an ignored entry is
 * popped by the PDF or PDI that real ones would be, so the stack is empty
 * exactly when Unicode's is); one native search per control of the last
 * paragraph, no text the size of the stack kept.
 */
export function openBidiEntry(text: string): number {
  BIDI_INITIATOR.lastIndex = 0;
  if (!BIDI_INITIATOR.test(text)) return -1;
  // As the text is, and as Markdown joins its lines (round 27).
  const open = openEntryOfLastParagraph(text);
  const soft = withSoftBreaksAsSpaces(text);
  return soft === text ? open : earliest(open, openEntryOfLastParagraph(soft));
}

/** `openBidiEntry` of the paragraphs `text` has as it is. */
function openEntryOfLastParagraph(text: string): number {
  const from = lastParagraphStart(text);
  let depth = 0;
  let bottom = -1;
  // The depths at which open isolates stand, innermost last.
  const isolates: number[] = [];
  BIDI_CONTROL.lastIndex = from;
  for (let found = BIDI_CONTROL.exec(text); found !== null; found = BIDI_CONTROL.exec(text)) {
    const unit = text.charCodeAt(found.index);
    if (unit === PDF) {
      if (depth > 0 && isolates.at(-1) !== depth) depth--;
    } else if (unit === PDI) {
      const isolate = isolates.pop();
      if (isolate !== undefined) depth = isolate - 1;
    } else {
      depth++;
      if (unit >= LRI) isolates.push(depth);
    }
    if (depth === 0) bottom = -1;
    else if (bottom < 0) bottom = found.index;
  }
  return bottom;
}

/** An explicit control that opens an entry of the bidirectional stack. */
const BIDI_INITIATOR = /[\u202a\u202b\u202d\u202e\u2066-\u2068]/;
/** The explicit bidirectional controls. */
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/g;

/** The paragraph breaks (`endsParagraph`), for native searches. */
const PARAGRAPH_BREAKS = ['\n', '\r', '\x85', '\u2029', '\x1c', '\x1d', '\x1e'];

// Explicit bidirectional controls (LRE U+202A is the first; RLE U+202B, … RLO; LRI U+2066, RLI, FSI, PDI),
// and the deepest embedding level Unicode's algorithm lets them reach.
const RLE = 0x202b;
const PDF = 0x202c;
const LRO = 0x202d;
const RLO = 0x202e;
const LRI = 0x2066;
const RLI = 0x2067;
const FSI = 0x2068;
const PDI = 0x2069;
const MAX_BIDI_DEPTH = 125;
// What an entry of the directional status stack is.
const EMBEDDING = 0;
const RIGHT_TO_LEFT_OVERRIDE = 1;
const LEFT_TO_RIGHT_OVERRIDE = 2;
const ISOLATE = 3;
/** The directional status stack, reused (`overrideRuns` never re-enters): entries and their levels. */
const bidiStack = new Uint8Array(MAX_BIDI_DEPTH + 2);
const bidiLevels = new Uint8Array(MAX_BIDI_DEPTH + 2);

/**
 * The units `overrideRuns` acts on: the explicit controls, paragraph
 * breaks (`endsParagraph`), and what cuts a line's reordering apart: the
 * segment separators (tab, U+000B, U+001F) and U+2028 (LINE SEPARATOR).
 * A native search skips the rest.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are what is looked for
const bidiEvent = /[\t\n\v\r\x1c-\x1f\x85\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** True for a unit after which the override's reversal starts anew: a segment separator or U+2028. */
function cutsReordering(unit: number): boolean {
  return unit === 9 || unit === 0x0b || unit === 0x1f || unit === 0x2028;
}

/**
 * Reads the explicit controls of `text` from `from` on as rules X1–X8 of
 * Unicode's bidirectional algorithm do, in a paragraph of level 0 (left to
 * right, as Latin text is shown), pushes to `readings` what each run that
 * a right-to-left override reorders shows on screen (one a line), and
 * returns where the run still open at the text's end began (-1: none).
 * LRE, RLE, LRO, RLO push an entry at the next even or odd level, LRI,
 * RLI, FSI an isolate (FSI right to left when the first strong character
 * inside it is, `fsiRightToLeft`); an entry past level 125 is counted and
 * ignored (round 26: past the level, not the count of entries, so 62 RLE,
 * an RLO and an LRO leave the RLO in force, as the screen shows it); PDF
 * pops the last entry unless it is an isolate, PDI pops to the last
 * isolate and is ignored when none is open; a paragraph break (LF, CR,
 * NEL, U+2029, U+001C–1E) resets all. Characters an override covers take
 * its level; the others are read as Latin letters (rule I2: an even level,
 * the entry's or the one above). A run is a stretch of characters above
 * the paragraph's level (the controls, and what normalisation reads
 * through, stand in no run and end none) that holds an overridden one,
 * shown as rule L2 shows it (`visualOrder`): round 27, an isolate or an
 * LRO inside an override keeps its own order but stands where the
 * override's reversal puts it, so `\u202Eflesruoy \u2066\u2069 llik`
 * shows `kill yourself` (it was read as two stretches, `yourself` and
 * `kill`, each reversed apart). Rule L1 and L2 reorder each line apart
 * and put a segment separator (tab, U+000B, U+001F) at the paragraph's
 * level, so a tab or a U+2028 ends a run and the next begins after it
 * (round 26: `\u202Ellik\u2028flesruoy` shows `kill` over `yourself`).
 * One pass, a native search from one control to the next; each entry
 * pushed once and popped at most once.
 */
function overrideRuns(text: string, readings: PieceJoiner | undefined, from = 0): number {
  let depth = 0;
  let isolates = 0;
  let overflowIsolates = 0;
  let overflowEmbeddings = 0;
  // The run being read: its segments (from, to, level), where it began (-1: none), whether
  // it holds an overridden character; and where the next run would begin.
  const segmentFrom: number[] = [];
  const segmentTo: number[] = [];
  const segmentLevel: number[] = [];
  let runFrom = -1;
  let overridden = false;
  let quietFrom = from;
  // The level of the characters read now, and whether an RLO covers them.
  let level = 0;
  let overriding = false;
  let written = 0;
  const endRun = () => {
    if (overridden && readings !== undefined) {
      if (written++ > 0) readings.push('\n');
      visualOrder(readings, text, segmentFrom, segmentTo, segmentLevel);
    }
    segmentFrom.length = segmentTo.length = segmentLevel.length = 0;
    runFrom = -1;
    overridden = false;
  };
  const segment = (start: number, end: number) => {
    if (end <= start) return;
    if (level === 0) {
      // Shown at the paragraph's level: it ends the run, unless nothing of it is shown.
      if (!readThroughOnly(text, start, end)) {
        endRun();
        quietFrom = end;
      }
      return;
    }
    if (runFrom < 0) runFrom = quietFrom;
    overridden ||= overriding;
    segmentFrom.push(start);
    segmentTo.push(end);
    segmentLevel.push(level);
  };
  const rightToLeftIsolates =
    text.indexOf('\u2068', from) < 0 ? undefined : fsiRightToLeft(text, from);
  const length = text.length;
  let at = from;
  while (at < length) {
    bidiEvent.lastIndex = at;
    const found = bidiEvent.test(text);
    const next = found ? bidiEvent.lastIndex - 1 : length;
    segment(at, next);
    if (!found) break;
    at = next;
    const unit = text.charCodeAt(at);
    at++;
    if (cutsReordering(unit) || endsParagraph(unit)) {
      // The line's reordering is cut here: the run so far is shown on its own.
      endRun();
      quietFrom = at;
      if (cutsReordering(unit)) continue;
      depth = isolates = overflowIsolates = overflowEmbeddings = 0;
    } else if (unit === PDF) {
      if (overflowIsolates > 0) {
        // Inside an isolate past the depth: nothing to close.
      } else if (overflowEmbeddings > 0) overflowEmbeddings--;
      else if (depth > 0 && bidiStack[depth - 1] !== ISOLATE) depth--;
    } else if (unit === PDI) {
      if (overflowIsolates > 0) overflowIsolates--;
      else if (isolates > 0) {
        overflowEmbeddings = 0;
        while (bidiStack[depth - 1] !== ISOLATE) depth--;
        depth--;
        isolates--;
      }
    } else {
      const outer = depth > 0 ? bidiLevels[depth - 1]! : 0;
      const rightToLeft =
        unit === RLE ||
        unit === RLO ||
        unit === RLI ||
        (unit === FSI &&
          rightToLeftIsolates !== undefined &&
          rightToLeftIsolates[at - 1 - from] === 1);
      // The least odd level above, for a right-to-left entry; else the least even one.
      const above = rightToLeft ? outer + 1 + (outer & 1) : outer + 2 - (outer & 1);
      const valid = above <= MAX_BIDI_DEPTH && overflowIsolates === 0 && overflowEmbeddings === 0;
      if (unit >= LRI) {
        if (valid) {
          bidiLevels[depth] = above;
          bidiStack[depth++] = ISOLATE;
          isolates++;
        } else overflowIsolates++;
      } else if (valid) {
        bidiLevels[depth] = above;
        bidiStack[depth++] =
          unit === RLO ? RIGHT_TO_LEFT_OVERRIDE : unit === LRO ? LEFT_TO_RIGHT_OVERRIDE : EMBEDDING;
      } else if (overflowIsolates === 0) overflowEmbeddings++;
    }
    const entry = depth > 0 ? bidiStack[depth - 1]! : EMBEDDING;
    const entryLevel = depth > 0 ? bidiLevels[depth - 1]! : 0;
    overriding = entry === RIGHT_TO_LEFT_OVERRIDE;
    level =
      overriding || entry === LEFT_TO_RIGHT_OVERRIDE ? entryLevel : entryLevel + (entryLevel & 1);
  }
  // Open: a run that holds an overridden character, or an override still on the stack.
  let open = overridden ? runFrom : -1;
  for (let index = 0; open < 0 && index < depth; index++) {
    if (bidiStack[index] === RIGHT_TO_LEFT_OVERRIDE) open = runFrom >= 0 ? runFrom : quietFrom;
  }
  endRun();
  return open;
}

/** True when `text[from, to)` holds only what normalisation reads through (`isReadThrough`). */
function readThroughOnly(text: string, from: number, to: number): boolean {
  for (let at = from; at < to; at++) {
    const point = text.codePointAt(at)!;
    if (!isReadThrough(point)) return false;
    if (point > 0xffff) at++;
  }
  return true;
}

/**
 * Pushes the segments of a run (`text[from[i], to[i])` at `levels[i]`,
 * in the text's order) as rule L2 of Unicode's bidirectional algorithm
 * shows them: from the highest level down to the lowest odd one, each
 * stretch at that level or above reversed. A stretch at level `m` is
 * reversed by the passes of levels 1 to `m` (the lowest odd level of a
 * line is odd, so the count's parity is `m`'s): it is built as a tree of
 * such stretches, each node's parts read backwards when its level is odd,
 * a segment's characters reversed with it (`reverseInto`, marks kept with
 * their letter). One pass to build, one to read: linear in the segments
 * and the text.
 */
function visualOrder(
  pieces: PieceJoiner,
  text: string,
  from: readonly number[],
  to: readonly number[],
  levels: readonly number[],
): void {
  // Nodes: a level and parts (a segment's index, or ~node); node 0 is the root, at level 0.
  const nodeLevel: number[] = [0];
  const nodeParts: number[][] = [[]];
  const open: number[] = [0];
  for (let index = 0; index < levels.length; index++) {
    const level = levels[index]!;
    let closed = -1;
    while (nodeLevel[open[open.length - 1]!]! > level) closed = open.pop()!;
    const top = open[open.length - 1]!;
    if (nodeLevel[top]! < level) {
      const node = nodeLevel.length;
      nodeLevel.push(level);
      const parts = nodeParts[top]!;
      if (closed >= 0) {
        // The stretch closed is the first part of the one at this level, in its place.
        parts[parts.length - 1] = ~node;
        nodeParts.push([~closed]);
      } else {
        parts.push(~node);
        nodeParts.push([]);
      }
      open.push(node);
    }
    nodeParts[open[open.length - 1]!]!.push(index);
  }
  const read = (node: number) => {
    const parts = nodeParts[node]!;
    const reversed = (nodeLevel[node]! & 1) === 1;
    for (let at = 0; at < parts.length; at++) {
      const part = parts[reversed ? parts.length - 1 - at : at]!;
      if (part < 0) read(~part);
      else if (reversed) reverseInto(pieces, text, from[part]!, to[part]!);
      else pieces.push(text.slice(from[part]!, to[part]!));
    }
  };
  read(0);
}

/**
 * Per unit from `from` on, 1 where an FSI (U+2068) opens a right-to-left
 * isolate (a byte a unit: a set of 200,000 positions cost 25x the walk of
 * a tenth of them): rules P2 and P3 read the text up to its matching
 * PDI (or the paragraph's end), skipping nested isolates, and the first
 * strong character is right to left (`isRightToLeftStrong`). One pass: a
 * strong character decides only the innermost isolate open around it
 * (the outer ones skip it), each isolate opener pushed and popped once.
 */
function fsiRightToLeft(text: string, from: number): Uint8Array {
  const rightToLeft = new Uint8Array(text.length - from);
  // The isolate openers open around the position: their place, or -1 once decided (or not an FSI).
  const open: number[] = [];
  for (let at = from; at < text.length; at++) {
    const unit = text.charCodeAt(at);
    if (unit >= LRI && unit <= FSI) open.push(unit === FSI ? at : -1);
    else if (unit === PDI) open.pop();
    else if (endsParagraph(unit)) open.length = 0;
    else if (open.length > 0 && open[open.length - 1]! >= 0) {
      const strong = strongDirection(text, at, unit);
      if (strong === 0) continue;
      if (strong === 2) rightToLeft[open[open.length - 1]! - from] = 1;
      open[open.length - 1] = -1;
    }
  }
  return rightToLeft;
}

/**
 * The strong direction of the character at `at` for rules P2 and P3: 1
 * left to right (a letter of another script than those below, LRM), 2
 * right to left (a letter of Hebrew, Arabic, Syriac, Thaana, N'Ko and the
 * other right-to-left blocks, RLM, ALM), 0 neither (digits, marks,
 * punctuation, blanks). Letters stand for the strong classes: close to
 * Unicode's data, and exact for the scripts attackers write with.
 */
function strongDirection(text: string, at: number, unit: number): number {
  if (unit === 0x200e) return 1;
  if (unit === 0x200f || unit === 0x061c) return 2;
  if (unit < 0x80) return (asciiClass[unit]! & ASCII_LETTER) !== 0 ? 1 : 0;
  if (unit >= 0xd800 && unit <= 0xdbff) {
    const point = text.codePointAt(at)!;
    if (point <= 0xffff || !letter.test(String.fromCodePoint(point))) return 0;
    return (point >= 0x10800 && point <= 0x10fff) || (point >= 0x1e800 && point <= 0x1efff) ? 2 : 1;
  }
  if ((factsOfUnit(unit) & UNIT_LETTER) === 0) return 0;
  return (unit >= 0x590 && unit <= 0x8ff) ||
    (unit >= 0xfb1d && unit <= 0xfdff) ||
    (unit >= 0xfe70 && unit <= 0xfeff)
    ? 2
    : 1;
}

/**
 * The readings `foldText` appends after the text's own, one a line: what a
 * right-to-left override shows, and upside-down text turned back
 * (`upsideDownReading`). Empty when there is none.
 */
export function secondReadings(text: string): string {
  const overridden = rightToLeftOverrideReadings(text);
  const turned = upsideDownReading(text);
  return overridden === '' ? turned : turned === '' ? overridden : `${overridden}\n${turned}`;
}

/**
 * Per BMP unit, what upside-down text means by it, filled on first sight
 * (0: not yet): the turned letters of both alphabets (`TURNED`,
 * `TURNED_MORE`), in either case, as the letters they are; `u n p d b q`
 * swapped, and the capitals `N M W` read as `n w m` (round 27: a capital
 * `N` turned is itself, and `M` is `W`); round 28: the turned digits
 * (`TURNED_DIGITS`: `ㄣ` is `4`) as theirs, `6` and `9` swapped, and the
 * `ן ๅ` some generators write for `l` as `l`; any other unit lower-cased
 * (when that is one unit).
 */
const upsideDownTarget = new Uint16Array(0x10000);
const upsideDownKnown = new Map<number, number>();
for (const [turned, letters] of [
  [TURNED, UNTURNED],
  [TURNED_MORE, UNTURNED_MORE],
  [TURNED_DIGITS, UNTURNED_DIGITS],
]) {
  for (let index = 0; index < turned!.length; index++) {
    upsideDownKnown.set(turned!.charCodeAt(index), letters!.charCodeAt(index));
  }
}
for (const [from, to] of [
  'un',
  'nu',
  'pd',
  'dp',
  'bq',
  'qb',
  'Nn',
  'Mw',
  'Wm',
  '69',
  '96',
  'ןl',
  'ๅl',
]) {
  upsideDownKnown.set(from!.charCodeAt(0), to!.charCodeAt(0));
}

/** `upsideDownTarget` of a unit. */
function turnedBack(unit: number): number {
  const known = upsideDownTarget[unit]!;
  if (known !== 0) return known;
  let target = upsideDownKnown.get(unit);
  if (target === undefined) {
    const lowered = String.fromCharCode(unit).toLowerCase();
    const lower = lowered.length === 1 ? lowered.charCodeAt(0) : unit;
    target = upsideDownKnown.get(lower) ?? lower;
  }
  upsideDownTarget[unit] = target;
  return target;
}

/** Between two upside-down regions read: no entry joins them (a blank would, `kill\nyou`). */
const REGION_BREAK = '\n.\n';

/**
 * Upside-down text read turned back (round 24): "flip text" generators
 * write `kill yourself` as `ɟlǝsɹnoʎ llıʞ`, turned letters in reverse
 * order, which a person reads by turning the screen (and `u`, `p`, `b`
 * stand for `n`, `d`, `q`). Each region of it (`upsideDownRegions`: where
 * three kinds of turned letter or more, `ɐ ɔ ǝ ɟ ƃ ɥ ᴉ ɾ ʞ ɯ ɹ ʇ ʌ ʍ ʎ`,
 * stand within 16 characters; an IPA transcription has fewer and reads as
 * noise; since round 27 the generators' other alphabet, `∀ ꓘ ˥ ⅄ ∩ ⊥ …`,
 * `TURNED_MORE`, counts too, a kind being the letter turned) is reversed
 * by characters and mapped (`upsideDownTarget`), the last region
 * first, `REGION_BREAK` between two; empty when there is none. Decided
 * locally since round 26 (three kinds anywhere turned the whole text, which
 * a stream window could not see: `shared/upside-down`). At most the text's
 * length, in one pass.
 */
export function upsideDownReading(text: string): string {
  const regions = upsideDownRegions(text);
  if (regions.length === 0) return '';
  const reversed = new PieceJoiner();
  for (let index = regions.length - 2; index >= 0; index -= 2) {
    if (index < regions.length - 2) reversed.push(REGION_BREAK);
    reverseInto(reversed, text, regions[index]!, regions[index + 1]!);
  }
  const turned = turnedBackText(reversed.join());
  const inPlace = turnedInPlaceReading(text, regions);
  return inPlace === '' ? turned : `${turned}${REGION_BREAK}${inPlace}`;
}

/** `turned` with each unit as upside-down text means it (`turnedBack`). */
function turnedBackText(turned: string): string {
  const pieces = new PieceJoiner();
  for (let chunk = 0; chunk < turned.length; chunk += JOIN_BUFFER) {
    const end = Math.min(turned.length, chunk + JOIN_BUFFER);
    for (let index = chunk; index < end; index++) {
      joinBuffer[index - chunk] = turnedBack(turned.charCodeAt(index));
    }
    pieces.push(
      String.fromCharCode.apply(null, joinBuffer.subarray(0, end - chunk) as unknown as number[]),
    );
  }
  return pieces.join();
}

/**
 * Units of the text on each side of an upside-down region that its
 * in-place reading takes with it (`turnedInPlaceReading`), whole tokens
 * only. Units, not characters read: a stream window's check holds at
 * least 48 units of released text before what it holds back.
 */
const IN_PLACE_CONTEXT = 16;

/**
 * Upside-down regions read in place (round 28): each token of a region
 * reversed and turned back where it stands, with the tokens within
 * `IN_PLACE_CONTEXT` units on either side as they are written. A turned
 * word among plain ones (`You should kill ɟlǝsɹnoʎ now.`) is read there,
 * `you should kill yourself now.`, where turning the whole region read
 * `yourself` alone; so is a phrase whose words are each turned in their
 * place (`llıʞ ɟlǝsɹnoʎ`). Regions whose contexts meet read in one stretch;
 * `REGION_BREAK` between two stretches. Empty when every stretch is one
 * word and nothing around it (the turned reading says it already). Linear:
 * a context walks at most `IN_PLACE_CONTEXT` units, never into the next
 * region's.
 */
function turnedInPlaceReading(text: string, regions: readonly number[]): string {
  const pieces = new PieceJoiner();
  let written = false;
  for (let index = 0; index < regions.length; ) {
    // A stretch: the regions from `index` on whose contexts meet.
    const stretch = new PieceJoiner();
    const first = regions[index]!;
    const lower = index === 0 ? 0 : regions[index - 1]!;
    let from = Math.max(lower, first - IN_PLACE_CONTEXT);
    // Whole tokens only: a token cut by the bound is left out.
    if (from > lower && !isJsSpace(text.charCodeAt(from - 1))) {
      while (from < first && !isJsSpace(text.charCodeAt(from))) from++;
    }
    while (from < first && isJsSpace(text.charCodeAt(from))) from++;
    let more = from < first;
    stretch.push(text.slice(from, first));
    let end = first;
    for (;;) {
      const start = regions[index]!;
      end = regions[index + 1]!;
      const region = new PieceJoiner();
      let token = start;
      for (let at = start; at <= end; at++) {
        if (at < end && !isJsSpace(text.charCodeAt(at))) continue;
        reverseInto(region, text, token, at);
        if (at < end) region.push(text[at]!);
        more ||= at < end;
        token = at + 1;
      }
      stretch.push(turnedBackText(region.join()));
      index += 2;
      const next = index < regions.length ? regions[index]! : text.length;
      if (index >= regions.length || next - end > IN_PLACE_CONTEXT) break;
      stretch.push(text.slice(end, next));
      more = true;
    }
    const upper = index < regions.length ? regions[index]! : text.length;
    let to = Math.min(upper, end + IN_PLACE_CONTEXT);
    if (to < upper && !isJsSpace(text.charCodeAt(to))) {
      while (to > end && !isJsSpace(text.charCodeAt(to - 1))) to--;
    }
    while (to > end && isJsSpace(text.charCodeAt(to - 1))) to--;
    more ||= to > end;
    stretch.push(text.slice(end, to));
    if (!more) continue;
    if (written) pieces.push(REGION_BREAK);
    pieces.push(stretch.join());
    written = true;
  }
  return pieces.join();
}

/** A paragraph break, which ends every embedding, override and isolate. */
function endsParagraph(unit: number): boolean {
  return (
    unit === 10 || unit === 13 || unit === 0x85 || unit === 0x2029 || (unit >= 0x1c && unit <= 0x1e)
  );
}

/**
 * `text[from, to)` reversed by characters (a surrogate pair, or a character
 * and the marks after it, kept in order), pushed to `pieces` a few thousand
 * units at a time: a stretch can be the whole text, and a string per
 * character of it cost far more than the text.
 */
function reverseInto(pieces: PieceJoiner, text: string, from: number, to: number): void {
  const reversed = new Uint16Array(to - from);
  let write = to - from;
  let index = from;
  while (index < to) {
    // A character: a pair or one unit, with the marks that follow it.
    let end = index + 1;
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff && end < to) {
      const low = text.charCodeAt(end);
      if (low >= 0xdc00 && low <= 0xdfff) end++;
    }
    while (end < to && isMarkUnit(text.charCodeAt(end))) end++;
    write -= end - index;
    for (let copy = index; copy < end; copy++)
      reversed[write + copy - index] = text.charCodeAt(copy);
    index = end;
  }
  for (let chunk = 0; chunk < reversed.length; chunk += JOIN_BUFFER) {
    pieces.push(
      String.fromCharCode.apply(
        null,
        reversed.subarray(chunk, chunk + JOIN_BUFFER) as unknown as number[],
      ),
    );
  }
}

/** True for a BMP unit that is a combining mark (`\p{M}`), read once per unit and kept. */
function isMarkUnit(unit: number): boolean {
  if (unit < 0x300 || (unit >= 0xd800 && unit <= 0xdfff)) return false;
  return (factsOfUnit(unit) & UNIT_MARK) !== 0;
}

/**
 * Every text that `withoutEnclosedLetters`, `withFillersAsSpaces` or
 * `withPrivateUseReadThrough` changes holds a unit this finds: an enclosed
 * letter, the enclosing mark every keycap match ends with (its look-behind
 * and optional selector read nothing else), a blank filler, or a
 * private-use unit (BMP, or the lead surrogate of planes 15 and 16).
 * Without the look-behind, V8 skips to these units.
 */
const mayReadOtherwise =
  /[\u249c-\u24b5\u115f\u1160\u1680\u180e\u2800\u3164\uffa0\ue000-\uf8ff\udb80-\udbff]|[\u20dd-\u20e4]|\ud83c[\udd50-\udd69\udd70-\udd89\udde6-\uddff]/;

/**
 * One piece up to where its look-alike words are read: enclosed letters,
 * fillers and private-use characters read, normalised, lower-cased, small
 * capitals, Latin look-alikes and diacritics folded, curly quotes straight.
 */
function preparedPiece(text: string, pieceLength: number): string {
  // The three readings before normalisation change only text holding one
  // of their characters: one search for any of them, not a search each
  // (round 29).
  const read = mayReadOtherwise.test(text)
    ? withPrivateUseReadThrough(withFillersAsSpaces(withoutEnclosedLetters(text)))
    : text;
  let folded = withoutLatinDiacritics(
    withoutLatinLookAlikes(
      withoutSmallCapitals(withoutTurkishDot(normalizedText(read, pieceLength).toLowerCase())),
    ),
  );
  if (/[\u2018\u2019\u201b\u2032\u201c\u201d\u201f\u2033]/.test(folded)) {
    folded = folded
      .replace(/[\u2018\u2019\u201b\u2032]/g, "'")
      .replace(/[\u201c\u201d\u201f\u2033]/g, '"');
  }
  return folded;
}

/** A `preparedPiece` folded in one reading of its look-alike words; `last`: it ends the text, so trailing blanks are dropped. */
function finishPiece(
  prepared: string,
  foldLeet: boolean | 'aggressive',
  last: boolean,
  words: LookAlikeWordReading,
): string {
  return collapseWhitespace(
    joinSpacedRuns(
      foldWords(
        words.mode === false ? prepared : withLookAlikeWordsFolded(prepared, words),
        foldLeet,
      ),
      foldLeet === 'aggressive',
    ),
    last,
  );
}

const letterOrNumber = /[\p{L}\p{N}]/u;

/** True for a code point that `wordToken` takes into a word. */
function isTokenCodePoint(code: number): boolean {
  if (code < 0x80) return (asciiClass[code]! & ASCII_WORD) !== 0;
  if (code < 0x10000) return (factsOfUnit(code) & UNIT_LETTER_OR_NUMBER) !== 0;
  return letterOrNumber.test(String.fromCodePoint(code));
}

// A character that can make its word fold: a leet character or a non-ASCII one.
const foldCandidate = /[0134578@$|\u0080-\uffff]/g;
const nonAsciiCandidate = /[\u0080-\uffff]/g;

/** Units (1 or 2) of the word code point that ends at `end`, or 0 when it is no word character. */
function wordUnitsBefore(text: string, end: number): number {
  const unit = text.charCodeAt(end - 1);
  if (unit < 0x80) return (asciiClass[unit]! & ASCII_WORD) !== 0 ? 1 : 0;
  if (unit < 0xd800 || unit > 0xdfff) {
    return (factsOfUnit(unit) & UNIT_LETTER_OR_NUMBER) !== 0 ? 1 : 0;
  }
  if (unit >= 0xdc00 && end >= 2) {
    const high = text.charCodeAt(end - 2);
    if (high >= 0xd800 && high <= 0xdbff) {
      return isTokenCodePoint(text.codePointAt(end - 2)!) ? 2 : 0;
    }
  }
  return 0;
}

/**
 * `wordToken` folding, applied only to runs of word characters that
 * `foldWord` can change: runs with a lower-case Latin letter and a non-ASCII
 * character (homoglyphs), or with a leet character and a letter (leetspeak,
 * when folded). Plain words, numbers and words of other scripts (nearly all
 * of a text) fold to themselves, so they are not handed to a callback one by
 * one; a native regex search jumps to the next character that can make a
 * word fold, and only that character's run is looked at (each character at
 * most once backwards and once forwards: linear time).
 */
function foldWords(text: string, foldLeet: boolean | 'aggressive'): string {
  const candidate = foldLeet === false ? nonAsciiCandidate : foldCandidate;
  const pieces = new PieceJoiner();
  let copied = 0;
  // Everything before `settled` has been looked at.
  let settled = 0;
  const length = text.length;
  candidate.lastIndex = 0;
  while (candidate.test(text)) {
    const hit = candidate.lastIndex - 1;
    // The run holding the hit: back to its first character ...
    let start = hit;
    if (start > settled) {
      const unit = text.charCodeAt(start);
      if (unit >= 0xdc00 && unit <= 0xdfff) {
        const high = text.charCodeAt(start - 1);
        if (high >= 0xd800 && high <= 0xdbff) start--;
      }
    }
    while (start > settled) {
      const units = wordUnitsBefore(text, start);
      if (units === 0) break;
      start -= units;
    }
    // ... and forwards, as `wordToken` reads it.
    let index = start;
    let nonAscii = false;
    // Bits of `asciiClass` seen in the run.
    let seen = 0;
    while (index < length) {
      const unit = text.charCodeAt(index);
      if (unit < 0x80) {
        const bits = asciiClass[unit]!;
        if ((bits & ASCII_WORD) === 0) break;
        seen |= bits;
        index++;
        continue;
      }
      if (unit < 0xd800 || unit > 0xdfff) {
        if ((factsOfUnit(unit) & UNIT_LETTER_OR_NUMBER) === 0) break;
        nonAscii = true;
        index++;
        continue;
      }
      const code = text.codePointAt(index)!;
      if (!isTokenCodePoint(code)) break;
      nonAscii = true;
      index += code > 0xffff ? 2 : 1;
    }
    // Every leet character of the text is in a run read here (a hit, or beside one).
    if ((seen & ASCII_LEET) !== 0) leetRead = true;
    // Homoglyphs fold only in a word with a Latin letter [a-z] and a
    // non-ASCII character; leetspeak only in a word with a leet character
    // and a letter (ASCII, or one of the non-ASCII characters), or in a
    // short token beside a word read as leetspeak (`besideLeetWord`).
    if (
      foldLeet !== false &&
      isShortLeetToken(text, start, index) &&
      besideLeetWord(text, start, index, foldLeet)
    ) {
      pieces.push(text.slice(copied, start));
      pieces.push(mapUnits(text.slice(start, index), leetCodes));
      copied = index;
    } else if (
      foldLeet === true &&
      !nonAscii &&
      (seen & ASCII_LETTER) !== 0 &&
      digitHeavyLeetShape(text, start, index) !== NO_LEET &&
      digitHeavyInLeetRun(text, start, index)
    ) {
      pieces.push(text.slice(copied, start));
      pieces.push(mapUnits(text.slice(start, index), leetCodes));
      copied = index;
    } else if (
      index - start >= 2 &&
      ((nonAscii && (seen & ASCII_LOWER) !== 0) ||
        (foldLeet !== false &&
          (seen & ASCII_LEET) !== 0 &&
          (nonAscii || (seen & ASCII_LETTER) !== 0)))
    ) {
      pieces.push(text.slice(copied, start));
      // Up to 64 units (and two code points) the run is one `wordToken`.
      const single =
        index - start <= 64 && !(index - start === 2 && text.charCodeAt(start) >= 0xd800);
      pieces.push(
        single
          ? foldWord(text.slice(start, index), start, text, foldLeet)
          : text
              .slice(start, index)
              .replace(wordToken, (word, offset: number) =>
                foldWord(word, start + offset, text, foldLeet),
              ),
      );
      copied = index;
    }
    settled = Math.max(index, hit + 1);
    candidate.lastIndex = settled;
  }
  if (copied === 0) return text;
  pieces.push(text.slice(copied));
  return pieces.join();
}

/**
 * Whether the short token `text[start, end)` (`isShortLeetToken`) has a
 * word read as leetspeak (`readsAsLeet`) right before or after it, with
 * only spaces and tabs between: the words of one line of leetspeak, not a
 * number beside ordinary words, nor one across punctuation (`h4ck, 4`). A
 * token only beside another such token stays (no chain). Each blank and
 * each neighbour is read at most twice (once from each side), and a
 * neighbour longer than a word (64 units) is none: linear.
 */
function besideLeetWord(
  text: string,
  start: number,
  end: number,
  foldLeet: boolean | 'aggressive',
): boolean {
  const before = neighbourBefore(text, start);
  if (before !== undefined && anchorsLeet(text, before, foldLeet)) return true;
  const after = neighbourAfter(text, end);
  return after !== undefined && anchorsLeet(text, after, foldLeet);
}

/** Where a neighbouring word starts and ends (`[start, end)`), or undefined. */
type Span = readonly [number, number];

/**
 * The word right before `start` with only spaces and tabs between, at most
 * one word's length (64 units) read back, or undefined when there is no blank
 * or no word. Linear in what it reads.
 */
function neighbourBefore(text: string, start: number): Span | undefined {
  let before = start;
  while (before > 0 && isInlineBlank(text.charCodeAt(before - 1))) before--;
  if (before === start) return undefined;
  let wordStart = before;
  while (wordStart > 0 && before - wordStart <= 64) {
    const units = wordUnitsBefore(text, wordStart);
    if (units === 0) break;
    wordStart -= units;
  }
  return wordStart < before ? [wordStart, before] : undefined;
}

/** The word right after `end` with only spaces and tabs between (see `neighbourBefore`). */
function neighbourAfter(text: string, end: number): Span | undefined {
  let after = end;
  while (after < text.length && isInlineBlank(text.charCodeAt(after))) after++;
  if (after === end) return undefined;
  let wordEnd = after;
  while (wordEnd < text.length && wordEnd - after <= 64) {
    const code = text.codePointAt(wordEnd)!;
    if (!isTokenCodePoint(code)) break;
    wordEnd += code > 0xffff ? 2 : 1;
  }
  return wordEnd > after ? [after, wordEnd] : undefined;
}

/**
 * Whether a neighbour makes a short token or a digit-heavy word beside it
 * read as leetspeak: a word read as leetspeak (`readsAsLeet`), or, with
 * the default folding, a digit-heavy word with a leet digit inside its
 * letters (`p03m`, `1gn0r3`; `digitHeavyLeetShape`).
 */
function anchorsLeet(text: string, [start, end]: Span, foldLeet: boolean | 'aggressive'): boolean {
  if (readsAsLeetAt(text, start, end, foldLeet)) return true;
  return foldLeet === true && digitHeavyLeetShape(text, start, end) === LEET_INSIDE;
}

/** `digitHeavyLeetShape`: no such word, leet digits inside its letters, or only at its edges. */
const NO_LEET = 0;
const LEET_INSIDE = 1;
const LEET_AT_EDGES = 2;

// An ordinal (`10th`), and a hexadecimal literal.
const ordinalOrHex = /^\d+(?:st|nd|rd|th)$|^0x/;

/**
 * The shape of `text[start, end)` as a word of leetspeak with as many leet
 * digits as letters or more, which `readsAsLeet` leaves as written (round
 * 39, issue 15: `t00`, `wr173`, `1gn0r3`, `pr3v10u5`): three to 64 units,
 * only ASCII letters and the leet digits 0 1 3 4 5 7 8 (a 2, 6 or 9, a
 * symbol, a fourth digit in a row or no letter makes it a number or a code:
 * `2024`, `1080p`, `h264`), not an ordinal, not a hexadecimal literal and
 * not only the letters a–f (a hash or a colour, `4a3f`). `LEET_INSIDE` when
 * a digit stands between two of its letters, `LEET_AT_EDGES` when digits
 * only lead or trail (`t00`, `10k`). Linear in the word.
 */
function digitHeavyLeetShape(text: string, start: number, end: number): number {
  if (end - start < 3 || end - start > 64) return NO_LEET;
  let letters = 0;
  let digits = 0;
  let digitRun = 0;
  let beyondHex = false;
  let firstLetter = -1;
  let lastLetter = -1;
  for (let index = start; index < end; index++) {
    const unit = text.charCodeAt(index);
    if (unit >= 0x80) return NO_LEET;
    const bits = asciiClass[unit]!;
    if ((bits & ASCII_LETTER) !== 0) {
      letters++;
      digitRun = 0;
      beyondHex ||= (unit | 0x20) > 0x66;
      if (firstLetter < 0) firstLetter = index;
      lastLetter = index;
    } else if ((bits & ASCII_DIGIT) !== 0 && (bits & ASCII_LEET) !== 0 && ++digitRun < 4) {
      digits++;
    } else {
      return NO_LEET;
    }
  }
  if (letters === 0 || digits < letters || !beyondHex) return NO_LEET;
  if (ordinalOrHex.test(text.slice(start, end))) return NO_LEET;
  for (let index = firstLetter + 1; index < lastLetter; index++) {
    if ((asciiClass[text.charCodeAt(index)]! & ASCII_DIGIT) !== 0) return LEET_INSIDE;
  }
  return LEET_AT_EDGES;
}

/**
 * Whether the digit-heavy word `text[start, end)` (`digitHeavyLeetShape`)
 * stands in a line of leetspeak: beside a word read as leetspeak or a
 * digit-heavy word with a digit inside its letters; one with a digit inside
 * its letters also beside one with digits at its edges or a short token
 * (`isShortLeetToken`: `p03m 4`); one with digits at its edges also across
 * a short token from such an anchor (`wr173 4 p03m`). Alone, or beside
 * ordinary words, numbers and codes, it stays (`10k 50k`, `t00 late`). A
 * link between two words that each end and start with two letters is not
 * read: folding may cut its text there (`pieceCut`). At most two words
 * read on each side: linear.
 */
function digitHeavyInLeetRun(text: string, start: number, end: number): boolean {
  const inside = digitHeavyLeetShape(text, start, end) === LEET_INSIDE;
  const before = neighbourBefore(text, start);
  const after = neighbourAfter(text, end);
  for (const [neighbour, farther] of [
    [before, before && neighbourBefore(text, before[0])],
    [after, after && neighbourAfter(text, after[1])],
  ] as const) {
    if (neighbour === undefined || mayCutBetween(text, start, end, neighbour)) continue;
    if (anchorsLeet(text, neighbour, true)) return true;
    const short = isShortLeetToken(text, neighbour[0], neighbour[1]);
    if (inside && (short || digitHeavyLeetShape(text, neighbour[0], neighbour[1]) !== NO_LEET)) {
      return true;
    }
    if (short && farther !== undefined && anchorsLeet(text, farther, true)) return true;
  }
  return false;
}

/** Whether the blanks between a word and its neighbour have two ASCII letters on each side. */
function mayCutBetween(text: string, start: number, end: number, [from, to]: Span): boolean {
  const [left, right] = from < start ? [to, start] : [end, from];
  const isLetter = (index: number) => (asciiClass[text.charCodeAt(index)]! & ASCII_LETTER) !== 0;
  return isLetter(left - 1) && isLetter(left - 2) && isLetter(right) && isLetter(right + 1);
}

/**
 * Whether the word `text[start, end)`, two to 64 ASCII units, reads as
 * leetspeak (`readsAsLeet`). Leetspeak writes Latin words: a run of
 * another script with a digit in it (`58岁时…`, a clause of Chinese with
 * no blank, read as one word) is no neighbour for a short token.
 */
function readsAsLeetAt(
  text: string,
  start: number,
  end: number,
  foldLeet: boolean | 'aggressive',
): boolean {
  if (end - start < 2 || end - start > 64) return false;
  for (let index = start; index < end; index++) if (text.charCodeAt(index) >= 0x80) return false;
  const folded = withHomoglyphsFolded(text.slice(start, end));
  return readsAsLeet(folded, start, text, foldLeet);
}

function isInlineBlank(unit: number): boolean {
  return unit === 32 || unit === 9;
}

// The start of a run of blanks that changes: two or more, or one that is neither ' ' nor '\n'.
const changedBlankRun = /\s\s|[^\S \n]/g;

/**
 * Runs of blanks become one space (single spaces are left as they are); line
 * breaks are kept, one per run: each run of `\s` characters becomes '\n'
 * when it holds one, else ' ', and the text is trimmed (at the end only when
 * `trimEnd`: a piece that the rest of the text follows keeps its last space).
 * A native search finds each run that changes; a text with none is returned
 * as it is.
 */
function collapseWhitespace(text: string, trimEnd: boolean): string {
  let length = text.length;
  // Trailing (at the end of the text) and leading blanks are dropped.
  while (trimEnd && length > 0 && isJsSpace(text.charCodeAt(length - 1))) length--;
  let first = 0;
  while (first < length && isJsSpace(text.charCodeAt(first))) first++;
  const pieces = new PieceJoiner();
  let copied = first;
  // Changes in a row that stood within `DENSE_CHANGES` units of the one before.
  let dense = 0;
  changedBlankRun.lastIndex = first;
  while (changedBlankRun.test(text)) {
    // The match starts where its run starts (the search starts on a
    // non-blank, and a run of two or more matches at its first blank), and
    // is two blanks long or one.
    const end = changedBlankRun.lastIndex;
    const start = end - 2 >= copied && isJsSpace(text.charCodeAt(end - 2)) ? end - 2 : end - 1;
    if (start >= length) break;
    dense = start - copied < DENSE_CHANGES ? dense + 1 : 0;
    if (dense === 4) {
      // Blanks to change every few units (a tab between letters): the rest a unit at a time.
      collapseUnits(pieces, text, copied, length);
      copied = length;
      break;
    }
    let index = start;
    let newline = false;
    while (index < length) {
      const next = text.charCodeAt(index);
      if (!isJsSpace(next)) break;
      if (next === 10) newline = true;
      index++;
    }
    pieces.push(text.slice(copied, start));
    pieces.push(newline ? '\n' : ' ');
    copied = index;
    changedBlankRun.lastIndex = index;
  }
  if (copied === first && first === 0 && length === text.length) return text;
  pieces.push(text.slice(copied, length));
  return pieces.join();
}

/**
 * `collapseWhitespace` switches to `collapseUnits` after four changes in a
 * row each this few units after the last: a tab every two characters made
 * two pieces a tab, 196 ms a MB (round 26's count), where a walk of the
 * units writes a buffer (round 27).
 */
const DENSE_CHANGES = 16;

/**
 * Pushes `text[from, to)` with each run of blanks written as one `\n` when
 * it holds one, else one space (what `collapseWhitespace` makes of it), a
 * unit at a time into `joinBuffer`, a string every `JOIN_BUFFER` units.
 * `from` is no blank inside a run.
 */
function collapseUnits(pieces: PieceJoiner, text: string, from: number, to: number): void {
  let filled = 0;
  // -1: no run open; 32 or 10: the unit the open run becomes.
  let run = -1;
  for (let index = from; index < to; index++) {
    const unit = text.charCodeAt(index);
    if (isJsSpace(unit)) {
      run = run === 10 || unit === 10 ? 10 : 32;
      continue;
    }
    if (run >= 0) {
      joinBuffer[filled++] = run;
      run = -1;
      if (filled === JOIN_BUFFER) filled = flushJoinBuffer(pieces, filled);
    }
    joinBuffer[filled++] = unit;
    if (filled === JOIN_BUFFER) filled = flushJoinBuffer(pieces, filled);
  }
  if (run >= 0) joinBuffer[filled++] = run;
  flushJoinBuffer(pieces, filled);
}

/** Pushes the first `filled` units of `joinBuffer` as a string; 0, what is left in it. */
function flushJoinBuffer(pieces: PieceJoiner, filled: number): number {
  if (filled > 0) {
    pieces.push(
      String.fromCharCode.apply(null, joinBuffer.subarray(0, filled) as unknown as number[]),
    );
  }
  return 0;
}
