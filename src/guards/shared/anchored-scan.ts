/**
 * Anchored regex scanning: the results of `text.matchAll(pattern)` without
 * running `pattern` from every position of the text.
 *
 * Most detector patterns can only match where a rare anchor sits (an `@`, a
 * `://`, a provider prefix such as `ghp_`, a digit). A cheap pass finds the
 * anchors; the pattern is then tried, sticky, only at the starts those
 * anchors allow. As long as the tried starts include every position where
 * the pattern can match, the matches are exactly those of `matchAll`: the
 * first start (at or after the end of the previous match) where a sticky
 * attempt succeeds is the leftmost match, and a sticky attempt at a start
 * finds the same match a global search finds there (lookbehinds still see
 * the text before the start).
 */

/** A sticky copy of `pattern` (same source and flags, `g` replaced by `y`). */
export function stickyPattern(pattern: RegExp): RegExp {
  return new RegExp(pattern.source, `${pattern.flags.replace(/[gy]/g, '')}y`);
}

/**
 * The state of one emulated `matchAll`: feed it candidate starts in
 * increasing order with `at`; it skips starts inside the previous match or
 * already tried, and returns the match found at a start, if any.
 */
export interface AnchoredMatcher {
  /** Tries the pattern at `start`; `null` when the start is skipped or nothing matches there. */
  at(start: number): RegExpExecArray | null;
  /**
   * `at` without the match: the end of the match found at `start`, or -1
   * when the start is skipped or nothing matches there. Runs the pattern
   * with `test`, which builds no match array and no substring: on text
   * full of short values (`1.2.3.4 ` repeated) those were most of what the
   * scan allocated.
   */
  endAt(start: number): number;
  /** The first start not yet covered (the end of the last match, or one past the last start tried). */
  readonly next: number;
  /** Lets starts from `start` on be tried again (a match whose inside must be read after all). */
  reopenFrom(start: number): void;
}

/**
 * Creates an `AnchoredMatcher` for `sticky` (a pattern with the `y` flag,
 * see `stickyPattern`) over `text`.
 */
export function anchoredMatcher(sticky: RegExp, text: string): AnchoredMatcher {
  return new StickyMatcher(sticky, text);
}

// A class, not an object literal with a getter: a scan creates one matcher
// per pattern per call, and a literal with an accessor is built on V8's slow
// path, which on short texts (a chat message) cost more than the scans.
class StickyMatcher implements AnchoredMatcher {
  next = 0;

  constructor(
    private readonly sticky: RegExp,
    private readonly text: string,
  ) {}

  at(start: number): RegExpExecArray | null {
    if (start < this.next || start > this.text.length) return null;
    this.sticky.lastIndex = start;
    const match = this.sticky.exec(this.text);
    // An empty match moves on by one unit, as `matchAll` does.
    this.next = match ? start + Math.max(match[0].length, 1) : start + 1;
    return match;
  }

  endAt(start: number): number {
    if (start < this.next || start > this.text.length) return -1;
    const sticky = this.sticky;
    sticky.lastIndex = start;
    if (!sticky.test(this.text)) {
      this.next = start + 1;
      return -1;
    }
    const end = sticky.lastIndex;
    // An empty match moves on by one unit, as `matchAll` does.
    this.next = Math.max(end, start + 1);
    return end;
  }

  reopenFrom(start: number): void {
    this.next = Math.min(this.next, start);
  }
}

/**
 * Positions of every occurrence of `needle` in `text` (overlapping ones
 * included), in increasing order.
 */
export function occurrences(text: string, needle: string, into: number[] = []): number[] {
  let index = text.indexOf(needle);
  while (index >= 0) {
    into.push(index);
    index = text.indexOf(needle, index + 1);
  }
  return into;
}

/**
 * Calls `visit(position)` for each occurrence of any of `needles` (strings,
 * usually single characters), in increasing order: one `indexOf` stream per
 * needle, merged.
 */
export function forEachOccurrence(
  text: string,
  needles: readonly string[],
  visit: (position: number) => void,
): void {
  const next = needles.map(char => text.indexOf(char));
  for (;;) {
    let which = -1;
    for (let index = 0; index < next.length; index++) {
      const position = next[index]!;
      if (position >= 0 && (which < 0 || position < next[which]!)) which = index;
    }
    if (which < 0) return;
    const position = next[which]!;
    visit(position);
    next[which] = text.indexOf(needles[which]!, position + 1);
  }
}

/** The positions of a character a text does not hold. */
const noPositions = new Int32Array(0);

/**
 * Offsets gathered by `positionsOfUnit` and `printableRuns` before their
 * list is copied out at its length, reused by every call (neither
 * re-enters itself or the other while it fills it). Round 36: each grew a
 * fresh array from 16 or 64 entries by doubling, a new buffer and a copy
 * at each step (about 8 per `:` list of a piece of the dev sets' first MB),
 * 1% of `findSecrets`' CPU profile there in `doubled` alone.
 */
let gathered: Int32Array = new Int32Array(4096);

/** `gathered` with room for at least one entry more than `count` (its first `count` kept). */
function gatheredRoom(count: number): Int32Array {
  if (count === gathered.length) gathered = doubled(gathered);
  return gathered;
}

/** The first `count` entries of `gathered`, copied out; a list grown past 64 Ki entries is not kept. */
function gatheredList(count: number): Int32Array {
  const list = gathered.slice(0, count);
  if (gathered.length > 65_536) gathered = new Int32Array(4096);
  return list;
}

/**
 * The offsets of every occurrence of `char` (one UTF-16 unit) in `text`, in
 * order: one `indexOf` stream, kept for the scans of one text that each
 * walk the same character (`findSecrets`' assignments, reversed
 * comparisons, XML settings and YAML block scalars walked its `=` and `:`
 * with a stream each, round 36). A typed array grown by doubling (see
 * `printableRuns`), cut to length by `slice`.
 */
export function positionsOfUnit(text: string, char: string): Int32Array {
  let at = text.indexOf(char);
  if (at < 0) return noPositions;
  let found: Int32Array = gathered;
  let count = 0;
  for (; at >= 0; at = text.indexOf(char, at + 1)) {
    if (count === found.length) found = gatheredRoom(count);
    found[count++] = at;
  }
  return gatheredList(count);
}

/**
 * A lower-cased copy of `text` with the same offsets, or `undefined` when
 * lower-casing changes the length (a few non-ASCII letters such as `İ`).
 * A case-insensitive (non-Unicode) pattern matches an ASCII keyword only on
 * ASCII letters, which lower-case to ASCII: the keyword's occurrences in the
 * copy include every place the pattern can match it (and perhaps a few more,
 * such as the Kelvin sign lower-cased to `k`, which the pattern then rejects).
 */
export function lowerCaseSameOffsets(text: string): string | undefined {
  const lower = text.toLowerCase();
  return lower.length === text.length ? lower : undefined;
}

/**
 * Characters worth anchoring on, rarest first (in English prose and code);
 * a literal is looked up by its rarest one. A literal made only of common
 * characters (`aws`, `curl`, `hubspot`) is looked up by one regex
 * alternation of all such literals (on 1 MB of real text, the provider
 * rules' 18 cost 9.4 ms as one `indexOf` pass each, which stops at every
 * `a` of `aws`, and 2.3 ms as one alternation). Digits come after `.`:
 * numbers are common in chat text, and a literal anchored on a digit would
 * be compared at every `0` or `1`.
 */
const rarity = '<|~%"QJZXKVWYUBHFGPMDLNCRSOIEAT:=_-.qjzx0123456789/';
/**
 * For `findWithin`, which reads every character of its windows: lower-case
 * letters ranked too (by their frequency in English, rarest first), so a
 * literal of letters (`snyk`, `hubspot`) is compared only at its rarest
 * letter (`k`, `b`) rather than at every `s` or `h`.
 */
const windowRarity = `${rarity}kvbpygfwmucldrhsnioate`;

/** The literals by anchor character, ranked by `ranking`; those with no ranked character left whole. */
function anchorGroups(
  literals: readonly string[],
  ranking: string,
): { groups: Map<string, AnchorGroup>; whole: number[] } {
  const rank = (char: string) => {
    const index = ranking.indexOf(char);
    return index < 0 ? ranking.length : index;
  };
  const groups = new Map<string, AnchorGroup>();
  const whole: number[] = [];
  literals.forEach((literal, index) => {
    let anchor = 0;
    for (let position = 1; position < literal.length; position++) {
      if (rank(literal[position]!) < rank(literal[anchor]!)) anchor = position;
    }
    if (rank(literal[anchor]!) === ranking.length) {
      whole.push(index);
      return;
    }
    const char = literal[anchor]!;
    let group = groups.get(char);
    if (!group) {
      group = {
        char,
        single: [],
        byNext: [],
        byPrevious: [],
        nextCodes: new Uint8Array(128),
        previousCodes: new Uint8Array(128),
      };
      groups.set(char, group);
    }
    if (literal.length === 1) {
      group.single.push(index);
      return;
    }
    const [table, codes, neighbour] =
      anchor + 1 < literal.length
        ? [group.byNext, group.nextCodes, literal.charCodeAt(anchor + 1)]
        : [group.byPrevious, group.previousCodes, literal.charCodeAt(anchor - 1)];
    codes[neighbour] = 1;
    const bucket = table[neighbour];
    if (bucket) bucket.push([index, anchor]);
    else table[neighbour] = [[index, anchor]];
  });
  return { groups, whole };
}

/**
 * Finds occurrences of many literals without a pass per literal: each
 * literal is anchored on its rarest character, every occurrence of that
 * character is found with `indexOf` (fast for a single character), and only
 * literals whose neighbouring character also fits are compared.
 */
export interface LiteralFinder {
  /**
   * Calls `hit(start, literalIndex)` for each occurrence of a literal,
   * grouped by anchor character. `known` gives the offsets of an anchor
   * character where the caller has them already (`positionsOfUnit` of the
   * same text): read instead of an `indexOf` stream of its own.
   */
  find(
    text: string,
    hit: (start: number, literal: number) => void,
    known?: (char: string) => Int32Array | undefined,
  ): void;
  /**
   * Calls `hit(start, literalIndex)` for each occurrence of a literal whose
   * anchor character lies in one of `windows` (flat `[from, to, from, to,
   * …]`, in text order, not overlapping), reading only the characters of
   * the windows: for text where the literals can matter only in a small
   * part of it (see `printableRuns`). Each occurrence is reported once.
   */
  findWithin(
    text: string,
    windows: readonly number[],
    hit: (start: number, literal: number) => void,
  ): void;
}

/**
 * The literals anchored on one character: those of one character, and the
 * others by the code of the character after the anchor (or, for a literal
 * ending with its anchor, before it), as [literal index, anchor offset].
 */
interface AnchorGroup {
  char: string;
  single: number[];
  byNext: Array<Array<[number, number]> | undefined>;
  byPrevious: Array<Array<[number, number]> | undefined>;
  /** By code (ASCII): 1 where `byNext` / `byPrevious` has literals (read before those holey arrays, round 35). */
  nextCodes: Uint8Array;
  previousCodes: Uint8Array;
}

/**
 * For `findWithin`, by character code: the group anchored on it (ranked by
 * `windowRarity`), and the literals with no ranked character by their first
 * two codes (one-character ones by their only one); `starts` flags the
 * codes either begins with (1, 2; 4 with 1: the group has literals of one
 * character).
 */
interface WindowTables {
  groupByCode: Array<AnchorGroup | undefined>;
  wholeByPair: Map<number, number[]>;
  starts: Uint8Array;
  /**
   * By `anchor * 128 + next` (both ASCII): 1 when the group anchored on
   * `anchor` has literals whose character after the anchor is `next`; by `previous * 128 + anchor`: 1 when it has
   * literals ending with the anchor after `previous`. Most anchors in a
   * window (the `-`, `.` and `_` of URLs and paths) have neither, and are
   * passed on two typed-array reads, not the group's holey arrays read at
   * any code (round 35).
   */
  nextPairs: Uint8Array;
  previousPairs: Uint8Array;
}

function windowTables(literals: readonly string[]): WindowTables {
  const { groups, whole } = anchorGroups(literals, windowRarity);
  const groupByCode: Array<AnchorGroup | undefined> = new Array(128).fill(undefined);
  const wholeByPair = new Map<number, number[]>();
  const starts = new Uint8Array(128);
  const nextPairs = new Uint8Array(128 * 128);
  const previousPairs = new Uint8Array(128 * 128);
  for (const group of groups.values()) {
    const code = group.char.charCodeAt(0);
    groupByCode[code] = group;
    starts[code]! |= group.single.length > 0 ? 5 : 1;
    for (let other = 0; other < 128; other++) {
      nextPairs[code * 128 + other] = group.nextCodes[other]!;
      previousPairs[other * 128 + code] = group.previousCodes[other]!;
    }
  }
  for (const index of whole) {
    const literal = literals[index]!;
    const pair = literal.charCodeAt(0) * 128 + (literal.length > 1 ? literal.charCodeAt(1) : 0);
    const bucket = wholeByPair.get(pair);
    if (bucket) bucket.push(index);
    else wholeByPair.set(pair, [index]);
    starts[literal.charCodeAt(0)]! |= 2;
  }
  return { groupByCode, wholeByPair, starts, nextPairs, previousPairs };
}

/**
 * Builds a `LiteralFinder` for `literals` (non-empty, ASCII). `preferred`:
 * characters to anchor on before any other, in this order (then by
 * `rarity`): a finder of literals of two kinds stops at fewer characters
 * when both are anchored on the characters either needs (see
 * `provider-scan.ts`, round 42).
 */
export function literalFinder(literals: readonly string[], preferred = ''): LiteralFinder {
  const ranking = preferred + [...rarity].filter(char => !preferred.includes(char)).join('');
  // Literals of common characters only (`whole`) are found by one alternation.
  const { groups, whole } = anchorGroups(literals, ranking);
  // The same literals by the code of their first character (all ASCII).
  const wholeByFirst: number[][] = [];
  for (const index of whole) {
    const first = literals[index]!.charCodeAt(0);
    const bucket = wholeByFirst[first];
    if (bucket) bucket.push(index);
    else wholeByFirst[first] = [index];
  }
  const wholePattern =
    whole.length > 0
      ? new RegExp(
          whole.map(index => literals[index]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'),
          'g',
        )
      : undefined;
  // Built on the first `findWithin`.
  let inWindows: WindowTables | undefined;
  return {
    find(text, hit, known) {
      const length = text.length;
      for (const {
        char,
        single,
        byNext,
        byPrevious,
        nextCodes,
        previousCodes,
      } of groups.values()) {
        const hasNext = byNext.length > 0;
        const hasPrevious = byPrevious.length > 0;
        const positions = known?.(char);
        let index = 0;
        const first = positions ? (positions.length > 0 ? positions[0]! : -1) : text.indexOf(char);
        for (
          let at = first;
          at >= 0;
          at = positions
            ? ++index < positions.length
              ? positions[index]!
              : -1
            : text.indexOf(char, at + 1)
        ) {
          for (const literal of single) hit(at, literal);
          if (hasNext && at + 1 < length) {
            const after = text.charCodeAt(at + 1);
            if (after < 128 && nextCodes[after] === 1) compare(text, at, byNext[after]!, hit);
          }
          if (hasPrevious && at > 0) {
            const before = text.charCodeAt(at - 1);
            if (before < 128 && previousCodes[before] === 1) {
              compare(text, at, byPrevious[before]!, hit);
            }
          }
        }
      }
      if (wholePattern) {
        // A match marks a position where some literal starts; each one that
        // starts there is reported, and the search goes on from the next unit.
        wholePattern.lastIndex = 0;
        for (let match = wholePattern.exec(text); match; match = wholePattern.exec(text)) {
          const at = match.index;
          for (const literal of wholeByFirst[text.charCodeAt(at)]!) {
            if (text.startsWith(literals[literal]!, at)) hit(at, literal);
          }
          wholePattern.lastIndex = at + 1;
        }
      }
    },
    findWithin(text, windows, hit) {
      inWindows ??= windowTables(literals);
      const { groupByCode, wholeByPair, starts, nextPairs, previousPairs } = inWindows;
      const length = text.length;
      for (let window = 0; window < windows.length; window += 2) {
        const to = windows[window + 1]!;
        for (let at = windows[window]!; at < to; at++) {
          const code = text.charCodeAt(at);
          const kind = code < 128 ? starts[code]! : 0;
          if (kind === 0) continue;
          if ((kind & 1) !== 0) {
            // The codes after and before the anchor; past the text's ends or
            // outside ASCII no literal's neighbour is (128 stands for both).
            const after = at + 1 < length ? text.charCodeAt(at + 1) : 128;
            const before = at > 0 ? text.charCodeAt(at - 1) : 128;
            const nextPair = after < 128 ? nextPairs[code * 128 + after]! : 0;
            const previousPair = before < 128 ? previousPairs[before * 128 + code]! : 0;
            if (nextPair !== 0 || previousPair !== 0 || (kind & 4) !== 0) {
              const group = groupByCode[code]!;
              for (const literal of group.single) hit(at, literal);
              if (nextPair !== 0) compare(text, at, group.byNext[after]!, hit);
              if (previousPair !== 0) compare(text, at, group.byPrevious[before]!, hit);
            }
          }
          if ((kind & 2) !== 0) {
            const single = wholeByPair.get(code * 128);
            if (single) for (const literal of single) hit(at, literal);
            const second = text.charCodeAt(at + 1);
            const starting = second < 128 ? wholeByPair.get(code * 128 + second) : undefined;
            if (starting) {
              for (const literal of starting) {
                if (text.startsWith(literals[literal]!, at)) hit(at, literal);
              }
            }
          }
        }
      }
    },
  };

  function compare(
    text: string,
    at: number,
    bucket: Array<[number, number]>,
    hit: (start: number, literal: number) => void,
  ) {
    for (const [literal, offset] of bucket) {
      if (at >= offset && text.startsWith(literals[literal]!, at - offset))
        hit(at - offset, literal);
    }
  }
}

/** Printable ASCII but the space (`!` to `~`): the characters of tokens, keys, URLs and code. */
function isPrintableCode(code: number): boolean {
  return code > 32 && code < 127;
}

/**
 * The maximal runs of printable ASCII characters other than the space (`!`
 * to `~`) that are at least `minLength` long, as flat `[start, end, start,
 * end, …]` (end exclusive) in text order. Tokens, keys and URLs are such
 * runs; prose is words of a few letters between spaces, where a run that
 * long is rare (on 1 MB of real text, runs of 13 or more hold 8% of it). A
 * run that long holds one of every `minLength`-th character, so only those
 * are probed, and read from to the ends of the run they fall in: linear,
 * about `text.length / minLength` probes plus the words they land in.
 *
 * Kept in an `Int32Array` grown by doubling, not a JavaScript array grown
 * by `push`: a redacted flood of short values (`[EMAIL_ADDRESS]` 150,000
 * times in the redacted MB of `a@b.co` repeated) makes 300,000 offsets,
 * and that array, regrown by half each time, was 30% of what the chain
 * allocated there. Since round 36 gathered in the reused `gathered` and
 * copied out at its length.
 */
export function printableRuns(text: string, minLength: number): Int32Array {
  let runs: Int32Array = gathered;
  let count = 0;
  const length = text.length;
  const step = Math.max(1, minLength);
  let from = 0;
  while (from + step - 1 < length) {
    const probe = from + step - 1;
    if (!isPrintableCode(text.charCodeAt(probe))) {
      from = probe + 1;
      continue;
    }
    // `from` is 0 or follows a character outside every run: the start found is the run's.
    let start = probe;
    while (start > from && isPrintableCode(text.charCodeAt(start - 1))) start--;
    let end = probe + 1;
    while (end < length && isPrintableCode(text.charCodeAt(end))) end++;
    if (end - start >= minLength) {
      if (count === runs.length) runs = gatheredRoom(count);
      runs[count++] = start;
      runs[count++] = end;
    }
    from = end + 1;
  }
  return gatheredList(count);
}

/** A list of offsets with twice the room of `list` (whose length is even), its entries copied. */
export function doubled(list: Int32Array): Int32Array {
  const grown = new Int32Array(Math.max(2, list.length * 2));
  grown.set(list);
  return grown;
}
