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
import { isTokenCode, prefixLiteralRules, prefixLiteralsStartWithLetters } from './prefix-literals';
import { providerRules } from './provider-rules';
import { providerRunLength } from './provider-scan';

/** How many characters after the blank are read: every prefixed token is shorter, but PEM and JWT bodies. */
const restReach = 512;

/** The longest text before the blank that can be a prefix (`bedrock-api-key-`, 16). */
const longestPrefix = 16;

/**
 * The longest token before the blank that is read as a token's start: a
 * prefix and part of the rest (`sk-proj-Tq7vR2mX9p Lw4Z…`, round 19: a
 * blank inside the rest left the prefix and the part before the blank
 * visible, the part after it an entropy finding at best).
 */
const longestTokenBefore = 256;

/** How far a printable run after the blanks too short to be one of `runs` is read. */
const shortRestReach = 64;

/**
 * The prefix literals (`prefix-literals.ts`) by their first two
 * characters: a token before a blank is looked up by its first two, then
 * compared with a few.
 */
const prefixLiterals = (() => {
  const byFirstTwo = new Map<string, Array<{ literal: string; rules: readonly number[] }>>();
  for (const entry of prefixLiteralRules) {
    const key = entry.literal.slice(0, 2);
    const list = byFirstTwo.get(key);
    if (list) list.push(entry);
    else byFirstTwo.set(key, [entry]);
  }
  return byFirstTwo;
})();

/** Flags, by `first * 128 + second` code, the first two characters of `prefixLiterals`' keys (all ASCII). */
const prefixPairs = (() => {
  const pairs = new Uint8Array(128 * 128);
  for (const key of prefixLiterals.keys()) pairs[key.charCodeAt(0) * 128 + key.charCodeAt(1)] = 1;
  return pairs;
})();

/** Whether `prefixLiterals` has a key of these two codes. */
function startsPrefixLiteral(first: number, second: number): boolean {
  return first < 128 && second < 128 && prefixPairs[first * 128 + second] === 1;
}

/** Each rule's pattern, tried at the start of a joined token only. */
const stickyRules = providerRules.map(rule => stickyPattern(rule.joined ?? rule.pattern));

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

/**
 * True when `text` starts with a prefix literal of a provider rule
 * (`ghp_`, `sk-`, `AKIA`, `xox`), at any length: a string of a split key's
 * run that starts so may be where the key starts.
 */
export function startsWithPrefixLiteral(text: string): boolean {
  const literals = prefixLiterals.get(text.slice(0, 2));
  return literals?.some(({ literal }) => text.startsWith(literal)) === true;
}

/** Whether `text` starts with a prefix literal of three characters or more (`ghp_`, `sk-`; not `SK`). */
function startsWithLongLiteral(text: string): boolean {
  const literals = prefixLiterals.get(text.slice(0, 2));
  return literals?.some(({ literal }) => literal.length >= 3 && text.startsWith(literal)) === true;
}

// Where the key pieces' scan has long imported it from.
export { isTokenCode };

/**
 * True when rule `ruleIndex` matches all of `token`: a whole token before
 * a blank is the scan's, and the word after it is no part of it.
 */
function isWholeMatch(ruleIndex: number, token: string): boolean {
  const pattern = stickyRules[ruleIndex]!;
  pattern.lastIndex = 0;
  const match = pattern.exec(token);
  return match !== null && match[0].length === token.length;
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
 * Calls `found` for each provider match that starts at a token written
 * before one to three blanks (spaces, tabs; one line break among them at
 * most) and runs on past them: the rules are run on the token joined to the
 * printable run after the blanks, each rule that starts with the token's
 * prefix literal tried at its start. The token is a prefix (`ghp_ R7pQ…`)
 * or, since round 19, a prefix and part of the rest (`sk-proj-Tq7v… Lw4Z…`,
 * up to `longestTokenBefore` characters, not when a rule matches it whole).
 * Sites: each of `runs` (`printableRuns` of `source`, as the provider scan
 * reads them) with blanks and such a token before it, and each of `runs`
 * ending in such a token with blanks and a shorter printable run after it
 * (`AKIAZ7QH3M2K X9TN4LPW`). One lookup per run, a token read back to the
 * blank before it, and a few sticky matches of at most a few hundred
 * characters per site, so linear.
 */
export function forEachSplitPrefixMatch(
  source: string,
  runs: Int32Array,
  found: (split: SplitMatch) => void,
): void {
  // Where the last match of three or more pieces ends: runs before it are its pieces.
  let chainedEnd = -1;
  for (let run = 0; run < runs.length; run += 2) {
    const restStart = runs[run]!;
    if (runs[run + 1]! <= chainedEnd) continue;
    const blank = blanksBefore(source, restStart);
    if (blank !== restStart && restStart >= chainedEnd) {
      chainedEnd = Math.max(
        chainedEnd,
        joinAcross(
          source,
          blank,
          restStart,
          Math.min(runs[run + 1]!, restStart + restReach),
          runs[run + 1]!,
          found,
        ),
      );
    }
    // A run ending in a token, and a run too short to be one of `runs` after the blanks.
    const tokenEnd = runs[run + 1]!;
    const shortStart = blanksAfter(source, tokenEnd);
    if (shortStart === tokenEnd) continue;
    let shortEnd = shortStart;
    while (
      shortEnd < source.length &&
      shortEnd - shortStart < shortRestReach &&
      isPrintableCode(source.charCodeAt(shortEnd))
    )
      shortEnd++;
    // A run this long is one of `runs`, read as a rest above.
    if (shortEnd === shortStart || shortEnd - shortStart >= providerRunLength) continue;
    chainedEnd = Math.max(
      chainedEnd,
      joinAcross(source, tokenEnd, shortStart, shortEnd, shortEnd, found),
    );
  }
}

/** Printable ASCII but the space. */
function isPrintableCode(code: number): boolean {
  return code > 32 && code < 127;
}

/** Whether `code` may stand between a token and its rest (space, tab, LF, CR). */
function blankStep(source: string, at: number, lineBreaks: { count: number }): boolean {
  const code = source.charCodeAt(at);
  if (code === 10) return ++lineBreaks.count <= 1;
  if (code === 13) return source.charCodeAt(at + 1) === 10;
  return code === 32 || code === 9;
}

/**
 * Where the blanks before `restStart` start: one to `maxBlanks` spaces or
 * tabs, one line break (LF or CR LF) among them at most (`AKIA\nZ7QH…`: a
 * token wrapped right after its prefix; round 18). `restStart` when none.
 */
function blanksBefore(source: string, restStart: number): number {
  let blank = restStart;
  const lineBreaks = { count: 0 };
  while (blank > 0 && restStart - blank < maxBlanks && blankStep(source, blank - 1, lineBreaks))
    blank--;
  return blank;
}

/** Where the rest after the blanks at `tokenEnd` starts (as `blanksBefore` reads them); `tokenEnd` when none. */
function blanksAfter(source: string, tokenEnd: number): number {
  let at = tokenEnd;
  const lineBreaks = { count: 0 };
  while (at < source.length && at - tokenEnd < maxBlanks && blankStep(source, at, lineBreaks)) at++;
  // A CR LF cut by the count is no blank run; the rest starts at a printable character.
  if (at < source.length && !isPrintableCode(source.charCodeAt(at))) return tokenEnd;
  return at === tokenEnd || blanksBefore(source, at) !== tokenEnd ? tokenEnd : at;
}

/** Whether `source[from, to)` is all token characters (`[A-Za-z0-9_-]`). */
function allTokenCodes(source: string, from: number, to: number): boolean {
  for (let at = from; at < to; at++) if (!isTokenCode(source.charCodeAt(at))) return false;
  return true;
}

/** Whether `text[from, to)` is only signs that close a sentence or a group: `.` `,` `;` `:` `!` `?` `)` `]` `}` quotes. */
function closingOnly(text: string, from: number, to: number): boolean {
  for (let at = from; at < to; at++) {
    if (!'.,;:!?)]}\'"`'.includes(text[at]!)) return false;
  }
  return true;
}

/**
 * Whether `source[from, to)`, a run after a blank after a token a rule
 * matches whole, reads as the rest of that key: `keyLike` with a letter in
 * it (`… 2024-05-01` is a date after a key, not its rest), or a short rest
 * that reads as a key's end (`shortKeyEnd`: `… iWt`, round 23).
 */
function restOfWholeToken(source: string, from: number, to: number): boolean {
  const rest = source.slice(from, to);
  return (keyLike(rest) && /[A-Za-z]/.test(rest)) || shortKeyEnd(rest);
}

/** The most pieces a prefixed token is read from (its prefix's piece included). */
const maxTokenPieces = 8;

/**
 * Whether `part`, taken in by a match as a third or later piece, reads as more of a key than as a word: a digit, or a
 * capital after a small letter's place (`Lw4Z`, `cB8n`; not `thanks`,
 * `Thanks`, `README`). Four characters at least.
 */
function keyLike(part: string): boolean {
  if (part.length < 4) return false;
  let digit = false;
  let lower = false;
  let innerUpper = false;
  for (let at = 0; at < part.length; at++) {
    const code = part.charCodeAt(at);
    if (code >= 48 && code <= 57) digit = true;
    else if (code >= 97 && code <= 122) lower = true;
    else if (code >= 65 && code <= 90 && at > 0) innerUpper = true;
  }
  return digit || (lower && innerUpper);
}

/**
 * The shape of a word of prose or a technical term that holds digits: a
 * name and a number (`HTTP2`, `sha256`, `ES2020`, `version2`, `UTF-8`), with
 * a short letter or number tail (`x86_64`, `gpt4o`, `py3k`, `utf8mb4`), or
 * a number (`2024`, `3rd`). Ten key characters at most.
 */
const proseWordShape =
  /^(?:[A-Za-z]{1,8}[-_]?\d{1,4}(?:[-_]?\d{1,2}|[A-Za-z]{1,2})?|[A-Za-z]{3,8}\d{1,2}[A-Za-z]{1,2}\d|\d{1,4}|\d{1,2}[A-Za-z]{1,3})$/;

/** How many of a key's last characters tell its alphabet to `proseWord`. */
const alphabetReach = 20;

/**
 * Whether `part`, a piece of four characters or more after `key` (the key
 * so far, `keyStart` where its characters after the prefix literal start),
 * reads as a word of prose rather than more of the key (round 26:
 * `sk-proj-… HTTP2`, `… sha256`, `… x86_64`, `… utf8mb4` were redacted with
 * the key; round 25 had a fixed list of short ones). A word is
 * `proseWordShape` with its letters in a word's case (a small letter never
 * followed by a capital: `IPv6`, `OAuth2`; not `cB8n`, `Lw4Z`), and only
 * after a key whose last characters hold both cases: in a key of one case
 * (`xapp-…-[a-z0-9]`, `xoxe-…-[A-Z0-9]`) a piece of that case is as likely
 * its rest. A random piece of a mixed-case key reads so too (base62: 25% of
 * four characters, 6.5% of six, 1.6% of eight, 0.3% of ten): such words only
 * end a key when no more of the key follows them (`joinAcross`).
 */
function proseWord(part: string, key: string, keyStart: number): boolean {
  const word = part.slice(0, beforeClosingSigns(part));
  if (!proseWordShape.test(word)) return false;
  let lowerBefore = false;
  for (let at = 0; at < word.length; at++) {
    const code = word.charCodeAt(at);
    if (code >= 97 && code <= 122) lowerBefore = true;
    else if (code >= 65 && code <= 90 && lowerBefore) return false;
  }
  const alphabet = key.slice(Math.max(keyStart, key.length - alphabetReach));
  return /[a-z]/.test(alphabet) && /[A-Z]/.test(alphabet);
}

/** A short word of prose: one to three letters, small but perhaps the first (`and`, `The`, `a`). */
function isShortWord(word: string): boolean {
  return /^[A-Za-z][a-z]{0,2}$/.test(word);
}

/** A match array of all of `text` (a match cut short of a word it took in). */
function matchOf(text: string): RegExpExecArray {
  return Object.assign([text], { index: 0, input: text, groups: undefined }) as RegExpExecArray;
}

/** The most key characters of a piece `shortKeyEnd` or, before a match, `allTokenCodes` may take in below `keyLike`'s four. */
const shortPieceMax = 3;

/**
 * How many characters `part` has before the closing signs it ends with
 * (`e2R).` 3): a piece's key characters, the match may leave the signs.
 */
function beforeClosingSigns(part: string): number {
  let end = part.length;
  while (end > 0 && closingOnly(part, end - 1, end)) end--;
  return end;
}

/**
 * Short words of prose that read as a key's end to `shortKeyEnd` (a letter
 * and a digit): a version (`v2`, `V10`), an ordinal (`3rd`), a factor or an
 * architecture (`x2`, `2x`, `x86`), a quarter, half or priority (`Q3`, `H1`,
 * `P0`), a dimension or network generation (`3D`, `5G`), and a few names
 * written beside keys (`S3`, `EC2`, `K8s`, `2FA`, `B2B`, `MD5`).
 */
const commonShortWord =
  /^(?:[vV]\d{1,2}|\d(?:st|nd|rd|th)|[xX]\d{1,2}|\d{1,2}[xX]|[QHPqhp]\d|\d[DGdg]|S3|s3|EC2|ec2|[Kk]8[sS]|2FA|2fa|B2[BC]|P2P|MD5|md5)$/;

/**
 * Whether `part`, two or three token characters (and closing signs after
 * them), reads as the end of a key split once more before it (round 23:
 * `sk-proj-… sK6f… iWt` left `iWt` visible, since `keyLike` takes four at
 * least): a letter and a digit, or a capital after a small letter (`iWt`,
 * `x9Q.`, `aB`; not `ok`, `is`, `Wt`, `The`, `42`, `a.`). Three random
 * characters of a key's alphabet read so about half the time; an ordinary
 * word after a key seldom, and those that do are no key's end
 * (`commonShortWord`, round 25: `sk-proj-… S3` was redacted with the `S3`,
 * `… v2` too). A key whose own last piece is such a word leaves it visible:
 * two or three characters of it, not the key.
 */
function shortKeyEnd(part: string): boolean {
  const end = beforeClosingSigns(part);
  if (end < 2 || end > shortPieceMax) return false;
  if (commonShortWord.test(part.slice(0, end))) return false;
  let digit = false;
  let letter = false;
  let lowerBefore = false;
  let innerUpper = false;
  for (let at = 0; at < end; at++) {
    const code = part.charCodeAt(at);
    if (code >= 48 && code <= 57) digit = true;
    else if (code >= 97 && code <= 122) {
      letter = true;
      lowerBefore = true;
    } else if (code >= 65 && code <= 90) {
      letter = true;
      if (lowerBefore) innerUpper = true;
    } else if (code !== 95 && code !== 45) return false;
  }
  return letter && (digit || innerUpper);
}

/**
 * The provider matches of the token ending at `blank` joined to the rest
 * `source[restStart, restEnd)` (`restEnd` before `restRunEnd`: cut at
 * `restReach`), and since round 21 to more pieces after it when the match
 * takes in all of the rest (`sk-proj-Tq7v… Lw4Z… cB8n…`, up to
 * `maxTokenPieces` and `restReach` characters), each further piece one
 * that reads as a key's (`keyLike`: `… thanks` is no piece) and is taken
 * in whole. A token a rule matches whole (`sk-proj-` and 20 or more of
 * its 20 to 200) takes in a rest only when it is such a piece with a letter
 * and the match takes it in whole, but closing signs (round 22; before, it
 * took in nothing): joined to a rest whose run goes on past the match
 * (`password-555:sk-proj-… x0x5…E7:[AWS_ACCESS_KEY_ID][x:-…`), its
 * redaction takes the blank out and the assignment's value before it runs
 * on into the rest of that run, so a second redaction redacts more
 * (redaction-idempotency.test.ts). Returns where the last match of three or more pieces ends in `source`
 * (its pieces are no site again), else -1.
 */
function joinAcross(
  source: string,
  blank: number,
  restStart: number,
  restEnd: number,
  restRunEnd: number,
  found: (split: SplitMatch) => void,
): number {
  if (blank < 2) return -1;
  // The token before the blank: from after the last character that is not a token's.
  // A prefix that ends with a dot (`hvs.`, `SG.`, `t1.`) is read with it (round 33:
  // `hvs. <token>` was not joined, the rest an entropy finding at best).
  const dotted = source.charCodeAt(blank - 1) === 46;
  let prefixStart = dotted ? blank - 1 : blank;
  while (
    prefixStart > 0 &&
    blank - prefixStart < longestTokenBefore &&
    isTokenCode(source.charCodeAt(prefixStart - 1))
  )
    prefixStart--;
  if (prefixStart > 0 && isTokenCode(source.charCodeAt(prefixStart - 1))) return -1;
  if (blank - prefixStart < 2) return -1;
  // Looked up by its first two codes before a key is sliced (round 33: a slice per printable run).
  if (!startsPrefixLiteral(source.charCodeAt(prefixStart), source.charCodeAt(prefixStart + 1)))
    return -1;
  const literals = prefixLiterals.get(source.slice(prefixStart, prefixStart + 2));
  if (literals === undefined) return -1;
  const prefix = source.slice(prefixStart, blank);
  if (dotted && !literals.some(({ literal }) => literal === prefix)) return -1;
  // A token a rule matches whole (`sk-proj-` and 20 or more) takes in a
  // rest only when that rest reads as a key's and the match takes it in
  // whole (`restOfWholeToken`): `… thanks`, `… 2024` and a run the match
  // ends inside stay apart.
  const wholeBefore =
    prefix.length > longestPrefix &&
    literals.some(
      ({ literal, rules }) =>
        prefix.startsWith(literal) && rules.some(ruleIndex => isWholeMatch(ruleIndex, prefix)),
    );
  if (wholeBefore && !(restEnd === restRunEnd && restOfWholeToken(source, restStart, restEnd)))
    return -1;
  let chainedEnd = -1;
  // Rule order, as the provider scan reports matches (one rule per literal here, or a few).
  for (const { literal, rules } of literals) {
    if (!prefix.startsWith(literal)) continue;
    for (const ruleIndex of rules) {
      const pattern = stickyRules[ruleIndex]!;
      const starts = [prefixStart, restStart];
      const ends = [blank, restEnd];
      let joined = prefix + source.slice(restStart, restEnd);
      let runEnd = restRunEnd;
      pattern.lastIndex = 0;
      let match = pattern.exec(joined);
      const keyStart = literal.length;
      // The pieces before a run of words of prose at the chain's end
      // (`proseWord`), 0 when the last piece is no such word: a word a piece
      // of the key follows was the key's (round 26).
      let beforeWords =
        wholeBefore && proseWord(source.slice(restStart, restEnd), prefix, keyStart) ? 1 : 0;
      // Whether the last piece taken is a short word that only completed the match (`… c7Q and`).
      let completingWord =
        match !== null &&
        !wholeBefore &&
        isShortWord(joined.slice(prefix.length, beforeClosingSigns(joined)));
      // After a whole token, the rest whole or not at all (but closing signs).
      if (
        wholeBefore &&
        (match === null ||
          (match[0].length !== joined.length &&
            !(
              match[0].length > prefix.length && closingOnly(joined, match[0].length, joined.length)
            )))
      )
        continue;
      // More pieces while the match takes in all that is joined, or there is
      // none yet and all of it is a token's (`ghp_q8Zr4Lm2 Xw9Tb6Yp1K d7Hs…`:
      // no 36 after the prefix until the third piece).
      while (
        starts.length < maxTokenPieces &&
        joined.length < restReach &&
        ends[ends.length - 1] === runEnd &&
        (match === null
          ? allTokenCodes(source, starts[starts.length - 1]!, ends[ends.length - 1]!)
          : match[0].length === joined.length)
      ) {
        const next = blanksAfter(source, runEnd);
        if (next === runEnd) break;
        let nextEnd = next;
        const reach = restReach - joined.length;
        while (
          nextEnd < source.length &&
          nextEnd - next < reach &&
          isPrintableCode(source.charCodeAt(nextEnd))
        )
          nextEnd++;
        // The whole piece (but closing signs: `….`, `…),`) or none of it: a
        // key redacted up to the middle of a run would leave the run's end
        // glued to its placeholder (where an assignment's value before the
        // key reads on into it).
        if (nextEnd < source.length && isPrintableCode(source.charCodeAt(nextEnd))) break;
        const piece = source.slice(next, nextEnd);
        // A piece under four characters (round 23: `ghp_q8Zr… 1Kd7… e2R`
        // was no piece, and the key no match at all): one that reads as a
        // key's (`shortKeyEnd`), or, while the rule has no match yet, any of
        // token characters that completes it (taken in whole, below). Short
        // words do not carry a match on (`sk-proj-abc123 and is in the …`).
        const keyEnd = beforeClosingSigns(piece);
        const shortPiece = keyEnd > 0 && keyEnd <= shortPieceMax && allTokenCodes(piece, 0, keyEnd);
        if (!shortPiece && !keyLike(piece)) break;
        // While the rule has no match yet, a piece that starts with a prefix
        // literal of three characters or more (`ghp_`, `sk-`, `xox`) is the
        // next key's start, a site of its own (round 25: 1 MB where every
        // token is a site, `ghp_q8Zr…Tb6 a1 b2 ghp_…`, read each chain over
        // all of its eight pieces, a regex run on a longer text at each),
        // unless the key is complete with it (round 26: a key whose own
        // piece starts so, `sk-proj-Tq7vR2 mX9pLw4Z xoxb8nYd…`, was cut
        // there and sent whole): one more match at most per chain.
        const literalPiece = match === null && piece.length >= 3 && startsWithLongLiteral(piece);
        const longerText = joined + piece;
        pattern.lastIndex = 0;
        const longer = pattern.exec(longerText);
        if (literalPiece && (longer === null || longer[0].length < longerText.length)) break;
        if (shortPiece && !shortKeyEnd(piece) && !(match === null && longer !== null)) break;
        // A match that a piece more undoes keeps what it had (round 25:
        // `ghp_… Xw9T…Qe2R v2`, 36 after the prefix and then 38, was no
        // match at all, the key sent whole).
        if (match !== null && longer === null) break;
        if (
          longer !== null &&
          longer[0].length !== longerText.length &&
          !(
            longer[0].length > joined.length &&
            closingOnly(longerText, longer[0].length, longerText.length)
          )
        )
          break;
        completingWord = match === null && shortPiece && isShortWord(piece.slice(0, keyEnd));
        if (match === null || shortPiece || !proseWord(piece, joined, keyStart)) beforeWords = 0;
        else if (beforeWords === 0) beforeWords = starts.length;
        starts.push(next);
        ends.push(nextEnd);
        joined = longerText;
        match = longer;
        runEnd = nextEnd;
      }
      // Words of prose after the key are no part of it (`sk-proj-… HTTP2`).
      if (beforeWords > 0) {
        starts.length = beforeWords;
        ends.length = beforeWords;
        joined = prefix;
        for (let piece = 1; piece < beforeWords; piece++)
          joined += source.slice(starts[piece], ends[piece]);
        runEnd = ends[beforeWords - 1]!;
        pattern.lastIndex = 0;
        match = pattern.exec(joined);
      }
      // Only a match that takes in the prefix and goes on past the blank
      // (a shorter one is the scan's of the text as written).
      if (match === null || match[0].length <= prefix.length) continue;
      // Not a match the cut at `restReach` may have ended.
      if (ends[ends.length - 1]! < runEnd && match[0].length === joined.length) continue;
      // A short word of prose the key needed to reach its length (`ghp_…30 c7Q and`,
      // round 30: `and` was redacted with the key) is left visible: the key is
      // redacted up to it, a few of its last characters perhaps with it.
      if (completingWord && providerRules[ruleIndex]!.group === undefined) {
        const wordStart = joined.length - (ends[ends.length - 1]! - starts[starts.length - 1]!);
        if (wordStart <= literal.length) continue;
        if (match[0].length > wordStart) match = matchOf(joined.slice(0, wordStart));
        starts.length--;
        ends.length--;
      }
      const offsets = [0];
      for (let piece = 1; piece < starts.length; piece++) {
        offsets.push(offsets[piece - 1]! + ends[piece - 1]! - starts[piece - 1]!);
      }
      const toSource = (offset: number) => {
        let piece = offsets.length - 1;
        while (piece > 0 && offsets[piece]! > offset) piece--;
        return starts[piece]! + (offset - offsets[piece]!);
      };
      if (starts.length > 2) chainedEnd = Math.max(chainedEnd, toSource(match[0].length - 1) + 1);
      found({ ruleIndex, match, toSource });
    }
  }
  return chainedEnd;
}

/**
 * A token that starts with a prefix literal (after no token character) and
 * is too short to be one of the provider scan's printable runs, before a
 * blank: where a key whose first two pieces are both short starts
 * (`ghp_q8Zr4L m2Xw9Tb6Yp 1Kd7Hs3Nf5…`). One pass of V8's regex engine.
 * Every literal starts with a letter, so "after no token character" is a
 * word boundary (`\b`) not after a `-`, checked by the caller: the
 * look-behind `(?<![A-Za-z0-9_-])` tried at every position made the pass
 * cost about 40 instructions a character, `\b` about 24 (round 22). A
 * literal that did not would keep the look-behind.
 */
const [prefixedWordStart, shortPrefixedToken] = (() => {
  const literals = [...prefixLiterals.values()]
    .flat()
    .map(({ literal }) => literal)
    .sort((first, second) => second.length - first.length);
  const start = prefixLiteralsStartWithLetters ? '\\b' : '(?<![A-Za-z0-9_-])';
  const alternation = `${start}(?:${literals
    .map(literal => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|')})`;
  return [
    new RegExp(alternation, 'g'),
    new RegExp(`${alternation}[A-Za-z0-9_-]{0,${providerRunLength - 2}}(?=[ \t\r\n])`, 'y'),
  ];
})();

/**
 * Every offset of `source` where a prefix literal starts a word (where
 * `shortPrefixedToken`'s literal part matches), in order: the sites of
 * `forEachShortPiecesMatch` and of `forEachPiecedAwsMatch`, found in one
 * pass of V8's regex engine for both (round 35: the AWS prefixes were a
 * second pass over every character, about 0.3 ms per MB of pieces). The
 * literal alternation costs what the whole token pattern did; that pattern
 * is then tried, sticky, only at these offsets (62 on the dev sets' first
 * MB). Since round 42 `findSecrets` takes the same offsets from the
 * provider literals' pass (`scanProviderRules`' `prefixSites`), a pass
 * fewer; this one is the scans' default and the reference it is tested
 * against.
 */
export function prefixedWordStarts(source: string): number[] {
  const starts: number[] = [];
  prefixedWordStart.lastIndex = 0;
  for (let site = prefixedWordStart.exec(source); site; site = prefixedWordStart.exec(source)) {
    starts.push(site.index);
    prefixedWordStart.lastIndex = site.index + 1;
  }
  return starts;
}

/**
 * Calls `found` for each provider match that starts at a prefixed token
 * shorter than the provider scan's printable runs and runs on over a next
 * piece that is short too (round 22: `ghp_q8Zr4L m2Xw9Tb6Yp 1Kd7Hs3Nf5
 * Vg0Jc7Qe2R`, `sk-proj- Tq7vR2mX9p Lw4ZcB8nYd …`). `forEachSplitPrefixMatch`
 * starts from a printable run of 14 or more, so a key whose first two
 * pieces were both shorter was no site. The next piece must read as a
 * key's (`keyLike`: `sk-learn is …` is none), and is joined as the rest
 * after a token, further pieces as there. Linear: one regex pass, then a
 * bounded join per site.
 */
export function forEachShortPiecesMatch(
  source: string,
  found: (split: SplitMatch) => void,
  wordStarts: readonly number[] = prefixedWordStarts(source),
): void {
  let chainedEnd = -1;
  forEachShortPrefixedToken(source, wordStarts, (siteStart, tokenEnd) => {
    if (siteStart < chainedEnd) return;
    // The printable run the token is in: one of 14 or more is the other scan's site.
    let runStart = siteStart;
    while (
      runStart > 0 &&
      siteStart - runStart < providerRunLength &&
      isPrintableCode(source.charCodeAt(runStart - 1))
    )
      runStart--;
    if (tokenEnd - runStart >= providerRunLength) return;
    const restStart = blanksAfter(source, tokenEnd);
    if (restStart === tokenEnd) return;
    let restEnd = restStart;
    while (
      restEnd < source.length &&
      restEnd - restStart < providerRunLength &&
      isPrintableCode(source.charCodeAt(restEnd))
    )
      restEnd++;
    if (restEnd - restStart >= providerRunLength) return;
    if (!keyLike(source.slice(restStart, restEnd))) return;
    chainedEnd = Math.max(
      chainedEnd,
      joinAcross(source, tokenEnd, restStart, restEnd, restEnd, found),
    );
  });
}

/**
 * Calls `visit(start, end)` with each match of `shortPrefixedToken` a
 * global search of `source` finds, in order, but those right after a `-`
 * (inside a token, `x-sk-…`: the search goes on from the next unit, where a
 * site may start one on). A match starts where a literal starts a word, so
 * the first of `wordStarts` (see `prefixedWordStarts`) at or after where
 * the search would go on, where the pattern matches (sticky), is its next
 * match (see `anchored-scan.ts`).
 */
export function forEachShortPrefixedToken(
  source: string,
  wordStarts: readonly number[],
  visit: (start: number, end: number) => void,
): void {
  let next = 0;
  for (const start of wordStarts) {
    if (start < next) continue;
    shortPrefixedToken.lastIndex = start;
    const site = shortPrefixedToken.exec(source);
    if (site === null) continue;
    if (start > 0 && source.charCodeAt(start - 1) === 45) {
      next = start + 1;
      continue;
    }
    next = start + site[0].length;
    visit(start, next);
  }
}

/** The AWS access key id rule: its prefix literals, then 16 of `[A-Z0-9]` (20 in all). */
const awsRule = providerRules.findIndex(providerRule => providerRule.type === 'AWS_ACCESS_KEY_ID');
const awsStart = /A(?:KIA|SIA|BIA|CCA|3T[A-Z0-9])/y;
/** Whether every literal `awsStart` begins with is a prefix literal (so `prefixedWordStarts` holds its sites). */
const awsLiteralsPrefixed = ['AKIA', 'ASIA', 'ABIA', 'ACCA', 'A3T'].every(literal =>
  startsWithPrefixLiteral(literal),
);
const AWS_KEY_LENGTH = 20;
/** The most pieces an AWS key id is read from. */
const MAX_PIECES = 8;

function isAwsCode(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
}

/**
 * Where the next piece starts after a joiner at `end`, or -1: blanks (as
 * `blankStep` reads them: spaces, tabs, one line break), a `+`, or a string
 * closed and another opened (`"AKIAZ7QH" + "3M2K…"`, `'…' '…'`), the same
 * quote both times.
 */
function joinerEnd(source: string, end: number): number {
  let at = end;
  const quote = source.charCodeAt(at);
  const quoted = quote === 0x22 || quote === 0x27;
  if (quoted) at++;
  let lineBreaks = 0;
  for (let round = 0; round < 2; round++) {
    // Blanks, then a `+` and blanks after it.
    const from = at;
    while (at < source.length && at - from < maxBlanks) {
      const code = source.charCodeAt(at);
      if (code === 10) {
        if (++lineBreaks > 1) break;
      } else if (code === 13) {
        if (source.charCodeAt(at + 1) !== 10) break;
      } else if (code !== 32 && code !== 9) break;
      at++;
    }
    if (round === 0 && source.charCodeAt(at) === 0x2b) at++;
    else break;
  }
  if (quoted) {
    if (source.charCodeAt(at) !== quote) return -1;
    at++;
  }
  return at > end && at < source.length && isAwsCode(source.charCodeAt(at)) ? at : -1;
}

/**
 * Calls `found` for each AWS access key id written in two to `MAX_PIECES`
 * pieces (round 20): `AKIAZ7QH3M2K X9TN4LPW`, with a line break or a `+`
 * between them, as concatenated strings (`"AKIAZ7QH" + "3M2KX9TN4LPW"`), in
 * three or more (`AKIA Z7QH 3M2K X9TN4LPW`). Pieces of 14 characters or
 * fewer are no printable run of the provider scan, so `forEachSplitPrefixMatch`
 * never read two of them. The pieces must make exactly 20 characters and
 * end at a token's end; so that upper-case prose (`ASIA IS THE BEST AREA
 * FOR`, `ASIA 2024 SUMMIT REPORT`) is not read as one, the 16 after the
 * prefix hold a digit and each piece after the first of more than 4
 * characters holds a letter and a digit. One regex pass for the prefixes
 * (upper-case `A` then three characters), at most 20 characters and a few
 * joiners read per site: linear.
 */
export function forEachPiecedAwsMatch(
  source: string,
  found: (split: SplitMatch) => void,
  wordStarts: readonly number[] = prefixedWordStarts(source),
): void {
  if (awsRule < 0) return;
  // A site starts after no token character, so where a literal starts a
  // word: one of `wordStarts` (a match of the prefixes inside a token,
  // which a global search would have stepped over, is no site either).
  const sites = awsLiteralsPrefixed
    ? wordStarts
    : Array.from(source.matchAll(new RegExp(awsStart.source, 'g')), site => site.index);
  for (const start of sites) {
    if (start > 0 && isTokenCode(source.charCodeAt(start - 1))) continue;
    awsStart.lastIndex = start;
    if (!awsStart.test(source)) continue;
    const starts: number[] = [];
    const ends: number[] = [];
    let length = 0;
    let at = start;
    let plausible = true;
    while (starts.length < MAX_PIECES) {
      let end = at;
      while (
        end < source.length &&
        length + (end - at) < AWS_KEY_LENGTH &&
        isAwsCode(source.charCodeAt(end))
      )
        end++;
      if (starts.length > 0 && end - at > 4 && !hasLetterAndDigit(source, at, end)) {
        plausible = false;
        break;
      }
      starts.push(at);
      ends.push(end);
      length += end - at;
      if (length === AWS_KEY_LENGTH) break;
      // A piece cut by another token character is no piece.
      if (end < source.length && isTokenCode(source.charCodeAt(end))) break;
      const next = joinerEnd(source, end);
      if (next < 0) break;
      at = next;
    }
    const last = ends[ends.length - 1]!;
    if (!plausible || length !== AWS_KEY_LENGTH || starts.length < 2) continue;
    if (last < source.length && isTokenCode(source.charCodeAt(last))) continue;
    let joined = '';
    for (let piece = 0; piece < starts.length; piece++)
      joined += source.slice(starts[piece], ends[piece]);
    if (!/[0-9]/.test(joined.slice(4))) continue;
    const pattern = stickyRules[awsRule]!;
    pattern.lastIndex = 0;
    const match = pattern.exec(joined);
    if (match === null || match[0].length !== AWS_KEY_LENGTH) continue;
    const pieceStarts: number[] = [];
    let offset = 0;
    for (let piece = 0; piece < starts.length; piece++) {
      pieceStarts.push(offset);
      offset += ends[piece]! - starts[piece]!;
    }
    const toSource = (joinedOffset: number) => {
      let piece = pieceStarts.length - 1;
      while (piece > 0 && pieceStarts[piece]! > joinedOffset) piece--;
      return starts[piece]! + (joinedOffset - pieceStarts[piece]!);
    };
    found({ ruleIndex: awsRule, match, toSource });
    // Go on after the key: its pieces are no site again.
    awsStart.lastIndex = last;
  }
}

function hasLetterAndDigit(source: string, from: number, to: number): boolean {
  let letter = false;
  let digit = false;
  for (let at = from; at < to; at++) {
    const code = source.charCodeAt(at);
    if (code >= 48 && code <= 57) digit = true;
    else letter = true;
  }
  return letter && digit;
}
