import {
  type FilterTriggers,
  registerFilteredHook,
  registerFilterTriggers,
} from '../../core/filtered-hooks';
import {
  foldTextReadings,
  isLetterOrNumber,
  isSeparator,
  lastSpacedUnit,
  leet,
  openBidiEntry,
  openRightToLeftOverride,
  SPACED_SPACE,
  spacedStep,
  withoutLatinDiacritics,
} from '../prompt-injection/fold-text';
import { codePointBefore } from '../shared/invisible-code-points';
import { beforeAllInvisibles, beforeInvisibles } from '../shared/invisible-run';
import { isJsSpace } from '../shared/js-space';
import { isReadThrough } from '../shared/normalize-text';
import {
  countedStart,
  isOwnNormalFormFrom,
  isWhitespaceAt,
  plainView,
  withinLast,
} from '../shared/potential-start';
import {
  isPlainInFlipped,
  plainRunStart,
  plainTurned,
  TURNED_LETTER,
  TURNED_REACH,
} from '../shared/upside-down';
import { entryTrie, type SpacedRunWalk, spacedRunWalker } from './entry-trie';
import { lowerCaseLettersWalk } from './lower-case-letters-pretest';
import { EMPHASIS_MARKERS, emphasisAt, hasEmphasis, withJoinersBlank } from './markdown-emphasis';
import { heldRunReading, readsAsWritten } from './run-letters';
import { BLANK_MARK_CLASS, isBlankMark } from './spelled-blanks';
import { SpelledOutScanner, spelledOutAt } from './spelled-out-scan';

/**
 * `potentialMatchStart` of `contentFilter` for its folded `terms`: the
 * earliest start of a word, among the last words (as many as the longest
 * entry has, a run of one- and two-character tokens counting as one word
 * since the filter reads spaced-out letters as one), from which the folded
 * text is the start of an entry (`kill yo` of `kill yourself`), in either
 * reading the filter uses (leetspeak folded or not). A word of ASCII
 * letters that begins no entry (`the`) is ruled out without folding.
 */
export function contentFilterPotentialStart(
  terms: readonly string[],
  maxMatchLength: number,
  /** Rule out text where no position may begin an entry first (false: for the test that compares). */
  precheck = true,
): (text: string) => number {
  const { onePass, full } = contentFilterHookParts(terms, maxMatchLength);
  const plainRun = trailingRunsHold(terms);
  if (!precheck) return heldFromOpenOverride(heldFromTurnedLetters(full, maxMatchLength, plainRun));
  return heldFromOpenOverride(
    heldFromTurnedLetters(
      text => {
        const start = onePass(text);
        return start < 0 ? full(text) : start;
      },
      maxMatchLength,
      plainRun,
    ),
  );
}

/**
 * The two readings of the last words `contentFilterPotentialStart` chooses
 * from, without what it adds after (turned letters, an open override):
 * `onePass`, one backward pass over them in place (`lastWordsStart`), -1
 * where it leaves the answer to `full`, which reads every candidate (and
 * folds it when it is no ordinary prose). Exported for the test that
 * compares the two where the pass answers.
 */
export function contentFilterHookParts(
  terms: readonly string[],
  maxMatchLength: number,
  /**
   * The most suffixes one call folds (`FOLDS_PER_CALL`); `Infinity` and
   * `solidBound: false` for the test that compares with every one folded,
   * `spacedLetters: false` to fold every spaced letter too,
   * `lowerCaseSuffixes: false` to fold the suffixes that read as
   * themselves in lower case too.
   */
  {
    foldsPerCall = FOLDS_PER_CALL,
    solidBound = true,
    spacedLetters = true,
    lowerCaseSuffixes = true,
  } = {},
): { onePass: (text: string) => number; full: (text: string) => number } {
  const words = terms.reduce((max, term) => Math.max(max, term.split(' ').length), 1);
  // Tries of the entries, built in time and memory linear in their length
  // (a set of every prefix cost its square: a 20,000-character entry, 5 s).
  const entries = entryTrie(terms);
  // Whether the folded text, trimmed and each run of `\s` read as one
  // blank, begins an entry: read in place (a trim and a replace allocated
  // two strings a fold).
  const startsAnEntry = (folded: string) => {
    let end = folded.length;
    while (end > 0 && isJsSpace(folded.charCodeAt(end - 1))) end--;
    let at = 0;
    while (at < end && isJsSpace(folded.charCodeAt(at))) at++;
    if (at === end) return false;
    let node = 0;
    while (at < end) {
      let unit = folded.charCodeAt(at++);
      if (isJsSpace(unit)) {
        while (isJsSpace(folded.charCodeAt(at))) at++;
        unit = 32;
      }
      const child = entries.get(node * 0x10000 + unit);
      if (child === undefined) return false;
      node = child;
    }
    return true;
  };
  const spacedLettersBeginAnEntry = spacedLettersPrefixTest(
    spacedRunWalker(terms, SPACED_PREFIX_UNITS),
  );
  const letterTrie = letterPrefixTrie(terms);
  const lettersBeginAnEntry = letterPrefixTest(letterTrie);
  const beginsAnEntryInLowerCase = lowerCasePrefixTest(terms);
  // A suffix whose folded reading begins an entry reads at most this many units.
  const longest = terms.reduce((max, term) => Math.max(max, term.length), 0);
  // Token starts, reused from one call to the next (the hook runs on every check of a stream).
  const starts: number[] = [];
  // Whether each start may begin an entry by its letters (`lettersBeginAnEntry`), asked once.
  const begins: boolean[] = [];
  const fromCandidates = withinLast(maxMatchLength, text => {
    // Token starts of the last `words` words, latest first (as `mayBeginInLastWords` counts them).
    starts.length = 0;
    let at = text.length;
    let counted = 0;
    let inShortRun = false;
    while (at > 0) {
      while (at > 0 && isWhitespaceAt(text, at - 1)) at--;
      let start = at;
      while (start > 0 && !isWhitespaceAt(text, start - 1)) start--;
      if (start === at) break;
      const short = at - start <= 2;
      if (!(short && inShortRun)) {
        if (counted === words) break;
        counted++;
      }
      inShortRun = short;
      starts.push(start);
      at = start;
    }
    // The filter matches an entry after any character that is no letter or
    // digit, so a word may also begin inside a token, after punctuation
    // (`(shi`, `"shi`, `--shi`): those positions are candidates too (more
    // candidates can only hold back more). Positions after a character
    // that may fold into a letter (a digit, `@`, `$`, `|`, any non-ASCII
    // one) are kept as well: folding decides for them.
    const tokens = starts.length;
    for (let index = 0; index < tokens; index++) {
      const start = starts[index]!;
      for (let at = start + 1; at < text.length && !isWhitespaceAt(text, at); at++) {
        const before = text.charCodeAt(at - 1) | 0x20;
        if (before >= 97 && before <= 122) continue;
        // Inside a run of characters folding reads through (junk, marks),
        // a position reads as the run's end does: only that one is a
        // candidate (round 27: a ZWSP between every two letters made every
        // position one, each folded to the text's end, per check).
        if (before >= 0x80 && insideReadThroughRun(text, at)) continue;
        starts.push(at);
      }
    }
    if (starts.length > tokens) starts.sort((a, b) => b - a);
    // The words that may begin an entry: their letters begin one, or they
    // do not start with plain ASCII letters (folding decides). The earliest
    // is the last one (`starts` runs latest first).
    let from = -1;
    begins.length = starts.length;
    for (let index = 0; index < starts.length; index++) {
      begins[index] = lettersBeginAnEntry(text, starts[index]!);
      if (begins[index]) from = starts[index]!;
    }
    if (from < 0) return text.length;
    // Ordinary prose folds to itself in lower case (see `foldsToLowerCase`),
    // and so does every suffix of it: decided once, on the text from the
    // earliest candidate, and then read in lower case where it stands.
    // (Decided from the start of `from`'s token: a candidate inside a token
    // may follow a digit, which the reading from the token start sees.)
    let tokenStart = from;
    while (tokenStart > 0 && !isWhitespaceAt(text, tokenStart - 1)) tokenStart--;
    const lowerCase = foldsToLowerCaseFrom(text, tokenStart);
    let earliest = text.length;
    // Solid characters from `solidFrom` to the end (`starts` runs latest first, so it only moves back).
    let solidFrom = text.length;
    let solid = 0;
    // Whether a character from `solidFrom` on may read as leetspeak (`mayReadAsLeet`).
    let leetFrom = false;
    // The start of the last run found of ASCII digits and `@ $ |` in no word with a letter (`numberRunStart`).
    let numberFrom = text.length;
    let folds = 0;
    for (let index = 0; index < starts.length; index++) {
      const start = starts[index]!;
      // Every later candidate stands before this one: it too is before
      // `from`, or has at least as many solid letters after it (round 41:
      // they were each asked, and ruled out, one by one).
      if (start < from || (!lowerCase && solidBound && solid > longest)) break;
      while (solidFrom > start) {
        const code = text.charCodeAt(--solidFrom);
        if (isSolidLetter(code)) solid++;
        else if (!leetFrom && mayReadAsLeet(code)) {
          // A number of its own (`2024`, `15:30`) reads the same either way
          // (round 32: a digit after a candidate folded it twice).
          if (code >= 0x80 || solidFrom < numberFrom) {
            const from = code < 0x80 ? numberRunStart(text, solidFrom) : -1;
            if (from < 0) leetFrom = true;
            else numberFrom = from;
          }
        }
      }
      if (!begins[index]) continue;
      if (lowerCase) {
        if (beginsAnEntryInLowerCase(text, start)) earliest = start;
        continue;
      }
      // Each solid letter folds to a character of its own that is no blank,
      // in either reading: a suffix with more of them than the longest entry
      // has units reads longer than any entry, and begins none. Only the
      // candidates among the last `longest` solid letters are folded (round
      // 29: a token of Cyrillic or CJK letters made every position a
      // candidate, each folded to the text's end: quadratic in
      // `maxMatchLength`, 135 ms a call at 1,600).
      if (solidBound && solid > longest) continue;
      // Past the budget the earliest candidate is the answer: it holds back
      // as much as any could (a token of Thai, Devanagari, digits or symbols
      // without blanks, whose letters the bound above does not count).
      if (folds++ === foldsPerCall) return from;
      // A unit standing before a blank and another unit (a spaced run,
      // `q x b a`, `4 b 3 $`): its first units read one of a few ways in
      // every fold, and most runs begin no entry (round 39: up to 24 folds a call, 33 µs, on
      // random spaced letters). Counted in the budget all the same.
      if (spacedLetters && !spacedLettersBeginAnEntry(text, start)) continue;
      // A suffix from a token start that folds to itself in lower case
      // (`foldsToLowerCaseFrom`: the last units of a spaced run, too few
      // to be joined, `k i`) is read so in place, as `lowerCase` texts
      // are (round 41: about one fold a call on spaced letters, of two
      // characters on average).
      if (
        lowerCaseSuffixes &&
        (start === 0 || isWhitespaceAt(text, start - 1)) &&
        foldsToLowerCaseFrom(text, start)
      ) {
        if (beginsAnEntryInLowerCase(text, start)) earliest = start;
        continue;
      }
      // One fold gives both readings, the second folded only when a leet
      // character reached the fold's word step (`foldTextReadings`, round
      // 40; before, the hook folded twice wherever `leetFrom`). Without a
      // character that may read as leetspeak both readings are one (round
      // 31: the second fold was half the cost of a check of Cyrillic prose),
      // and a number standing alone (`2024`), which `foldTextReadings` counts
      // as read, reads the same in both: `leetFrom` rules those out.
      const readings = foldTextReadings(text.slice(start));
      if (startsAnEntry(readings.folded) || (leetFrom && startsAnEntry(readings.plain()))) {
        earliest = start;
      }
    }
    return earliest;
  });
  const bound = maxMatchLength;
  return {
    // The last `maxMatchLength` characters, as `withinLast` hands them, read in place.
    onePass: text =>
      lastWordsStart(text, text.length > bound ? countedStart(text, bound) : 0, words, letterTrie),
    full: fromCandidates,
  };
}

/**
 * `hook`, holding back too what an upside-down region (`upsideDownRegions`
 * in shared/upside-down, which `foldText` reads turned back) may still take
 * in or change. `foldText` reads such a region reversed (`ɟlǝsɹnoʎ llıʞ` is
 * `kill yourself`): an entry's start arrives last, so the forward reading
 * of the text's end, which the hook judges, says nothing of it (round 25).
 * Whether a stretch reads turned is decided within `TURNED_REACH` counted
 * characters of it (round 26; before, three kinds of turned letter anywhere
 * turned all the text, which a window could not see), so when a turned
 * letter stands among the last `maxMatchLength + 2 × TURNED_REACH` counted
 * characters, they are held: a match and what decides it on either side
 * are then judged in one check. Else a turned letter still to come may
 * only read back over the plain letters flipped writing keeps that end the
 * text (`no` of `noʎ`): those are held when, read turned, they end an entry
 * (`plainRunHold`).
 */
function heldFromTurnedLetters(
  hook: (text: string) => number,
  maxMatchLength: number,
  plainRun: (text: string) => number,
): (text: string) => number {
  const reach = maxMatchLength + 2 * TURNED_REACH;
  return text => {
    const from = text.length > reach ? countedStart(text, reach) : 0;
    // `hook` reads only the last `maxMatchLength` counted characters, so it
    // never holds from before `from`: with a turned letter after it, `from`
    // is the answer, and the hook is not asked (round 28: it folded the text
    // from every position after a turned letter, each to the end, about
    // `maxMatchLength` folds a check, most of the cost of streaming it).
    TURNED_LETTER.lastIndex = from;
    if (TURNED_LETTER.test(text)) return from;
    return Math.min(hook(text), plainRun(text));
  };
}

/** The earlier of `plainRunHold` and `spelledRunHold`: runs ending the text that more text may complete. */
function trailingRunsHold(terms: readonly string[]): (text: string) => number {
  const plainRun = plainRunHold(terms);
  const spelledRun = spelledRunHold(terms);
  return text => Math.min(plainRun(text), spelledRun(text));
}

/**
 * Where a run of single units ending `text` (`k i`, `k.i.l`, `k  i`: units
 * one separator, or two or three blanks, apart) must be held (round 38,
 * issue 16): more text may make it a run `foldText` joins (four units or
 * more), or end it before its last unit (a letter after `n` makes `n` the
 * start of a word: `k i l l  y o u r s e l f n` is `kill yourself now`),
 * or cut its words at a space (`k.i.l.l y`). It is held from a unit of
 * the run (any: since round 44 contentFilter reads an entry inside a run,
 * `spelled-run-entries.ts`) when the units from it, joined as the check
 * may read them (each step as nothing or a blank: `spacedRunWalker`),
 * begin an entry, with or without the last unit (without it only when the run has
 * four units before it), or when a unit from it is no ASCII letter (a
 * digit or `@ $ |` may read as leetspeak, a letter beyond ASCII may fold).
 * Before, the hook judged the run's last units as words, so `k ` of `k i`
 * went out and `l l  y o u r s e l f` then made the filter block.
 * `text.length` when there is no such run or its letters begin no entry
 * (`x y`, `a b`). The bound: the run's last `longest entry + 2` units are
 * read, and held at most (beyond those no joined reading begins an entry);
 * past `SPELLED_RUN_UNITS` units they are held without reading further.
 *
 * It reads the text as `heldRunReading` writes it, and (round 46, issue
 * 16) only the tail it reads is written so: before, the whole text was,
 * on every call, though the hold reads a few units back from the end.
 * The tail is the last `FIRST_TAIL` units (round 47), then the last
 * `8 × limit + 16` (round 46's first), then four times as many each time
 * the reading reached its first unit (`readStart`), until it is the whole
 * text: the reading of the
 * tail is the tail of the reading (`heldRunReading`: a tail never begins
 * between the halves of a pair), every unit the hold reads lies one before
 * a position the reading back (`readThrough`, the only way it moves back)
 * gave, and while that position is never the tail's start, each reading
 * back stopped at a unit of the tail, as in the whole text: the answer is
 * the same. A tail the reading leaves as written (`readsAsWritten`) is
 * read in place, in the text itself, with its start as `readFloor`: a
 * reading back that gives it or a position before it is noted as the
 * tail's start (what lies before it may read otherwise), and the units read
 * until then are the tail's own. `spelled-run-tail.test.ts` compares both
 * on seeded texts. Linear: at most 4/3 of the text is read or written a
 * call (a tail of invisible characters the hold reads through), and the
 * hold's own reading is as before.
 */
export function spelledRunHold(
  terms: readonly string[],
  /** `wholeText`: write the whole text, as before round 46 (for the test that compares). */
  { wholeText = false } = {},
): (text: string) => number {
  const reach = terms.reduce((max, term) => Math.max(max, term.length), 0) + 2;
  const limit = Math.min(reach, SPELLED_RUN_UNITS);
  // Readings of at most `limit` units (`spacedRunWalker`, shared with the hook's pre-test).
  const walk = spacedRunWalker(terms, limit);
  // The run's unit positions, latest first (every step between two reads
  // as nothing or a blank, whatever its kind: `SpacedRunWalk`).
  const units = new Int32Array(limit);
  // `tail`: `text` is a tail (or read as one from `readFloor`), whose answer
  // is dropped once the reading back reached its start (`readStart`): the
  // reading stops there (round 47: it read the run on, then again in a
  // longer tail).
  const holdIn = (text: string, tail: boolean): number => {
    const length = text.length;
    let first = lastSpacedUnit(text, readThrough);
    if (first < 0 || (tail && readStart)) return length;
    units[0] = first;
    let count = 1;
    let reachedStart = false;
    for (;;) {
      const step = spacedStep(text, first, -1, readThrough);
      if (tail && readStart) return length;
      if (step < 0) {
        reachedStart = true;
        break;
      }
      if (count === limit) {
        // Fails closed: a run longer than the reading bound, for entries longer still.
        if (reach > SPELLED_RUN_UNITS) return first;
        break;
      }
      first = step >> 2;
      units[count++] = first;
    }
    // The run starts at a unit standing alone (no letter or digit before
    // it, invisible characters read through), as `foldText` joins runs.
    while (reachedStart && first > 0) {
      const before = readThrough(text, first);
      if (tail && readStart) return length;
      if (before <= 0 || !isLetterOrNumber(text.charCodeAt(before - 1))) break;
      if (--count === 0) return length;
      first = units[count - 1]!;
    }
    // Whether the run may end before its last unit and still be joined: four units before it.
    const withoutLast = !reachedStart || count > 4;
    // Any unit read may begin an entry (round 44: one is read inside a run).
    for (let from = count - 1; from >= 0; from--) {
      walk.begin();
      let live = true;
      for (let index = from; index >= 0 && live; index--) {
        if (index < from) {
          if (index === 0 && withoutLast) return units[from]!;
          live = walk.step();
        }
        const code = text.charCodeAt(units[index]!);
        const lower = code | 0x20;
        if (code >= 0x80 || lower < 97 || lower > 122) return units[from]!;
        live = walk.unit(lower);
      }
      if (live) return units[from]!;
    }
    return length;
  };
  // The tail read after the first (round 46's first): a run the first reads
  // past is read whole in it, not in 64 units first (three readings of it).
  const secondTail = 8 * limit + 16;
  return written => {
    // The blanks NFKC writes as a space read as one (the fold joins `s\u00a0e`
    // as `s e`, the walk would end the run there and release it; one
    // character for one, so positions hold), and since round 45 tabs and
    // line breaks (the check's second reading). A letter the fold reads
    // only once folded (`𝐤`, `🅚`, `⒦`) reads as that letter (round 45:
    // `run-letters.ts`).
    readFloor = 0;
    if (wholeText) return holdIn(heldRunReading(written), false);
    for (let tail = FIRST_TAIL; ; tail = tail === FIRST_TAIL ? secondTail : tail * 4) {
      let cut = written.length - tail;
      if (cut <= 0) {
        readFloor = 0;
        return holdIn(heldRunReading(written), false);
      }
      // Never between the halves of a pair (it reads as one unit of a run;
      // a lone half is read through, to the tail's start: a longer tail).
      const unit = written.charCodeAt(cut);
      if (unit >= 0xdc00 && unit <= 0xdfff) {
        const high = written.charCodeAt(cut - 1);
        if (high >= 0xd800 && high <= 0xdbff) cut--;
      }
      readStart = false;
      // A tail the reading writes as itself (nearly every check of prose)
      // is read in place: the same units, the tail's start noted at `cut`.
      if (readsAsWritten(written, cut)) {
        readFloor = cut;
        const held = holdIn(written, true);
        if (!readStart) return held;
        continue;
      }
      readFloor = 0;
      const held = holdIn(heldRunReading(written.slice(cut)), true);
      if (!readStart) return cut + held;
    }
  };
}

/**
 * The first tail `spelledRunHold` reads (round 47, issue 16): on prose the
 * hold reads two or three units back from the end; a run it reads further
 * is read again in round 46's first tail, `8 × (longest entry + 2) + 16`
 * units (184 for the default lists), which was written on every check.
 */
const FIRST_TAIL = 16;

/** Whether `readThrough` gave a position at or before `readFloor` since it was last set false (`spelledRunHold`'s tail). */
let readStart = false;

/** Where the tail being read starts in the text read (0: a written tail, its own text; set before each read). */
let readFloor = 0;

/**
 * `beforeAllInvisibles`, noting when it gives the tail's start or a
 * position before it (`readStart`). A plain function: no closure a call.
 * A tail read in place (`readFloor` > 0) is read back no further than its
 * start (round 47 review: a run of invisible characters that reads as
 * written, U+2060, was read back to the text's start on every longer tail);
 * past it the answer is noted and thrown away, so any position at or before
 * `at` and the floor serves.
 */
function readThrough(text: string, at: number): number {
  if (readFloor === 0) {
    const start = beforeAllInvisibles(text, at);
    if (start === 0) readStart = true;
    return start;
  }
  const start = beforeInvisibles(text, at, Math.max(0, at - readFloor));
  if (start >= 0 && start > readFloor) return start;
  readStart = true;
  return start >= 0 ? start : Math.min(at, readFloor);
}

/** The most units of a spelled-out run `spelledRunHold` reads (entries longer than this hold the run unread). */
const SPELLED_RUN_UNITS = 64;

/**
 * Where the plain letters of flipped writing that end `text`
 * (`isPlainInFlipped`, `no` of `noʎ`) must be held: a turned letter still
 * to come may make them the end of a region, read last and turned (`no`
 * read as `ou`), and they are held from the earliest of them from which
 * that reading ends an entry (`kill you`). `text.length` when none does.
 */
export function plainRunHold(terms: readonly string[]): (text: string) => number {
  // The entries read backward, as a trie: children.get(node * 0x10000 + unit).
  const children = entryTrie(terms, true);
  return text => {
    const end = text.length;
    if (end === 0) return end;
    const last = text.charCodeAt(end - 1);
    // Nearly every check: the text ends with no such letter (and nothing read through).
    if (last < 0x80 && !isPlainInFlipped(last)) return end;
    const start = plainRunStart(text, end);
    for (let from = start; from < end; from++) {
      const first = text.charCodeAt(from);
      if (!isPlainInFlipped(first)) continue;
      let node = 0;
      for (let at = from; at < end && node >= 0; at++) {
        const unit = text.charCodeAt(at);
        if (!isPlainInFlipped(unit)) continue; // read through
        node = children.get(node * 0x10000 + plainTurned(unit)) ?? -1;
      }
      if (node >= 0) return from;
    }
    return end;
  };
}

/**
 * `hook`, holding back too a right-to-left override still open at the
 * text's end, from its U+202E (round 24): `foldText` reads the stretch
 * after it reversed, as the screen shows it, so what ends the text is the
 * start of that reading, which more text extends. And an explicit
 * bidirectional entry still open (`openBidiEntry`: LRE, RLE, LRO, RLO, LRI,
 * RLI or FSI that no PDF or PDI closed), from the bottom one: what later
 * controls do depends on it. Each is held until a PDF or PDI closes it, a
 * paragraph break or a blank line ends its paragraph, or the part ends,
 * where the window judges it whole, like an open PEM block. A single line
 * break does not end it (round 27): Markdown joins the lines of a
 * paragraph, so both `openRightToLeftOverride` and `openBidiEntry` read
 * the text as it is and with its soft breaks as spaces. A long stretch is
 * never released in part (before round 24, the hook read only the last
 * `maxMatchLength` characters, so `\u202e` + 200 characters +
 * `flesruoy llik` streamed out).
 */
function heldFromOpenOverride(hook: (text: string) => number): (text: string) => number {
  return text => {
    const start = hook(text);
    const open = openRightToLeftOverride(text);
    const entry = openBidiEntry(text);
    const held = open < 0 || (entry >= 0 && entry < open) ? entry : open;
    return held >= 0 && held < start ? held : start;
  };
}

/**
 * `contentFilterPotentialStart` of a text that `contentFilterMayMatch`
 * ruled out (it, or a text it is part of: see `core/filtered-hooks`), for
 * `window` mode's checks of prose, where nearly every call holds nothing
 * back. Such a text has no leetspeak character and no spelled-out run
 * (but perhaps one at its first character, whose left neighbour it does
 * not hold), so when its last `maxMatchLength` characters are ASCII the
 * hook reads them in lower case (`foldsToLowerCaseFrom`), and its answer is
 * the earliest position the hook considers (a token start, or a position
 * inside a token after a character that is no ASCII letter) from which
 * that reading is the start of an entry. Those positions are found by one
 * backward walk from the last non-blank character through a trie of the
 * entries' prefixes read backward, which stops as soon as the text's end
 * is no part of any prefix: a few characters on prose, where the hook
 * reads its last words forward and backward. Other texts go to `hook`.
 */
export function contentFilterPotentialStartFiltered(
  terms: readonly string[],
  maxMatchLength: number,
  hook: (text: string) => number,
): (text: string) => number {
  const start = filteredStart(terms, maxMatchLength, hook);
  return start === undefined ? hook : text => start(text, false);
}

/**
 * The filtered hook and its `FusedHook` (`core/filtered-hooks`): a text
 * window mode's one scan ruled out with this filter's triggers holds
 * nothing beyond printable ASCII, tabs and line breaks, and none of the
 * leetspeak characters they flag, so the fused hook skips that search.
 */
export function contentFilterFilteredHooks(
  terms: readonly string[],
  maxMatchLength: number,
  hook: (text: string) => number,
): { filtered: (text: string) => number; fused: (text: string, noted: boolean) => number } {
  const start = filteredStart(terms, maxMatchLength, hook);
  return start === undefined
    ? { filtered: hook, fused: hook }
    : { filtered: text => start(text, false), fused: text => start(text, true) };
}

function filteredStart(
  terms: readonly string[],
  maxMatchLength: number,
  hook: (text: string) => number,
): ((text: string, scanned: boolean) => number) | undefined {
  const reversed = reversedPrefixTrie(terms);
  if (reversed === undefined) return undefined;
  // Plain letters of flipped writing, or a short spelled-out run, ending the
  // text (`trailingRunsHold`, which `hook` has).
  const plainRun = trailingRunsHold(terms);
  return (text, scanned) => {
    const from = text.length > maxMatchLength ? text.length - maxMatchLength : 0;
    // What the hook reads in lower case: ASCII without leetspeak or other controls than blanks.
    if (!scanned) {
      NOT_LOWER_CASE_READING.lastIndex = from;
      if (NOT_LOWER_CASE_READING.test(text)) return hook(text);
      // A spelled-out run the filter read around (round 43: it rules out
      // runs that spell no entry): the full hook reads it. One that starts
      // before `from` and reaches it starts at most seven characters before
      // and deletes a separator at most two after its match. (The one scan
      // rules out none: its triggers flag every letter a run starts at.)
      SPELLED_OUT_ALL.lastIndex = from > 9 ? from - 9 : 0;
      if (SPELLED_OUT_ALL.test(text)) return hook(text);
    }
    // A spelled-out run at the first character read (the filter saw the one before it).
    const second = text.charCodeAt(from + 1);
    if (isSeparator(second) || isBlankMark(second)) {
      SPELLED_OUT_START.lastIndex = from;
      if (SPELLED_OUT_START.test(text)) return hook(text);
    }
    let end = text.length;
    while (end > from && isAsciiBlank(text.charCodeAt(end - 1))) end--;
    // A run of blanks reads as one: when the walk reaches `from` through
    // one, the text before `from` may still begin an entry, and the full
    // hook reads it so (round 37: `kill`, 1,000 spaces, `yourself` went out
    // whole).
    let runs = end < text.length - 1;
    let earliest = text.length;
    let node = 0;
    let at = end - 1;
    while (at >= from) {
      const code = text.charCodeAt(at);
      let unit: number;
      let next = at - 1;
      if (isAsciiBlank(code)) {
        unit = 32;
        while (next >= from && isAsciiBlank(text.charCodeAt(next))) next--;
        if (next < at - 1) runs = true;
      } else {
        unit = code >= 65 && code <= 90 ? code | 0x20 : code;
      }
      const column = reversed.columns[unit]!;
      if (column < 0) break;
      node = reversed.children[node * reversed.width + column]! - 1;
      if (node < 0) break;
      // The text from `at` reads as an entry's prefix: held if the hook considers `at`.
      if (reversed.prefix[node] === 1) {
        const before = at === from ? 0x20 : text.charCodeAt(at - 1) | 0x20;
        if (before < 97 || before > 122) earliest = at;
      }
      at = next;
    }
    if (at < from && from > 0 && runs) return hook(text);
    return Math.min(earliest, plainRun(text));
  };
}

/** The most cells of the filtered hook's table (4 MB); the built-in lists take about 76,000. */
const TRIE_CELLS = 1 << 20;

/** What the filtered hook leaves to the full one: beyond ASCII, leetspeak characters, and controls other than blanks. */
const NOT_LOWER_CASE_READING = /[^\t-\r -#%-/:-?A-{}~]/g;

function isAsciiBlank(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}

/**
 * The entries' prefixes read backward, in ASCII units (an entry's
 * characters beyond ASCII end its prefixes there: ASCII text never reads
 * them): `children[node * width + columns[unit]]` is a child + 1 (0: none;
 * `columns[unit]` is -1 for a unit no entry has), `prefix[node]` is 1 where
 * the units read so far, reversed, are a prefix of an entry. Node 0 is the
 * root. Undefined when the table could take more than `TRIE_CELLS` cells
 * (thousands of long entries): the filtered hook is then the full one.
 */
function reversedPrefixTrie(terms: readonly string[]) {
  const columns = new Int16Array(0x80).fill(-1);
  let width = 0;
  // At most a node per character of every prefix read backward.
  let bound = 1;
  const units = new Set<number>();
  for (const term of terms) {
    bound += (term.length * (term.length + 1)) / 2;
    for (let at = 0; at < term.length; at++) units.add(term.charCodeAt(at));
  }
  if (bound * units.size > TRIE_CELLS) return undefined;
  const nodes: Array<Map<number, number>> = [new Map()];
  const prefix: number[] = [0];
  for (const term of terms) {
    let ascii = 0;
    while (ascii < term.length && term.charCodeAt(ascii) < 0x80) ascii++;
    for (let end = 1; end <= ascii; end++) {
      // A prefix ending in a blank is never read: the hook leaves trailing blanks out.
      if (term.charCodeAt(end - 1) === 32) continue;
      let node = 0;
      for (let at = end - 1; at >= 0; at--) {
        const unit = term.charCodeAt(at);
        if (columns[unit] === -1) columns[unit] = width++;
        let child = nodes[node]!.get(unit);
        if (child === undefined) {
          child = nodes.length;
          nodes.push(new Map());
          prefix.push(0);
          nodes[node]!.set(unit, child);
        }
        node = child;
      }
      prefix[node] = 1;
    }
  }
  const children = new Int32Array(nodes.length * width);
  nodes.forEach((next, node) => {
    for (const [unit, child] of next) children[node * width + columns[unit]!] = child + 1;
  });
  return { columns, width, children, prefix: Uint8Array.from(prefix) };
}

/**
 * `contentFilterPotentialStart`'s answer when one backward pass over the
 * last words decides it, else -1 (the full hook decides). It asks whether
 * any position the hook considers in `text.slice(from)` may begin an entry
 * by its letters (`letterPrefixTest` there): the start of each of the last
 * `words` words (a run of one- and two-character tokens counting as one)
 * and each position inside one of them after a character that is no ASCII
 * letter. Nearly every check of prose has none: then nothing is held back
 * (`text.length`). When the only one is the start of a last word of ASCII
 * letters that ends the text (`the m`, a word cut by the delta), that word
 * reads as itself in lower case, and it begins an entry: its start.
 *
 * Such a position whose character is no ASCII letter folds (it may
 * begin); one that begins a run of ASCII letters is judged by the run: it
 * may begin when a non-ASCII character follows the run, else when its
 * letters (in lower case) are a path of `trie` from the root. Every run of
 * ASCII letters in a word begins at such a position (the word's start, or
 * after a character that is no ASCII letter), so the pass judges every
 * run it reads, each character once.
 */
function lastWordsStart(text: string, from: number, words: number, trie: LetterTrie): number {
  let at = text.length;
  let counted = 0;
  let inShortRun = false;
  // The start of the last word, when it alone may begin an entry so far.
  let only = text.length;
  while (at > from) {
    // Skip the whitespace before `at`.
    while (at > from && isBlank(text, at - 1)) at--;
    if (at === from) break;
    // The word ending at `at`, read backward. `runEnd`: the end of the run
    // of ASCII letters being read (where the character after it stands).
    let start = at;
    let runEnd = at;
    let begins = false;
    let previousIsLetter = false;
    let allLetters = true;
    while (start > from) {
      const code = text.charCodeAt(start - 1);
      if (code < 0x80 ? code === 32 || (code >= 9 && code <= 13) : isWhitespaceAt(text, start - 1))
        break;
      start--;
      const lower = code | 0x20;
      if (lower >= 97 && lower <= 122) {
        if (!previousIsLetter) runEnd = start + 1;
        previousIsLetter = true;
        // The run begins here when what stands before it is no ASCII letter (or the word begins).
        if (!begins && start > from) {
          const before = text.charCodeAt(start - 1) | 0x20;
          if (before >= 97 && before <= 122) continue;
        }
        if (!begins) begins = runBeginsAnEntry(text, start, runEnd, trie);
      } else {
        // A position after this character, inside the word, that is no ASCII letter itself.
        if (!previousIsLetter && start + 1 < at) begins = true;
        previousIsLetter = false;
        allLetters = false;
      }
    }
    // The word's first character is no ASCII letter: folding decides.
    if (!previousIsLetter) begins = true;
    const short = at - start <= 2;
    if (!(short && inShortRun)) {
      if (counted === words) break;
      counted++;
    }
    if (begins) {
      // The last word, ASCII letters to the end of the text: the only one so far.
      if (at === text.length && allLetters) only = start;
      else return -1;
    }
    inShortRun = short;
    at = start;
  }
  return only;
}

/**
 * Whether the text from `start`, a unit followed by a blank and a unit
 * (`k i l`, `k 1 l`), may fold to the start of an entry, decided on its
 * first `SPACED_PREFIX_UNITS` units (`true` for any other text: folding
 * decides). Units of ASCII (letters, digits, leet characters) one blank
 * apart (`spacedStep`'s `SPACED_SPACE`), each followed by another, a blank
 * or the text's end (so that nothing composes with one), fold in both
 * readings to themselves in lower case or, for a leet character, to its
 * letter (`leet`; markup, bidi controls and turned letters around them add
 * readings after the first or change other characters), and each blank
 * between two of them either stays a blank or, when `foldText` joins the
 * run, is read as nothing: the fold starts with one of those readings, and
 * begins an entry only if one of them does (`spacedRunWalker`, the walker
 * `spelledRunHold` reads runs with, over `walk`). 0 differences from
 * folding on 101,135 texts (round 39, hP); round 40 moved the walk to the
 * shared walker and the step to `spacedStep`, whose units leave out `|`,
 * `2`, `6` and `9` (the walk then stops before them and folding decides).
 */
function spacedLettersPrefixTest(walk: SpacedRunWalk): (text: string, start: number) => boolean {
  return (text, start) => {
    if (!isSpacedAsciiUnit(text, start)) return true;
    let step = asciiSpaceStep(text, start);
    if (step < 0) return true;
    walk.begin();
    let at = start;
    for (let left = SPACED_PREFIX_UNITS - 1; ; left--) {
      const code = text.charCodeAt(at);
      const lower = code | 0x20;
      const letter = lower >= 97 && lower <= 122;
      if (!walk.unit(letter ? lower : code, letter ? 0 : LEET_LETTER[code]!)) return false;
      if (left === 0 || step < 0) return true;
      walk.step();
      at = step;
      step = asciiSpaceStep(text, at);
    }
  };
}

/** The unit after the one at `at` when `spacedStep` steps to it over one blank and it is `isSpacedAsciiUnit`; else -1. */
function asciiSpaceStep(text: string, at: number): number {
  const step = spacedStep(text, at, 1);
  if (step < 0 || (step & 3) !== SPACED_SPACE) return -1;
  return isSpacedAsciiUnit(text, step >> 2) ? step >> 2 : -1;
}

/** The units of a spaced run `spacedLettersPrefixTest` reads at most. */
const SPACED_PREFIX_UNITS = 4;

/** The letter `foldText` may read an ASCII leetspeak character as (`leet`), by code; 0: none. */
const LEET_LETTER = new Uint8Array(128);
for (const [from, to] of Object.entries(leet)) LEET_LETTER[from.charCodeAt(0)] = to.charCodeAt(0);

function isSpacedAsciiCode(code: number): boolean {
  const lower = code | 0x20;
  return (lower >= 97 && lower <= 122) || (code >= 48 && code <= 57) || LEET_LETTER[code]! > 0;
}

/** An ASCII letter, digit or leet character at `at` followed by another, a blank, a line break or the text's end. */
function isSpacedAsciiUnit(text: string, at: number): boolean {
  if (at >= text.length || !isSpacedAsciiCode(text.charCodeAt(at))) return false;
  if (at + 1 >= text.length) return true;
  const next = text.charCodeAt(at + 1);
  return next === 32 || next === 9 || next === 10 || next === 13 || isSpacedAsciiCode(next);
}

/**
 * The most suffixes `contentFilterPotentialStart` folds in one call (two
 * readings each); the default lists need at most their longest entry's
 * letters (19), and a token of letters other than `isSolidLetter`'s one
 * per position.
 */
const FOLDS_PER_CALL = 24;

/**
 * Letters whose `foldText` is, in any text around them and in both
 * readings (leetspeak folded or not), at least one character that is no
 * blank and that no neighbour folds into: ASCII and Latin-1 letters, basic
 * Greek, Cyrillic, Hebrew and Arabic letters, kana, CJK ideographs and
 * Hangul syllables. Normalisation (NFKC) keeps them letters (a combining
 * mark after one may compose with it, the letter stays; none of them
 * composes with another), lower case, diacritics, homoglyphs, look-alike
 * and small-capital tables map a letter to letters, folding removes only
 * characters read through, fillers and separators, and the second
 * readings (an override, turned text, look-alike words) are added after
 * the first. Exported for the test that checks each.
 */
export function isSolidLetter(code: number): boolean {
  if (code < 0x80) return (code | 0x20) >= 97 && (code | 0x20) <= 122;
  if (code < 0x400)
    return code < 0x100
      ? code >= 0xc0 && code !== 0xd7 && code !== 0xf7
      : (code >= 0x391 && code <= 0x3a9 && code !== 0x3a2) || (code >= 0x3b1 && code <= 0x3c9);
  if (code < 0x800)
    return (
      code <= 0x45f ||
      (code >= 0x5d0 && code <= 0x5ea) ||
      (code >= 0x621 && code <= 0x63a) ||
      (code >= 0x641 && code <= 0x64a)
    );
  return (
    (code >= 0x3041 && code <= 0x3096) ||
    (code >= 0x30a1 && code <= 0x30fa) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xac00 && code <= 0xd7a3)
  );
}

/**
 * Whether `code` may make `foldText`'s two readings (leetspeak folded or
 * not) differ: they differ only where the text, normalised, holds an ASCII
 * leetspeak character (`0-9 @ $ |`; `leet` in fold-text) in a word. Every
 * other ASCII character, and every `isSolidLetter` (which normalises and
 * folds to letters only), is ruled out; any other character may normalise
 * to one (fullwidth or superscript digits, `﹫`), so it is not.
 */
export function mayReadAsLeet(code: number): boolean {
  if (code < 0x80)
    return (code >= 0x30 && code <= 0x39) || code === 0x40 || code === 0x24 || code === 0x7c;
  return !isSolidLetter(code);
}

/**
 * The start of the run of ASCII digits and `@ $ |` holding `at`, when
 * `foldText` reads it the same with leetspeak folded and not: the
 * characters on either side of the run (if any) are printable ASCII that
 * no word takes (a blank, punctuation), or a tab or line break. Such a run
 * is a word of its own (`wordToken`) with no letter, which leetspeak leaves
 * as it is; nothing removes or changes those neighbours (normalising keeps
 * printable ASCII), so no letter joins it. -1 otherwise. Reads the run
 * once; its other characters need not be asked again.
 */
export function numberRunStart(text: string, at: number): number {
  let end = at + 1;
  while (end < text.length && isNumberUnit(text.charCodeAt(end))) end++;
  if (end < text.length && !isWordBound(text.charCodeAt(end))) return -1;
  let start = at;
  while (start > 0 && isNumberUnit(text.charCodeAt(start - 1))) start--;
  if (start > 0 && !isWordBound(text.charCodeAt(start - 1))) return -1;
  return start;
}

/** An ASCII digit or one of the symbols a word takes (`@ $ |`). */
function isNumberUnit(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || code === 0x40 || code === 0x24 || code === 0x7c;
}

/** Printable ASCII that no word takes (not a letter, digit or `@ $ |`), a tab or a line break. */
function isWordBound(code: number): boolean {
  if (code === 9 || code === 10 || code === 13) return true;
  if (code < 0x20 || code > 0x7e || isNumberUnit(code)) return false;
  const lower = code | 0x20;
  return lower < 97 || lower > 122;
}

/** `\s` at `at` (ASCII inline, else `isWhitespaceAt`). */
function isBlank(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  return code < 0x80 ? code === 32 || (code >= 9 && code <= 13) : isWhitespaceAt(text, at);
}

/**
 * Whether the run of ASCII letters `text[start, end)` may begin an entry: a
 * non-ASCII character follows it (folding decides), or its letters in lower
 * case are a path of `trie` (what `letterPrefixTest` decides at `start`).
 */
function runBeginsAnEntry(text: string, start: number, end: number, trie: LetterTrie): boolean {
  if (end < text.length && text.charCodeAt(end) >= 0x80) return true;
  const { row, rows, only, onlyChild } = trie;
  let node = 0;
  for (let at = start; at < end; at++) {
    const letter = (text.charCodeAt(at) | 0x20) - 96;
    const dense = row[node]!;
    node =
      dense >= 0 ? rows[dense + letter - 1]! - 1 : only[node] === letter ? onlyChild[node]! : -1;
    if (node < 0) return false;
  }
  return true;
}

/**
 * Whether the word at `start` may begin an entry: its leading ASCII letters
 * (in lower case) are in `prefixes`, decided on the characters (no string
 * built) by a walk of a trie of the prefixes made of letters only; or it
 * has none, or a non-ASCII character follows them, and folding decides.
 * When the character after the letters is ASCII (or there is none),
 * nothing can compose with them (a combining mark), fold them (homoglyphs
 * and leetspeak change only other characters) or join them with what
 * follows (spelled-out runs start at a letter standing alone, and then it
 * stays first), so the folded text starts with them in lower case.
 */
function letterPrefixTest(trie: LetterTrie): (text: string, start: number) => boolean {
  const { row, rows, only, onlyChild } = trie;
  return (text, start) => {
    let node = 0;
    let end = start;
    for (; end < text.length; end++) {
      const lower = text.charCodeAt(end) | 0x20;
      if (lower < 97 || lower > 122) break;
      if (node < 0) continue;
      const dense = row[node]!;
      node =
        dense >= 0
          ? rows[dense + lower - 97]! - 1
          : only[node] === lower - 96
            ? onlyChild[node]!
            : -1;
    }
    // No leading ASCII letters, or letters a non-ASCII character may fold with: folding decides.
    if (end === start || (end < text.length && text.charCodeAt(end) >= 0x80)) return true;
    return node >= 0;
  };
}

/**
 * The trie of the entries' prefixes made of ASCII letters only (node 0 is
 * the root). A node with two children or more (or the root) has a row of 26
 * cells, `rows[row[node] + letter]` = child + 1 (0: none); any other node
 * has `row[node]` -1 and at most one child, `onlyChild[node]` under the
 * letter `only[node] - 1` (`only` 0: none). Memory is linear in the
 * letters (rows for every node took 104 bytes a letter: 1 GB for a
 * 10,000,000-letter entry), and so is the time to build it.
 */
interface LetterTrie {
  row: Int32Array;
  rows: Int32Array;
  only: Uint8Array;
  onlyChild: Int32Array;
}

function letterPrefixTrie(terms: readonly string[]): LetterTrie {
  // children.get(node * 26 + letter) = child first, then laid out.
  const children = new Map<number, number>();
  let nodes = 1;
  for (const term of terms) {
    let node = 0;
    for (let at = 0; at < term.length; at++) {
      const code = term.charCodeAt(at);
      if (code < 97 || code > 122) break;
      const key = node * 26 + code - 97;
      let child = children.get(key);
      if (child === undefined) {
        child = nodes++;
        children.set(key, child);
      }
      node = child;
    }
  }
  const counts = new Uint8Array(nodes);
  for (const key of children.keys()) counts[Math.floor(key / 26)]!++;
  const row = new Int32Array(nodes).fill(-1);
  let dense = 0;
  for (let node = 0; node < nodes; node++) {
    if (node === 0 || counts[node]! > 1) row[node] = 26 * dense++;
  }
  const rows = new Int32Array(dense * 26);
  const only = new Uint8Array(nodes);
  const onlyChild = new Int32Array(nodes);
  for (const [key, child] of children) {
    const node = Math.floor(key / 26);
    const letter = key % 26;
    if (row[node]! >= 0) rows[row[node]! + letter] = child + 1;
    else {
      only[node] = letter + 1;
      onlyChild[node] = child;
    }
  }
  return { row, rows, only, onlyChild };
}

const LETTER = 'A-Za-z\\u00c0-\\u00d6\\u00d8-\\u00f6\\u00f8-\\u00ff';
/**
 * Four letters standing alone, one separator apart: `foldText` joins such
 * runs (`k i l l`). Or three, one separator and two or three blanks apart
 * in either order (round 38): a run `foldText` reads as words two or three
 * blanks apart (`o n   h o w`) has some letters one separator apart, so
 * somewhere in it a step of one separator stands beside a word break. Each
 * form reads at most seven characters from its first letter.
 */
// In ordinary prose (see `plainView`) the letters and digits are these: the
// classes below stand for `\p{L}` and `\p{N}` without the slower `u` flag.
const LETTER_OR_DIGIT = `[${LETTER}0-9]`;
// Since round 45 a tab or line break is a separator, or part of a word
// break, as the check's second reading makes it (`spelled-blanks.ts`).
const SPELLED_SEPARATOR = `[ .\\-_*${BLANK_MARK_CLASS}]`;
const SPELLED_BREAK = `[ ${BLANK_MARK_CLASS}]{2,3}`;
const SPELLED_OUT_FORMS = [
  `[${LETTER}](?:${SPELLED_SEPARATOR}[${LETTER}]){3}`,
  `[${LETTER}]${SPELLED_BREAK}[${LETTER}]${SPELLED_SEPARATOR}[${LETTER}]`,
  `[${LETTER}]${SPELLED_SEPARATOR}[${LETTER}]${SPELLED_BREAK}[${LETTER}]`,
].join('|');
const SPELLED_OUT = new RegExp(`(?<!${LETTER_OR_DIGIT})(?:${SPELLED_OUT_FORMS})`);
/** Characters `foldText` reads as letters in leetspeak. */
const LEET = /[0-9@$|]/;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * True when `foldText` of the text, and of every suffix of it, is the text
 * in lower case with its curly quotes straightened (and blanks collapsed,
 * which entries ignore): ordinary prose (`plainView` leaves it as it is)
 * with no leetspeak character and no spelled-out run to join.
 */
export function foldsToLowerCase(text: string): boolean {
  return (
    plainView(text) === text &&
    !LEET.test(text) &&
    !SPELLED_OUT.test(text) &&
    !LATIN_1_DIACRITIC.test(text)
  );
}

const LEET_FROM = new RegExp(LEET.source, 'g');
/**
 * The Latin-1 letters of ordinary prose that `foldText` reads without their
 * accent (`withoutLatinDiacritics`, round 23): prose holding one does not
 * fold to itself in lower case (`kíll` is `kill`).
 */
const LATIN_1_DIACRITIC =
  /[\u00c0-\u00c5\u00c7-\u00cf\u00d1-\u00d6\u00d8-\u00dd\u00e0-\u00e5\u00e7-\u00ef\u00f1-\u00f6\u00f8-\u00fd\u00ff]/;
const LATIN_1_DIACRITIC_FROM = new RegExp(LATIN_1_DIACRITIC.source, 'g');
const SPELLED_OUT_FROM = new RegExp(SPELLED_OUT.source, 'g');

/**
 * `foldsToLowerCase(text.slice(from))` without the slice, for `from` at a
 * token start (after whitespace or at 0: what `SPELLED_OUT` looks behind
 * then is no letter or digit, as at the start of the slice).
 */
export function foldsToLowerCaseFrom(text: string, from: number): boolean {
  if (!isOwnNormalFormFrom(text, from)) return false;
  LEET_FROM.lastIndex = from;
  if (LEET_FROM.test(text)) return false;
  LATIN_1_DIACRITIC_FROM.lastIndex = from;
  if (LATIN_1_DIACRITIC_FROM.test(text)) return false;
  SPELLED_OUT_FROM.lastIndex = from;
  return !SPELLED_OUT_FROM.test(text);
}

/**
 * Whether `text` from `start` to its end, read as the filter reads ordinary
 * prose (in lower case, curly quotes straightened, a run of whitespace as
 * one blank, trailing whitespace left out), is the start of an entry: a
 * walk of a trie of the entries over the characters, no string built
 * (`startsAnEntry` of that reading, which the tests compare it with).
 */
export function lowerCasePrefixTest(
  terms: readonly string[],
): (text: string, start: number) => boolean {
  const children = entryTrie(terms);
  return (text, start) => {
    let node = 0;
    let at = start;
    while (at < text.length) {
      let unit: number;
      if (isWhitespaceAt(text, at)) {
        while (at < text.length && isWhitespaceAt(text, at)) at++;
        if (at === text.length) break; // trailing whitespace is left out
        unit = 32;
      } else {
        unit = lowerCaseUnit(text.charCodeAt(at));
        at++;
      }
      const child = children.get(node * 0x10000 + unit);
      if (child === undefined) return false;
      node = child;
    }
    return node !== 0;
  };
}

/** A unit of ordinary prose (see `plainView`) in lower case, a curly quote straightened. */
function lowerCaseUnit(code: number): number {
  if (code < 0x80) return code >= 65 && code <= 90 ? code | 0x20 : code;
  // Latin-1 capitals (not ×): their small letter is 0x20 on.
  if (code >= 0xc0 && code <= 0xde && code !== 0xd7) return code + 0x20;
  if (code === 0x2018 || code === 0x2019 || code === 0x201b) return 0x27;
  if (code === 0x201c || code === 0x201d || code === 0x201f) return 0x22;
  return code;
}

const CURLY_QUOTE = /[\u2018\u2019\u201b\u201c\u201d\u201f]/;

function straightenQuotes(text: string): string {
  if (!CURLY_QUOTE.test(text)) return text;
  return text.replace(/[\u2018\u2019\u201b]/g, "'").replace(/[\u201c\u201d\u201f]/g, '"');
}

/**
 * `mayMatch` of `contentFilter` for its folded `terms`: false only for
 * ordinary prose (see `plainView`) with no leetspeak character and no
 * spelled-out run, where `foldText` only lowers the case (and collapses
 * blanks, straightens quotes), and in which no entry occurs once lower-cased:
 * there the filter's own match cannot occur either.
 */
export function contentFilterMayMatch(
  terms: readonly string[],
  /** The guardrail's hook: registered with a cheaper one for text this filter rules out (`core/filtered-hooks`). */
  hooks?: { potentialMatchStart: (text: string) => number; maxMatchLength: number },
): (text: string) => boolean {
  const registerHook = (mayMatch: (text: string) => boolean) => {
    if (hooks === undefined) return;
    const { potentialMatchStart, maxMatchLength } = hooks;
    const { filtered, fused } = contentFilterFilteredHooks(
      terms,
      maxMatchLength,
      potentialMatchStart,
    );
    // Without entries the triggers flag no leetspeak character: no fused hook.
    registerFilteredHook(
      potentialMatchStart,
      mayMatch,
      filtered,
      terms.length > 0 ? { hook: fused } : undefined,
    );
  };
  if (terms.length === 0) {
    const never = () => false;
    registerFilterTriggers(never, { characters: '', literals: [] });
    registerHook(never);
    return never;
  }
  // The filter's own pattern, for prose in lower case (as `foldText` makes
  // it). An entry after no letter or digit: the character before it is
  // matched (or the start) rather than looked behind at, which lets the
  // engine skip the letters inside words (about a third faster).
  const inLowerCase = new RegExp(
    `(?:^|[^${LETTER}0-9])(?:${terms
      .map(term => escapeRegExp(term).replace(/ /g, '\\s+'))
      .join('|')})(?!${LETTER_OR_DIGIT})`,
  );
  // Without quotes in the entries, straightening the text's changes no match.
  const quoted = terms.some(term => /["'\u2018-\u201f]/.test(term));
  // Spelled-out runs read around (round 43): undefined for a list too large to walk.
  const spelledMayMatch = spelledRunsMayMatch(terms);
  const mayMatch = (text: string): boolean => {
    // Markdown markers beside a letter may hide between an entry's letters (`k**ill**`).
    if (hasEmphasis(text)) return true;
    // Punctuation joining words reads as a blank too (`kill-you`).
    const joined = withJoinersBlank(text);
    return (
      mayMatchAsWritten(text, spelledMayMatch) ||
      (joined !== undefined && mayMatchAsWritten(joined, undefined))
    );
  };
  const mayMatchAsWritten = (
    text: string,
    spelled: ((plain: string) => boolean) | undefined,
  ): boolean => {
    const plain = plainView(text);
    if (plain === undefined || LEET.test(plain)) return true;
    // Accented letters read as their base letters, as `foldText` reads them.
    const lower = withoutLatinDiacritics(plain.toLowerCase());
    if (inLowerCase.test(quoted ? straightenQuotes(lower) : lower)) return true;
    // A spelled-out run: the fold joins it. Read around it (`spelledRunsMayMatch`);
    // the joiners' reading, which only adds blanks, leaves that to this one.
    return SPELLED_OUT.test(plain) && (spelled === undefined || spelled(plain));
  };
  // What it looks for, for window mode's one scan of the chain's filters (see
  // `FilterTriggers`): on ASCII text, a leetspeak character, a spelled-out
  // run (from a letter standing alone) or an entry, in any case, its blanks
  // any run of whitespace.
  registerFilterTriggers(mayMatch, triggersFor(terms));
  registerHook(mayMatch);
  return mayMatch;
}

/**
 * The triggers of `terms`, one object for the same entries (every
 * `contentFilter()` with the default lists shares one), so window mode's
 * union of a chain is built once however many filters are made.
 */
function triggersFor(terms: readonly string[]): FilterTriggers {
  const key = terms.join('\n');
  let triggers = triggersByTerms.get(key);
  if (triggers === undefined) {
    triggers = {
      characters: '0123456789@$|',
      literals: terms.map(literal => ({ literal })),
      singleLetter: spelledOutAt,
      // A Markdown marker beside a letter, or ending the text: the filter reads around it.
      near: { characters: EMPHASIS_MARKERS, test: emphasisAt },
      // `SPELLED_OUT` looks one character behind and matches seven at most.
      reads: { left: 1, right: 6 },
    };
    // A few lists at most in practice; a program making lists without end keeps the last 16.
    if (triggersByTerms.size >= 16) triggersByTerms.delete(triggersByTerms.keys().next().value!);
    triggersByTerms.set(key, triggers);
  }
  return triggers;
}
const triggersByTerms = new Map<string, FilterTriggers>();

/** `SPELLED_OUT` at a text's first character, which has nothing before it. */
const SPELLED_OUT_START = new RegExp(`(?:${SPELLED_OUT_FORMS})`, 'y');

/** `SPELLED_OUT`, every match in turn (the filtered hook; `spelledRunsMayMatch` reads them by hand, `nextSpelledOut`). */
const SPELLED_OUT_ALL = new RegExp(SPELLED_OUT.source, 'g');

/**
 * `mayMatchReach` of `contentFilterMayMatch` for entries of at most
 * `longest` units (round 43): an entry with the letters on each side
 * (`longest + 4`, at least 12), or what `spelledRunsMayMatch` reads
 * around a spelled-out run (`2 × longest + 8`: see there).
 * `spelled-runs-filter.test.ts` checks the promise on random splits, and
 * that one less fails it.
 */
export function contentFilterMayMatchReach(longest: number): number {
  return Math.max(12, longest + 4, 2 * longest + 8);
}

/**
 * Whether the filter must say "maybe" for the spelled-out runs of `plain`
 * (ordinary prose, `plainView`, with no leetspeak character and no entry
 * in lower case, in which `SPELLED_OUT` matches), round 43 (issue 16):
 * before, any spelled-out run did, so on spaced letters (`q x b a …`)
 * every window check ran the chain and the full hooks. Now each run is
 * read around. Positions are counted as the window counts them (a run of
 * whitespace as one; `c(i)`), `L` is the longest entry, and for every
 * match of `SPELLED_OUT` (each start `p`, overlapping ones too):
 * "maybe" when a character not in `[a-z ]` has `c` in
 * `[c(p) - 2L - 1, c(p) + 2L + 8]` (its zone), or when round 42's walk
 * (`lowerCaseLettersWalk`) from a letter that starts a word (a space or
 * nothing before it) with `c` in `[c(p) - 2L - 1, c(p) + 7]` may spell an
 * entry. Else false. Undefined (every run "maybe", as before) when the
 * list is too large to walk. (Exported for its test, `spelled-runs-ring.test.ts`.)
 *
 * Why false is sound (the check passes the text). On such a text
 * `foldText` only lowers the case, reads accents off, collapses blanks and
 * joins spelled-out runs (the filter's header); a run it joins deletes its
 * single separators and reads its word breaks as one blank. An entry the
 * check finds whose origin `O` in the text holds no deleted separator
 * reads so in the text in lower case (the regex above says "maybe"). Else
 * `O` holds one, `d`, strictly inside (one before its first letter or
 * after its last would join a letter to it). A single separator of a run
 * of four units or more lies inside a match of `SPELLED_OUT` (three more
 * single ones beside it, or a word break next to it), or just before one
 * (`a b c  d`), or one or two after one (`a  b c d`), so
 * `c(p) - 1 <= c(d) <= c(p) + 8` for some match `p` (a match is at most
 * seven characters). Read from `d` toward either end of `O`, each unit of
 * the entry costs at most two counted characters (a letter and the
 * separator deleted before it, or a run of blanks), so `O` and the
 * character before it lie within `2L - 2` of `d`, in the zone, unless a
 * character not in `[a-z ]` comes first, which is in the zone then. So
 * when a zone is all `[a-z ]`, so are `O` and the character before it,
 * and there the fold is round 42's (letters joined over one space or a
 * blank over spaces: `lower-case-letters-pretest.ts`): the walk from
 * `O`'s first letter (`c <= c(d) - 1`), which starts a word, spells the
 * entry. The check's joiners' reading makes joiners blanks, and a zone of
 * `[a-z ]` holds none.
 *
 * The reach (`contentFilterMayMatchReach`). Each "maybe" has a witness: a
 * match (at most seven characters from `p`) and a character of its zone,
 * or a walk from its walk zone, which reads from its letter to at most
 * `2L - 2` after it (`lowerCaseLettersWalk`). Its characters lie within
 * `2L + 9` counted ones. For `a + b` and `tail` the end of `a` holding its
 * last `2L + 8`: a witness inside `a` is one of `a`; one that reads `b`
 * starts inside `tail`, and reads the same there (a match at `tail`'s
 * start has nothing before it to rule it out; a walk may start there too:
 * more "maybe", never less). Linear: each character is read once, and a
 * walk from each word start at most (bounded steps).
 */
export function spelledRunsMayMatch(
  terms: readonly string[],
): ((plain: string) => boolean) | undefined {
  const walk = lowerCaseLettersWalk(terms);
  if (walk === undefined) return undefined;
  const longest = terms.reduce((max, term) => Math.max(max, term.length), 0);
  const left = 2 * longest + 1;
  const right = 2 * longest + 8;
  const walkRight = 7;
  // `c(p)` of the matches still to be read around, in a ring (round 45: two
  // tables as long as the text, kept from call to call, held 16 bytes a
  // character after one large delta). Matches of one `c` have one zone, so
  // each `c` is kept once; the ring holds those from the zone's match to
  // the walk zone's (their `c` lie within `right - walkRight` of each
  // other) and one more: `2L + 4` at most, whatever the text's length.
  let capacity = 16;
  while (capacity < right - walkRight + 4) capacity *= 2;
  const ring = new Int32Array(capacity);
  const mask = capacity - 1;
  return plain => {
    const length = plain.length;
    // The matches read so far (`head` of them, each `c` once; every match,
    // overlapping ones too, each searched from the character after the
    // last one's start), and `c` counted ahead to the last one's start.
    let head = 0;
    let last = -1;
    let done = false;
    const scanner = new SpelledOutScanner(plain);
    let leadAt = 0;
    let leadCount = 0;
    let leadBlank = false;
    // The first match whose zone (and walk zone) does not end before `at`:
    // zones start in the order of their matches.
    let zone = 0;
    let walkZone = 0;
    let count = 0;
    let blank = false;
    for (let at = 0; at < length; at++) {
      const code = plain.charCodeAt(at);
      const c = count;
      const isBlank = isCountedBlank(code);
      if (!(isBlank && blank)) count++;
      blank = isBlank;
      // Read matches until one's walk zone reaches `c` (so the zone's and
      // the walk zone's first matches are read), or none is left. The ring
      // then holds those from the zone's on: their `c` lie within
      // `right - walkRight` of `c`, one more after.
      while (!done && (head === zone || ring[(head - 1) & mask]! + walkRight < c)) {
        // Read by hand (round 46: an `exec` a letter on spaced letters, `spelled-out-scan.ts`).
        const match = scanner.next();
        if (match < 0) {
          done = true;
          break;
        }
        for (; leadAt < match; leadAt++) {
          const blankAhead = isCountedBlank(plain.charCodeAt(leadAt));
          if (!(blankAhead && leadBlank)) leadCount++;
          leadBlank = blankAhead;
        }
        if (leadCount === last) continue;
        last = leadCount;
        ring[head++ & mask] = leadCount;
      }
      while (zone < head && ring[zone & mask]! + right < c) zone++;
      if (zone === head) return false;
      if (ring[zone & mask]! - left > c) continue;
      if (code === 32) continue;
      if (code < 97 || code > 122) return true;
      if (at > 0 && plain.charCodeAt(at - 1) !== 32) continue;
      if (walkZone < zone) walkZone = zone;
      while (walkZone < head && ring[walkZone & mask]! + walkRight < c) walkZone++;
      if (walkZone < head && ring[walkZone & mask]! - left <= c && walk(plain, at)) return true;
    }
    return false;
  };
}

/** The blanks the window counts as one when in a run (`spelledRunsMayMatch`'s `c`). */
function isCountedBlank(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

/**
 * True when `at` splits a surrogate pair, or the code points before and at
 * it are both read through (`isReadThrough`): the text from `at` then reads
 * as the text from the run's end (the characters before that are read
 * through), which is a candidate of its own.
 */
function insideReadThroughRun(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code >= 0xdc00 && code <= 0xdfff) {
    const high = text.charCodeAt(at - 1);
    if (high >= 0xd800 && high <= 0xdbff) return true;
  }
  const after = text.codePointAt(at);
  if (after === undefined || !isReadThrough(after)) return false;
  const before = codePointBefore(text, at);
  return before !== undefined && isReadThrough(before);
}
