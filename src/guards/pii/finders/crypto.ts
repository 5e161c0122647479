import { stickyPattern } from '../../shared/anchored-scan';
import { base58CheckValid, bech32Valid } from '../../shared/checksums';
import { type EntityFinder, type Finder, isWordCode } from './finder';

export const btcLegacy = /(?<![\w])[13][1-9A-HJ-NP-Za-km-z]{25,34}(?!\w)/g;
export const btcBech32 = /(?<![\w])(?:bc1|BC1)[02-9ac-hj-np-zAC-HJ-NP-Z]{8,87}(?!\w)/g;
export const ethAddress = /(?<![\w])0x[0-9a-fA-F]{40}(?!\w)/g;

/**
 * The three patterns above as one: every match of each is a whole word (no
 * word character before or after it, only word characters inside), and no
 * word matches two of them (they start with `1`/`3`, `b`/`B` and `0`), so
 * the matches of this one are the matches of the three together, in text
 * order. Tried only where a match can start (`cryptoMatches`).
 */
const anyAddress =
  /(?<![\w])(?:[13][1-9A-HJ-NP-Za-km-z]{25,34}|(?:bc1|BC1)[02-9ac-hj-np-zAC-HJ-NP-Z]{8,87}|0x[0-9a-fA-F]{40})(?!\w)/g;

const stickyAnyAddress = stickyPattern(anyAddress);

/**
 * Tries `anyAddress` at `at`, a word start with at least `shortest` word
 * characters from it. Every one of those is read first (round 38): reading
 * only the last let prose through (`1 in the morning…` has a letter 25
 * characters on), and the sticky pattern ran at 4,157 of the `1`s and `3`s
 * of the dev sets' first MB per call, finding nothing. A match is a whole
 * word of at least `shortest` characters, so a shorter word holds none.
 */
function addressAt(text: string, at: number, shortest: number): RegExpExecArray | null {
  if (at > 0 && isWordCode(text.charCodeAt(at - 1))) return null;
  const end = at + shortest;
  for (let next = at + 1; next < end; next++) {
    if (!isWordCode(text.charCodeAt(next))) return null;
  }
  stickyAnyAddress.lastIndex = at;
  return stickyAnyAddress.exec(text);
}

type CryptoMatches = [legacy: RegExpExecArray[], bech32: RegExpExecArray[], eth: RegExpExecArray[]];

/**
 * The matches of `btcLegacy`, `btcBech32` and `ethAddress` in `text`, each
 * as `text.matchAll` yields them (`crypto.test.ts` compares them). A match
 * of `anyAddress` is a whole word (no word character before it, only word
 * characters in it and none after), so it starts at a word start with `1`
 * or `3` (legacy, at least 26 characters), `bc1` or `BC1` (bech32, 11) or
 * `0x` (Ethereum, 42): the pattern is tried (sticky) only there, found by
 * `indexOf` of `1`, `3` and `x` (round 29: its walk over every character
 * was 13% of `findPii` on the dev sets' first MB; `indexOf` of `bc1`, `BC1`
 * and `0x` stopped at every `b`, `B` and `0`). Words never overlap, so the
 * matches are the same. A text where those characters are more than one
 * in 32 (`4111 ` repeated) is read by the pattern's own walk instead: one
 * `indexOf` per character would cost more.
 */
export function cryptoMatches(text: string): CryptoMatches {
  return anchoredMatches(text) ?? scannedMatches(text);
}

/** `cryptoMatches` found at the `1`, `3` and `x` of `text`, or undefined past the budget. */
function anchoredMatches(text: string): CryptoMatches | undefined {
  const legacy: RegExpExecArray[] = [];
  const bech32: RegExpExecArray[] = [];
  const eth: RegExpExecArray[] = [];
  let budget = 64 + (text.length >> 5);
  // The `1`s and `3`s in text order: a legacy address starts at one, a bech32 one two before a `1`.
  let one = text.indexOf('1');
  let three = text.indexOf('3');
  while (one >= 0 || three >= 0) {
    if (--budget < 0) return undefined;
    let at: number;
    if (three < 0 || (one >= 0 && one < three)) {
      at = one;
      one = text.indexOf('1', at + 1);
      const b = text.charCodeAt(at - 2);
      const c = text.charCodeAt(at - 1);
      if ((b === 98 && c === 99) || (b === 66 && c === 67)) {
        const match = addressAt(text, at - 2, 11);
        if (match !== null) bech32.push(match);
        continue;
      }
    } else {
      at = three;
      three = text.indexOf('3', at + 1);
    }
    const match = addressAt(text, at, 26);
    if (match !== null) legacy.push(match);
  }
  for (let x = text.indexOf('x'); x >= 0; x = text.indexOf('x', x + 1)) {
    if (--budget < 0) return undefined;
    if (text.charCodeAt(x - 1) !== 48) continue;
    const match = addressAt(text, x - 1, 42);
    if (match !== null) eth.push(match);
  }
  return [legacy, bech32, eth];
}

/** `cryptoMatches` by the pattern's walk over `text`. */
function scannedMatches(text: string): CryptoMatches {
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
