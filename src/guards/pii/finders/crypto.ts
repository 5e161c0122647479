import { base58CheckValid, bech32Valid } from '../../shared/checksums';
import type { EntityFinder, Finder } from './finder';

export const btcLegacy = /(?<![\w])[13][1-9A-HJ-NP-Za-km-z]{25,34}(?!\w)/g;
export const btcBech32 = /(?<![\w])(?:bc1|BC1)[02-9ac-hj-np-zAC-HJ-NP-Z]{8,87}(?!\w)/g;
export const ethAddress = /(?<![\w])0x[0-9a-fA-F]{40}(?!\w)/g;

/**
 * The three patterns above as one: every match of each is a whole word (no
 * word character before or after it, only word characters inside), and no
 * word matches two of them (they start with `1`/`3`, `b`/`B` and `0`), so
 * the matches of this one are the matches of the three together, in text
 * order. One regex walk over the text instead of the legacy pattern's walk
 * and a search for each of `bc1`, `BC1` and `0x`.
 */
const anyAddress =
  /(?<![\w])(?:[13][1-9A-HJ-NP-Za-km-z]{25,34}|(?:bc1|BC1)[02-9ac-hj-np-zAC-HJ-NP-Z]{8,87}|0x[0-9a-fA-F]{40})(?!\w)/g;

/**
 * The matches of `btcLegacy`, `btcBech32` and `ethAddress` in `text`, each
 * as `text.matchAll` yields them (`crypto.test.ts` compares them).
 */
export function cryptoMatches(
  text: string,
): [legacy: RegExpExecArray[], bech32: RegExpExecArray[], eth: RegExpExecArray[]] {
  const legacy: RegExpExecArray[] = [];
  const bech32: RegExpExecArray[] = [];
  const eth: RegExpExecArray[] = [];
  anyAddress.lastIndex = 0;
  for (let match = anyAddress.exec(text); match !== null; match = anyAddress.exec(text)) {
    const first = match[0].charCodeAt(0);
    if (first === 48) eth.push(match);
    else if (first === 49 || first === 51) legacy.push(match);
    else bech32.push(match);
  }
  return [legacy, bech32, eth];
}

const findCrypto: Finder = (text, add) => {
  const [legacy, bech32, eth] = cryptoMatches(text);
  for (const match of legacy) {
    if (base58CheckValid(match[0])) add(match.index, match.index + match[0].length);
  }
  for (const match of bech32) {
    if (bech32Valid(match[0])) add(match.index, match.index + match[0].length);
  }
  for (const match of eth) add(match.index, match.index + match[0].length);
};

export const cryptoFinder: EntityFinder = { find: findCrypto, maxLength: 90, priority: 9 };
