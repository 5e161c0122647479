/**
 * Round 49 (hD, issue 15): the word-piece suffix gate, variant F (see
 * `suffix-word-piece-screen.ts` for its screen and the model card's
 * round-49 entry). Edge-safe (no Node built-ins, no RegExp built per call).
 *
 * Round 47's variant C (word pieces, `isWordPieceToken`, as odd and strong
 * tokens of round 44's window) opened llm-adaptive-attacks 150 → 324 of 570
 * but also folded Romanian / German / Turkish words of XQuAD and WHOIS
 * records; its English test (share of function words over the whole text)
 * was diluted by the suffix itself. Variant F:
 *   - tokens (whitespace-separated, folded text): strong when mixing Latin
 *     with another script (round 44) or a word piece; weak when a lone `!`;
 *   - a word piece does not count on a *record line* (a line whose first 1
 *     to `RECORD_KEY_TOKENS` tokens end with one ending in `:` after a
 *     letter: `domain status: clienttransferprohibited`), nor when the same
 *     token already counts in the window;
 *   - no word piece counts in a text that looks like code (a fence, or 2+
 *     lines ending in `;`, `{`, `}`: round 46's variant B exemption);
 *   - a window of `SUFFIX_WINDOW` tokens opens with `SUFFIX_ODD` odd tokens,
 *     one strong at least; windows sharing an odd token make one span;
 *   - a span opened by word pieces alone (no mixed token) counts only when
 *     the text OUTSIDE every span reads as English by vocabulary: at least
 *     `OUTSIDE_MIN_WORDS` words (tokens of 3 to 40 ASCII letters once the
 *     ends' punctuation is trimmed) and at least `OUTSIDE_VOCABULARY_SHARE`
 *     of them vocabulary words (or one with an English affix). The suffix's
 *     own tokens are inside its span, so they do not dilute the share.
 * The gate's start: the first token of the first span that counts; -1 when
 * none. Two passes over the tokens: linear; memory is the token offsets.
 */

import { dominantScript } from '../harmful-content/script';
import {
  adversarialSuffixStart,
  SUFFIX_BANG_NEEDS_MIXED,
  SUFFIX_ODD,
  SUFFIX_WINDOW,
} from './suffix-gate';
import {
  isVocabularyWord,
  isWordPieceToken,
  WORD_PIECE_MAX,
  WORD_PIECE_MIN,
  type WordSet,
} from './word-pieces';

/**
 * Whether `scorePromptInjection` reads the word-piece gate: off. Round 49
 * (hD) kept it by its left-out run (llm-adaptive 0.288 -> 0.319), but it
 * costs about 20% of the direct score's CPU on a mixed megabyte and review
 * (hI) found safety questions followed by camelCase names blocked at 0.97+;
 * the lead ships it off (the package then carries no vocabulary; the
 * trainer's `SUFFIX_WORD_PIECES=1` measures it).
 */
export const SUFFIX_WORD_PIECES_ON = false;

/** Most tokens of a record line's key (the last ends in `:`). */
export const RECORD_KEY_TOKENS = 4;
/** Fewest words outside the spans for the language test. */
export const OUTSIDE_MIN_WORDS = 3;
/** Fewest share of the words outside the spans that are vocabulary words. */
export const OUTSIDE_VOCABULARY_SHARE = 0.8;

/** 0 plain, 1 lone `!`, 2 mixed scripts, 3 word piece. */
type Kind = 0 | 1 | 2 | 3;

interface Token {
  start: number;
  end: number;
  kind: Kind;
}

function isLatin(code: number): boolean {
  if (code < 0x80) return (code | 32) >= 97 && (code | 32) <= 122;
  if (code < 0x250) return code >= 0xc0 && code !== 0xd7 && code !== 0xf7;
  return code >= 0x1e00 && code <= 0x1eff;
}

function isOtherLetter(code: number): boolean {
  if (code < 0x370) return false;
  if (code >= 0x1e00 && code <= 0x1eff) return false;
  if (code >= 0x2000 && code <= 0x33ff) return false;
  if (code >= 0xd800 && code <= 0xdfff) return false;
  return code < 0xfe00;
}

/** Whether `text` has a code fence or 2+ lines ending (spaces aside) in `;`, `{`, `}`. */
export function looksLikeCodeText(text: string): boolean {
  if (text.includes('```')) return true;
  let lines = 0;
  let last = 0;
  for (let index = 0; index <= text.length; index++) {
    const code = index < text.length ? text.charCodeAt(index) : 10;
    if (code === 10) {
      if ((last === 59 || last === 123 || last === 125) && ++lines >= 2) return true;
      last = 0;
    } else if (code > 32) last = code;
  }
  return false;
}

/**
 * The tokens of folded `text` with their kinds (word pieces only when
 * `pieces`), record lines' word pieces plain. `latin`: the text is mostly in
 * Latin letters (mixed tokens count only then).
 */
function tokensOf(text: string, vocabulary: WordSet, pieces: boolean, latin: boolean): Token[] {
  const tokens: Token[] = [];
  // The current line: its tokens so far, and whether it is a record line.
  let lineTokens = 0;
  let recordLine = false;
  let start = -1;
  let kinds = 0;
  for (let index = 0; index <= text.length; index++) {
    const code = index < text.length ? text.charCodeAt(index) : 10;
    if (code > 32) {
      if (start < 0) start = index;
      if (isLatin(code)) kinds |= 1;
      else if (isOtherLetter(code)) kinds |= 2;
      continue;
    }
    if (start >= 0) {
      lineTokens++;
      const end = index;
      // A key: the line's first tokens, the last ending in `:` right after a letter.
      if (
        !recordLine &&
        lineTokens <= RECORD_KEY_TOKENS &&
        end - start >= 2 &&
        text.charCodeAt(end - 1) === 58 &&
        isLatin(text.charCodeAt(end - 2))
      ) {
        recordLine = true;
      }
      let kind: Kind = 0;
      if (end - start === 1 && text.charCodeAt(start) === 33) kind = 1;
      else if (kinds === 3 && latin) kind = 2;
      else if (pieces && !recordLine && isWordPieceToken(vocabulary, text, start, end)) kind = 3;
      tokens.push({ start, end, kind });
      start = -1;
      kinds = 0;
    }
    if (code === 10) {
      // A record line's earlier word pieces (the key itself) are plain too.
      if (recordLine) {
        for (let back = tokens.length - 1; back >= tokens.length - lineTokens; back--) {
          if (tokens[back]!.kind === 3) tokens[back]!.kind = 0;
        }
      }
      lineTokens = 0;
      recordLine = false;
    }
  }
  return tokens;
}

/** Whether the `[start, end)` token's letters (ends' punctuation trimmed) make a word of 3 to 40 ASCII letters; 0 no, 1 a vocabulary word, 2 another word. */
function wordOf(text: string, start: number, end: number, vocabulary: WordSet): 0 | 1 | 2 {
  let from = start;
  let to = end;
  while (from < to && !isLatin(text.charCodeAt(from))) from++;
  while (to > from && !isLatin(text.charCodeAt(to - 1))) to--;
  const length = to - from;
  if (length < 3 || length > 40) return 0;
  for (let index = from; index < to; index++) {
    const code = text.charCodeAt(index);
    if (code < 97 || code > 122) return 0;
  }
  return isVocabularyWord(vocabulary, text, from, to) ? 1 : 2;
}

/**
 * Offset in folded `text` where variant F's gate opens (the header's
 * definition), or -1. `latin`: whether the text is mostly in Latin letters
 * (`dominantScript(text) === 'latin'`).
 */
export function wordPieceSuffixStart(text: string, vocabulary: WordSet, latin: boolean): number {
  const tokens = tokensOf(text, vocabulary, !looksLikeCodeText(text), latin);
  // Spans: [first token, last token] index pairs, and whether a mixed token opened one of its windows.
  const spans: Array<{ first: number; last: number; mixed: boolean }> = [];
  let odd = 0;
  let strong = 0;
  let mixed = 0;
  // Word pieces counted in the window: token text -> count (a repeat counts once).
  const seen = new Map<string, number>();
  const counted = new Uint8Array(tokens.length);
  for (let index = 0; index < tokens.length; index++) {
    if (index >= SUFFIX_WINDOW) {
      const out = index - SUFFIX_WINDOW;
      if (counted[out] === 1) {
        const kind = tokens[out]!.kind;
        odd--;
        if (kind >= 2) strong--;
        if (kind === 2) mixed--;
        if (kind === 3) {
          const key = text.slice(tokens[out]!.start, tokens[out]!.end);
          const left = seen.get(key)! - 1;
          if (left === 0) seen.delete(key);
          else seen.set(key, left);
        }
      }
    }
    const token = tokens[index]!;
    if (token.kind === 3) {
      const key = text.slice(token.start, token.end);
      const count = seen.get(key) ?? 0;
      seen.set(key, count + 1);
      if (count > 0) continue;
    }
    if (token.kind === 0) continue;
    counted[index] = 1;
    odd++;
    if (token.kind >= 2) strong++;
    if (token.kind === 2) mixed++;
    if (odd < SUFFIX_ODD || strong === 0) continue;
    let oldest = Math.max(0, index - SUFFIX_WINDOW + 1);
    while (counted[oldest] !== 1) oldest++;
    const open = spans.at(-1);
    if (open !== undefined && oldest <= open.last) {
      open.last = index;
      open.mixed ||= mixed > 0;
    } else spans.push({ first: oldest, last: index, mixed: mixed > 0 });
  }
  if (spans.length === 0) return -1;
  // The language test over the tokens outside every span (for spans of word pieces alone).
  let words = 0;
  let known = 0;
  let span = 0;
  for (let index = 0; index < tokens.length; index++) {
    while (span < spans.length && spans[span]!.last < index) span++;
    if (span < spans.length && spans[span]!.first <= index) continue;
    const word = wordOf(text, tokens[index]!.start, tokens[index]!.end, vocabulary);
    if (word === 0) continue;
    words++;
    if (word === 1) known++;
  }
  const english = words >= OUTSIDE_MIN_WORDS && known >= OUTSIDE_VOCABULARY_SHARE * words;
  for (const { first, mixed: hasMixed } of spans) {
    if (hasMixed || english) return tokens[first]!.start;
  }
  return -1;
}

/**
 * Whether folded `text` may open variant F's gate where round 46's gate
 * (`adversarialSuffixStart`) does not: a window of `SUFFIX_WINDOW` tokens
 * holding `SUFFIX_ODD` tokens that are a lone `!`, hold both a Latin letter
 * and a character of another script (`U+0370` on), or are 8 to 40 ASCII
 * lower-case letters, one of the last kind at least. When it returns false, variant F opens exactly where round 46's
 * gate does (its windows then hold no word piece), so the vocabulary need
 * not be read. One pass, no vocabulary.
 */
export function mayOpenWordPieceGate(text: string): boolean {
  // The last SUFFIX_WINDOW tokens: 0 plain, 1 maybe odd, 2 a word-piece shape.
  const ring = new Uint8Array(SUFFIX_WINDOW);
  let tokens = 0;
  let maybe = 0;
  let shaped = 0;
  let start = -1;
  let lower = true;
  let latin = false;
  let other = false;
  for (let index = 0; index <= text.length; index++) {
    const code = index < text.length ? text.charCodeAt(index) : 32;
    if (code > 32) {
      if (start < 0) start = index;
      if (isLatin(code)) latin = true;
      else if (code >= 0x370) other = true;
      if (code < 97 || code > 122) lower = false;
      continue;
    }
    if (start < 0) continue;
    const length = index - start;
    const kind =
      lower && length >= WORD_PIECE_MIN && length <= WORD_PIECE_MAX
        ? 2
        : (latin && other) || (length === 1 && text.charCodeAt(start) === 33)
          ? 1
          : 0;
    const slot = tokens++ % SUFFIX_WINDOW;
    if (ring[slot]! > 0) maybe--;
    if (ring[slot] === 2) shaped--;
    ring[slot] = kind;
    if (kind > 0) maybe++;
    if (kind === 2) shaped++;
    if (shaped > 0 && maybe >= SUFFIX_ODD) return true;
    start = -1;
    lower = true;
    latin = false;
    other = false;
  }
  return false;
}

/**
 * The folded text before an adversarial suffix by round 46's gate or
 * variant F's, whichever opens earlier (the trainer's `SUFFIX_WORD_PIECES`
 * reading), or `undefined` when both stay shut or nothing comes before.
 * `vocabulary` is asked for only when `mayOpenWordPieceGate` says so.
 */
export function textBeforeAnySuffix(
  folded: string,
  vocabulary: () => WordSet,
  bangNeedsMixed = SUFFIX_BANG_NEEDS_MIXED,
): string | undefined {
  const old = adversarialSuffixStart(folded, bangNeedsMixed);
  const pieces = mayOpenWordPieceGate(folded)
    ? wordPieceSuffixStart(folded, vocabulary(), dominantScript(folded) === 'latin')
    : -1;
  const start = old < 0 ? pieces : pieces < 0 ? old : Math.min(old, pieces);
  return start > 0 ? folded.slice(0, start) : undefined;
}
