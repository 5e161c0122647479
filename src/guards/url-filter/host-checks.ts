/**
 * Host classification for `urlFilter`: private and loopback addresses, and
 * IDN homographs. Works on the host as the WHATWG URL parser returns it
 * (lower case, punycode, IPv4 in dotted decimal, IPv6 in brackets), so
 * `http://0x7f.1` and `http://2130706433` are already `127.0.0.1` here.
 */

/**
 * The four octets of a dotted-decimal IPv4 address (`10.0.0.1`: four parts
 * of one to three ASCII digits, each at most 255), else `undefined`. One
 * scan without splitting: it runs for every address a flood of settings
 * holds (a split, a regex per part and two arrays were 40% of urlFilter's
 * time on 2 MB of `host: 10.1` lines).
 */
function parseIPv4(host: string): number[] | undefined {
  const octets: number[] = [];
  let value = 0;
  let digits = 0;
  for (let at = 0; at <= host.length; at++) {
    const code = at < host.length ? host.charCodeAt(at) : 0x2e;
    if (code >= 0x30 && code <= 0x39) {
      if (++digits > 3) return undefined;
      value = value * 10 + (code - 0x30);
    } else if (code === 0x2e && digits > 0 && value <= 255 && octets.length < 4) {
      octets.push(value);
      value = 0;
      digits = 0;
    } else return undefined;
  }
  return octets.length === 4 ? octets : undefined;
}

function isPrivateIPv4([a, b]: number[]): boolean {
  if (a === undefined || b === undefined) return false;
  return (
    a === 0 || // "this network", 0.0.0.0 reaches localhost on many systems
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local, cloud metadata (169.254.169.254)
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19)) // benchmarking
  );
}

/** Expands an IPv6 address (no brackets, hex groups only) to eight 16-bit groups. */
export function parseIPv6(address: string): number[] | undefined {
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const toGroups = (part: string) => (part === '' ? [] : part.split(':'));
  const head = toGroups(halves[0] ?? '');
  const tail = halves.length === 2 ? toGroups(halves[1] ?? '') : [];
  const missing = 8 - head.length - tail.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return undefined;
  const groups = [...head, ...Array<string>(missing).fill('0'), ...tail].map(group =>
    /^[0-9a-f]{1,4}$/.test(group) ? Number.parseInt(group, 16) : Number.NaN,
  );
  return groups.some(Number.isNaN) ? undefined : groups;
}

const privateSuffixes = ['localhost', 'local', 'localdomain', 'internal', 'intranet', 'home.arpa'];
const dottedPrivateSuffixes = privateSuffixes.map(suffix => `.${suffix}`);

/**
 * True for hosts that reach the machine itself or a private network:
 * `localhost` (and `*.localhost`), `.local` / `.internal` / `.home.arpa`
 * names, IPv4 private, loopback, link-local and carrier-grade NAT ranges,
 * IPv6 loopback, unspecified, unique-local (fc00::/7), link-local (fe80::/10),
 * site-local (fec0::/10), and private IPv4 addresses an IPv6 one carries
 * (mapped, compatible, NAT64, 6to4, Teredo).
 */
export function isPrivateHost(host: string): boolean {
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  for (let index = 0; index < privateSuffixes.length; index++) {
    if (name === privateSuffixes[index] || name.endsWith(dottedPrivateSuffixes[index]!))
      return true;
  }
  const ipv4 = parseIPv4(name);
  if (ipv4) return isPrivateIPv4(ipv4);
  if (name.startsWith('[') && name.endsWith(']')) {
    const groups = parseIPv6(name.slice(1, -1));
    if (!groups) return false;
    const [first = 0] = groups;
    if (groups.slice(0, 7).every(group => group === 0)) return (groups[7] ?? 0) <= 1; // :: and ::1
    // Unique-local fc00::/7, link-local fe80::/10, the old site-local fec0::/10.
    if ((first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80 || (first & 0xffc0) === 0xfec0) {
      return true;
    }
    const embedded = embeddedIPv4(groups);
    return embedded !== undefined && isPrivateIPv4(embedded);
  }
  return false;
}

/** The bytes of a 32-bit number made of two 16-bit groups. */
function ipv4Of(high: number, low: number): number[] {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff];
}

/**
 * The IPv4 address an IPv6 one carries and reaches: IPv4-mapped
 * `::ffff:a.b.c.d` and SIIT `::ffff:0:a.b.c.d`, IPv4-compatible
 * `::a.b.c.d` (the URL parser writes `[::127.0.0.1]` as `[::7f00:1]`),
 * NAT64 `64:ff9b::/96` and `64:ff9b:1::/48`, 6to4 `2002:AABB:CCDD::/48`,
 * and a Teredo client `2001:0::/32` (its last 32 bits inverted).
 */
function embeddedIPv4(groups: number[]): number[] | undefined {
  const [g0 = 0, g1 = 0, g2 = 0] = groups;
  const [g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups.slice(4);
  const zeroTo = (end: number) => groups.slice(0, end).every(group => group === 0);
  if (zeroTo(5) && (g5 === 0xffff || g5 === 0)) return ipv4Of(g6, g7);
  if (zeroTo(4) && g4 === 0xffff && g5 === 0) return ipv4Of(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && (g2 === 0 || g2 === 1)) return ipv4Of(g6, g7);
  if (g0 === 0x2002) return ipv4Of(g1, g2);
  if (g0 === 0x2001 && g1 === 0) return ipv4Of(g6 ^ 0xffff, g7 ^ 0xffff);
  return undefined;
}

/** True when `host` is an IPv4 or bracketed IPv6 literal. */
export function isIpHost(host: string): boolean {
  return parseIPv4(host) !== undefined || (host.startsWith('[') && host.endsWith(']'));
}

const punycodeBase = 36;

function adaptBias(delta: number, points: number, first: boolean): number {
  let scaled = first ? Math.floor(delta / 700) : delta >> 1;
  scaled += Math.floor(scaled / points);
  let k = 0;
  while (scaled > 455) {
    scaled = Math.floor(scaled / 35);
    k += punycodeBase;
  }
  return k + Math.floor((36 * scaled) / (scaled + 38));
}

/** Decodes one punycode label (without `xn--`), RFC 3492. `undefined` when malformed. */
export function decodePunycodeLabel(label: string): string | undefined {
  const output: number[] = [];
  const basicEnd = label.lastIndexOf('-');
  for (let index = 0; index < basicEnd; index++) output.push(label.charCodeAt(index));
  let code = 128;
  let bias = 72;
  let position = 0;
  for (let index = basicEnd > 0 ? basicEnd + 1 : 0; index < label.length; ) {
    const previous = position;
    let weight = 1;
    for (let k = punycodeBase; ; k += punycodeBase) {
      if (index >= label.length) return undefined;
      const char = label.charCodeAt(index++);
      const digit =
        char >= 48 && char <= 57
          ? char - 22
          : char >= 97 && char <= 122
            ? char - 97
            : char >= 65 && char <= 90
              ? char - 65
              : punycodeBase;
      if (digit >= punycodeBase) return undefined;
      position += digit * weight;
      const threshold = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
      if (digit < threshold) break;
      weight *= punycodeBase - threshold;
    }
    const length = output.length + 1;
    bias = adaptBias(position - previous, length, previous === 0);
    code += Math.floor(position / length);
    position %= length;
    if (code > 0x10ffff) return undefined;
    output.splice(position++, 0, code);
  }
  return String.fromCodePoint(...output);
}

// Cyrillic and Greek letters that render like Latin ones.
const latinLookalikes = /^[асеорхуіјѕԁһӏԛԝνοαερτυχκι]+$/u;
const scripts = [
  /\p{Script=Latin}/u,
  /\p{Script=Cyrillic}/u,
  /\p{Script=Greek}/u,
  /\p{Script=Armenian}/u,
  /\p{Script=Cherokee}/u,
];

/**
 * The Unicode form of a punycode label that looks like a spoof: letters of
 * more than one script (`gооgle` with Cyrillic o's), or only Cyrillic and
 * Greek letters that all look Latin (`аррӏе`). `undefined` otherwise.
 */
export function homographLabel(host: string): string | undefined {
  for (const label of host.split('.')) {
    if (!label.startsWith('xn--')) continue;
    const decoded = decodePunycodeLabel(label.slice(4));
    if (decoded === undefined) return label;
    const letters = decoded.replace(/[^\p{L}]/gu, '');
    const used = scripts.filter(script => script.test(letters)).length;
    if (used > 1 || latinLookalikes.test(letters)) return decoded;
  }
  return undefined;
}
