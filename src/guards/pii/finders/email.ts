import { parse as parseDomain } from 'tldts';
import { gluedKeyInDomain } from '../../secrets/glued-keys';
import { anchoredMatcher, stickyPattern } from '../../shared/anchored-scan';
import { codeTable, type EntityFinder, type Finder } from './finder';

const localChar = /[A-Za-z0-9._%+\-'!#$&*=?^`{|}~]/;
const domainChar = /[A-Za-z0-9.-]/;
const domainLabel = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/;

/** A domain of two or more labels under an ICANN suffix (or an IDN TLD). */
export function validDomain(domain: string): boolean {
  const labels = domain.split('.');
  if (labels.length < 2 || domain.length > 253) return false;
  if (!labels.every(label => domainLabel.test(label))) return false;
  const tld = labels[labels.length - 1]!;
  if (/^xn--[a-z0-9-]+$/i.test(tld)) return true;
  if (!/^[A-Za-z]{2,24}$/.test(tld)) return false;
  return parseDomain(domain).isIcann === true;
}

const localCodes = codeTable(localChar);
const domainCodes = codeTable(domainChar);
const isLocalCode = (code: number) => code < 128 && localCodes[code] === 1;
const isDomainCode = (code: number) => code < 128 && domainCodes[code] === 1;

/**
 * The end of the valid domain in `text[from, end)`: the whole run, else the
 * run without its last label or two when a word follows the address with
 * only a dot between (`x@example.com.Thanks`, `x@corp.io.-Regards`,
 * `x@example.com.Best` where `.best` is a TLD but `Best` a capitalised word),
 * or cut before a `-` that joins a word to the top-level domain
 * (`x@example.com-thanks`, round 45, unless `cutHyphenTail` is false); 0
 * when none is valid. At most six checks per address.
 */
function validDomainEnd(text: string, from: number, end: number, cutHyphenTail = true): number {
  let domainEnd = end;
  for (let attempt = 0; attempt < 3; attempt++) {
    const domain = text.slice(from, domainEnd);
    const dot = domain.lastIndexOf('.');
    if (dot <= 0) return 0;
    let shorterEnd = from + dot;
    while (shorterEnd > from && (text[shorterEnd - 1] === '.' || text[shorterEnd - 1] === '-'))
      shorterEnd--;
    // A capitalised last label (`.Best regards`) is the next sentence when the rest is a domain.
    if (
      attempt === 0 &&
      /^[A-Z][a-z]+$/.test(domain.slice(dot + 1)) &&
      validDomain(text.slice(from, shorterEnd))
    )
      return shorterEnd;
    if (validDomain(domain)) return domainEnd;
    const cutEnd = cutHyphenTail ? hyphenTailEnd(from, domain, dot) : 0;
    if (cutEnd > 0) return cutEnd;
    domainEnd = shorterEnd;
  }
  return 0;
}

/**
 * The end of `domain` (starting at `from`) cut before the first `-` of its
 * last label (after the dot at `dot`), when that label is no top-level
 * domain but starts with one a `-` joins a word to (`example.com-thanks`,
 * `corp.io-or`, `example.co.uk-2024`) and the cut domain is valid; 0
 * otherwise. A hyphen inside an earlier label (`my-site.com`) is no tail.
 */
function hyphenTailEnd(from: number, domain: string, dot: number): number {
  const hyphen = domain.indexOf('-', dot + 1);
  if (hyphen <= dot + 1) return 0;
  return validDomain(domain.slice(0, hyphen)) ? from + hyphen : 0;
}

/**
 * The last verdicts of `validDomainEnd` in one text, by domain run, in 64
 * slots picked from the run's length and end characters: a text repeating a
 * domain (a thread, a mailing list, a log) checks it against the suffix list
 * once, and a run not seen costs a compare and no map. `validDomainEnd`
 * reads only the run, so a verdict is the run's alone. One per call: a
 * cache that outlived the call would keep the user's domains in memory.
 */
class DomainVerdicts {
  private readonly runs: Array<string | undefined> = new Array(64).fill(undefined);
  private readonly lengths = new Int32Array(64);

  /** `validDomainEnd(text, from, end)`, from the slot when the same run was judged last there. */
  validEnd(text: string, from: number, end: number): number {
    const length = end - from;
    const slot = (length * 31 + text.charCodeAt(from) * 7 + text.charCodeAt(end - 1)) & 63;
    const run = this.runs[slot];
    if (run !== undefined && run.length === length && text.startsWith(run, from)) {
      const domainLength = this.lengths[slot]!;
      return domainLength < 0 ? 0 : from + domainLength;
    }
    const domainEnd = validDomainEnd(text, from, end);
    this.runs[slot] = text.slice(from, end);
    this.lengths[slot] = domainEnd > 0 ? domainEnd - from : -1;
    return domainEnd;
  }
}

const NOT_SEARCHED = -2;

const findEmails: Finder = (text, add) => {
  let verdicts: DomainVerdicts | undefined;
  // Expand around each '@' instead of running a regex from every position:
  // each '@' costs at most 64 + 255 steps, so the scan stays linear.
  let at = text.indexOf('@');
  // The first '.' after the current '@' (-1: none left), searched from the
  // first '@' on and again once passed. Never a value computed before the
  // loop and only read in it: V8's optimizing compiler, when an earlier text
  // never took the re-search, treated `text.indexOf('.')` as a constant of
  // the loop and ran it again for every '@' (a whole-text scan each time,
  // 10-24 s on 1-2 MB of `a@a@…` after other texts).
  let dot = NOT_SEARCHED;
  while (at >= 0) {
    // `jane.doe@ example.com`, `jane.doe @ example.com`, `jane.doe  @  example.com`:
    // one or two blanks after the `@`, and perhaps one or two before it
    // (see `blankAtShapeHolds`).
    const blanksAfter = blanksAt(text, at + 1, 1);
    const blankAfter = blanksAfter > 0;
    const blanksBefore = blankAfter ? blanksAt(text, at - 1, -1) : 0;
    const blankBefore = blanksBefore > 0;
    const localEnd = at - blanksBefore;
    const domainStart = at + 1 + blanksAfter;
    let start = localEnd;
    while (start > 0 && localEnd - start < 64 && isLocalCode(text.charCodeAt(start - 1))) start--;
    const tooLong = start > 0 && isLocalCode(text.charCodeAt(start - 1));
    let end = domainStart;
    while (end < text.length && end - at <= 255 && isDomainCode(text.charCodeAt(end))) end++;
    const runEnd = end;
    while (end > domainStart && (text[end - 1] === '.' || text[end - 1] === '-')) end--;
    // A quote opening the local part quotes the address (`email = 'jane@corp.io'`,
    // `` `jane@corp.io` ``): the address starts after it, and the quote stays.
    while (start < localEnd && isLeadingMark(text.charCodeAt(start))) start++;
    // A domain needs a dot (two labels): most stray '@'s end here, before any slicing.
    if (dot !== -1 && dot <= at) dot = text.indexOf('.', at + 1);
    if (!tooLong && start < localEnd && dot >= 0 && dot < end && end > domainStart) {
      // The local part read in place, sliced only when a blank follows the
      // `@` (round 46: a slice per address was 2% of a flood of addresses).
      if (
        text.charCodeAt(localEnd - 1) !== 46 &&
        !doubleDotIn(text, start, localEnd) &&
        (!blankAfter || blankAtShapeHolds(text, text.slice(start, localEnd), blankBefore, end))
      ) {
        // A key glued to the last label (`example.comAKIA…`) is no part of the domain (round 43).
        const keyEnd = gluedKeyInDomain(text, domainStart, end);
        let domainEnd: number;
        if (localPartFollows(text, domainStart, runEnd)) {
          // `jane@x.io-bob@y.io`: the word after the `-` is the next address's local part, and
          // the two addresses are one span (find-pii.ts covers the glued local part), not cut.
          domainEnd = validDomainEnd(text, domainStart, keyEnd, false);
        } else {
          verdicts ??= new DomainVerdicts();
          domainEnd = verdicts.validEnd(text, domainStart, keyEnd);
        }
        if (domainEnd > 0) add(start, domainEnd);
      }
    }
    at = text.indexOf('@', at + 1);
  }
};

const isBlankCode = (code: number) => code === 32 || code === 9;

/** Whether `text[from, to)` holds two dots in a row (at most 64 steps: a local part). */
function doubleDotIn(text: string, from: number, to: number): boolean {
  for (let at = from + 1; at < to; at++) {
    if (text.charCodeAt(at) === 46 && text.charCodeAt(at - 1) === 46) return true;
  }
  return false;
}

/**
 * Whether the characters from `runEnd` (where a domain run stopped) are the
 * rest of a local part up to an `@` (`_smith@` in `jane@x.io-bob_smith@y.io`,
 * or the `@` itself), that local part, from `domainStart` on, of at most 64
 * characters, as the next address's is read (round 45 review: a longer one
 * is no address, and neither address was found): at most 64 steps.
 */
function localPartFollows(text: string, domainStart: number, runEnd: number): boolean {
  let at = runEnd;
  while (at < text.length && at - domainStart < 64 && isLocalCode(text.charCodeAt(at))) at++;
  return at - domainStart <= 64 && text.charCodeAt(at) === 64;
}

/** `.` (never first in a local part), `'` and `` ` `` (quotes around the address) at its start. */
const isLeadingMark = (code: number) => code === 46 || code === 39 || code === 96;

/** How many blanks (at most two) run from `from` in direction `step`. */
function blanksAt(text: string, from: number, step: 1 | -1): number {
  if (!isBlankCode(text.charCodeAt(from))) return 0;
  return isBlankCode(text.charCodeAt(from + step)) ? 2 : 1;
}

/**
 * Whether an address written with a blank after its `@` (and `blankBefore`,
 * one before it too) is unambiguous: a bare `@` between words is a handle,
 * a decorator or an operator more often (`Available @ amazon.com`,
 * `self.W @ x.to(device)`). With blanks on both sides the local part must
 * hold a character no plain word has (`.`, `_`, `+`, `-`, `%`, a digit), and
 * a domain followed by `(` or `[` is code.
 */
function blankAtShapeHolds(
  text: string,
  local: string,
  blankBefore: boolean,
  domainEnd: number,
): boolean {
  const next = text.charCodeAt(domainEnd);
  if (next === 40 || next === 91) return false;
  return !blankBefore || /[._+%\-0-9]/.test(local);
}

const obfuscatedAt = /[[({<]\s{0,2}at\s{0,2}[\])}>]/gi;
const obfuscatedLocal = /(?<![\w.%+-])[A-Za-z0-9._%+-]{1,64}\s{0,3}$/;
const obfuscatedDomain =
  /^\s{0,3}([A-Za-z0-9-]{1,63}(?:\s{0,3}(?:[[({<]\s{0,2}dot\s{0,2}[\])}>]|\.)\s{0,3}[A-Za-z0-9-]{1,63}){1,4})(?![\w-])/i;

// Anchored on each bracketed "at" (rare in prose), with the local part
// matched backwards and the domain forwards in bounded slices, so ordinary
// text costs one scan for "[at]"-like tokens.
const stickyObfuscatedAt = stickyPattern(obfuscatedAt);
const openingBrackets = ['[', '(', '{', '<'] as const;

/**
 * The matches of `obfuscatedAt`, tried only at an opening bracket with an
 * `a` (any case) one to three characters after it. Each bracket is found
 * by its own `indexOf` walk and the few starts that pass are sorted (round
 * 29: merging the four walks bracket by bracket, about 3,300 brackets on
 * the dev sets' first MB, cost more than the walks).
 */
function obfuscatedAtMatches(text: string): RegExpExecArray[] {
  const matches: RegExpExecArray[] = [];
  let starts: number[] | undefined;
  for (const bracket of openingBrackets) {
    for (let start = text.indexOf(bracket); start >= 0; start = text.indexOf(bracket, start + 1)) {
      if (
        (text.charCodeAt(start + 1) | 0x20) !== 97 &&
        (text.charCodeAt(start + 2) | 0x20) !== 97 &&
        (text.charCodeAt(start + 3) | 0x20) !== 97
      )
        continue;
      starts ??= [];
      starts.push(start);
    }
  }
  if (starts === undefined) return matches;
  starts.sort((first, second) => first - second);
  const matcher = anchoredMatcher(stickyObfuscatedAt, text);
  for (const start of starts) {
    const match = matcher.at(start);
    if (match) matches.push(match);
  }
  return matches;
}

const findObfuscatedEmails: Finder = (text, add, { obfuscatedEmails }) => {
  if (!obfuscatedEmails) return;
  for (const at of obfuscatedAtMatches(text)) {
    const sliceStart = Math.max(0, at.index - 68);
    const local = obfuscatedLocal.exec(text.slice(sliceStart, at.index));
    if (!local) continue;
    const afterStart = at.index + at[0].length;
    const domainMatch = obfuscatedDomain.exec(text.slice(afterStart, afterStart + 400));
    if (!domainMatch) continue;
    const domain = domainMatch[1]!.replace(/\s*(?:[[({<]\s*dot\s*[\])}>]|\.)\s*/gi, '.');
    if (validDomain(domain)) add(sliceStart + local.index, afterStart + domainMatch[0].length);
  }
};

// A domain run after an `@` holding an ideographic full stop (see `withDomainDots`).
const ideographicDomainRun = /@[ \t]{0,2}[A-Za-z0-9.\-\u3002]+/g;

/**
 * `text` with each U+3002 (ideographic full stop) inside a domain run after
 * an `@` read as `.`: UTS #46 takes it for a label separator, as it takes
 * U+FF0E (which NFKC folds to `.`) and U+FF61 (which NFKC folds to U+3002),
 * so a mail client reads `jane.doe@corp\u3002io` as `jane.doe@corp.io`
 * (round 48: it passed unredacted). One unit for one, so every offset is
 * the text's; a U+3002 elsewhere (a sentence end in Chinese prose, before a
 * local part) stays. `text` itself when it holds none: one search.
 */
function withDomainDots(text: string): string {
  if (!text.includes('\u3002')) return text;
  return text.replace(ideographicDomainRun, run => run.replaceAll('\u3002', '.'));
}

export const emailFinder: EntityFinder = {
  find: (text, add, options) => {
    const read = withDomainDots(text);
    findEmails(read, add, options);
    findObfuscatedEmails(read, add, options);
  },
  maxLength: 400, // 64 + @ + 255, or the obfuscated form
  priority: 10,
};
