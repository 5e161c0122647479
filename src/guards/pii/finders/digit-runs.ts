/**
 * One pass over the text's digits, shared by the finders of numbers
 * (phone, card, SSN/ITIN, NINO, NHS).
 *
 * Each of those patterns used to walk the whole text on its own: a regex
 * that starts with a digit is tried at every digit (44,000 on a megabyte of
 * real text, most of them in years, counts and list numbers), which cost
 * about 1–2.5 ms per pattern there. Every match of each of them lies
 * inside one run of digits and number separators (`0-9`, space, `(`, `)`,
 * `.`, `-`, `/`, `_`) holding at least six digits, so those runs are found once
 * and each pattern is tried only inside them (about 550 runs there).
 */

import { positionsOfUnit } from '../../shared/anchored-scan';

/**
 * A run: a digit with at least five more digits after it, reached through
 * separators only, and every digit and separator after that. A run holding
 * fewer digits fails at every one of its digits; a run holding enough
 * matches from its first digit (the five digits are counted to the end of
 * the run, so it succeeds there when it succeeds anywhere). So no run
 * starts after a digit: the lookbehind, which changes no match, spares the
 * attempt at every digit but the first of a number (about 20% of the pass
 * on real text). The five are written out, not `(?=(?:[…]*\d){5})`: no
 * separator is a digit, so each `[…]*` takes exactly the separators before
 * the next digit either way, and the run that follows takes the rest
 * (round 29: the written-out form fails sooner at the numbers of prose, 15%
 * less time for the pass).
 */
const digitRun =
  /(?<!\d)\d[ ().\-/_]*\d[ ().\-/_]*\d[ ().\-/_]*\d[ ().\-/_]*\d[ ().\-/_]*\d[\d ().\-/_]*/g;

/** The fewest digits a run holds. */
export const runMinDigits = 6;

/**
 * The runs of a text as flat `[start, end, digits, …]` (end exclusive, in
 * text order): each run's first digit, the end of its digits and
 * separators, and how many digits it holds. Runs never touch: the
 * character before a run's first digit is never a digit, and the one at its
 * end is no digit or separator.
 */
export type DigitRuns = readonly number[];

function findDigitRuns(text: string): number[] {
  const runs: number[] = [];
  digitRun.lastIndex = 0;
  for (let match = digitRun.exec(text); match !== null; match = digitRun.exec(text)) {
    const value = match[0];
    let digits = 0;
    for (let index = 0; index < value.length; index++) {
      const code = value.charCodeAt(index);
      if (code >= 48 && code <= 57) digits++;
    }
    runs.push(match.index, match.index + value.length, digits);
  }
  return runs;
}

// The number finders of one scan read the same text one after another: the
// runs are found once per text (`forgetDigitRuns` drops them after the scan,
// so the text is not kept alive).
let lastRuns: { text: string; runs: number[] } | undefined;

/** The digit runs of `text` (see `DigitRuns`). */
export function digitRunsOf(text: string): DigitRuns {
  if (lastRuns?.text !== text) lastRuns = { text, runs: findDigitRuns(text) };
  return lastRuns.runs;
}

/** Drops the runs of the last text. */
export function forgetDigitRuns(): void {
  lastRuns = undefined;
  lastPositions = undefined;
}

// The IP and MAC finders both walk the text's dots and colons (8,666 and
// 3,723 in the pieces of the dev sets' first MB): each `indexOf` that stops
// at one costs a call into the runtime, so the positions are found once per
// text, by the first finder that asks, and dropped with the digit runs.
let lastPositions: { text: string; dots?: Int32Array; colons?: Int32Array } | undefined;

/**
 * The offsets of every `.` (`char` 46) or `:` (58) of `text`, in order.
 * Kept in a typed array grown by doubling: a JavaScript array that grows
 * past about 16,000 numbers by `push` moves to V8's large-object space,
 * whose fresh pages fault in at every growth; in a flood of short values
 * (`1.2.3.4 ` repeated: about 23,000 dots per piece of a long text) this
 * list was 18% of the chain's time (CPU profile), and the same list costs
 * about a tenth of that in an `Int32Array` (0.3–1.2 against 3.6–4.5 ms for
 * 23,000 dots, pinned, 300 calls). It starts at 16 (64 bytes, which V8
 * keeps on its heap) and is cut to length by `slice`, not `subarray`: a
 * view of an on-heap array first moves its bytes to a buffer of their own
 * (round 30: `new Int32Array(256)` and `subarray` were 17% of a `findPii`
 * call's CPU on the dev rows one call per text, about 3 µs a call).
 */
export function positionsOf(text: string, char: '.' | ':'): Int32Array {
  if (lastPositions?.text !== text) lastPositions = { text };
  const known = char === '.' ? lastPositions.dots : lastPositions.colons;
  if (known) return known;
  const found = positionsOfUnit(text, char);
  if (char === '.') lastPositions.dots = found;
  else lastPositions.colons = found;
  return found;
}

/**
 * Calls `found` with each match of `pattern` in `text`, as
 * `text.matchAll(pattern)` yields them, with `index` an offset into `text`.
 * `pattern` is a global regex whose every match starts with digits and
 * separators holding at least `minDigits` digits (so it lies in a run with
 * that many), reads at most three characters before its start (its
 * lookbehinds) and, with its lookaheads, at most `after` characters past
 * the run's end (the NINO tail's letter sits at the run's end). It runs on
 * a slice of each such run with those characters around it. No match
 * starts before a run's first digit or in the characters past its end, and
 * each slice is searched from the run's first digit, where `matchAll`
 * would search too (its previous match ended before this run): the matches
 * are the same.
 */
export function forEachMatchInRuns(
  text: string,
  pattern: RegExp,
  minDigits: number,
  found: (match: RegExpExecArray) => void,
  after = 2,
): void {
  const runs = digitRunsOf(text);
  for (let run = 0; run < runs.length; run += 3) {
    if (runs[run + 2]! < minDigits) continue;
    const start = runs[run]!;
    const from = Math.max(0, start - 3);
    const slice = text.slice(from, Math.min(text.length, runs[run + 1]! + after));
    pattern.lastIndex = start - from;
    for (let match = pattern.exec(slice); match !== null; match = pattern.exec(slice)) {
      match.index += from;
      found(match);
    }
  }
}
