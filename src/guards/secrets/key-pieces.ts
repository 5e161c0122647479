/**
 * Whether the strings of a JSON text hold a piece a typed key can be joined
 * from: the column reading of `split-array-strings.ts` (round 24) parsed
 * every JSON text with an object, about 50-110 ms a megabyte, and what it
 * joins is only kept when a provider rule matches across two strings or
 * more. Every such match holds its rule's literal (`ghp_`, `sk-`, `AKIA`,
 * `://`, `:AA`): in one string, or cut between two (`"gh"` then `"p_q8…"`,
 * or over three: `"g"`, `"h"`, `"p_…"`). So a text none of whose strings
 * holds a literal, and none of whose strings ends with a literal's head while
 * another starts with the rest of that literal, has nothing the columns can
 * add (round 25).
 */
import { isInvisibleCodePoint, normalizeText } from '../shared/normalize-text';
import { isPrivateUse } from '../shared/private-use';
import { providerRules } from './provider-rules';
import { isTokenCode } from './split-prefix';

/** Rules whose findings the joined strings' reading drops (see `UNTYPED` there). */
const UNTYPED_RULES = new Set(['GENERIC_SECRET']);

/**
 * The literals of the typed rules: two characters or more. Left out: the
 * Discord token's `.` (a one-character anchor that every e-mail address,
 * file name and URL holds): its pieces are told by their shape instead
 * (`KeyPieces.discord`, round 26).
 */
const literals = (() => {
  const all = new Set<string>();
  for (const { type, anchor } of providerRules) {
    if (UNTYPED_RULES.has(type)) continue;
    for (const literal of [...anchor.literals, ...(anchor.contains ?? [])]) {
      if (literal.length >= 2) all.add(literal);
    }
  }
  return [...all];
})();

/** `literals` in one regular expression: one pass over the text. */
const literalPattern = (literals: readonly string[]) =>
  new RegExp(literals.map(literal => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'));

/** Any literal (a string folded as the scan reads it). */
const anyLiteral = literalPattern(literals);

/**
 * The two-letter literals of rules that start with them after no token
 * character, each with what the rules read right after it (`SK[0-9a-fA-F]{32}`,
 * `AC[0-9a-f]{32}`): a table of the ASCII codes that may follow it. Such
 * a pair is common inside words and at their start (`TASK`, `BACK`, `SKU`,
 * `ACCESS`); `holdsLiteral` finds it only where a key can start.
 */
const pairs = providerRules.flatMap(({ type, pattern, anchor }) => {
  if (UNTYPED_RULES.has(type) || anchor.min !== 0 || anchor.max !== 0) return [];
  const source = pattern.source;
  const boundary = '(?<![A-Za-z0-9_-])';
  return anchor.literals.flatMap(literal => {
    if (literal.length !== 2 || !source.startsWith(boundary + literal)) return [];
    const next = /^\[[A-Za-z0-9-]+\]/.exec(source.slice(boundary.length + 2))?.[0];
    if (next === undefined) return [];
    const nextPattern = new RegExp(next);
    // Besides the class: a string's end (the key goes on in the next
    // string), an escape, a percent or HTML escape, a blank (a key split
    // there); past ASCII, anything (folded).
    const follows = Uint8Array.from({ length: 128 }, (_, code) => {
      const char = String.fromCharCode(code);
      return nextPattern.test(char) || '"\\%& \t'.includes(char) ? 1 : 0;
    });
    return [{ literal, follows }];
  });
});
const pairLiterals = new Set(pairs.map(({ literal }) => literal));
/** Every literal but `pairs`' (anywhere; those of a pair rule that is not a start are kept here). */
const otherLiteral = literalPattern(literals.filter(literal => !pairLiterals.has(literal)));

/** Whether `pair` occurs in `json` where a key can start: after no token character (or a percent escape), followed as `follows` allows. */
function pairAtStart(json: string, pair: string, follows: Uint8Array): boolean {
  for (let at = json.indexOf(pair); at >= 0; at = json.indexOf(pair, at + 1)) {
    const next = json.charCodeAt(at + 2);
    if (next < 128 && follows[next] === 0) continue;
    if (at === 0 || !isTokenCode(json.charCodeAt(at - 1))) return true;
    // `%2CSK…`: the scan reads the escape decoded.
    if (
      at >= 3 &&
      json.charCodeAt(at - 3) === 37 &&
      isHexCode(json.charCodeAt(at - 2)) &&
      isHexCode(json.charCodeAt(at - 1))
    )
      return true;
  }
  return false;
}

function isHexCode(code: number): boolean {
  const lower = code | 0x20;
  return (code >= 48 && code <= 57) || (lower >= 97 && lower <= 102);
}

/** A literal's head (its first `j` characters) and the rest: `cut` names the pair. */
const headCuts = new Map<string, number[]>();
/** Every text a string can end with that is the end of some head (a string ending so may go on). */
const headEnds = new Set<string>();
/** A literal's rest after a cut, by cut. */
const rests: string[] = [];
/** Every beginning of a rest, with the cuts whose rest begins so. */
const restStarts = new Map<string, number[]>();
let longestHead = 0;
let longestRest = 0;
for (const literal of literals) {
  for (let j = 1; j < literal.length; j++) {
    const cut = rests.length;
    const head = literal.slice(0, j);
    const rest = literal.slice(j);
    rests.push(rest);
    headCuts.set(head, [...(headCuts.get(head) ?? []), cut]);
    for (let from = 0; from < head.length; from++) headEnds.add(head.slice(from));
    for (let to = 1; to <= rest.length; to++) {
      const start = rest.slice(0, to);
      restStarts.set(start, [...(restStarts.get(start) ?? []), cut]);
    }
    longestHead = Math.max(longestHead, head.length);
    longestRest = Math.max(longestRest, rest.length);
  }
}

/**
 * Reads the strings of one JSON text, one `add` per string: true from then
 * on (`found`) when a string holds an escape (read decoded, so not judged
 * here), a character past ASCII (read folded), or a literal's cut pair has been seen (a string ending with its
 * head, one starting with its rest or being a beginning of it). Literals
 * inside one string are `holdsLiteral`'s, asked once of the whole text.
 * Each string is read once for a character past ASCII, and at most a
 * literal's length at each end (72 characters for a Discord piece): linear.
 */
export class KeyPieces {
  found = false;
  private readonly ends = new Uint8Array(rests.length);
  private readonly starts = new Uint8Array(rests.length);
  /** A string that can start a Discord token (`[MNO]`, then its characters) has been seen. */
  private discordStart = false;
  /** Bit `k`: a string with one dot and `k` (0-6) token characters after it (the first dot and the middle's start). */
  private dotThenMiddle = 0;
  /** Bit `m`: a string with one dot and `m` (0-6) token characters before it (the middle's end and the second dot). */
  private middleThenDot = 0;
  /** A string with both dots, 6 characters apart. */
  private bothDots = false;
  /** Two strings whose dots are 7 apart when joined (`dotThenMiddle` and `middleThenDot`). */
  private paired = false;

  /** The string `json[start, end)`, as written (`escaped`: it holds an escape). */
  add(json: string, start: number, end: number, escaped: boolean): void {
    if (this.found || end <= start) return;
    if (escaped) {
      this.found = true;
      return;
    }
    // A character past ASCII may be read as a key's (round 26: the scan folds
    // `ｇｈｐ＿` to `ghp_` and reads through `g\u200bhp_`; such a prefix cut
    // over records was never joined): the string is read as the scan reads it.
    for (let at = start; at < end; at++) {
      if (json.charCodeAt(at) >= 0x80) {
        this.addFolded(json.slice(start, end));
        return;
      }
    }
    this.read(json, start, end);
  }

  /**
   * A string holding a character past ASCII, read folded as the scan
   * normalises it (`ｇｈｐ＿` is `ghp_`, `g\u200bhp_` is `ghp_`): a literal in
   * it, or a head or rest of one at its ends, is found. Round 27: any such
   * character was found, so every JSON text with a word of another language
   * parsed its columns (50-110 ms a megabyte) for nothing. Failing closed: a
   * string that starts with a combining mark or an invisible character (it
   * may join the string before it when the scan reads them together) or holds
   * a private-use one (the scan also reads through those) is found.
   */
  private addFolded(value: string): void {
    const first = value.codePointAt(0)!;
    if (isInvisibleCodePoint(first) || combiningMark.test(String.fromCodePoint(first))) {
      this.found = true;
      return;
    }
    for (const char of value) {
      if (isPrivateUse(char.codePointAt(0)!)) {
        this.found = true;
        return;
      }
    }
    const folded = normalizeText(value).text;
    if (anyLiteral.test(folded)) {
      this.found = true;
      return;
    }
    if (folded.length > 0) this.read(folded, 0, folded.length);
  }

  /** `add` of a string the scan reads as written (ASCII, or folded by `addFolded`). */
  private read(json: string, start: number, end: number): void {
    if (end - start <= DISCORD_LONGEST) this.discord(json, start, end);
    if (this.found) return;
    const length = end - start;
    // Its end: each head it ends with.
    for (let j = 1; j <= Math.min(longestHead, length); j++) {
      const tail = json.slice(end - j, end);
      if (!headEnds.has(tail)) break;
      for (const cut of headCuts.get(tail) ?? []) {
        if (this.starts[cut] === 1) {
          this.found = true;
          return;
        }
        this.ends[cut] = 1;
      }
    }
    // Its start: each rest it starts with, or that starts with all of it.
    for (let k = 1; k <= Math.min(longestRest, length); k++) {
      const begin = json.slice(start, start + k);
      const cuts = restStarts.get(begin);
      if (cuts === undefined) break;
      for (const cut of cuts) {
        if (k !== length && rests[cut]!.length !== k) continue;
        if (this.ends[cut] === 1) {
          this.found = true;
          return;
        }
        this.starts[cut] = 1;
      }
    }
  }

  /**
   * A Discord token (`[MNO]` and 23-25, `.`, 6, `.`, 27-38 token
   * characters) cut over strings (round 26: `[{"id":"r1","part":"MTk4…"},…]`
   * was never read by columns). Its pieces are strings of token characters
   * and dots, one of them starting with `[MNO]`; the dots' pieces show its
   * 6-character middle: one string holds both dots 6 apart, or one holds a
   * dot with `k` characters after it and another a dot with `m` before it,
   * `k + m` at most 6 (any pieces between them hold the rest of the
   * middle). A decimal number (`3.14`) is no piece. Strings of the token's
   * length at most: a constant per string.
   */
  private discord(json: string, start: number, end: number): void {
    let firstDot = -1;
    let lastDot = -1;
    let dots = 0;
    let digitsOnly = true;
    for (let at = start; at < end; at++) {
      const code = json.charCodeAt(at);
      if (code === 46) {
        if (lastDot === at - 1 && dots > 0) return;
        if (firstDot < 0) firstDot = at;
        lastDot = at;
        dots++;
      } else if (!isTokenCode(code)) return;
      else if (code < 48 || code > 57) digitsOnly = false;
    }
    const first = json.charCodeAt(start);
    if (first === 77 || first === 78 || first === 79) this.discordStart = true;
    const before = firstDot - start;
    const after = end - lastDot - 1;
    if (dots === 2) {
      if (lastDot - firstDot === 7 && before <= 26 && after <= 38) this.bothDots = true;
    } else if (dots === 1 && !(digitsOnly && before > 0 && after > 0)) {
      // Paired with another string's dot only (a string's one dot is one of the two).
      const starts = after <= 6 && before <= 26 ? 1 << after : 0;
      const ends = before <= 6 && after <= 38 ? 1 << before : 0;
      for (let k = 0; k <= 6; k++) {
        // A middle of `k` after the first dot, and at most 6 - k before the second.
        const upTo = (1 << (7 - k)) - 1;
        if (
          ((starts & (1 << k)) !== 0 && (this.middleThenDot & upTo) !== 0) ||
          ((this.dotThenMiddle & (1 << k)) !== 0 && (ends & upTo) !== 0)
        )
          this.paired = true;
      }
      this.dotThenMiddle |= starts;
      this.middleThenDot |= ends;
    }
    if (this.discordStart && (this.bothDots || this.paired)) this.found = true;
  }
}

/** A combining mark: it joins the character before it, in the string before when it starts one. */
const combiningMark = /^\p{M}/u;

/** The longest Discord token (26 + 1 + 6 + 1 + 38): a longer string is no piece of one. */
const DISCORD_LONGEST = 72;

/**
 * Whether `json` holds a typed rule's literal (a superset of "in one
 * string"): anywhere, but for the two-letter prefixes (`SK`, `AC`), only
 * where a key can start (`pairAtStart`; round 32: `TASK`, `BACK`, `ACCESS`,
 * `SKU` made every JSON text with such words parse its columns, 50-110 ms
 * a megabyte, for nothing).
 */
export function holdsLiteral(json: string): boolean {
  // The pairs first: `indexOf` finds one sooner than the pattern of all others.
  return (
    pairs.some(({ literal, follows }) => pairAtStart(json, literal, follows)) ||
    otherLiteral.test(json)
  );
}
