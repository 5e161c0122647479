/**
 * Provider tokens glued after a word or a domain's top-level label
 * (`jane.doe@example.comghp_q8Zr…`, `See:AKIAZ7QH…` after `See:` is not
 * glued, `tokenghp_…` is). Every provider pattern starts with a boundary
 * (no token character before it), so a key written right after letters
 * was no match; the e-mail finder took the key's letters into the domain
 * (`example.comghp`, no top-level domain), so neither guardrail found
 * anything (round 41's attacker read). A model reads the key out of such
 * text as easily as out of `… ghp_q8Zr…`.
 *
 * Round 44: a key of no fixed shape (Stripe `sk_live_…`, Slack `xoxb-…`,
 * OpenAI `sk-proj-…`), read glued since round 43b after any word, not a
 * domain only, took identifiers of words for keys: `network_test_connectivity`
 * (`rk_test_…`), `task_live_configuration`, `desk-admin-configuration-panel`
 * (`sk-admin-…`), `taskxoxp-notification-handler`. Such a match now needs a
 * digit past its prefix, as the AWS id read on does; a random key of 24
 * base62 characters lacks one about once in 70 (round 45: the entropy
 * reading does not take such a key glued, so a digitless rest whose
 * letters look random is read too, `randomKeyRest`). On the
 * corpora and dev sets (197,665 texts) the glued scan finds nothing, before
 * and after: the identifiers decide. Left: an identifier with a digit
 * (`network_test_connectivity2`) is still a Stripe key, as `rk_test_…2`
 * after a blank is (the Stripe rule's own reading).
 */
import { type LiteralFinder, literalFinder, stickyPattern } from '../shared/anchored-scan';
import { isTokenCode } from './prefix-literals';
import { providerRules } from './provider-rules';

/** The boundary every prefixed provider pattern starts with. */
const leadingBoundary = '(?<![A-Za-z0-9_-])';

/** The most letters read back from a prefix for the word it is glued to (a domain label's longest). */
const longestWord = 63;

interface GluedRules {
  finder: LiteralFinder;
  /** Literal index -> [rule index, literal's offset in a match]. */
  rulesByLiteral: Array<Array<[number, number]>>;
  /** By literal index: it holds `_` or a digit (`shpat_`, `dop_v1_`), so a hex value after it is a key's. */
  marked: boolean[];
  /** By rule index: its pattern without the leading boundary (sticky), for the rules read glued. */
  patterns: Array<RegExp | undefined>;
  /** By rule index: read glued for its `more` alone, of no fixed shape (round 43b). */
  variable: boolean[];
}

/**
 * Whether a pattern matches one length only: no `+`, `*`, `?` nor `{n,m}`
 * range outside its character classes and group openers. A key of a
 * variable length glued to a word after it (`xsk-proj-…y`) would take the
 * word in: only a fixed shape tells where a glued key ends.
 */
function fixedShape(source: string): boolean {
  const outsideClasses = source
    .replace(/\\./g, 'e')
    .replace(/\[[^\]]*\]/g, 'c')
    .replace(/\(\?(?:[:=!]|<[=!])/g, '(');
  return !/[+*?]|\{(\d+),(?!\1\})/.test(outsideClasses);
}

/**
 * The rules read glued to a word: those of a provider prefix (`prefix`)
 * whose pattern starts with the token boundary, has a fixed shape
 * (`fixedShape`) or reads a token to its end (`more`: round 43b, Stripe's
 * `sk_live_…` and Slack's `xoxb-…` glued after a domain were found by no
 * rule; read to the token's end, they end where the main scan's would)
 * and whose literal stands at a fixed offset of the match
 * (`anchor.min === anchor.max`).
 */
const gluedRules: GluedRules = (() => {
  const literals: string[] = [];
  const rulesByLiteral: Array<Array<[number, number]>> = [];
  const patterns: Array<RegExp | undefined> = [];
  const marked: boolean[] = [];
  const variable: boolean[] = [];
  providerRules.forEach((rule, ruleIndex) => {
    const { source } = rule.pattern;
    if (rule.prefix === undefined || !source.startsWith(leadingBoundary)) return;
    const fixed = fixedShape(source);
    if (rule.anchor.min !== rule.anchor.max || (!fixed && rule.more === undefined)) return;
    variable[ruleIndex] = !fixed;
    patterns[ruleIndex] = stickyPattern(
      new RegExp(source.slice(leadingBoundary.length), rule.pattern.flags),
    );
    for (const literal of rule.anchor.literals) {
      let index = literals.indexOf(literal);
      if (index < 0) {
        index = literals.push(literal) - 1;
        rulesByLiteral.push([]);
        marked.push(/[_0-9]/.test(literal));
      }
      rulesByLiteral[index]!.push([ruleIndex, rule.anchor.min]);
    }
  });
  return { finder: literalFinder(literals), rulesByLiteral, marked, patterns, variable };
})();

const isAsciiLetter = (code: number) => (code | 0x20) >= 97 && (code | 0x20) <= 122;

/** `+`, `/` or `=`: base64's characters that are no token's. */
const isBase64Mark = (code: number) => code === 43 || code === 47 || code === 61;

/**
 * A character of a base64 (or base64url) blob: a word must not start after
 * one, nor a key end before one, or a blob's letters would read as a word
 * and a key's shape inside it as a key.
 */
function isBlobCode(code: number): boolean {
  return isTokenCode(code) || isBase64Mark(code);
}

const isDigitCode = (code: number) => code >= 48 && code <= 57;

/** `-` or `_`: what joins a key to the words before it (`x.com-ghp_…`, `prod_AKIA…`). */
const isJoiner = (code: number) => code === 45 || code === 95;

/** How a key is glued to the word before it (`gluedAfterWord`). */
enum Glued {
  No = 0,
  /** After letters, or after a word a joiner ends (`x.comghp_…`, `v2-AKIA…`). */
  Word = 1,
  /** After a word of letters and digits with no joiner (`v2AKIA…`, `7AKIA…`, round 46). */
  DigitWord = 2,
}

/**
 * Whether `start` ends a word glued to what follows: one to 63 ASCII
 * letters back to the text's start or a character that no token nor
 * base64 blob has (a blank, `.`, `@`, `:`, a quote, a bracket); or such a
 * word, or such a character, and a run of `-` or `_` (round 44:
 * `x.com-ghp_…`, `prod--AKIA…`, `[EMAIL_ADDRESS]-AKIA…` were found by no
 * rule; round 45: it read one or two, and `x.com___ghp_…`, `---AKIA…`
 * were released). A joiner inside the word ends it as no word (an
 * identifier's or a blob's run: gitleaks' random negatives
 * `…a_ecghbf…jhahfbhf_…` are; `my-prod-AKIA…` is left to the entropy
 * reading); a word a joiner ends may hold digits (`v2-AKIA…`, round 45:
 * found by no rule before). Round 46: a word glued with no joiner may hold
 * digits too (`v2AKIA…`, `7AKIA…` were found by no rule): `Glued.DigitWord`,
 * which the caller takes for a key of a fixed shape only (a variable one,
 * `2sk_live_…`, would take an identifier's digits and words). A single `=` before the word is an assignment's
 * (`key=xAKIA…`, `?id=v2AKIA…`, found by no rule before round 46), as
 * `key=AKIA…` is; `==` is a blob's padding and still ends no word.
 */
function gluedAfterWord(source: string, start: number): Glued {
  let lettersEnd = start;
  // The joiners right before the key (`prod-AKIA…`, `--ghp_…`, `x.com___ghp_…`).
  // Linear: a run read back from one start ends where the previous key
  // starts (every prefix literal starts with a letter), so runs of different starts
  // do not overlap.
  while (lettersEnd > 0 && isJoiner(source.charCodeAt(lettersEnd - 1))) lettersEnd--;
  const joined = lettersEnd < start;
  let wordStart = lettersEnd;
  let digits = false;
  for (;;) {
    if (wordStart === 0) break;
    const code = source.charCodeAt(wordStart - 1);
    if (!isAsciiLetter(code) && !isDigitCode(code)) break;
    if (lettersEnd - wordStart === longestWord) return Glued.No;
    if (!isAsciiLetter(code)) digits = true;
    wordStart--;
  }
  if (wordStart === start) return Glued.No;
  if (wordStart > 0 && isBlobCode(source.charCodeAt(wordStart - 1))) {
    // `key=v2AKIA…`: one `=` after a name's last character.
    if (
      source.charCodeAt(wordStart - 1) !== 61 ||
      wordStart < 2 ||
      !isTokenCode(source.charCodeAt(wordStart - 2))
    )
      return Glued.No;
  }
  return digits && !joined ? Glued.DigitWord : Glued.Word;
}

/** Hex digits only: a digest after a word (`cachekey-d41d8cd9…`), not a key. */
const hexOnly = /^[0-9A-Fa-f]+$/;

/** A decimal digit: what a random key glued to a word holds past its prefix (see `forEachGluedKeyMatch`). */
const hasDigit = /[0-9]/;

/** Eight lower-case letters in a row: a word's run (`connectivity`, `Configuration`). */
const lowerCaseWord = /[a-z]{8}/;

/** Two capitals side by side (`qZRLm`): about one letter pair in four of a random key's, rare in words. */
const capitalPairs = /[A-Z](?=[A-Z])/g;

/**
 * Whether a key of no fixed shape glued to a word reads as random past its
 * prefix: a digit (round 44), or (round 45) a lower-case letter, two
 * capitals side by side at least twice, and no run of eight lower-case
 * letters. A random key of 24 base62 characters lacks a digit about once
 * in 70, and the entropy reading does not find such a key glued either
 * (`x.comsk_live_qZrLmX…`, and with `pii()` first the address before it,
 * were released); identifiers of words have one case
 * (`network_test_connectivity`), a word's run (`task_live_Configuration`)
 * or a capital per word (`task_live_UserDataSet`).
 */
function randomKeyRest(rest: string): boolean {
  if (hasDigit.test(rest)) return true;
  if (!/[a-z]/.test(rest) || lowerCaseWord.test(rest)) return false;
  return (rest.match(capitalPairs)?.length ?? 0) >= 2;
}

/**
 * Calls `found(ruleIndex, match)` for each match of a prefixed provider
 * rule that starts right after a word's letters (`gluedAfterWord`), with
 * `match.index` an offset of `source`, as `scanProviderRules` gives its
 * own. A match whose value after a prefix of letters is hex digits only is
 * none (Mailgun's `key-`, Twilio's `SK` and `AC`: a
 * digest glued to a word has that shape; Shopify's `shpat_` is marked by
 * its `_`), nor one a base64 `+`, `/` or `=` follows, nor one a token
 * character follows unless its rule reads on past its bound (`more`:
 * `x.comghp_…done` is GitHub's key read to the token's end, as `see
 * ghp_…done` is; round 43, it was left to the entropy reading, which
 * found nothing there; not where the text it runs on to was glued to it by
 * a character the normal form left out, `removedBefore`: `token\x1bghp_…\x1bdone`
 * is left to the reading with controls as blanks, which keeps the words). `runs`:
 * `printableRuns` of the text (every glued key lies in one); only their
 * characters are read for the literals. Linear: a literal search of the
 * runs, the joiners before a hit (runs of different hits do not overlap)
 * and at most 63 letters read back per hit, and one sticky match per rule.
 */
export function forEachGluedKeyMatch(
  source: string,
  runs: Int32Array,
  found: (ruleIndex: number, match: RegExpExecArray) => void,
  removedBefore?: (offset: number) => boolean,
): void {
  if (runs.length === 0) return;
  const { finder, rulesByLiteral, marked, patterns, variable } = gluedRules;
  // The runs as the finder takes them (a loop: `Array.from` of a typed array costs more).
  const windows: number[] = new Array(runs.length);
  for (let index = 0; index < runs.length; index++) windows[index] = runs[index]!;
  finder.findWithin(source, windows, (at, literal) => {
    for (const [ruleIndex, offset] of rulesByLiteral[literal]!) {
      const start = at - offset;
      const glued = gluedAfterWord(source, start);
      if (glued === Glued.No) continue;
      // Round 46: after digits glued with no joiner, a key of a fixed shape only.
      if (glued === Glued.DigitWord && variable[ruleIndex] === true) continue;
      // A variable key glued to its word by a character the normal form left out (`x\x1bsk-…\x1by`)
      // would read on over the next one too: left to the reading with controls as blanks.
      if (variable[ruleIndex] === true && removedBefore?.(start) === true) continue;
      const pattern = patterns[ruleIndex]!;
      pattern.lastIndex = start;
      const match = pattern.exec(source);
      if (match === null) continue;
      const rule = providerRules[ruleIndex]!;
      const value = rule.group === undefined ? match[0] : match[rule.group];
      if (value === undefined) continue;
      if (!marked[literal] && hexOnly.test(value.slice(rule.prefix))) continue;
      // A key of no fixed shape glued to a word holds a digit past its prefix (round 44):
      // identifiers of words (`network_test_connectivity`, `desk-admin-configuration-panel`,
      // a word ending in `rk` or `sk`) were read as a Stripe and an OpenAI key.
      // Round 45: or letters of both cases in no word's run (a digitless random key:
      // `x.comsk_live_qZrLmXwT…` and, with `pii()` first, the address before it were released).
      if (variable[ruleIndex] === true && !randomKeyRest(value.slice(rule.prefix))) continue;
      // A match a blob's `+`, `/`, `=` follows is not read glued; nor one the text runs on
      // after, unless its rule reads on past its bound (`more`, GitHub's: `x.comghp_…done`
      // is its key read to the token's end, as `see ghp_…done` is; round 43).
      const end = start + match[0].length;
      const after = source.charCodeAt(end);
      if (isBase64Mark(after)) continue;
      if (isTokenCode(after) && (rule.more === undefined || removedBefore?.(end) === true))
        continue;
      found(ruleIndex, match);
    }
  });
}

/** The most characters a provider literal runs past a domain's run (`ghp_`'s `_` ends it). */
const literalReach = 32;

/**
 * Where a provider key glued to the last label of the domain run
 * `text[from, end)` starts (`john@example.comAKIA…`, `jane@x.orgghp_…`),
 * as `forEachGluedKeyMatch` finds it; `end` when none does. The e-mail
 * finder cuts the domain there (round 43): the run read whole has no
 * top-level domain (`comAKIA…`), so `pii()` found no address and, before
 * `secrets()` in a chain, released it beside the key it left to
 * `secrets()`. A `-` joining the key to the label ends the domain too
 * (round 44). Reads the last label and at most 32 characters past the
 * run: bounded per address.
 */
export function gluedKeyInDomain(text: string, from: number, end: number): number {
  const labelStart = text.lastIndexOf('.', end - 1) + 1;
  if (labelStart <= from) return end;
  // The common case, read for no literal: a label of fewer than 22 letters the run ends
  // after with no token character (`com`, `example.com.`). A glued key of letters only
  // there is one of at least 20 (an AWS id, the shortest fixed shape of letters) after a
  // top-level domain of at least 2; every other key holds a `-`, a digit or ends at `_`.
  if (end - labelStart < 22 && !isTokenCode(text.charCodeAt(end))) {
    let at = labelStart;
    while (at < end && isAsciiLetter(text.charCodeAt(at))) at++;
    if (at === end) return end;
  }
  let keyStart = end;
  forEachGluedKeyMatch(
    text,
    Int32Array.of(labelStart, Math.min(text.length, end + literalReach)),
    (_, match) => {
      if (match.index < keyStart) keyStart = match.index;
    },
  );
  // A `-` joining the key to the label is no part of the domain (`example.com-AKIA…`, round 44).
  while (keyStart < end && keyStart > labelStart && text.charCodeAt(keyStart - 1) === 45)
    keyStart--;
  return keyStart;
}
