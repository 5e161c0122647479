/**
 * Provider tokens written with a blank (or up to three) after their
 * prefix: `ghp_ R7pQ…`, `AKIA\tZ7QH…`, `sk- proj-…`, `AKIA  Z7QH…`, or a
 * line break (`sk-\nproj-…`, `AKIA\r\nZ7QH…`, since round 18). A
 * model reads them as the token (and joins them when asked to); every
 * provider pattern ends at the blank, so the
 * prefix was left and the rest was found only when random enough for the
 * entropy detector (`ghp_` 87%, `xoxb-` about half, `AKIA` and `glpat-`
 * never: its 16 or 20 characters are too short).
 */
import { stickyPattern } from '../shared/anchored-scan';
import { providerRules } from './provider-rules';

/** How many characters after the blank are read: every prefixed token is shorter, but PEM and JWT bodies. */
const restReach = 512;

/** The longest text before the blank that can be a prefix (`bedrock-api-key-`, 16). */
const longestPrefix = 16;

/**
 * The literals a prefixed rule's matches start with (`ghp_`, `sk-`, `xox`,
 * `AKIA`), each with the rules that start with it, by their first two
 * characters: a token before a blank is looked up by its first two, then
 * compared with a few.
 */
const prefixLiterals = (() => {
  const byFirstTwo = new Map<string, Array<{ literal: string; rules: number[] }>>();
  providerRules.forEach((providerRule, ruleIndex) => {
    if (providerRule.prefix === undefined || providerRule.anchor.min !== 0) return;
    for (const literal of providerRule.anchor.literals) {
      const key = literal.slice(0, 2);
      const list = byFirstTwo.get(key) ?? [];
      const known = list.find(entry => entry.literal === literal);
      if (known) known.rules.push(ruleIndex);
      else list.push({ literal, rules: [ruleIndex] });
      byFirstTwo.set(key, list);
    }
  });
  return byFirstTwo;
})();

/** Each rule's pattern, tried at the start of a joined token only. */
const stickyRules = providerRules.map(providerRule => stickyPattern(providerRule.pattern));

/** The most blanks (spaces, tabs) read between a prefix and its rest: a window holds back as many (`trailingChainStart`'s gap). */
const maxBlanks = 3;

/**
 * True when `token` starts with a prefix literal the join reads (`AKIA`,
 * `xox`, `ghp_`) and is no longer than a prefix can be: a window holds such
 * a token back while the rest after its blank may still come, even when it
 * is letters only (`AKIA`, `ASIA`, `EAAA`, `LTAI`), which as a word it
 * would release.
 */
export function startsWithSplitPrefix(token: string): boolean {
  if (token.length < 2 || token.length > longestPrefix) return false;
  const literals = prefixLiterals.get(token.slice(0, 2));
  return literals?.some(({ literal }) => token.startsWith(literal)) === true;
}

/** A character of a token (`[A-Za-z0-9_-]`): a prefix starts after none. */
function isTokenCode(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) ||
    code === 95 ||
    code === 45
  );
}

/** A match of a provider rule across a blank, in offsets of the text scanned. */
export interface SplitMatch {
  ruleIndex: number;
  /** The rule's match on the prefix joined to the rest (offsets into that joined text). */
  match: RegExpExecArray;
  /** Maps an offset of the joined text to the scanned text's. */
  toSource: (offset: number) => number;
}

/**
 * Calls `found` for each provider match that starts at a prefix written
 * before one to three blanks (spaces, tabs) and runs on past them: the
 * rules are run on the prefix joined to the printable run after the blanks,
 * each rule that
 * starts with the prefix's literal tried at its start. Sites are the
 * `runs` (`printableRuns` of `source`, as the provider scan reads them) with
 * blanks before them and, before those, a token starting with a prefix
 * literal: one lookup per run, and a few sticky matches of at most a few
 * hundred characters per site, so linear.
 */
export function forEachSplitPrefixMatch(
  source: string,
  runs: readonly number[],
  found: (split: SplitMatch) => void,
): void {
  for (let run = 0; run < runs.length; run += 2) {
    const restStart = runs[run]!;
    // The blanks before the rest: one to `maxBlanks` spaces or tabs, one
    // line break (LF or CR LF) among them at most (`AKIA\nZ7QH…`: a token
    // wrapped right after its prefix; round 18).
    let blank = restStart;
    let lineBreaks = 0;
    while (blank > 0 && restStart - blank < maxBlanks) {
      const blankCode = source.charCodeAt(blank - 1);
      if (blankCode === 10) {
        if (++lineBreaks > 1) break;
      } else if (blankCode === 13) {
        if (source.charCodeAt(blank) !== 10) break;
      } else if (blankCode !== 32 && blankCode !== 9) break;
      blank--;
    }
    if (blank === restStart || blank < 2) continue;
    // The token before the blank: from after the last character that is not a token's.
    let prefixStart = blank;
    while (
      prefixStart > 0 &&
      blank - prefixStart < longestPrefix &&
      isTokenCode(source.charCodeAt(prefixStart - 1))
    )
      prefixStart--;
    if (prefixStart > 0 && isTokenCode(source.charCodeAt(prefixStart - 1))) continue;
    if (blank - prefixStart < 2) continue;
    const literals = prefixLiterals.get(source.slice(prefixStart, prefixStart + 2));
    if (literals === undefined) continue;
    const prefix = source.slice(prefixStart, blank);
    const restEnd = Math.min(runs[run + 1]!, restStart + restReach);
    let joined: string | undefined;
    const toSource = (offset: number) =>
      offset < prefix.length ? prefixStart + offset : restStart + (offset - prefix.length);
    // Rule order, as the provider scan reports matches (one rule per literal here, or a few).
    for (const { literal, rules } of literals) {
      if (!prefix.startsWith(literal)) continue;
      joined ??= prefix + source.slice(restStart, restEnd);
      for (const ruleIndex of rules) {
        const pattern = stickyRules[ruleIndex]!;
        pattern.lastIndex = 0;
        const match = pattern.exec(joined);
        // Only a match that takes in the prefix and goes on past the blank
        // (a shorter one is the scan's of the text as written), and not one
        // the cut at `restReach` may have ended.
        if (match === null || match[0].length <= prefix.length) continue;
        if (restEnd < runs[run + 1]! && match[0].length === joined.length) continue;
        found({ ruleIndex, match, toSource });
      }
    }
  }
}
