/**
 * Names whose DNS answer is known without asking DNS: the public
 * wildcard-DNS services that answer with an address written in the name
 * (`10.0.0.1.nip.io`, `10-0-0-1.sslip.io`, `0a000001.nip.io`) or with
 * 127.0.0.1 for every name (`localtest.me`, `lvh.me`). A fetching tool
 * given such a name reaches the address; `urlFilter`'s `blockPrivate`
 * judges it as it judges the address written as an IP literal.
 */
import { isPrivateHost, parseIPv6 } from './host-checks';

/** What a service answers for a name in which no address is decoded. */
type Undecoded =
  /** No address (NXDOMAIN): nothing to reach. */
  | 'none'
  /** 127.0.0.1, whatever the name. */
  | 'loopback'
  /** Not documented (a defunct service, a DNS-rebinding one): flagged unjudged. */
  | 'unknown';

interface WildcardService {
  /** The service's domain: the name itself and every name under it. */
  domain: string;
  /** Decodes addresses written in the name (dotted, dashed, 8 hex digits, IPv6 with dashes). */
  encodes: boolean;
  /** The answer for a name under it with no address decoded (the domain itself is the service's site). */
  undecoded: Undecoded;
}

/**
 * The documented list. Each service's own documentation:
 * - nip.io and sslip.io (one server, sslip.io's): `10.0.0.1.nip.io`,
 *   `10-0-0-1.nip.io`, `app-10-0-0-1.nip.io`, `app.10.0.0.1.nip.io`,
 *   `0a000001.nip.io` (8 hex digits), IPv6 with dashes (`--1.sslip.io` is
 *   `::1`); no answer for a name without an address.
 * - xip.io: the first such service, dotted addresses; defunct since 2021,
 *   its other names' answers unknown.
 * - traefik.me: dotted and dashed, with prefixes; any other name 127.0.0.1.
 * - localtest.me, lvh.me, vcap.me, localho.st, local.gd: 127.0.0.1 for
 *   every name, the domain itself included.
 * - rbndr.us and 1u.ms: DNS rebinding services (`7f000001.c0a80001.rbndr.us`
 *   answers one address, then the other); a name without a decoded address
 *   is unknown.
 */
const services: readonly WildcardService[] = [
  { domain: 'nip.io', encodes: true, undecoded: 'none' },
  { domain: 'sslip.io', encodes: true, undecoded: 'none' },
  { domain: 'xip.io', encodes: true, undecoded: 'unknown' },
  { domain: 'traefik.me', encodes: true, undecoded: 'loopback' },
  { domain: 'localtest.me', encodes: false, undecoded: 'loopback' },
  { domain: 'lvh.me', encodes: false, undecoded: 'loopback' },
  { domain: 'vcap.me', encodes: false, undecoded: 'loopback' },
  { domain: 'localho.st', encodes: false, undecoded: 'loopback' },
  { domain: 'local.gd', encodes: false, undecoded: 'loopback' },
  { domain: 'rbndr.us', encodes: true, undecoded: 'unknown' },
  { domain: '1u.ms', encodes: true, undecoded: 'unknown' },
];

/** The wildcard-DNS service names: `['nip.io', 'sslip.io', …]`. */
export const WILDCARD_DNS_DOMAINS: readonly string[] = services.map(service => service.domain);

/** The longest DNS name (RFC 1035): a longer one is decoded no further and flagged unjudged. */
const MAX_DNS_NAME = 253;

/** How a name on the list is judged. */
export type WildcardJudgement =
  /** A private or local address: `address` as an IPv4 literal or a bracketed IPv6 one. */
  | { kind: 'private'; address: string; service: string }
  /** Decoded (or no answer): public, passes. */
  | { kind: 'public' }
  /** No address decoded and the service's answer is unknown, or the name is too long. */
  | { kind: 'unknown'; service: string; why: string };

/**
 * The judgement of a host (as the URL parser writes it: lower case,
 * punycode; a trailing dot is dropped) on a wildcard-DNS service, or
 * `undefined` for a host on none (`nip.io.example.com`, `notnip.io` and
 * `10.0.0.1.nip.io.evil.com` are on none: judged by their own names).
 * Every address the name can be read as is judged, and a private one
 * flags it: services differ in which one they take when a name holds
 * several (`1.2.3.4.10.0.0.1.nip.io`). Linear in the name, no regex.
 */
export function wildcardDnsJudgement(host: string): WildcardJudgement | undefined {
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  const service = services.find(
    ({ domain }) =>
      name === domain ||
      (name.length > domain.length &&
        name.endsWith(domain) &&
        name.charCodeAt(name.length - domain.length - 1) === 0x2e),
  );
  if (service === undefined) return undefined;
  if (name.length > MAX_DNS_NAME) {
    return { kind: 'unknown', service: service.domain, why: 'is longer than a DNS name' };
  }
  const sub = name.slice(0, Math.max(0, name.length - service.domain.length - 1));
  let decoded = false;
  if (service.encodes) {
    for (const address of encodedAddresses(sub)) {
      if (isPrivateHost(address)) return { kind: 'private', address, service: service.domain };
      decoded = true;
    }
  }
  if (decoded) return { kind: 'public' };
  const undecoded = sub === '' && service.undecoded === 'unknown' ? 'none' : service.undecoded;
  if (undecoded === 'loopback') {
    return { kind: 'private', address: '127.0.0.1', service: service.domain };
  }
  if (undecoded === 'unknown') {
    return { kind: 'unknown', service: service.domain, why: 'its answer is unknown' };
  }
  return { kind: 'public' };
}

const isDigit = (code: number) => code >= 0x30 && code <= 0x39;
const isHex = (code: number) => isDigit(code) || (code >= 0x61 && code <= 0x66);
/** `.` or `-`: where an address written in a name starts and ends. */
const isBoundary = (code: number) => code === 0x2e || code === 0x2d;

/**
 * Every address written in `sub` (the labels before the service's domain)
 * from a start at its beginning or after `.` / `-` to an end at its end or
 * before `.` / `-`: four decimal parts joined by dots or by dashes, eight
 * hex digits, or an IPv6 address with dashes for colons (`--` for `::`).
 * IPv4 as dotted decimal, IPv6 in brackets. Each start reads at most 39
 * characters: linear in `sub`.
 */
function* encodedAddresses(sub: string): Generator<string> {
  const end = sub.length;
  const boundaryAt = (at: number) => at === end || isBoundary(sub.charCodeAt(at));
  for (let start = 0; start < end; start++) {
    if (start > 0 && !isBoundary(sub.charCodeAt(start - 1))) continue;
    for (const separator of [0x2e, 0x2d]) {
      const ipv4 = decimalIPv4(sub, start, separator);
      if (ipv4 !== undefined && boundaryAt(ipv4.end)) yield ipv4.address;
    }
    if (start + 8 <= end && boundaryAt(start + 8)) {
      let hex = true;
      for (let at = start; at < start + 8 && hex; at++) hex = isHex(sub.charCodeAt(at));
      if (hex) {
        const value = Number.parseInt(sub.slice(start, start + 8), 16);
        yield `${value >>> 24}.${(value >>> 16) & 255}.${(value >>> 8) & 255}.${value & 255}`;
      }
    }
    yield* dashedIPv6(sub, start);
  }
}

/** Four decimal parts of one to three digits, at most 255, joined by `separator`, from `start`. */
function decimalIPv4(
  sub: string,
  start: number,
  separator: number,
): { address: string; end: number } | undefined {
  const octets: number[] = [];
  let at = start;
  while (octets.length < 4) {
    if (octets.length > 0) {
      if (sub.charCodeAt(at) !== separator) return undefined;
      at++;
    }
    let value = 0;
    let digits = 0;
    while (at < sub.length && isDigit(sub.charCodeAt(at))) {
      if (++digits > 3) return undefined;
      value = value * 10 + sub.charCodeAt(at++) - 0x30;
    }
    if (digits === 0 || value > 255) return undefined;
    octets.push(value);
  }
  return { address: octets.join('.'), end: at };
}

/**
 * IPv6 addresses with dashes for colons from `start` (sslip.io's form:
 * `--1` is `::1`, `fd00--1` is `fd00::1`), each ending before `.`, `-` or
 * the end; at most 39 characters (eight groups of four and seven dashes).
 */
function* dashedIPv6(sub: string, start: number): Generator<string> {
  const limit = Math.min(sub.length, start + 39);
  let dashes = 0;
  let doubles = 0;
  for (let at = start; at <= limit; at++) {
    const code = at < sub.length ? sub.charCodeAt(at) : 0x2e;
    if (code === 0x2d || code === 0x2e) {
      // A candidate ends here: seven dashes, or one `--` (a dash at the very end is `::`'s second colon).
      if (at > start && (dashes === 7 || doubles === 1)) {
        const groups = parseIPv6(sub.slice(start, at).replaceAll('-', ':'));
        // The URL parser's form (`[::1]`), which records show.
        if (groups !== undefined) {
          yield new URL(`http://[${groups.map(group => group.toString(16)).join(':')}]`).hostname;
        }
      }
      if (code === 0x2e) return;
      dashes++;
      if (at > start && sub.charCodeAt(at - 1) === 0x2d && ++doubles > 1) return;
    } else if (!isHex(code)) return;
  }
}
