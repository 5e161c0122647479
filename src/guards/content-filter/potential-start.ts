import { foldText } from '../prompt-injection/fold-text';
import { withinLast } from '../shared/potential-start';

const WHITESPACE = /\s/;

/**
 * `potentialMatchStart` of `contentFilter` for its folded `terms`: the
 * earliest start of a word, among the last words (as many as the longest
 * entry has, a run of one- and two-character tokens counting as one word
 * since the filter reads spaced-out letters as one), from which the folded
 * text is the start of an entry (`kill yo` of `kill yourself`), in either
 * reading the filter uses (leetspeak folded or not).
 */
export function contentFilterPotentialStart(
  terms: readonly string[],
  maxMatchLength: number,
): (text: string) => number {
  const words = terms.reduce((max, term) => Math.max(max, term.split(' ').length), 1);
  const startsAnEntry = (folded: string) => {
    const prefix = folded.trim().replace(/\s+/g, ' ');
    return prefix !== '' && terms.some(term => term.startsWith(prefix));
  };
  return withinLast(maxMatchLength, text => {
    // Token starts of the last `words` words, latest first.
    const starts: number[] = [];
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
      starts.push(start);
      at = start;
    }
    let earliest = text.length;
    for (const start of starts) {
      const suffix = text.slice(start);
      if (startsAnEntry(foldText(suffix)) || startsAnEntry(foldText(suffix, { leet: false }))) {
        earliest = start;
      }
    }
    return earliest;
  });
}
