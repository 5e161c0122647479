import { withinLast } from '../shared/potential-start';

// Letters, digits, whitespace and printable ASCII are never hidden and never
// join an emoji sequence; anything else (format characters, joiners,
// selectors, tags, pictographs, surrogate halves) may be judged with what
// follows it.
const SETTLED = /[\p{L}\p{N}\s\x20-\x7e]/u;

/**
 * `potentialMatchStart` of `invisibleText`: the start of the trailing run of
 * characters whose verdict may depend on what follows (a joiner between two
 * pictographs is kept, elsewhere it is stripped; a tag sequence ends with
 * its cancel tag).
 */
export const invisiblePotentialStart: (text: string) => number = withinLast(20, text => {
  let start = text.length;
  while (start > 0) {
    const code = text.charCodeAt(start - 1);
    if (code < 0xd800 || code > 0xdfff) {
      if (SETTLED.test(text[start - 1]!)) break;
    }
    start--;
  }
  return start;
});
