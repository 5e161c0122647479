import { anchoredMatcher, stickyPattern } from '../../shared/anchored-scan';
import { positionsOf } from './digit-runs';
import { type EntityFinder, type Finder, isWordCode } from './finder';

// A `.` before an address rejects it only after a digit (a longer dotted
// run, `1.2.3.4.5`; for IPv6 a hex digit) or a `]` (a placeholder that
// stood for one: a second redaction reads the run as the first did); after
// a word it ends a sentence or another value (`host.192.168.1.20`).
const octet = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
export const ipv4 = new RegExp(
  `(?<!\\w|[\\d\\]]\\.)(?:${octet}\\.){3}${octet}(?:\\/(?:3[0-2]|[12]?\\d)(?!\\d))?(?!\\d)`,
  'g',
);
/**
 * An IPv4 address with one blank after one of its dots (`192.168. 1.20`):
 * read only after an IP word (`ipBlankContext`), since two decimals across
 * a sentence end read the same (`grew 2.5. 1.8`). The match may hold no
 * blank (the `ipv4` pattern's); `findIps` keeps those with exactly one.
 */
export const ipv4OneBlank = new RegExp(
  `(?<!\\w|[\\d\\]]\\.)${octet}(?:\\.[ \\t]?${octet}){3}(?!\\d|\\.\\d)`,
  'g',
);
/** An IP word within the 32 characters before an address, on its line. */
const ipBlankContext =
  /\b(?:ip|ipv4|ip address|address|addr|host|server|gateway|router|dns|proxy|subnet|inet)\b[^\n]{0,32}$/i;

// An embedded IPv4 part is read from its first four numbers, and the span
// runs to the end of its dotted run (up to seven numbers): the token is one
// value, so no number of it is left beside the placeholder
// (`2001:db8::1.192.168.1.20`). A dotted run alone keeps its first four
// (`192.168.1.1.1` -> `192.168.1.1`, as the dev set labels it).
// No word character on either side (but a label glued before it:
// `gluedAddressStart`), and after it no `:` that goes on: one that ends a
// sentence may follow (round 23: `… 2001:db8::1: the` was no address), and
// is left out.
const ipv6Rest =
  '[0-9A-Fa-f:]{2,39}(?:(?<=:)\\d{1,3}(?:\\.\\d{1,3}){3,6})?(?:%[0-9A-Za-z]{1,15})?(?:\\/\\d{1,3})?(?!\\w|:[\\w:]|\\.\\d)';
const ipv6Candidate = new RegExp(`(?<![\\w:%]|[0-9A-Fa-f:\\]]\\.)${ipv6Rest}`, 'g');
/**
 * An address right after a label and its colon (`ip:2001:db8::1`,
 * `host:fe80::1`, `IPv6:fe80::1%eth0`; round 23: the `:` before it made it
 * no candidate, so a log line's address passed whole).
 */
const ipv6AfterLabel = new RegExp(`(?<=\\w:)(?!:)${ipv6Rest}`, 'g');
/** An address glued to a label before it (`zz2001:db8::1`): where `gluedAddressStart` says it starts. */
const ipv6Glued = new RegExp(ipv6Rest, 'g');

/** A dotted IPv4 address without leading zeros. */
export function ipv4Valid(text: string): boolean {
  const parts = text.split('.');
  return (
    parts.length === 4 &&
    parts.every(part => /^(?:0|[1-9]\d{0,2})$/.test(part) && Number(part) <= 255)
  );
}

function ipv6Valid(address: string): boolean {
  const lastColon = address.lastIndexOf(':');
  if (!address.includes('.', lastColon)) return ipv6GroupsValid(address, 0);
  const embedded = address
    .slice(lastColon + 1)
    .split('.')
    .slice(0, 4)
    .join('.');
  return ipv4Valid(embedded) && ipv6GroupsValid(`${address.slice(0, lastColon + 1)}0`, 1);
}

/**
 * Whether `text` is an IPv6 address's groups: halves split at `::` (one at
 * most, the leftmost `::` first), each empty or one to four hex digits a
 * part between single colons, eight groups in all with `extraGroups`, or
 * seven at most with a `::`. One walk over the character codes, as
 * `split('::')` and `split(':')` read it (round 24: those splits and their
 * arrays, for every colon shape, were most of the IP finder's time on text
 * full of colons, `ip:1:2:3 a::b s[::-1] …`).
 */
function ipv6GroupsValid(text: string, extraGroups: number): boolean {
  const length = text.length;
  let total = extraGroups;
  let doubleColons = 0;
  let at = 0;
  for (;;) {
    // A half from `at`, empty when `::` or the end is here.
    if (at < length && !(text.charCodeAt(at) === 58 && text.charCodeAt(at + 1) === 58)) {
      for (;;) {
        const partStart = at;
        while (at < length && isHexCode(text.charCodeAt(at))) at++;
        if (at === partStart || at - partStart > 4) return false;
        total++;
        if (at === length) break;
        if (text.charCodeAt(at) !== 58) return false;
        if (text.charCodeAt(at + 1) === 58) break;
        at++;
      }
    }
    if (at === length) break;
    if (++doubleColons > 1) return false;
    at += 2;
  }
  return doubleColons === 1 ? total <= 7 : total === 8;
}

function isHexCode(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}

const stickyIpv6Candidate = stickyPattern(ipv6Candidate);
const stickyIpv6AfterLabel = stickyPattern(ipv6AfterLabel);
const stickyIpv6Glued = stickyPattern(ipv6Glued);

function isHexOrColonCode(code: number): boolean {
  return (code >= 48 && code <= 58) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}

/** Whether the run of hex digits and colons at `start` holds two colons in its first 39 characters. */
function twoColonsFrom(text: string, start: number): boolean {
  let colons = 0;
  const end = Math.min(text.length, start + 39);
  for (let at = start; at < end; at++) {
    const code = text.charCodeAt(at);
    if (code === 58) {
      if (++colons === 2) return true;
    } else if (!isHexOrColonCode(code)) {
      return false;
    }
  }
  return false;
}

/**
 * Where a label's colon is when the run of hex digits and colons at `start`
 * goes on from a word (`ip:2001:db8::1`, `IPv6:fe80::1`, `Node:fe80::1`),
 * else -1: the run's first `:`, when one `:` (not `::`) and the run before
 * it (the label's end) holds at most three digits (round 25: an interface
 * name, `eth10:fe80::1`, `ens192:fe80::1`, hid the address after it). A
 * run glued to a word with four digits before its colon (a whole group)
 * is an address in letter soup (`zz2001:db8::1`), not read, as no value
 * glued to letters is.
 */
function labelColonOfRun(text: string, start: number): number {
  if (start === 0 || !/\w/.test(text[start - 1]!)) return -1;
  let digits = 0;
  let at = start;
  for (; text.charCodeAt(at) !== 58; at++)
    if (isDigitCode(text.charCodeAt(at)) && ++digits > 3) return -1;
  return text.charCodeAt(at + 1) === 58 ? -1 : at;
}

/** How far back a glued label is read for a letter. */
const LABEL_REACH = 32;

/**
 * Where an address glued to a label before it starts (round 26:
 * `zz2001:db8::1`, `eth2001:db8::1`, `ab2001:db8::1`, `deadbeef2001:…`
 * passed whole, read as letter soup since round 23), else -1: the run of
 * hex digits and colons at `start` follows a word character, or its first
 * group is longer than four (`ab2001`, the label's hex letters glued to
 * it). The address starts at the last four hex digits (or fewer, the run's
 * start) before the run's first colon, and only when the word glued before
 * it holds a letter (`12345::1` is none), and the address a group of three
 * hex digits or more (`Foo1::2` is a path). Failing toward the address: a
 * value written so is an address and its label far more often than
 * anything else with two colons and hex groups.
 */
function gluedAddressStart(text: string, start: number): number {
  let colon = start;
  while (text.charCodeAt(colon) !== 58) colon++;
  // A hex group first (`gggg:hhhh::1234`, `text::ffff:…` are no glued address).
  if (colon === start) return -1;
  const addressStart = Math.max(start, colon - 4);
  if (addressStart === 0 || !isWordCode(text.charCodeAt(addressStart - 1))) return -1;
  for (let at = addressStart - 1; at >= 0 && addressStart - at <= LABEL_REACH; at--) {
    const code = text.charCodeAt(at);
    if (!isWordCode(code)) return -1;
    if ((code >= 65 && code <= 90) || (code >= 97 && code <= 122)) return addressStart;
  }
  return -1;
}

/**
 * The matches of `ipv6Candidate` that contain a `:` (the only ones
 * `findIps` keeps), tried only at the start of the run of hex digits and
 * colons around each `:`. A match without a colon never covers a position
 * where a match with one could start, so skipping those changes nothing.
 */
function ipv6Matches(text: string): RegExpExecArray[] {
  const matches: RegExpExecArray[] = [];
  const matcher = anchoredMatcher(stickyIpv6Candidate, text);
  const afterLabelMatcher = anchoredMatcher(stickyIpv6AfterLabel, text);
  const gluedMatcher = anchoredMatcher(stickyIpv6Glued, text);
  for (const colon of positionsOf(text, ':')) {
    let start = colon;
    while (start > 0 && colon - start < 38 && isHexOrColonCode(text.charCodeAt(start - 1))) start--;
    if (start > 0 && isHexOrColonCode(text.charCodeAt(start - 1))) continue; // run too long before the colon
    if (start < matcher.next || start < afterLabelMatcher.next || start < gluedMatcher.next)
      continue;
    // An address holds two colons (see `findIps`), all in its first 39
    // characters of hex digits and colons: a run without two there (most
    // colons of prose and times, `Note:`, `10:30`) is not tried. Exact: a
    // match from it would be dropped, and the next run holding a colon
    // starts after that match's end (a match ends before no word
    // character, and before a `:` only when no run goes on after it).
    if (!twoColonsFrom(text, start)) continue;
    const labelColon = labelColonOfRun(text, start);
    const glued = labelColon < 0 ? gluedAddressStart(text, start) : -1;
    let match =
      labelColon >= 0
        ? afterLabelMatcher.at(labelColon + 1)
        : glued >= 0
          ? gluedMatcher.at(glued)
          : matcher.at(start);
    // Glued to a label, a group of three hex digits or more (`Foo1::2` is a path).
    if (glued >= 0 && match && !/[0-9A-Fa-f]{3}/.test(match[0])) match = null;
    // A match at the run's start takes the whole run (39 characters at most), colon included.
    if (match) matches.push(match);
  }
  return matches;
}

const stickyIpv4 = stickyPattern(ipv4);
const stickyIpv4OneBlank = stickyPattern(ipv4OneBlank);

const isDigitCode = (code: number) => code >= 48 && code <= 57;
const isBlankCode = (code: number) => code === 32 || code === 9;

/** Whether one to three digits and a `.` start at `at` (no fourth digit: an octet has three at most). */
function octetAndDotAt(text: string, at: number): boolean {
  let end = at;
  while (end - at < 4 && isDigitCode(text.charCodeAt(end))) end++;
  return end > at && end - at <= 3 && text.charCodeAt(end) === 46;
}

/**
 * Calls `plain(start, end)` for each match of `ipv4` and `oneBlank(start,
 * end)` for each match of `ipv4OneBlank`, as `matchAll` yields each (each
 * kind in text order), tried only at the digits before each `.`. Both
 * start with an octet (one to three digits, no word character before them)
 * and its dot, so a match starts where a run of one to three digits ending
 * at a `.` starts: one start per dot, found by one pass over the dots
 * (about 2% of real text) for both patterns, where each pattern's own
 * search stopped at every digit. Offsets, not match arrays: in a flood of
 * addresses (`1.2.3.4 ` repeated, 131,072 in 1 MB) the two match arrays
 * and their substrings per address, and the lists of them, were 43% of
 * what the chain allocated (heap sampling).
 */
export function forEachIpv4Match(
  text: string,
  plain: (start: number, end: number) => void,
  oneBlank: (start: number, end: number) => void,
): void {
  const plainMatcher = anchoredMatcher(stickyIpv4, text);
  const oneBlankMatcher = anchoredMatcher(stickyIpv4OneBlank, text);
  const dots = positionsOf(text, '.');
  for (let index = 0; index < dots.length; index++) {
    const dot = dots[index]!;
    let start = dot;
    while (start > 0 && dot - start < 4 && isDigitCode(text.charCodeAt(start - 1))) start--;
    // A longer run's last three digits follow a digit, a word character.
    if (start === dot || dot - start > 3) continue;
    // Both patterns go on with a second octet and its dot: one to three
    // digits (after a blank, for the second) and a `.`. Most dots after a
    // number have none (`3.5 kg`, `1. Item`, `in 2019.`): not tried.
    if (
      !octetAndDotAt(text, dot + 1) &&
      !(isBlankCode(text.charCodeAt(dot + 1)) && octetAndDotAt(text, dot + 2))
    )
      continue;
    const end = plainMatcher.endAt(start);
    if (end >= 0) plain(start, end);
    const blankEnd = oneBlankMatcher.endAt(start);
    if (blankEnd >= 0) oneBlank(start, blankEnd);
  }
}

/**
 * A compressed address of hex letters only that reads as one (`dead::beef`,
 * `::cafe:babe`): groups of four letters, of one case. Others without a
 * digit are paths (`a::b`, `B::D`, `Face::add`, `abc::def`; round 23).
 */
const wordAddress = /^(?:(?:[a-f]{4}|:)+|(?:[A-F]{4}|:)+)$/;

/**
 * An IP word within the 32 characters before a bare `::` on its line (the
 * RFC 4291 name, `unspecified`, and a log's `src` / `dst` too).
 */
const unspecifiedContext =
  /\b(?:ip|ipv[46]|ip address|address|addr|host|server|gateway|router|dns|proxy|subnet|inet6?|unspecified|src|dst|source|destination|bind|listen|route)\b[^\n]{0,32}$/i;

/**
 * Whether a bare `::` at `start` is the unspecified address: with a prefix
 * (`::/0`), in brackets (`[::]:8080`), as a value (`src=::`), or after an IP
 * word on its line (`local ipv6 ::`). Any other `::` is punctuation: a wiki
 * indent (`::`, `:::` at a line's start), a type signature (`x :: Int`),
 * a Ruby or reStructuredText `::`, code quoted in prose (`` `::` ``). It was
 * redacted as IP_ADDRESS everywhere but between two blanks (round 39).
 */
function unspecifiedAddressAt(text: string, start: number, prefix: string): boolean {
  if (prefix !== '') return true;
  const before = text[start - 1];
  // `x :: Int`, `host :: String`: a type signature, whatever the name.
  if (before === ' ' && text[start + 2] === ' ') return false;
  if (before === '[' || before === '=') return true;
  return unspecifiedContext.test(text.slice(Math.max(0, start - 48), start));
}

const findIps: Finder = (text, add) => {
  // The plain addresses are added as found; the one-blank ones kept (few:
  // exactly one blank, after an IP word) and added after them, as before.
  let withBlank: number[] | undefined;
  forEachIpv4Match(text, add, (start, end) => {
    let blanks = 0;
    for (let at = start; at < end; at++) if (text.charCodeAt(at) <= 32) blanks++;
    if (blanks !== 1) return;
    if (!ipBlankContext.test(text.slice(Math.max(0, start - 48), start))) return;
    withBlank ??= [];
    withBlank.push(start, end);
  });
  if (withBlank) {
    for (let index = 0; index < withBlank.length; index += 2) {
      add(withBlank[index]!, withBlank[index + 1]!);
    }
  }
  if (positionsOf(text, ':').length === 0) return;
  for (const match of ipv6Matches(text)) {
    let value = match[0];
    // A `:` the match ends with closes a sentence or a label (`… 2001:db8::1: the`).
    if (value.endsWith(':') && !value.endsWith('::')) value = value.slice(0, -1);
    let prefix = '';
    const slash = value.indexOf('/');
    if (slash >= 0) {
      prefix = value.slice(slash);
      value = value.slice(0, slash);
    }
    const percent = value.indexOf('%');
    const address = percent >= 0 ? value.slice(0, percent) : value;
    // One colon is never an address (`::` at least, else eight groups):
    // most colons of prose (`Note:`, `10:30`) end here, before the split.
    const colon = address.indexOf(':');
    if (colon < 0 || address.indexOf(':', colon + 1) < 0 || !ipv6Valid(address)) continue;
    if (address === '::') {
      if (!unspecifiedAddressAt(text, match.index, prefix)) continue;
    } else if (address.includes('::') && !/\d/.test(address) && !wordAddress.test(address)) {
      // Hex letters around `::` and no digit: a C++ or Rust path (`a::b`, `B::D`, `Face::add`).
      continue;
    }
    // A subscript (`a[::-1]`, `x[1::2]`): Python's slices, after a word, `)` or `]`; only
    // a slice's shape, a number at most on either side of `::` (round 24: any match there
    // was skipped, so a mail log's `unknown[2001:db8::1]` passed whole).
    if (
      text[match.index - 1] === '[' &&
      /[\w)\]]/.test(text[match.index - 2] ?? '') &&
      /^\d*::\d*$/.test(address)
    )
      continue;
    const length =
      prefix && Number(prefix.slice(1)) > 128 ? value.length : value.length + prefix.length;
    add(match.index, match.index + length);
  }
};

// An IPv6 address with an IPv4 tail of seven numbers, a zone and a prefix.
export const ipFinder: EntityFinder = { find: findIps, maxLength: 80, priority: 8 };
