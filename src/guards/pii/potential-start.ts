import { type FilterTriggers, registerFilterTriggers } from '../../core/filtered-hooks';
import { plainView, trailingChainStart, withinLast } from '../shared/potential-start';
import {
  allPiiEntities,
  defaultPiiEntities,
  type FindPiiOptions,
  piiMaxMatchLength,
} from './find-pii';

/**
 * The entity types whose matches this hook knows the shape of: tokens with
 * digits or symbols, short letter groups (IBAN, NINO), joined by up to a few
 * blanks or by obfuscation markers (`[at]`, `(dot)`, ` . `). A type added
 * later (a name, an address found by a tagger) is not in this list, so
 * `pii` falls back to the bounded window for it until it is added here.
 */
const KNOWN_ENTITIES: ReadonlySet<string> = new Set([
  'EMAIL_ADDRESS',
  'PHONE_NUMBER',
  'CREDIT_CARD',
  'IBAN_CODE',
  'US_SSN',
  'US_ITIN',
  'IP_ADDRESS',
  'URL',
  'MAC_ADDRESS',
  'CRYPTO',
  'UK_NINO',
  'UK_NHS',
]);

// Digits of any script (folded by normalisation), and the symbols of
// numbers, addresses, handles and pseudonym tokens; fullwidth forms fold to
// ASCII under NFKC.
const JOINABLE_CHARS = /[\p{N}@:/+#=_%&~|\\<>\uFF00-\uFFEF]/u;
const SHORT_GROUP = /^(?:[A-Za-z]{1,2}|[A-Z]{1,4})$/;
// Obfuscated e-mail glue: brackets, a lone dot or at sign.
const MARKER = /^[[({<.@]|[\])}>@]$/;

// A detector's left edge is a non-word character, so a match may start
// inside a token (`😀AB 12 34 56 C`): its trailing letters count too.
const TRAILING_LETTERS = /[A-Za-z]+$/;
// A dash alone joins the groups of `4111 - 1111 - …` and `536 - 22 - 1234`.
const DASHES = /^-{1,2}$/;
export const joinableByPatterns = (token: string) =>
  JOINABLE_CHARS.test(token) || DASHES.test(token);

/**
 * A short letter group (`AB` of a NINO, `WEST` of an IBAN), or a token
 * whose trailing letters are one: a piece of a match only beside a
 * joinable token (`trailingChainStart`'s `piece`). Round 28: groups were
 * joinable to each other, so prose read with an invisible character
 * between its letters as blanks (`t h e`) was one chain, held back to
 * the window's bound.
 */
export const pieceByPatterns = (token: string) =>
  SHORT_GROUP.test(token) || SHORT_GROUP.test(TRAILING_LETTERS.exec(token)?.[0] ?? '');

/** The ASCII characters of `JOINABLE_CHARS`: digits and `@:/+#=_%&~|\<>`. */
const JOINABLE_ASCII = (() => {
  const joinable = new Uint8Array(128);
  for (let code = 0; code < 128; code++) {
    if (JOINABLE_CHARS.test(String.fromCharCode(code))) joinable[code] = 1;
  }
  return joinable;
})();

/**
 * `joinableByPatterns` without a regex for an ASCII token (the hook asks
 * about the last words of every check of a stream): a joinable character,
 * or one or two dashes alone. Other tokens go to the patterns.
 */
export function joinable(token: string): boolean {
  for (let at = 0; at < token.length; at++) {
    const code = token.charCodeAt(at);
    if (code >= 0x80) return joinableByPatterns(token);
    if (JOINABLE_ASCII[code] === 1) return true;
  }
  return token === '-' || token === '--';
}

/** `pieceByPatterns` without a regex for an ASCII token: its trailing letters form a short group. */
export function piece(token: string): boolean {
  let lettersFrom = 0;
  for (let at = 0; at < token.length; at++) {
    const code = token.charCodeAt(at);
    if (code >= 0x80) return pieceByPatterns(token);
    const lower = code | 0x20;
    if (lower < 97 || lower > 122) lettersFrom = at + 1;
  }
  const letters = token.length - lettersFrom;
  if (letters === 0) return false;
  if (letters <= 2) return true;
  if (letters > 4) return false;
  for (let at = lettersFrom; at < token.length; at++) {
    const code = token.charCodeAt(at);
    if (code < 65 || code > 90) return false;
  }
  return true;
}

/** `MARKER` by character codes: opens with one of `[({<.@` or closes with one of `])}>@`. */
export function marker(token: string): boolean {
  if (token.length === 0) return false;
  const first = token.charCodeAt(0);
  const last = token.charCodeAt(token.length - 1);
  return (
    first === 0x5b ||
    first === 0x28 ||
    first === 0x7b ||
    first === 0x3c ||
    first === 0x2e ||
    first === 0x40 ||
    last === 0x5d ||
    last === 0x29 ||
    last === 0x7d ||
    last === 0x3e ||
    last === 0x40
  );
}
export const markerByPattern = (token: string) => MARKER.test(token);

/**
 * `potentialMatchStart` of `pii` for these options, or undefined when they
 * name an entity type or a custom pattern whose shape it does not know (the
 * window then holds back `maxMatchLength`).
 */
export function piiPotentialStart({
  entities,
  custom = [],
}: FindPiiOptions): ((text: string) => number) | undefined {
  if (custom.length > 0) return undefined;
  const types =
    entities === undefined ? defaultPiiEntities : entities === 'all' ? allPiiEntities : entities;
  if (!types.every(type => KNOWN_ENTITIES.has(type))) return undefined;
  return withinLast(piiMaxMatchLength({ entities, custom }), text =>
    trailingChainStart(text, { joinable, marker, piece, maxGap: 8, lineEnd: wholeAddress }),
  );
}

// A placeholder `pii` writes (`[EMAIL_ADDRESS]`, `<EMAIL_ADDRESS_1>`), not a bracketed `at` or `dot`.
const PLACEHOLDER = /^[[<](?!(?:AT|DOT)[\]>])[A-Z][A-Z0-9_]*[\]>][,;.]?$/;

/**
 * A token holding a whole e-mail address (`jane@corp.io`, `<jane@corp.io>,`:
 * a character before its `@`, a dot after it with a character after that),
 * or a placeholder (what the window's hooks read of a redacted one): no
 * finder's match spans a line break beside one (an address reads no blank,
 * a phone, card or number no line break; the obfuscated address, which
 * reads across them, needs a bracketed `at` or `dot`, a marker), so a list
 * of addresses one per line releases each finished line
 * (`trailingChainStart`'s `lineEnd`, round 48).
 */
function wholeAddress(token: string): boolean {
  if (PLACEHOLDER.test(token)) return true;
  const at = token.indexOf('@');
  if (at <= 0) return false;
  const dot = token.indexOf('.', at + 2);
  return dot > 0 && dot < token.length - 1;
}

/**
 * What every value of the known types except `URL` needs at least one of,
 * in the normalised text: a digit (cards, phones, numbers, IBANs, NINOs,
 * IPv4, crypto addresses: `1…`, `3…`, `bc1…`, `0x…`), an `@` (e-mail), a
 * colon beside a hex letter or another colon (IPv6: `fe80::`, `dead::beef`;
 * not `well: no`), a `<` (a pseudonym to restore, `<EMAIL_ADDRESS_1>`), a
 * bracketed `at` (an obfuscated e-mail, `jane [at] example`), or two hex
 * letters on each side of a dash or dot (a MAC address in letters only,
 * `de-ad-be-ef-ca-fe`, `dead.beef.cafe`). A bare domain (`URL`) needs
 * none, so with `URL` there is no pre-filter.
 */
export const PII_NEEDS_SPELLED_OUT =
  /[0-9@<]|[0-9A-Fa-f:]:|:[0-9A-Fa-f]|[[({<]\s{0,2}[Aa][Tt]\s{0,2}[\])}>]|[0-9A-Fa-f]{2}[-.][0-9A-Fa-f]{2}/;
/**
 * `PII_NEEDS_SPELLED_OUT` with every alternative starting at a rare
 * character (the hex digits before a colon, dash or dot are looked for
 * behind it), so the regex engine skips the letters of prose instead of
 * trying the hex alternatives at each of them: about 40% less time.
 */
export const PII_NEEDS =
  /[0-9@<]|[[({]\s{0,2}[Aa][Tt]\s{0,2}[\])}>]|:(?<=[0-9A-Fa-f:]:)|:[0-9A-Fa-f]|[-.](?<=[0-9A-Fa-f]{2}[-.])[0-9A-Fa-f]{2}/;

/**
 * `mayMatch` of `pii` for these options: false only for ordinary prose (see
 * `plainView`) with none of the characters every value needs, where
 * `findPii` finds nothing. Undefined when the options name a type or a
 * custom pattern whose needs it does not know.
 */
export function piiMayMatch({
  entities,
  custom = [],
}: FindPiiOptions): ((text: string) => boolean) | undefined {
  if (custom.length > 0) return undefined;
  const types =
    entities === undefined ? defaultPiiEntities : entities === 'all' ? allPiiEntities : entities;
  if (!types.every(type => KNOWN_ENTITIES.has(type) && type !== 'URL')) return undefined;
  const mayMatch = (text: string) => {
    const plain = plainView(text);
    return plain === undefined || piiNeeds(plain);
  };
  registerFilterTriggers(mayMatch, PII_TRIGGERS);
  return mayMatch;
}

/** `(` then `at` in brackets: the obfuscated e-mail's alternative of `PII_NEEDS`, from its `(`. */
const BRACKETED_AT = /\(\s{0,2}[Aa][Tt]\s{0,2}[\])}>]/y;

/**
 * What `piiNeeds` looks for (see `FilterTriggers`): a digit, `@`, `<`, `[`
 * or `{` anywhere (`[at]`, `{at}` are rare enough to flag outright), and
 * where a `(`, `:`, `-` or `.` stands, the alternative of `PII_NEEDS` that
 * starts or turns on it.
 */
const PII_TRIGGERS: FilterTriggers = {
  characters: '0123456789@<[{',
  literals: [],
  near: {
    characters: '(:-.',
    test: (text, at) => {
      const code = text.charCodeAt(at);
      if (code === 0x28) {
        BRACKETED_AT.lastIndex = at;
        return BRACKETED_AT.test(text);
      }
      if (code === 0x3a) {
        return isHex(text, at - 1) || text.charCodeAt(at - 1) === 0x3a || isHex(text, at + 1);
      }
      return (
        isHex(text, at - 2) && isHex(text, at - 1) && isHex(text, at + 1) && isHex(text, at + 2)
      );
    },
  },
  // Two hex digits before a dash or dot; `( at )`, at most 8 characters from its `(`.
  reads: { left: 2, right: 7 },
};

/** The characters that start every alternative of `PII_NEEDS` but the MAC address in letters. */
const PII_RARE = /[0-9@<:[({]/;

/**
 * `PII_NEEDS.test(plain)`, faster on prose: without its rare characters
 * only the MAC address in letters can match, at a dash or dot, which prose
 * has few of and `indexOf` finds (about half the regex's time per check).
 */
export function piiNeeds(plain: string): boolean {
  if (PII_RARE.test(plain)) return PII_NEEDS.test(plain);
  return hexPairsAround(plain, '.') || hexPairsAround(plain, '-');
}

/** Two hex digits on each side of some `separator` in `text`. */
function hexPairsAround(text: string, separator: string): boolean {
  for (let at = text.indexOf(separator, 2); at >= 0; at = text.indexOf(separator, at + 1)) {
    if (isHex(text, at - 2) && isHex(text, at - 1) && isHex(text, at + 1) && isHex(text, at + 2))
      return true;
  }
  return false;
}

function isHex(text: string, at: number): boolean {
  const code = text.charCodeAt(at); // NaN past the end: no
  const lower = code | 0x20;
  return (code >= 48 && code <= 57) || (lower >= 97 && lower <= 102);
}
