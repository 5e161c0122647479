import { withinLast } from '../shared/potential-start';

const WHITESPACE = /\s/;

/**
 * `potentialMatchStart` of `contentFilter` for terms of at most `words`
 * words: the start of the last `words` words. Tokens of one or two
 * characters in a row count as one word, since the filter reads spaced-out
 * letters (`k i l l`) as one.
 */
export function contentFilterPotentialStart(
  words: number,
  maxMatchLength: number,
): (text: string) => number {
  return withinLast(maxMatchLength, text => {
    let at = text.length;
    let counted = 0;
    let inShortRun = false;
    while (at > 0) {
      while (at > 0 && WHITESPACE.test(text[at - 1]!)) at--;
      let start = at;
      while (start > 0 && !WHITESPACE.test(text[start - 1]!)) start--;
      if (start === at) break;
      const short = at - start <= 2;
      if (!(short && inShortRun)) {
        if (counted === words) break;
        counted++;
      }
      inShortRun = short;
      at = start;
    }
    return at;
  });
}
