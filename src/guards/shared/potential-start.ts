/**
 * Building blocks for `Guardrail.potentialMatchStart`: where, in the
 * unreleased text of a streamed answer, a match could still begin or grow.
 *
 * They work on classes of characters and tokens (whitespace-separated runs),
 * not on any one detector's patterns, so a new pattern of the same kind
 * (another phone format, another key prefix) stays covered: a detector that
 * matches across whitespace names the tokens that can chain (`joinable`) and
 * the tokens that glue their neighbours together (`marker`).
 */

import { brokenText, invisibleBreaks } from './invisible-breaks';
import { isReadThrough } from './normalize-text';
import { privateUseReadThrough } from './private-use';

const WHITESPACE = /\s/;

/**
 * `\s` at `at`, without a regex for ASCII (the hooks run on every check of a
 * stream). But U+FEFF, which `\s` holds: the normaliser removes it, so the
 * detectors read through it inside a value (round 24: `4\uFEFF\u200D\uFEFF1…`
 * read as three tokens here, and a card went out in part).
 */
export function isWhitespaceAt(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code < 0x80) return code === 32 || (code >= 9 && code <= 13);
  return code !== 0xfeff && WHITESPACE.test(text[at]!);
}

/** A token of characters the detectors read through only (`\u200B\u200B`): it links its neighbours. */
function isReadThroughOnly(token: string): boolean {
  if (token.charCodeAt(0) < 0x80) return false;
  for (const character of token) {
    if (!isReadThrough(character.codePointAt(0)!)) return false;
  }
  return true;
}

/** Token classes for `trailingChainStart`. */
export interface ChainClasses {
  /** A token that can sit beside another joinable token inside one match (`4111`, `WEST`, `(415)`). */
  joinable: (token: string) => boolean;
  /** A token that joins whatever is on either side of it into one match (`[at]`, `=`). */
  marker?: (token: string) => boolean;
  /**
   * A token that can be a piece of a match only beside a `joinable` one
   * (`ab`, `ZQHM` after `AKIA`): a run of them links to the chain when a
   * joinable token (or a marker, or the last token while it may still
   * grow) stands right after it, up to `pieces` of them from that side, or
   * right before it, up to `pieces` from that side. A run with neither is
   * no part of a match, however long (`t h e r e p o r t`, prose read with
   * an invisible character between its letters as blanks). Default: none.
   */
  piece?: (token: string) => boolean;
  /** The most tokens of a run of pieces a joinable token takes in. Default 8. */
  pieces?: number;
  /** The longest whitespace run inside a match. Default 3. */
  maxGap?: number;
  /**
   * A token beside which no match spans a line break (a whole e-mail
   * address, `jane@corp.io`, or the placeholder that replaced one): a gap
   * holding a line break ends the chain when the token on either side of
   * it is one and the other is one too or no marker (an obfuscated address
   * reads across blanks). Round 48: a list of addresses one per line was
   * one chain, held whole, and past the window's bound it blocked. Default: none.
   */
  lineEnd?: (token: string) => boolean;
}

/**
 * The start of the trailing chain of tokens that could still belong to one
 * match. The last token always belongs to it: it may still grow, and when
 * the text ends in whitespace the next token, unseen yet, may join it. Each
 * earlier token joins while it and the token after it are both joinable, or
 * either is a marker, with at most `maxGap` whitespace between them. Returns
 * `text.length` for text that is only whitespace (nothing in it can grow).
 *
 * Tokens are judged as the detectors read them (round 27): with the
 * characters they read through (`isReadThrough`: invisible and junk code
 * points, combining marks, private-use characters) left out, and, since
 * the detectors also read a text with each run of invisible characters
 * beside a letter as blanks (`invisibleBreaks`), on that reading too; the
 * earlier start of the two wins. Before, a token holding such a character
 * was judged raw (`t\u200Bh\u200Be` has a character that is no letter, so
 * `secrets` took it for a key-like token), and prose with junk between its
 * letters was held back as far as the window's bound: checks over
 * thousands of characters each.
 */
export function trailingChainStart(text: string, classes: ChainClasses): number {
  // Only a text with a character outside printable ASCII can hold one read through.
  const plain = !mayReadThrough(text);
  const through = chainStart(text, classes, plain);
  if (plain) return through;
  const source = privateUseReadThrough(text) ?? text;
  const reading = invisibleBreaks(source);
  if (reading === undefined) return through;
  // The blanks of the broken reading stand where the runs stood (same offsets).
  return Math.min(through, chainStart(brokenText(reading, false), classes, false));
}

const MAY_READ_THROUGH = /[^\t\n\r\x20-\x7e]/;

/**
 * `MAY_READ_THROUGH.test(text)`, remembered for the last text: the hooks of
 * a chain (`pii`, `secrets`) are asked about the same text in turn, on
 * every check of a stream.
 */
function mayReadThrough(text: string): boolean {
  if (text !== lastTested) {
    lastTested = text;
    lastMayReadThrough = MAY_READ_THROUGH.test(text);
  }
  return lastMayReadThrough;
}
let lastTested: string | undefined;
let lastMayReadThrough = false;

/**
 * Tells `trailingChainStart` that `text` holds printable ASCII, tabs and
 * line breaks only (no character read through), as window mode's one scan
 * found when it ruled a match out in all of it: the hooks asked about it
 * next skip their own search (round 37; `mayReadThrough` remembers it).
 */
export function readsPlain(text: string): void {
  lastTested = text;
  lastMayReadThrough = false;
}

/** `token` without the characters the detectors read through (itself when it holds none). */
function readView(token: string): string {
  // A token is short: a loop costs less than a call of the search.
  let plain = true;
  for (let at = 0; at < token.length && plain; at++) {
    const code = token.charCodeAt(at);
    plain = code >= 0x20 ? code < 0x7f : code === 9 || code === 10 || code === 13;
  }
  if (plain) return token;
  let view = '';
  for (const character of token) {
    if (!isReadThrough(character.codePointAt(0)!)) view += character;
  }
  return view;
}

/**
 * Token kinds of `chainStart`: links anything (a marker, a run of
 * characters read through), joinable, a piece, neither; and the last token
 * while it may still grow (any joinable token; a marker when it is one so
 * far, asked only when that decides).
 */
const STRONG = 0;
const JOINABLE = 1;
const PIECE = 2;
const OTHER = 3;
const GROWING = 4;

/** A marker, or a run of characters read through only: it links whatever is beside it. */
function isStrong(token: string, view: string, marker: (token: string) => boolean): boolean {
  return isReadThroughOnly(token) || marker(view);
}

/** `trailingChainStart` of one reading; `plain`: `text` holds no character read through (each token is its own `readView`). */
function chainStart(
  text: string,
  { joinable, marker = () => false, piece, pieces = 8, maxGap = 3, lineEnd }: ChainClasses,
  plain: boolean,
): number {
  let end = text.length;
  while (end > 0 && isWhitespaceAt(text, end - 1)) end--;
  if (end === 0) return text.length;
  let start = end;
  while (start > 0 && !isWhitespaceAt(text, start - 1)) start--;
  const last = text.slice(start, end);
  // A last token that may still grow can become any joinable token. After
  // whitespace the last token is complete: it is held because an unseen
  // next token may join it, and links to earlier tokens as what it is.
  let nextKind = GROWING;
  // The view of the token after the gap being walked over (for `lineEnd`).
  let nextView = plain ? last : readView(last);
  if (end < text.length) {
    const view = nextView;
    nextKind = isStrong(last, view, marker)
      ? STRONG
      : joinable(view)
        ? JOINABLE
        : piece?.(view)
          ? PIECE
          : OTHER;
  }
  // Held for sure from `confirmed`; `start` may be ahead of it inside a run
  // of pieces not yet known to lie beside a joinable token.
  let confirmed = start;
  // The pieces of the run being walked back over, and whether a joinable
  // token (or a marker, or the growing last token) stands right after it.
  let run = nextKind === PIECE ? 1 : 0;
  let rightJoined = false;
  for (;;) {
    let gapStart = start;
    while (gapStart > 0 && isWhitespaceAt(text, gapStart - 1)) gapStart--;
    if (gapStart === 0 || start - gapStart > maxGap) return confirmed;
    let previousStart = gapStart;
    while (previousStart > 0 && !isWhitespaceAt(text, previousStart - 1)) previousStart--;
    const previous = text.slice(previousStart, gapStart);
    const view = plain ? previous : readView(previous);
    // Beside a token of neither kind only a strong one links: asked first.
    let kind: number;
    const strong = isStrong(previous, view, marker);
    if (lineEnd && lineBreakIn(text, gapStart, start)) {
      const previousEnds = lineEnd(view);
      const nextEnds = lineEnd(nextView);
      const nextStrong =
        nextKind === STRONG || (nextKind === GROWING && isStrong(last, nextView, marker));
      if ((previousEnds || nextEnds) && (previousEnds || !strong) && (nextEnds || !nextStrong)) {
        return confirmed;
      }
    }
    if (strong) kind = STRONG;
    else if (nextKind === OTHER) return confirmed;
    else if (joinable(view)) kind = JOINABLE;
    else if (piece?.(view)) kind = PIECE;
    else kind = OTHER;
    if (kind === OTHER) {
      // Only a marker (or a run of characters read through) takes it in.
      if (
        nextKind !== STRONG &&
        !(nextKind === GROWING && isStrong(last, plain ? last : readView(last), marker))
      ) {
        return confirmed;
      }
      confirmed = previousStart;
      run = 0;
      rightJoined = false;
    } else if (kind === PIECE) {
      if (nextKind === PIECE) {
        run++;
        // Past what a joinable token on either side takes in: a match may
        // not span the run, and what is after it was decided.
        if (run > (rightJoined ? 2 * pieces : pieces)) return confirmed;
        if (rightJoined && run <= pieces) confirmed = previousStart;
      } else {
        run = 1;
        rightJoined = true;
        confirmed = previousStart;
      }
    } else {
      // Joinable or strong: it takes in the run of pieces after it, if any.
      confirmed = previousStart;
      run = 0;
      rightJoined = false;
    }
    start = previousStart;
    nextKind = kind;
    nextView = view;
  }
}

/** Whether `text[from, to)` holds a line feed (a gap: at most `maxGap` units). */
function lineBreakIn(text: string, from: number, to: number): boolean {
  for (let at = from; at < to; at++) if (text.charCodeAt(at) === 10) return true;
  return false;
}

/** The start of the trailing run of non-whitespace characters (`text.length` after whitespace). */
export function trailingTokenStart(text: string): number {
  let start = text.length;
  while (start > 0 && !isWhitespaceAt(text, start - 1)) start--;
  return start;
}

/** The start of the last `count` whitespace-separated tokens (with the whitespace after them). */
export function lastTokensStart(text: string, count: number): number {
  let at = text.length;
  for (let seen = 0; seen < count && at > 0; seen++) {
    while (at > 0 && isWhitespaceAt(text, at - 1)) at--;
    while (at > 0 && !isWhitespaceAt(text, at - 1)) at--;
  }
  return at;
}

/**
 * The start of the end of `text` (before `end`) that holds `count` code
 * points a detector reads (0 when it holds fewer): invisible and junk code points and
 * combining marks, which detectors read through inside a value, are not
 * counted (`isReadThrough`), so a value with any number of them between its
 * characters fits in what is counted for it. Never starts between the
 * halves of a surrogate pair. Linear in what it walks back over.
 */
export function countedStart(text: string, count: number, end = text.length): number {
  let at = end;
  let counted = 0;
  while (at > 0 && counted < count) {
    const code = text.charCodeAt(at - 1);
    if (code >= 0x20 && code < 0x7f) {
      counted++;
      at--;
      continue;
    }
    let codePoint = code;
    let size = 1;
    if (code >= 0xdc00 && code <= 0xdfff && at > 1) {
      const high = text.charCodeAt(at - 2);
      if (high >= 0xd800 && high <= 0xdbff) {
        codePoint = ((high - 0xd800) << 10) + (code - 0xdc00) + 0x10000;
        size = 2;
      }
    }
    if (!isReadThrough(codePoint)) counted++;
    at -= size;
  }
  return at;
}

/**
 * `hook` run on the end of the text that holds its last `maxLength`
 * characters a detector reads (see `countedStart`): what it holds back never
 * exceeds the longest match, however many characters the detectors read
 * through sit inside it, and its scan costs at most that much.
 */
export function withinLast(
  maxLength: number,
  hook: (text: string) => number,
): (text: string) => number {
  return text => {
    if (text.length <= maxLength) return hook(text);
    const offset = countedStart(text, maxLength);
    return offset === 0 ? hook(text) : offset + hook(text.slice(offset));
  };
}

// Characters whose normalised form (`normalizeText`: NFKC, invisible
// characters removed, dashes folded) is known without running it: printable
// ASCII and line breaks (unchanged), the no-break space (a space), the
// Latin-1 letters (unchanged: they have no compatibility decomposition), the
// curly quotes (unchanged), the Unicode hyphens and dashes ('-') and the
// ellipsis ('...'). Anything else (digits of other scripts, full-width
// forms, invisible characters, combining marks, other scripts) may change.
const OUTSIDE_PLAIN =
  /[^\t\n\r\x20-\x7e\u00a0\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u00ff\u2010-\u2015\u2018-\u201f\u2026]/;
const FOLDED_PLAIN = /[\u00a0\u2010-\u2015\u2026]/;
/** Outside the characters that are their own normal form: most prose has none, and is decided in one pass. */
const NOT_OWN_NORMAL_FORM =
  /[^\t\n\r\x20-\x7e\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u00ff\u2018-\u201f]/;

/**
 * For `mayMatch` hooks: the text as `normalizeText` would make it, when it
 * holds only characters whose normal form is known (printable ASCII, line
 * breaks, Latin-1 letters, curly quotes, dashes, the ellipsis and the
 * no-break space: ordinary prose), else undefined (the caller then says a
 * match is possible). A hook tests its detector's necessary characters on
 * this view, so it sees what the detector sees.
 */
export function plainView(text: string): string | undefined {
  // The guardrails of a chain are asked about the same text in turn.
  if (text === lastText) return lastView;
  lastText = text;
  lastView = !NOT_OWN_NORMAL_FORM.test(text)
    ? text
    : OUTSIDE_PLAIN.test(text)
      ? undefined
      : FOLDED_PLAIN.test(text)
        ? text
            .replace(/\u00a0/g, ' ')
            .replace(/[\u2010-\u2015]/g, '-')
            .replace(/\u2026/g, '...')
        : text;
  return lastView;
}
let lastText: string | undefined;
let lastView: string | undefined;

const NOT_OWN_NORMAL_FORM_FROM = new RegExp(NOT_OWN_NORMAL_FORM.source, 'g');

/**
 * True when `text` from `from` on is its own normal form (`plainView` of
 * that suffix is the suffix itself), decided without slicing it.
 */
export function isOwnNormalFormFrom(text: string, from: number): boolean {
  NOT_OWN_NORMAL_FORM_FROM.lastIndex = from;
  return !NOT_OWN_NORMAL_FORM_FROM.test(text);
}
