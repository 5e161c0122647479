import { trailingChainStart, withinLast } from '../shared/potential-start';
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
const joinable = (token: string) =>
  JOINABLE_CHARS.test(token) ||
  SHORT_GROUP.test(token) ||
  SHORT_GROUP.test(TRAILING_LETTERS.exec(token)?.[0] ?? '');
const marker = (token: string) => MARKER.test(token);

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
    trailingChainStart(text, { joinable, marker, maxGap: 8 }),
  );
}
