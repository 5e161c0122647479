import { buildAsciiAutomaton } from '../../core/ascii-automaton';
import { registerFilteredHook, registerFilterTriggers } from '../../core/filtered-hooks';
import { isInvisibleCodePoint, isReadThrough } from '../shared/normalize-text';
import {
  isWhitespaceAt,
  plainView,
  trailingChainStart,
  withinLast,
} from '../shared/potential-start';
import { bareValueEnd, isPropertiesPasswordKey, keywords } from './assignments';
import { secretsMaxMatchLength } from './find-secrets';
import { firstSecretKindLine } from './kubernetes-secret';
import { providerRules } from './provider-rules';
import { startsWithSplitPrefix } from './split-prefix';
import { openBlockScalarStart } from './yaml-block-scalar';

// A token with anything but letters: keys, tokens, operators, quotes, paths.
const NON_LETTER = /[^\p{L}]/u;
// Operators and quotes on their own, and the schemes of an Authorization value.
const MARKER = /^(?:[:=<>!?"'`]+|bearer|basic|token)$/i;

// A letters-only token starting with a provider prefix (`AKIA`, `xox`):
// `findSecrets` joins it to a token after a blank (`split-prefix.ts`).
export const joinableByPatterns = (token: string) =>
  NON_LETTER.test(token) || startsWithSplitPrefix(token.normalize('NFKC'));

/** `joinableByPatterns` without a regex for an ASCII token (asked on every check of a stream). */
export function joinable(token: string): boolean {
  for (let at = 0; at < token.length; at++) {
    const code = token.charCodeAt(at);
    if (code >= 0x80) return joinableByPatterns(token);
    const lower = code | 0x20;
    if (lower < 97 || lower > 122) return true;
  }
  return startsWithSplitPrefix(token);
}

/**
 * Letters-only tokens `findSecrets` takes in as a key's piece after its
 * start (`split-prefix.ts`), never alone: a short word (a last piece of one
 * or two, `shortKeyEnd`'s `aB`), four capitals or fewer (an AWS key id's
 * `AKIA ZQHM 3M2K …`), a small letter then a capital (`keyLike`'s `abCd`,
 * `iWt`). Round 28: the hook joined short words to each other, so prose
 * read with an invisible character between its letters as blanks (`t h e`)
 * was one chain held back to the window's bound; and it released `AKIA
 * ZQHM ` before the rest of the key came, which streamed raw.
 */
const PIECE = /^(?:[A-Za-z]{1,2}|[A-Z]{1,4}|[A-Za-z]*[a-z][A-Za-z]*[A-Z][A-Za-z]*)$/;
export const pieceByPattern = (token: string) => PIECE.test(token.normalize('NFKC'));

/** `pieceByPattern` without a regex for an ASCII token of letters (the hook's tokens). */
export function piece(token: string): boolean {
  const length = token.length;
  if (length === 0) return false;
  if (length <= 2 && token.charCodeAt(0) < 0x80 && token.charCodeAt(length - 1) < 0x80) {
    return isAsciiLetters(token);
  }
  let upper = 0;
  let lowerBefore = false;
  let innerUpper = false;
  for (let at = 0; at < length; at++) {
    const code = token.charCodeAt(at);
    if (code >= 0x80) return pieceByPattern(token);
    if (code >= 65 && code <= 90) {
      upper++;
      if (lowerBefore) innerUpper = true;
    } else if (code >= 97 && code <= 122) lowerBefore = true;
    else return false;
  }
  return innerUpper || (upper === length && length <= 4);
}

function isAsciiLetters(token: string): boolean {
  for (let at = 0; at < token.length; at++) {
    const lower = token.charCodeAt(at) | 0x20;
    if (lower < 97 || lower > 122) return false;
  }
  return true;
}

/** `MARKER` by character codes (the hook asks about the last words of every check of a stream). */
const OPERATOR_OR_QUOTE = Uint8Array.from({ length: 128 }, (_, code) =>
  ':=<>!?"\'`'.includes(String.fromCharCode(code)) ? 1 : 0,
);
export function marker(token: string): boolean {
  if (token.length === 0) return false;
  if (token.length === 5 || token.length === 6) {
    const lower = token.toLowerCase();
    if (lower === 'bearer' || lower === 'basic' || lower === 'token') return true;
  }
  for (let at = 0; at < token.length; at++) {
    const code = token.charCodeAt(at);
    if (code >= 128 || OPERATOR_OR_QUOTE[code] === 0) return false;
  }
  return true;
}
export const markerByPattern = (token: string) => MARKER.test(token);

/** Words that start a secret spanning blanks: an assignment's key, an Authorization header, a curl command. */
const trigger = new RegExp(`${keywords}|authorization|curl`, 'gi');
const TRIGGER_IN_LOWER_CASE = new RegExp(`${keywords}|authorization|curl`);
const KEY_CHAR = /[A-Za-z0-9_.\-"']/;
const KEY_TAIL_CHAR = /[A-Za-z0-9_.-]/;
/**
 * What may still follow a key for the assignment to match: an optional
 * quote, an operator (or its start), blanks, then a quoted value not yet
 * closed, a bare value not yet ended (it may run over `,`, `)`, `]`: up to a
 * blank or quote), or an Authorization scheme and value.
 */
const LIVE_ASSIGNMENT =
  /^["']?\s{0,3}(?:[:=<>!?]{1,4}\s{0,3}(?:(?:basic|bearer|token)\s{0,3})?(?:\$?["'`]{1,3}[^"'`\n]*|[^\s"'`]*(?:\\\r?\n(?:[^\n]*\\\r?\n)*[^\n]*)?)|["'`]{1,3}[^"'`\n]*)?$/i;
/** A `.properties` password's value (`isPropertiesPasswordKey`): to its line's end, or its last continued line's. */
const LIVE_PROPERTIES_VALUE = /^[ \t]{0,3}[:=](?:[^\n]*\\\r?\n)*[^\n]*$/;
/** An XML element naming a secret (`<password>…</password>`) not yet closed. */
const LIVE_ELEMENT = /^[^<>\n]{0,200}>[^<]{0,400}(?:<\/?[A-Za-z0-9_.:-]*)?$/;
/** A curl command is judged up to the end of its line (or a continued line). */
const LIVE_CURL = /^(?:[^\n]|\\\r?\n){0,400}$/;
/**
 * A quoted value that may still be compared with a key (`"hunter22" ==
 * password`). Unbounded, as `reversedComparison` reads it: bounded at 200,
 * a longer value was released before its `== password` came (round 34).
 * A value that starts with a blank is never a secret (`looksLikeSecretValue`),
 * so a quote followed by one (`"stop." Then…`, a closing quote in prose)
 * holds nothing (`blankAfter`).
 */
const LIVE_COMPARISON = /^(["'`])[^"'`\n]*(?:\1[ \t]{0,3}[=!]{0,3}[ \t]{0,3}[A-Za-z0-9_.]{0,60})?$/;
const PEM_BEGIN = '-----BEGIN';
const PEM_END = /-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----/;

/** The earliest key (with a keyword) whose assignment may still match. */
function liveAssignmentStart(text: string): number {
  // Most checked texts name no secret: one pass for the triggers' leading letters first.
  if (!mayHaveTrigger(text)) return text.length;
  trigger.lastIndex = 0;
  for (let match = trigger.exec(text); match; match = trigger.exec(text)) {
    let start = match.index;
    while (start > 0 && match.index - start < 41 && KEY_CHAR.test(text[start - 1]!)) start--;
    let end = match.index + match[0].length;
    while (end < text.length && end - match.index < 72 && KEY_TAIL_CHAR.test(text[end]!)) end++;
    const rest = text.slice(end, end + 4_200);
    const live = /^curl$/i.test(match[0])
      ? LIVE_CURL.test(rest)
      : LIVE_ASSIGNMENT.test(rest) ||
        (LIVE_PROPERTIES_VALUE.test(rest) &&
          isPropertiesPasswordKey(text, start, text.slice(start, end)));
    if (live) return start;
    if (start > 0 && text[start - 1] === '<' && LIVE_ELEMENT.test(rest)) return start - 1;
  }
  return text.length;
}

const LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;

/** The earliest quote on the last line that opens a value still open or just closed. */
function liveComparisonStart(text: string): number {
  const lineStart = text.lastIndexOf('\n') + 1;
  // The next of each quote character, found by the engine's search (linear: each advances only).
  let double = text.indexOf('"', lineStart);
  let single = text.indexOf("'", lineStart);
  let back = text.indexOf('`', lineStart);
  for (;;) {
    let at = double;
    if (at < 0 || (single >= 0 && single < at)) at = single;
    if (at < 0 || (back >= 0 && back < at)) at = back;
    if (at < 0) return text.length;
    if (at === double) double = text.indexOf('"', at + 1);
    else if (at === single) single = text.indexOf("'", at + 1);
    else back = text.indexOf('`', at + 1);
    // A quote after a letter or digit is an apostrophe ("don't"), not an
    // opening quote; so is one after a letter and characters the detectors
    // read through (`you\u200b'\u200bd`, round 34: held to the line's end).
    if (afterLetterOrDigit(text, at)) continue;
    // A value that starts with a blank is no secret: no value opens here.
    if (blankAfter(text, at + 1)) continue;
    if (LIVE_COMPARISON.test(text.slice(at))) return at;
  }
}

/** Whether a letter or digit comes before `at`, past characters the detectors read through. */
function afterLetterOrDigit(text: string, at: number): boolean {
  let index = at;
  while (index > 0) {
    const code = text.charCodeAt(index - 1);
    if (code < 0x80)
      return ((code | 0x20) >= 97 && (code | 0x20) <= 122) || (code >= 48 && code <= 57);
    const point = text.codePointAt(index - 1)!;
    const start = point >= 0xdc00 && point <= 0xdfff && index >= 2 ? index - 2 : index - 1;
    const whole = text.codePointAt(start)!;
    if (!isReadThrough(whole)) return LETTER_OR_NUMBER.test(String.fromCodePoint(whole));
    index = start;
  }
  return false;
}

/** Whether white space comes at `at`, past characters the normaliser removes (U+FEFF, ZWSP). */
function blankAfter(text: string, at: number): boolean {
  let index = at;
  while (index < text.length) {
    const code = text.codePointAt(index)!;
    if (isInvisibleCodePoint(code)) {
      index += code > 0xffff ? 2 : 1;
      continue;
    }
    return isWhitespaceAt(text, index);
  }
  return false;
}

/** A `data:` / `stringData:` line of a Kubernetes Secret: every value in its block is a secret. */
const DATA_BLOCK = /^([ \t]*(?:-[ \t]+)?)(?:data|stringData):[ \t]*(?:#.*)?$/gm;

/**
 * The last `data:` block whose lines may still be values: every line after
 * it is blank or indented deeper. (A manifest that declares `kind: Secret`
 * only after its data cannot be streamed safely; see docs/streaming.md.)
 */
function openDataBlockStart(text: string): number {
  if (!text.includes('ata:')) return text.length;
  let last: RegExpExecArray | undefined;
  DATA_BLOCK.lastIndex = 0;
  for (let match = DATA_BLOCK.exec(text); match; match = DATA_BLOCK.exec(text)) last = match;
  if (!last) return text.length;
  const indent = last[1]!.length;
  const lines = text
    .slice(last.index + last[0].length)
    .split('\n')
    .slice(1);
  for (const line of lines) {
    if (line.trim() === '') continue;
    let depth = 0;
    while (depth < line.length && (line[depth] === ' ' || line[depth] === '\t')) depth++;
    if (depth <= indent) return text.length;
  }
  return last.index;
}

/**
 * A Kubernetes manifest that declares `kind: Secret` (or, in JSON,
 * `"kind": "Secret"`): `findSecrets` reads
 * the `data:` values of a text only while it holds such a line (anywhere in
 * it, other documents of the text included), so the line is held from its
 * start as long as it is within the window's bound; a `data:` block more
 * than that after it is not exact (docs/streaming.md). A `kind: Secret` line
 * still being written (`kind: Sec`) is a trailing token, held anyway.
 */
function openSecretKindStart(text: string): number {
  if (!text.includes('kind:') && !text.includes('"kind"')) return text.length;
  const start = firstSecretKindLine(text);
  return start < 0 ? text.length : start;
}

/**
 * An HCL `variable "…" {` block (`provider-rules.ts`' Terraform rule, round
 * 46) whose `default = "…"` may still come: the name still being written, or
 * the block opened and neither closed nor nested within the rule's reach (up
 * to 300 characters of other settings, then the default's `=` and quoted
 * value). Round 46 review: the rule reads from `variable` to the value, and a
 * check keeps 48 released characters as context, so a long `description`
 * before the default let window mode release the line that makes the value a
 * secret, and the value streamed raw where generate redacts it. A superset
 * of the rule's shape (any name, a case-blind `variable`): holding more only
 * delays a release.
 */
const VARIABLE_BLOCK = /(?<![A-Za-z0-9_])variable[ \t]{1,3}"/gi;
const LIVE_VARIABLE_BLOCK = /[A-Za-z0-9_-]{0,100}(?:"[ \t]{0,3}(?:\{[^{}]{0,600})?)?$/y;

/**
 * The earliest open `variable` block (see `LIVE_VARIABLE_BLOCK`). Linear: each
 * block's test stops at the first brace after its own `{`, where the next
 * block's starts.
 */
function openVariableBlockStart(text: string): number {
  if (!/variable/i.test(text)) return text.length;
  VARIABLE_BLOCK.lastIndex = 0;
  for (let match = VARIABLE_BLOCK.exec(text); match; match = VARIABLE_BLOCK.exec(text)) {
    LIVE_VARIABLE_BLOCK.lastIndex = VARIABLE_BLOCK.lastIndex;
    if (LIVE_VARIABLE_BLOCK.test(text)) return match.index;
  }
  return text.length;
}

/*
 * Round 47 review (hK): `provider-rules.ts`' config rules (round 47) read
 * their anchor before the value: `.netrc`'s `machine HOST` / `login USER` /
 * `account NAME` / `default` before `password VALUE`, a command (`htpasswd
 * -b`, `docker login`, `redis-cli`) words before its password, a JSON key
 * named for secrets before each of the first eight strings of its array. A
 * check keeps 48 released characters as context, so with a long host, file,
 * user or earlier strings between, window mode released the anchor and the
 * value streamed raw where generate redacts it. Each is held from its anchor
 * while the rule may still reach a value (supersets of the rules' shapes,
 * bounded as they are: holding more only delays a release).
 */

/** A `.netrc` word the `password` may follow, after a boundary (`(?<![\w.-])`). */
const NETRC_ANCHOR = /(?<![\w.-])(?:machine|login|account|default)(?=[ \t\r\n]|$)/g;
/** `password`, written so far, then its value (read on past 128 characters by the rule's `more`). */
const NETRC_PASSWORD = '(?:p|pa|pas|pass|passw|passwo|passwor|password(?:[ \\t]{1,20}\\S{0,400})?)';
/** After `machine` / `login` / `account`: its word, blanks, then `password` and its value. */
const LIVE_NETRC_WORD = new RegExp(
  `(?:[ \\t]{0,20}|[ \\t]{1,20}\\S{1,200}\\s{0,20}|[ \\t]{1,20}\\S{1,200}\\s{1,20}${NETRC_PASSWORD})$`,
  'y',
);
/** After `default`: blanks, then `password` and its value. */
const LIVE_NETRC_DEFAULT = new RegExp(`(?:\\s{0,20}|\\s{1,20}${NETRC_PASSWORD})$`, 'y');

/**
 * A command whose password comes some words after it (`htpasswd -b`, `docker
 * login -p`, `redis-cli -a`); a command still being written is within the
 * released context.
 */
const COMMAND_ANCHOR = /(?<![\w.-])(?:htpasswd|docker[ \t]{1,3}login|redis-cli)(?=[ \t]|$)/g;
/**
 * The command's words up to its password's (at most 3 + 1 + 3 flags, two
 * words and the value for `htpasswd`; `login`, six words, the flag and the
 * value for `docker` and `redis-cli`), the last maybe still being written.
 */
const LIVE_COMMAND = /(?:[ \t]{1,3}\S{1,400}){0,10}[ \t]{0,3}$/y;
/** Most characters from a command to the text's end while it is open (`LIVE_COMMAND`, the name's own). */
const COMMAND_REACH = 4_600;
const COMMANDS = ['htpasswd', 'docker', 'redis-cli'];

/** A JSON key and its array's `[` (`"api_tokens": [`). */
const JSON_ARRAY_KEY = /"([A-Za-z0-9_.-]{1,120})"[ \t]{0,3}:[ \t]{0,3}\[/g;
/** A superset of the rule's secret names, in any case. */
const SECRET_NAME = /pass|pwd|secret|token|api_?key|auth|salt|credential/i;
/** The array's strings so far (its first eight: the last maybe still open or waiting for its comma). */
const LIVE_JSON_ARRAY =
  /(?:[ \t\r\n]{0,20}"[^"\\\n]{0,200}"[ \t\r\n]{0,20},){0,7}[ \t\r\n]{0,20}(?:"[^"\\\n]{0,200}(?:"[ \t\r\n]{0,20})?)?$/y;

/**
 * The earliest anchor of a round 47 config rule whose value may still come
 * or grow. Linear: a test reads at most ten words or eight strings after its
 * anchor, and fails at the next anchor's quote (JSON) or line (`.netrc`).
 * Exported for its tests.
 */
export function openConfigAnchorStart(text: string): number {
  // A command is one of the last eleven words (`LIVE_COMMAND`): only they are searched.
  const from = lastWordsStart(text, 11, COMMAND_REACH);
  const command = includesFrom(text, COMMANDS, from)
    ? firstLive(text, COMMAND_ANCHOR, () => LIVE_COMMAND, from)
    : text.length;
  // The engine's substring search first (it skips ahead): most checked texts hold no `[`.
  const array = text.includes('[')
    ? firstLive(text, JSON_ARRAY_KEY, match =>
        SECRET_NAME.test(match[1]!) ? LIVE_JSON_ARRAY : undefined,
      )
    : text.length;
  return Math.min(openNetrcStart(text), command, array);
}

/**
 * The earliest open `.netrc` anchor. Asked of texts `secretsMayMatch` ruled
 * out too: `machine HOST` names no secret, and `password` comes after it.
 */
function openNetrcStart(text: string): number {
  // The anchor is one of the last four words (anchor, its word, `password`, the value): only they are searched.
  const from = lastWordsStart(text, 4, NETRC_REACH);
  if (!includesFrom(text, NETRC_WORDS, from)) return text.length;
  return firstLive(
    text,
    NETRC_ANCHOR,
    match => (match[0] === 'default' ? LIVE_NETRC_DEFAULT : LIVE_NETRC_WORD),
    from,
  );
}
const NETRC_WORDS = ['machine', 'login', 'account', 'default'];

/** Whether one of `words` occurs in `text` from `from` (the engine's substring search: no regex run). */
function includesFrom(text: string, words: readonly string[], from: number): boolean {
  for (const word of words) if (text.includes(word, from)) return true;
  return false;
}
/** Most characters from a `.netrc` anchor to the text's end while it is open (`LIVE_NETRC_WORD`). */
const NETRC_REACH = 700;

/** Where the last `count` blank-separated words of `text` start, read back at most `reach` characters. */
function lastWordsStart(text: string, count: number, reach: number): number {
  const stop = Math.max(0, text.length - reach);
  let at = text.length;
  for (let words = 0; words < count && at > stop; words++) {
    while (at > stop && isBlankOrBreak(text.charCodeAt(at - 1))) at--;
    while (at > stop && !isBlankOrBreak(text.charCodeAt(at - 1))) at--;
  }
  return at;
}
const isBlankOrBreak = (code: number) => code === 32 || (code >= 9 && code <= 13);

/**
 * The start of the first match of `anchor` (from `from`) after which
 * `live(match)` (sticky) matches to the text's end.
 */
function firstLive(
  text: string,
  anchor: RegExp,
  live: (match: RegExpExecArray) => RegExp | undefined,
  from = 0,
): number {
  anchor.lastIndex = from;
  for (let match = anchor.exec(text); match; match = anchor.exec(text)) {
    const rest = live(match);
    if (rest === undefined) continue;
    rest.lastIndex = anchor.lastIndex;
    if (rest.test(text)) return match.index;
  }
  return text.length;
}

/** A private key's BEGIN line still being written, or its block not yet ended. */
const PEM_HEADER = /^(?:[ A-Z0-9]{0,40}$|[ A-Z0-9]{0,40}PRIVATE KEY)/;

/** An unfinished PEM private key block (a certificate's BEGIN line is not one). */
function openPemStart(text: string): number {
  // The forward search skips ahead by the needle's length (lastIndexOf reads every character): about 3x faster.
  if (!text.includes(PEM_BEGIN)) return text.length;
  const begin = text.lastIndexOf(PEM_BEGIN);
  if (begin < 0) return text.length;
  const rest = text.slice(begin + PEM_BEGIN.length);
  if (!PEM_HEADER.test(rest) || PEM_END.test(rest)) return text.length;
  return begin;
}

/**
 * `potentialMatchStart` of `secrets`: the earliest of the trailing chain of
 * key-like tokens (anything with a digit or a symbol), an assignment whose
 * key names a secret and whose value may still come or grow, a quoted
 * value that may still be compared with such a key, an unfinished PEM
 * block, and a round 47 config rule's anchor whose value may still come
 * (`openConfigAnchorStart`: a JSON array's eighth string may come 2,000
 * characters after its key, past the bounded hooks' reach; held at most to
 * the window's hold bound, as a PEM block).
 */
export function secretsPotentialStart(text: string): number {
  return Math.min(
    boundedStart(text),
    openPemStart(text),
    liveComparisonStart(text),
    longValueStart(text),
    openConfigAnchorStart(text),
  );
}

/** Most characters between a key's start and its value's (a key, a quote, an operator, a scheme, blanks). */
const KEY_BEFORE_VALUE = 300;

/**
 * The key of a value longer than the bounded hooks see (`withinLast`):
 * when the text ends in a token of more than half their reach, the text
 * from up to `KEY_BEFORE_VALUE` characters before it to its first
 * character is asked whether an assignment, header or flag whose value may
 * still grow starts there (`liveAssignmentStart`). Round 34: the bounded
 * hooks no longer saw the key of `Authorization: Bearer <1,100 x>…` or
 * `db.password = <1,100 x>…`, and released the run of `x`, which alone is
 * a placeholder, before the rest made it a secret that `generateText`
 * redacts whole. The token's own first `KEY_BEFORE_VALUE` characters are
 * read too, for a key glued to its value (`password=<1,100 x>…`, one
 * token: round 34, released); a key found there must have its operator
 * (`KEY_IN_TOKEN`). Held at most to the window's hold bound, as a PEM block.
 * Round 35: a key in a URL's query (`?token=…`, `&api_key=…`) whose value
 * has ended (`endedQueryValue`: `&page=2` after it) is judged, so the rest
 * of the token after it is searched for the next such key instead (a long
 * URL with `token=` early was held to its end; past 16 K, failed closed);
 * past `MAX_ENDED_QUERY_VALUES` ended values it holds from the next key,
 * as before. Reads the last token once for each ended value passed.
 * `filtered`: for a text `secretsMayMatch` ruled out (only an
 * `Authorization` or `curl` in another case may start there).
 */
function longValueStart(text: string, filtered = false): number {
  let start = text.length;
  while (start > 0 && !isWhitespaceAt(text, start - 1)) start--;
  if (text.length - start <= secretsMaxMatchLength) return text.length;
  let from = Math.max(0, start - KEY_BEFORE_VALUE);
  // The token's first characters too: its key may be glued to it (`password=<1,100 x>…`).
  let head = text.slice(from, start + KEY_BEFORE_VALUE);
  // As `boundedStartFiltered` asks: a text `secretsMayMatch` ruled out holds no keyword.
  if (filtered && !CURL_OR_AUTHORIZATION.test(head)) return text.length;
  for (let ended = 0; ; ended++) {
    const key = liveAssignmentStart(head);
    if (key >= head.length) return text.length;
    // A key inside the token is one only with its operator there (not a keyword in random characters).
    if (from + key >= start && !KEY_IN_TOKEN.test(head.slice(key))) return text.length;
    const valueEnd = ended < MAX_ENDED_QUERY_VALUES ? endedQueryValue(text, from + key) : -1;
    if (valueEnd < 0) return from + key;
    // The rest of the token, from the separator that ended the value.
    from = valueEnd;
    head = text.slice(from);
  }
}

/** How many ended query values `longValueStart` passes before it holds from the next key. */
const MAX_ENDED_QUERY_VALUES = 8;

/** A URL query's key and its `=` (`token=`). */
const QUERY_KEY = /[A-Za-z0-9_.-]{1,112}=/y;

/**
 * Where the value of the URL query key at `keyStart` (right after `?` or
 * `&`) ends, when `findSecrets` has judged it whatever follows: the
 * separator `bareValueEnd` ends it at (`&` or `#` before the next key and
 * its `=`, `;`, a closing bracket), with at least one character after it
 * in the text; -1 when it may still grow (`token=abc&` may go on `3x`), runs
 * past `secretsMaxMatchLength` unended, or the key is not in a query.
 * Reads at most that many characters.
 */
function endedQueryValue(text: string, keyStart: number): number {
  const before = text.charCodeAt(keyStart - 1);
  if (before !== 0x3f && before !== 0x26) return -1;
  QUERY_KEY.lastIndex = keyStart;
  if (!QUERY_KEY.test(text)) return -1;
  const valueStart = QUERY_KEY.lastIndex;
  // The value's end as the assignment pattern reads it: the next blank or quote.
  const limit = Math.min(text.length, valueStart + secretsMaxMatchLength);
  let end = valueStart;
  while (end < limit && !isWhitespaceAt(text, end) && !QUOTES.includes(text[end]!)) end++;
  const valueEnd = bareValueEnd(text, keyStart, valueStart, end);
  return valueEnd < end - 1 ? valueEnd : -1;
}
const QUOTES = '"\'`';

/** A key and its operator at the start of a token (`password=`, `"api_key":`). */
const KEY_IN_TOKEN = /^["']?[A-Za-z0-9_.-]{1,112}["']?[ \t]{0,3}[:=]/;

// Held back at most as far as the secrets window reaches (one invisible
// character may sit between every two visible ones) ...
const boundedStart = withinLast(secretsMaxMatchLength * 2, text =>
  Math.min(
    trailingChainStart(text, { joinable, marker, piece }),
    liveAssignmentStart(text),
    openDataBlockStart(text),
    openBlockScalarStart(text),
    openSecretKindStart(text),
    openVariableBlockStart(text),
  ),
);
// ... except a PEM block, which findSecrets matches to the end of the
// visible text: it is held from its BEGIN line until its END line; and a
// quoted value on the last line that may still be compared with a key,
// which `reversedComparison` reads with no bound: held from its quote until
// it closes or its line ends (round 34: a value past the bound, or past 200
// characters, was released before its `== password` came). Either is held
// at most as far as the window's hold bound, past which it fails closed.

/** `authorization` or `curl` in a case the pre-filter's exact-case literals do not look for. */
const CURL_OR_AUTHORIZATION = /curl|authorization/i;

/**
 * `secretsPotentialStart` of a text that `secretsMayMatch` ruled out (it,
 * or a text it is part of: see `core/filtered-hooks`). The filter found no
 * keyword, no `ata:` and no `--` there, so no keyword's assignment, no
 * `data:` block and no PEM block can start in it; only an `Authorization`
 * header or a curl command in another case than the filter's literals
 * (`AUTHORIZATION`, `Curl`) may, and quoted values and key-like tokens.
 * Skips the trigger scan and two searches of each check of a stream.
 */
export function secretsPotentialStartFiltered(text: string): number {
  return Math.min(
    boundedStartFiltered(text),
    liveComparisonStart(text),
    longValueStart(text, true),
    openNetrcStart(text),
  );
}

const boundedStartFiltered = withinLast(secretsMaxMatchLength * 2, text =>
  Math.min(
    trailingChainStart(text, { joinable, marker, piece }),
    CURL_OR_AUTHORIZATION.test(text) ? liveAssignmentStart(text) : text.length,
    openSecretKindStart(text),
  ),
);

/**
 * Outside letters, blanks and sentence punctuation, everything may belong to
 * a secret: digits, operators (`=`, `<`, `>`), `_`, `/`, `+`, `~`,
 * backquotes... A colon alone is prose (`well: no`): the detectors that
 * read one also need a keyword, a provider's literal or, for a Kubernetes
 * manifest, `data:`.
 */
const NOT_PROSE = /[^A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u00ff\u2018-\u201f \t\n\r.,;:!?'"()-]/;

/** A rule that starts with its anchor literal after a boundary (`(?<![A-Za-z0-9_-])sk-…`). */
const BOUNDED_START = /^\(\?<!\[A-Za-z0-9(?:_-)?\]\)/;

/** What must not precede a literal: nothing, a letter or digit, or a letter, digit, `_` or `-`. */
type Boundary = 'none' | 'alnum' | 'alnum_-';

/** A literal `secretsMayMatch` looks for. */
interface Needle {
  literal: string;
  /** Matched in this case only (else in any case). */
  exactCase: boolean;
  boundary: Boundary;
  /** A keyword's leading letters: the whole keyword pattern is then tested on the text. */
  keyword: boolean;
}

/**
 * The literal every provider rule's match contains (its anchor), after the
 * boundary the rule requires when the literal starts the match. Left out:
 * the Discord token's `.`, whose match holds a run of 24 token characters
 * before it, which the token run (or a digit or `_`) already flags; and a
 * literal with a character `NOT_PROSE` flags, which needs no test of its own.
 */
export function providerLiteralNeedles(): Needle[] {
  const needles = new Map<string, Needle>();
  for (const { pattern, anchor } of providerRules) {
    const bounded =
      anchor.min === 0 && anchor.max === 0 ? BOUNDED_START.exec(pattern.source)?.[0] : undefined;
    const boundary: Boundary =
      bounded === undefined ? 'none' : bounded.includes('_-') ? 'alnum_-' : 'alnum';
    for (const literal of anchor.contains ?? anchor.literals) {
      if (literal === '.' || NOT_PROSE.test(literal)) continue;
      needles.set(`${boundary} ${literal}`, { literal, exactCase: true, boundary, keyword: false });
    }
  }
  return [...needles.values()];
}

/**
 * The leading letters of each alternative of the `keywords` pattern
 * (`api`, `secret`, `passw`, ...): a keyword can only occur where one of
 * them does, and there the pattern itself decides.
 */
export function keywordPrefixes(pattern: string = keywords): string[] {
  const body = pattern.startsWith('(?:') && pattern.endsWith(')') ? pattern.slice(3, -1) : pattern;
  const alternatives: string[] = [];
  let depth = 0;
  let from = 0;
  for (let at = 0; at < body.length; at++) {
    const char = body[at];
    if (char === '\\') at++;
    else if (char === '(' || char === '[') depth++;
    else if (char === ')' || char === ']') depth--;
    else if (char === '|' && depth === 0) {
      alternatives.push(body.slice(from, at));
      from = at + 1;
    }
  }
  alternatives.push(body.slice(from));
  return alternatives.map(alternative => {
    const letters = /^[a-z0-9]*/.exec(alternative)![0];
    // A letter made optional by the next token is not needed.
    const optional = /^[?*{]/.test(alternative.slice(letters.length));
    const needed = optional ? letters.slice(0, -1) : letters;
    if (needed.length < 2)
      throw new Error(`keyword alternative without leading letters: ${alternative}`);
    return needed;
  });
}

/**
 * Aho-Corasick over ASCII folded to lower case: `next[state * 128 + code]`
 * is the state after `code`, `found[state]` the needles ending there.
 * Characters beyond ASCII (no needle has any) go back to the root.
 */
interface Automaton {
  next: Int32Array;
  /**
   * `next` for the scans, one read per character: `rows[row + code]` for
   * any ASCII `code` (folded here) is the next state's row (`state * 128`),
   * negated when needles end there. The root's row is 0.
   */
  rows: Int32Array;
  /** 1 where `found` has needles. */
  accepts: Uint8Array;
  found: Array<Needle[] | undefined>;
}

function foldAscii(code: number): number {
  return code >= 65 && code <= 90 ? code | 0x20 : code;
}

function buildAutomaton(needles: readonly Needle[]): Automaton {
  const { next, found: ending } = buildAsciiAutomaton(
    needles.map(needle => ({
      codes: Array.from(needle.literal, char => {
        const code = foldAscii(char.charCodeAt(0));
        if (code >= 128) throw new Error(`needle beyond ASCII: ${needle.literal}`);
        return code;
      }),
      value: needle,
    })),
  );
  const found = ending.map(needles => (needles.length === 0 ? undefined : needles));
  const states = found.length;
  const accepts = Uint8Array.from(found, needles => (needles === undefined ? 0 : 1));
  const rows = new Int32Array(next.length);
  for (let state = 0; state < states; state++) {
    for (let code = 0; code < 128; code++) {
      const to = next[state * 128 + foldAscii(code)]!;
      rows[state * 128 + code] = accepts[to] === 1 ? -to * 128 : to * 128;
    }
  }
  return { next, rows, accepts, found };
}

// Character classes of ASCII for the scan: prose (not flagged by
// `NOT_PROSE`), and part of a token run (an ASCII letter or a dash).
const PROSE = 1;
const RUN = 2;
const ASCII_CLASS = (() => {
  const classes = new Uint8Array(128);
  for (let code = 0; code < 128; code++) {
    const char = String.fromCharCode(code);
    if (!NOT_PROSE.test(char)) classes[code]! |= PROSE;
    if (/[A-Za-z-]/.test(char)) classes[code]! |= RUN;
  }
  return classes;
})();

const NEEDLES: readonly Needle[] = [
  ...providerLiteralNeedles(),
  ...keywordPrefixes().map(literal => ({
    literal,
    exactCase: false,
    boundary: 'none' as const,
    keyword: true,
  })),
  // A PEM armour line or a CLI flag, and a Kubernetes manifest's `data:`.
  { literal: '--', exactCase: true, boundary: 'none', keyword: false },
  { literal: 'ata:', exactCase: true, boundary: 'none', keyword: false },
];
const AUTOMATON = buildAutomaton(NEEDLES);

/** Any assignment, comparison or XML setting names a secret with one of these (any case). */
const KEYWORD = new RegExp(keywords); // on the text in lower case (faster than the `i` flag)

function precededBy(text: string, start: number, boundary: Boundary): boolean {
  if (boundary === 'none' || start === 0) return false;
  const code = text.charCodeAt(start - 1);
  const lower = code | 0x20;
  return (
    (lower >= 97 && lower <= 122) ||
    (code >= 48 && code <= 57) ||
    (boundary === 'alnum_-' && (code === 0x5f || code === 0x2d))
  );
}

/**
 * `mayMatch` of `secrets`: false only for ordinary prose (see `plainView`)
 * made of letters, blanks and sentence punctuation, with no word run of 14
 * letters or more (the shortest value of a keyed provider rule, `sumo, su`
 * and 12 letters, every prefixed token's body, the entropy detector's
 * 20-character runs), no `--` (a PEM armour line, a CLI flag), no `data:`,
 * no keyword that names a secret (`password`, `token`, ...) and no provider
 * rule's literal (`AKIA`, `xox`, `curl`, ...): every detector of
 * `findSecrets` needs one of those, so there it finds nothing. One pass over
 * the text (the window asks on every check of a stream); a keyword's
 * leading letters send the text to the keyword pattern.
 */
export function secretsMayMatch(text: string): boolean {
  const plain = plainView(text);
  if (plain === undefined) return true;
  const { rows, found } = AUTOMATON;
  let row = 0;
  let run = 0;
  let keywordTested = false;
  for (let at = 0; at < plain.length; at++) {
    const code = plain.charCodeAt(at);
    if (code >= 128) {
      // Beyond ASCII, the plain view holds Latin-1 letters and curly quotes (prose), and × ÷.
      if (code === 0xd7 || code === 0xf7) return true;
      row = 0;
      run = 0;
      continue;
    }
    const classes = ASCII_CLASS[code]!;
    if ((classes & PROSE) === 0) return true;
    if ((classes & RUN) === 0) run = 0;
    else if (++run === 14) return true;
    row = rows[row + code]!;
    if (row >= 0) continue;
    row = -row;
    const need = neededAt(plain, at, found[row >> 7]!, keywordTested);
    if (need === FOUND) return true;
    if (need === NO_KEYWORD) keywordTested = true;
  }
  return false;
}

const FOUND = 1;
const NO_KEYWORD = 2;

/**
 * Whether a needle ending at `at` is there (its case, its boundary), or, for
 * a keyword's leading letters, whether the keyword pattern matches the text
 * (asked once per text: `NO_KEYWORD` when it does not).
 */
function neededAt(plain: string, at: number, needles: readonly Needle[], keywordTested: boolean) {
  let result = 0;
  for (const needle of needles) {
    const start = at + 1 - needle.literal.length;
    if (needle.keyword) {
      if (keywordTested || result === NO_KEYWORD) continue;
      if (KEYWORD.test(plain.toLowerCase())) return FOUND;
      result = NO_KEYWORD;
      continue;
    }
    if (needle.exactCase && !plain.startsWith(needle.literal, start)) continue;
    if (!precededBy(plain, start, needle.boundary)) return FOUND;
  }
  return result;
}

/** The leading letters of every trigger (a keyword, `authorization`, `curl`), in any case. */
const TRIGGER_AUTOMATON = buildAutomaton(
  [...keywordPrefixes(), 'authorization', 'curl'].map(literal => ({
    literal,
    exactCase: false,
    boundary: 'none' as const,
    keyword: true,
  })),
);

/**
 * False when no trigger occurs in `text` (in any case): one pass over ASCII
 * text through `TRIGGER_AUTOMATON`; text with other characters (some lower
 * to ASCII letters, such as the Kelvin sign) is searched in lower case.
 */
export function mayHaveTrigger(text: string): boolean {
  const { rows } = TRIGGER_AUTOMATON;
  let row = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code >= 128) return TRIGGER_IN_LOWER_CASE.test(text.toLowerCase());
    row = rows[row + code]!;
    if (row < 0) return true;
  }
  return false;
}

/**
 * `secretsPotentialStartFiltered` fused with window mode's one scan (see
 * `FusedHook`): where the scan noted no quote, no `curl` or `authorization`
 * and no `kind:` in the text (in any case; `"kind"` has quotes), no quoted
 * value, header or manifest can start there, and only the trailing chain is left.
 */
const boundedChainStart = withinLast(secretsMaxMatchLength * 2, text =>
  trailingChainStart(text, { joinable, marker, piece }),
);
registerFilteredHook(secretsPotentialStart, secretsMayMatch, secretsPotentialStartFiltered, {
  notes: { characters: '"\'`', literals: ['curl', 'authorization', 'kind:'] },
  hook: (text, noted) =>
    noted
      ? secretsPotentialStartFiltered(text)
      : Math.min(boundedChainStart(text), openNetrcStart(text)),
});

/**
 * `KEYWORD` where it starts at `start` (in any case, as `KEYWORD` reads the
 * text in lower case): the union's confirmation of a keyword's leading
 * letters. Every match of `KEYWORD` starts with some alternative's leading
 * letters, so asking at each of their occurrences finds a keyword wherever
 * `KEYWORD` would, and reads only the keyword's own characters (`reads`
 * below), which lets window mode's scan resume.
 */
const KEYWORD_AT = new RegExp(keywords, 'iy');
function keywordAt(text: string, start: number): boolean {
  KEYWORD_AT.lastIndex = start;
  return KEYWORD_AT.test(text);
}
/** The longest text `keywords` matches (`encryption-key`; `may-match-union.test.ts` checks it). */
export const LONGEST_KEYWORD = 14;

registerFilterTriggers(secretsMayMatch, {
  characters: String.fromCharCode(
    ...Array.from({ length: 128 }, (_, code) => code).filter(
      code => (ASCII_CLASS[code]! & PROSE) === 0,
    ),
  ),
  run: { characters: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-', length: 14 },
  literals: NEEDLES.map(needle => ({
    literal: needle.literal,
    confirm: needle.keyword
      ? (text: string, end: number) => keywordAt(text, end - needle.literal.length)
      : (text: string, end: number) => {
          const start = end - needle.literal.length;
          return (
            (!needle.exactCase || text.startsWith(needle.literal, start)) &&
            !precededBy(text, start, needle.boundary)
          );
        },
  })),
  // From a literal's last character: a needle's case and the character
  // before it (its length to the left), a keyword to its end (the rest of
  // the longest keyword to the right).
  reads: {
    left: Math.max(...NEEDLES.map(needle => needle.literal.length)),
    right: Math.max(
      0,
      ...NEEDLES.filter(needle => needle.keyword).map(
        needle => LONGEST_KEYWORD - needle.literal.length,
      ),
    ),
  },
});
