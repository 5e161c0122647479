import { callerArgument } from '../../core/caller-values';

/**
 * Recognises example and placeholder values (`xxxxxxxx`, `AKIA...EXAMPLE`,
 * `abcd1234abcd1234`, `<YOUR_TOKEN>`) so that documentation, templates and
 * test fixtures do not read as leaked credentials. Applied to the random
 * part of a token (after a provider prefix such as `ghp_`), never to the
 * prefix itself.
 */

/**
 * Words that mark a value as an example, written by a person (the
 * documented list, see docs/data-protection.md). They count only as a word
 * of the value, never as four letters inside random characters: a random
 * key that happens to contain `fake` or `Sample` is still a key.
 */
export const placeholderWords: readonly string[] = [
  'example',
  'sample',
  'dummy',
  'placeholder',
  'redacted',
  'changeme',
  'change_me',
  'fake',
  'notreal',
  'not_real',
  'randomstring',
  'random_string',
  'insert_',
  'insert-',
  'replaceme',
  'replace_me',
  'replace-me',
  'your_api',
  'your-api',
  'yourapi',
  'your_secret',
  'your-secret',
  'yoursecret',
  'your_token',
  'your-token',
  'yourtoken',
  'your_key',
  'your-key',
  'yourkey',
  'your_pass',
  'your-pass',
  'yourpass',
  // WordPress's wp-config-sample.php writes it in each of its eight keys.
  'put your unique phrase here',
];

const placeholderWord = new RegExp(
  placeholderWords.map(word => word.replace(/[-_]/g, '[-_]')).join('|'),
  'gi',
);

const isAlphanumeric = (code: number) =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
const isDigit = (code: number) => code >= 48 && code <= 57;
const isUpper = (code: number) => code >= 65 && code <= 90;
const isLower = (code: number) => code >= 97 && code <= 122;

/** Start or end of the value, or a character that is not a letter or digit. */
function strongBoundary(code: number): boolean {
  return Number.isNaN(code) || !isAlphanumeric(code);
}

/** Between `outside` and `inside`: a strong boundary, or a change between letters and digits or of case. */
function weakBoundary(outside: number, inside: number): boolean {
  if (strongBoundary(outside)) return true;
  if (isDigit(outside) !== isDigit(inside)) return true;
  return (isLower(outside) && isUpper(inside)) || (isUpper(outside) && isLower(inside));
}

/**
 * What may stay of a value beside its placeholder words for it to still be
 * an example: fewer than this many characters that are not template words
 * or short numbers. A short password has 8 (`Tr0ub4dor&3x-sample` keeps 12,
 * `AKIAIOSFODNN7EXAMPLE` keeps 9 after `AKIA`: both reported).
 */
const secretRemainder = 8;

/**
 * The same for the value of a password key, where the rest is a person's
 * password, usually words: `Sunshine-sample`, `Summer_example` and
 * `dummy-Dragon` keep 8, 6 and 6 and are passwords; `Rex-sample` keeps 3.
 */
const passwordRemainder = 4;

/**
 * Words a template or a fixture writes beside a placeholder word, which
 * hold nothing secret (the documented list, see docs/data-protection.md):
 * the names of what goes there (`key`, `password`, `token`, `user`, `db`),
 * filler and instructions to the reader (`your`, `here`, `replace`, `me`,
 * `later`, `goes`), what the value is said to be (`test`, `demo`, `fake`,
 * `invalid`, `too`, `short`) and the stock example names (`foo`, `acme`).
 * Any other word counts as characters that may be a secret: passwords are
 * words (`Sunshine-sample`). Compounds are read as their words
 * (`password` is `pass` + `word`, also the rest of `yourpasswordhere`
 * after the placeholder word `yourpass`), so no piece reads two ways.
 */
export const templateWords: readonly string[] = [
  // what goes there
  ...(
    'api key keys secret secrets token tokens pass word words passwd pwd phrase pin cred ' +
    'creds credential credentials auth access refresh bearer client private signing session ' +
    'webhook app application service user name account login admin root db database id value ' +
    'string text data env var'
  ).split(' '),
  // filler and instructions
  ...(
    'your my our the this that for to of in with here there goes go put insert enter fill set ' +
    'use change replace me it later now please some any own real actual new not do'
  ).split(' '),
  // what the value is said to be
  ...(
    'test testing demo dev prod production staging local live default random generated ' +
    'invalid valid wrong bad old expired revoked too short long'
  ).split(' '),
  // stock example names
  ...'foo bar baz qux hello world acme'.split(' '),
];

/**
 * A piece of a value beside its placeholder words that holds nothing
 * secret: template words (`key`, `Here`, `ApiKeyHere`), maybe with a short
 * number (`Pass2024`), up to three letters of anything (`sk`, `Rex`), a
 * number of up to 4 digits. Only pieces of up to `longestPlainPiece`
 * characters are tried (a piece that splits into words more than one way
 * backtracks; 48 characters bound that).
 */
const longestPlainPiece = 48;
const plainPiece = new RegExp(
  `^(?:\\d{1,4}|[a-z]{1,3}\\d{0,4}|(?:${[...templateWords].sort((a, b) => b.length - a.length).join('|')})+\\d{0,4})$`,
  'i',
);

/** Characters that only separate the words of a typed value. */
const isSeparator = (code: number) =>
  code === 45 || code === 95 || code === 46 || code === 32 || code === 9;

/**
 * How many characters of `value` outside `words` (start/end pairs) could be
 * a secret: the pieces between words and separators, less plain words
 * (`key`, `Here`), short numbers (`2024`), runs of one character and
 * ascending runs (`123456`); other symbols (`&`, `/`, `+`) count one each.
 */
function remainderLength(value: string, words: readonly number[]): number {
  let kept = 0;
  let wordIndex = 0;
  let pieceStart = -1;
  const closePiece = (end: number) => {
    if (pieceStart < 0) return;
    const piece = value.slice(pieceStart, end);
    if (
      !(piece.length <= longestPlainPiece && plainPiece.test(piece)) &&
      !(piece.length >= 2 && (isPeriodic(piece) || hasAscendingRun(piece, piece.length)))
    )
      kept += piece.length;
    pieceStart = -1;
  };
  for (let index = 0; index < value.length; index++) {
    if (wordIndex < words.length && index === words[wordIndex]) {
      closePiece(index);
      index = words[wordIndex + 1]! - 1;
      wordIndex += 2;
      continue;
    }
    const code = value.charCodeAt(index);
    if (isAlphanumeric(code)) {
      if (pieceStart < 0) pieceStart = index;
      continue;
    }
    closePiece(index);
    if (!isSeparator(code)) kept++;
  }
  closePiece(value.length);
  return kept;
}

/**
 * True when `value` is an example by its placeholder words: a word stands
 * as a word of the value (six letters or more anywhere; shorter ones such as
 * `fake`, `dummy` only at the value's start or end or next to a separator on
 * one side, and at a boundary, a separator, a digit or a case change, on the
 * other) and what stays beside the words could be no secret (fewer than
 * `remainderLimit` characters that are not template words or short numbers).
 * `your_api_key_here`, `sk_test_fake123`, `xoxp-1-RANDOMSTRINGHERE` count;
 * `q8ZfakeR2…` (no word) and `Tr0ub4dor&3x-sample` (a password beside the
 * word) do not: a word appended to a real key does not make it an example.
 */
function hasPlaceholderWord(value: string, remainderLimit: number): boolean {
  const words: number[] = [];
  placeholderWord.lastIndex = 0;
  for (let match = placeholderWord.exec(value); match; match = placeholderWord.exec(value)) {
    const start = match.index;
    const end = start + match[0].length;
    // Six letters or more essentially never occur by chance in random
    // characters (1 in 31^6 per position, case-insensitive): `…CYEXAMPLEKEY`.
    let isWord = match[0].length >= 6;
    if (!isWord) {
      const before = value.charCodeAt(start - 1);
      const after = value.charCodeAt(end);
      const first = value.charCodeAt(start);
      const last = value.charCodeAt(end - 1);
      const strongStart = strongBoundary(before);
      const strongEnd = strongBoundary(after);
      isWord =
        (strongStart && weakBoundary(after, last)) ||
        (strongEnd && weakBoundary(before, first)) ||
        // `insert_` / `your-key` end in their own separator.
        (strongStart && !isAlphanumeric(last));
    }
    if (isWord) {
      words.push(start, end);
      placeholderWord.lastIndex = end;
    } else placeholderWord.lastIndex = start + 1;
  }
  return words.length > 0 && remainderLength(value, words) < remainderLimit;
}

/** Runs of one masking character: `xxxxx`, `XXXXX`, `*****`, `#####`, `.....`. */
const maskRun = /x{5}|X{5}|\*{4}|#{4}|\.{4}|•{3}|_{6}|-{6}|~{6}/;
const maskRunAnywhere = new RegExp(`(?:${maskRun.source})+`, 'g');

/** Eight ascending characters in a row (`abcdefgh`, `12345678`): typed, not generated. */
function hasAscendingRun(value: string, length = 8): boolean {
  let run = 1;
  for (let index = 1; index < value.length; index++) {
    const previous = value.charCodeAt(index - 1);
    const current = value.charCodeAt(index);
    const alphanumeric =
      (current >= 48 && current <= 57) ||
      (current >= 65 && current <= 90) ||
      (current >= 97 && current <= 122);
    run = alphanumeric && current === previous + 1 ? run + 1 : 1;
    if (run >= length) return true;
  }
  return false;
}

/**
 * True when `value` repeats a block of at most a quarter of its length
 * (`abcd1234abcd1234…`, `AAAAAAAA`, `1234-1234-1234`), possibly with a
 * truncated last block.
 */
function isPeriodic(value: string): boolean {
  const maxPeriod = Math.floor(value.length / 2);
  for (let period = 1; period <= Math.min(maxPeriod, 16); period++) {
    let periodic = true;
    for (let index = period; index < value.length; index++) {
      if (value.charCodeAt(index) !== value.charCodeAt(index - period)) {
        periodic = false;
        break;
      }
    }
    if (periodic) return true;
  }
  return false;
}

const seen = new Uint32Array(4); // 128 bits

/** The number of distinct characters (code points) in `value`. */
function distinctCharacters(value: string): number {
  seen.fill(0);
  let distinct = 0;
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code >= 128) return new Set(value).size;
    const bit = 1 << (code & 31);
    if ((seen[code >>> 5]! & bit) === 0) {
      seen[code >>> 5]! |= bit;
      distinct++;
    }
  }
  return distinct;
}

/**
 * True when `value` looks like an example or placeholder rather than a
 * generated credential:
 *
 * - it names itself one, as a word of the value (`EXAMPLE`, `sample`,
 *   `dummy`, `placeholder`, `your_api_key`, `changeme`, `redacted`,
 *   `RANDOMSTRING`, `fake`: `placeholderWords`), not as letters inside
 *   random characters,
 * - it holds a run of masking characters (`xxxxx`, `XXXXX`, `****`, `####`),
 * - it holds eight ascending characters (`abcdefgh`, `12345678`),
 * - it repeats a short block (`abcd1234abcd1234`, `aaaaaaaa`),
 * - it uses few distinct characters for its length (fewer than 5, or fewer
 *   than a quarter of its length, at most 10, once it is 16 characters or
 *   longer): random tokens of that length over 16+ symbols essentially never do.
 */
export function isPlaceholderValue(value: string): boolean {
  callerArgument(value, 'string', 'isPlaceholderValue', 'value');
  return isTypedPlaceholder(value, secretRemainder);
}

/**
 * `isPlaceholderValue` for the value of a password key: a placeholder word
 * makes it an example only when fewer than 4 characters beside it are not
 * template words or short numbers (`Rex-sample`, `sample_db_password_2024`),
 * since a person's password is words (`Sunshine-sample` is one).
 */
export function isPasswordPlaceholder(value: string): boolean {
  return isTypedPlaceholder(value, passwordRemainder);
}

function isTypedPlaceholder(value: string, remainderLimit: number): boolean {
  if (clearPlaceholder(value, remainderLimit)) return true;
  if (hasAscendingRun(value) && typedRunsOnly(value, remainderLimit, true)) return true;
  if (value.length >= 8 && isPeriodic(value)) return true;
  const distinct = distinctCharacters(value);
  if (value.length >= 8 && distinct < 5) return true;
  if (value.length >= 16 && distinct < Math.min(value.length / 4, 10)) return true;
  return false;
}

/**
 * The placeholders that are placeholders beyond doubt, for values already
 * matched by a provider's documented format (`ghp_…`, `SNYK_TOKEN = <uuid>`):
 * empty, a placeholder word (`placeholderWords`), a run of masking characters
 * (`xxxxx`, `*****`, `#####`) or of one character filling a quarter of it, ten
 * ascending characters (`abcdefghij`), or one short block repeated
 * (`abcd1234abcd1234…`). Typed-looking values (`12345678-ABCD-…`, ascending
 * runs, few distinct characters) are still reported there: the format match
 * is evidence enough, and a missed key costs more than a flagged example.
 */
export function isClearPlaceholder(value: string): boolean {
  return clearPlaceholder(value, secretRemainder);
}

/**
 * `isClearPlaceholder` for the characters after a provider's own prefix
 * (`shpat_`, `ghp_`, `xoxb-`): only a placeholder word or a masking run
 * (`shpat_xxxx…`, `ghp_EXAMPLE…`) makes them an example there. The prefix
 * alone makes a key, and a sequence in its alphabet is a value the key may
 * hold: `shpat_0123456789abcdef0123456789abcdef` (a counting or repeated
 * block) passed as an example before round 27, though a person who types
 * one into a config still gives the prefix's service a token to try.
 */
export function isClearPlaceholderAfterPrefix(value: string): boolean {
  return clearPlaceholder(value, secretRemainder, false);
}

function clearPlaceholder(value: string, remainderLimit: number, sequences = true): boolean {
  if (value.length === 0) return true;
  if (hasPlaceholderWord(value, remainderLimit)) return true;
  if ((maskRun.test(value) || mostlyOneCharacter(value)) && typedRunsOnly(value, remainderLimit))
    return true;
  if (!sequences) return false;
  // `abcdefghij…`, `klmnopqrst…`
  if (hasAscendingRun(value, 10) && typedRunsOnly(value, remainderLimit, true)) return true;
  return value.length >= 8 && isPeriodic(value);
}

/**
 * True when what stays of `value` beside its typed runs (masking runs,
 * runs of one character and, with `ascending`, ascending runs, of 4 or
 * more: the caller found one of 8 or more) could be no secret: fewer than
 * `remainderLimit` characters that are not template words or short
 * numbers, as beside a placeholder word.
 * A run appended to a real key does not make it an example:
 * `Xq9Lm2Zr8Wq4Tb6Yp12345678`, `…Tb6Yp1111111111111111` and
 * `…Tb6Ypxxxxxxxx` passed whole (round 17).
 */
function typedRunsOnly(value: string, remainderLimit: number, ascending = false): boolean {
  const typed = new Uint8Array(value.length);
  maskRunAnywhere.lastIndex = 0;
  for (let match = maskRunAnywhere.exec(value); match; match = maskRunAnywhere.exec(value)) {
    typed.fill(1, match.index, match.index + match[0].length);
  }
  let same = 1;
  let rising = 1;
  for (let index = 1; index < value.length; index++) {
    const previous = value.charCodeAt(index - 1);
    const current = value.charCodeAt(index);
    same = current === previous ? same + 1 : 1;
    rising = isAlphanumeric(current) && current === previous + 1 ? rising + 1 : 1;
    // Beside a typed run, shorter ones are typed too (`…7890abcdef…`,
    // `5555555dAAAAA7777777`): random characters hold a run of 4 about once in 62^3.
    // (Each character is marked once a run reaches 4: linear.)
    if (same === 4 || (ascending && rising === 4)) typed.fill(1, index - 3, index + 1);
    else if (same > 4 || (ascending && rising > 4)) typed[index] = 1;
  }
  untypeDigitRunsInNumbers(value, typed);
  const runs: number[] = [];
  for (let index = 0; index < value.length; index++) {
    if (typed[index] === 0) continue;
    const start = index;
    while (index < value.length && typed[index] === 1) index++;
    runs.push(start, index);
  }
  return remainderLength(value, runs) < remainderLimit;
}

/**
 * Unmarks each run of one digit glued to a digit no run marks: it is part
 * of a number, not a mask (`Xq9_4111111111111111`, `…5500000000000004`: a
 * card number in a password read as `4` beside a mask, round 19). Runs
 * that meet other runs stay typed (`00001111`). Linear.
 */
function untypeDigitRunsInNumbers(value: string, typed: Uint8Array): void {
  const isDigitAt = (at: number) => {
    const code = value.charCodeAt(at);
    return code >= 48 && code <= 57;
  };
  for (let start = 0; start < value.length; ) {
    let end = start + 1;
    while (end < value.length && value.charCodeAt(end) === value.charCodeAt(start)) end++;
    if (
      end - start >= 4 &&
      typed[start] === 1 &&
      isDigitAt(start) &&
      ((start > 0 && isDigitAt(start - 1) && typed[start - 1] === 0) ||
        (end < value.length && isDigitAt(end) && typed[end] === 0))
    ) {
      typed.fill(0, start, end);
    }
    start = end;
  }
}

/**
 * A run of one character of 8 or more that fills a quarter of the value
 * (`sgp_5555555dAAAAA…aaaaaaaaaaaaaa`, `…1QQQQQQQQ…`): typed. A shorter
 * share is left alone: base64 of binary data has runs of `A` (zero bytes).
 */
function mostlyOneCharacter(value: string): boolean {
  let longest = 1;
  let run = 1;
  for (let index = 1; index < value.length; index++) {
    run = value.charCodeAt(index) === value.charCodeAt(index - 1) ? run + 1 : 1;
    if (run > longest) longest = run;
  }
  return longest >= 8 && longest * 4 >= value.length;
}
