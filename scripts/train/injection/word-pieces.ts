/**
 * Round 47 (hA, issue 15): the word-piece test's trainer-only part (the
 * English function-word test of round 47's screen variants D and E); the
 * test itself lives in `src/guards/prompt-injection/word-pieces.ts` since
 * round 49 (hD) and is re-exported here.
 */

import { isWordPieceToken, type WordSet } from '../../../src/guards/prompt-injection/word-pieces';

export * from '../../../src/guards/prompt-injection/word-pieces';

/**
 * English function words: a text reads as English (`readsAsEnglish`) when
 * at least `ENGLISH_SHARE` of its tokens are among them. `a` and `in` are
 * left out (words of Romance languages too).
 */
const FUNCTION_WORDS = [
  'the',
  'of',
  'and',
  'to',
  'is',
  'that',
  'for',
  'it',
  'with',
  'as',
  'was',
  'on',
  'be',
  'by',
  'this',
  'are',
  'or',
  'an',
  'from',
  'at',
  'not',
  'but',
  'have',
  'you',
  'your',
  'can',
  'will',
  'which',
  'they',
  'their',
  'we',
  'if',
  'what',
  'how',
  'do',
  'should',
  'would',
  'my',
  'me',
  'i',
  'he',
  'she',
  'his',
  'her',
  'has',
  'been',
  'there',
  'all',
  'so',
  'about',
  'any',
  'than',
  'then',
  'into',
  'also',
  'more',
  'one',
  'no',
  'who',
  'when',
  'its',
  'our',
  'were',
  'had',
  'them',
  'some',
];
/** Fewest share of a text's tokens that are English function words for it to read as English. */
export const ENGLISH_SHARE = 0.2;

const functionWords = new Set(FUNCTION_WORDS);

/**
 * Whether folded `text` reads as English: at least `ENGLISH_SHARE` of its
 * whitespace-separated tokens are English function words (`FUNCTION_WORDS`),
 * ends' punctuation aside. With `vocabulary`, word-piece tokens of it
 * (`isWordPieceToken`) are left out of the count (a suffix of them does not
 * make its request less English). One pass.
 */
export function readsAsEnglish(text: string, vocabulary?: WordSet): boolean {
  let tokens = 0;
  let english = 0;
  let start = -1;
  // Letters at the token's ends: the first and one past the last.
  let first = -1;
  let last = -1;
  for (let index = 0; index <= text.length; index++) {
    const code = index < text.length ? text.charCodeAt(index) : 32;
    if (code > 32) {
      if (start < 0) start = index;
      if (code >= 97 && code <= 122) {
        if (first < 0) first = index;
        last = index + 1;
      }
      continue;
    }
    if (start < 0) continue;
    if (vocabulary === undefined || !isWordPieceToken(vocabulary, text, start, index)) tokens++;
    if (first >= 0 && last - first <= 6 && functionWords.has(text.slice(first, last))) english++;
    start = -1;
    first = -1;
    last = -1;
  }
  return tokens > 0 && english >= ENGLISH_SHARE * tokens;
}
