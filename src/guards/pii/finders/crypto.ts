import { anchoredMatcher, forEachOccurrence, stickyPattern } from '../../shared/anchored-scan';
import { base58CheckValid, bech32Valid } from '../../shared/checksums';
import type { EntityFinder, Finder } from './finder';

const btcLegacy = /(?<![\w])[13][1-9A-HJ-NP-Za-km-z]{25,34}(?!\w)/g;
const btcBech32 = /(?<![\w])(?:bc1|BC1)[02-9ac-hj-np-zAC-HJ-NP-Z]{8,87}(?!\w)/g;
const ethAddress = /(?<![\w])0x[0-9a-fA-F]{40}(?!\w)/g;

const stickyBtcBech32 = stickyPattern(btcBech32);
const stickyEthAddress = stickyPattern(ethAddress);

/** The matches of a pattern that can only start where one of `prefixes` occurs. */
function prefixedMatches(text: string, sticky: RegExp, prefixes: readonly string[]) {
  const matches: RegExpExecArray[] = [];
  const matcher = anchoredMatcher(sticky, text);
  forEachOccurrence(text, prefixes, start => {
    const match = matcher.at(start);
    if (match) matches.push(match);
  });
  return matches;
}

const findCrypto: Finder = (text, add) => {
  for (const match of text.matchAll(btcLegacy)) {
    if (base58CheckValid(match[0])) add(match.index, match.index + match[0].length);
  }
  for (const match of prefixedMatches(text, stickyBtcBech32, ['bc1', 'BC1'])) {
    if (bech32Valid(match[0])) add(match.index, match.index + match[0].length);
  }
  for (const match of prefixedMatches(text, stickyEthAddress, ['0x'])) {
    add(match.index, match.index + match[0].length);
  }
};

export const cryptoFinder: EntityFinder = { find: findCrypto, maxLength: 90, priority: 9 };
