import { codePointBefore } from '../shared/invisible-code-points';
import { isJsSpace } from '../shared/js-space';
import { isInvisibleCodePoint } from '../shared/normalize-text';
import { referenceAt } from './html-references';
import { isUnspaced } from './term-matcher';

/**
 * Markdown that hides itself (round 35). A model answers in Markdown, and
 * what the reader sees is not what was written: emphasis (`*`, `_`), GFM
 * strikethrough (`~`) and code spans (`` ` ``) are not shown, a link shows
 * its text and not its destination (`[kill](https://a.io) yourself`), and
 * a character reference shows its character (`kill&nbsp;yourself`,
 * `&#107;ill`). `contentFilter`'s blank matches white space only and its
 * words need no letter beside them, so `kill **yourself**` passed. This
 * reads a text as shown: a run of markers is not there when a letter or
 * digit (or any character beyond ASCII that is no blank: an invisible one
 * the filter drops) stands beside it, as a delimiter run of emphasis does
 * (a run with blanks on both sides, `a * b`, is shown and stays); a `[` or
 * `]` is not there, nor a link destination after `](` (up to its `)`, at
 * most `MAX_DESTINATION` units and no blank); a numeric reference or
 * `&nbsp;`, `&ensp;`, `&emsp;`, `&thinsp;`, `&shy;`, `&zwj;`, `&zwnj;` is its
 * character. Raw HTML is read as a renderer shows it (round 35, hJ): a tag
 * (`<b>`, `</span>`, `<a href="x">`, at most `MAX_TAG` units, no `<` inside)
 * and a comment (`<!-- -->`) are not there, and a block tag (`<br>`, `<p>`,
 * `<div>`, ...) is a blank: `kill<br>yourself` reads "kill yourself".
 */
function isMarker(code: number): boolean {
  return code === 0x2a || code === 0x5f || code === 0x7e || code === 0x60;
}

/** Characters that may make the shown text differ: markers, brackets, `&`, `<`. */
function isMarkup(code: number): boolean {
  return isMarker(code) || code === 0x5b || code === 0x5d || code === 0x26 || code === 0x3c;
}

/** The characters `isMarkup` is true for, and the joiners (`isJoiner`): searched for natively. */
const markupSearch = /[*_~`[\]&<]/g;
const joinerSearch = /[-./_]/g;

/**
 * The first position at or after `from` and before `to` holding a
 * character of `search` (a global pattern of one class), else `to`. A
 * native search skips text with none (round 40: the loops over every unit
 * were about a tenth of `contentFilter`'s check of spaced letters in window
 * mode, and ran in its window filter too).
 */
function nextOf(search: RegExp, text: string, from: number, to: number): number {
  search.lastIndex = from;
  if (!search.test(text)) return to;
  return Math.min(to, search.lastIndex - 1);
}

function isAsciiLetter(code: number): boolean {
  return (code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a;
}

/** The longest HTML tag read as one, attributes and all; a longer one is text. */
const MAX_TAG = 512;

/** Tags a renderer shows as a break between words: read as a blank. */
const BLOCK_TAGS = new Set(
  'address article aside blockquote br dd div dl dt figcaption figure footer h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section table tbody td tfoot th thead tr ul'.split(
    ' ',
  ),
);

/**
 * An HTML tag or comment at `at` (a `<`): where it ends, whether it shows
 * as a blank, and whether it is still open at the text's end (`end` is then
 * the text's length).
 */
interface Tag {
  end: number;
  blank: boolean;
  open: boolean;
}

function isTagNameUnit(code: number): boolean {
  return isAsciiLetter(code) || (code >= 0x30 && code <= 0x39) || code === 0x2d;
}

function isAttributeNameStart(code: number): boolean {
  return isAsciiLetter(code) || code === 0x5f || code === 0x3a;
}

function isAttributeNameUnit(code: number): boolean {
  return isTagNameUnit(code) || code === 0x5f || code === 0x3a || code === 0x2e;
}

/** A unit of an unquoted attribute value: no blank, `"`, `'`, `=`, `<`, `>` or `` ` ``. */
function isUnquotedValueUnit(code: number): boolean {
  return !(
    isJsSpace(code) ||
    code === 0x22 ||
    code === 0x27 ||
    code === 0x3d ||
    code === 0x3c ||
    code === 0x3e ||
    code === 0x60
  );
}

/**
 * The end of the tag whose name ends at `index` (its `>`, plus one), read
 * as CommonMark reads raw HTML: blank-separated attributes (a name, then
 * optionally `=` and an unquoted, `'`- or `"`-quoted value), then `>` or
 * `/>`. -1 when it is no tag (a Markdown renderer shows it as text), the
 * text's length plus one when the text ends inside it. A `<` ends it as no
 * tag (in a quoted value too, where CommonMark would read on: read as
 * text, it is read whole), so each unit is read for at most two tags.
 */
function tagEnd(text: string, index: number, last: number): number {
  const ended = text.length + 1;
  for (;;) {
    const blankFrom = index;
    while (index < last && isJsSpace(text.charCodeAt(index))) index++;
    if (index >= last) return last === text.length ? ended : -1;
    let code = text.charCodeAt(index);
    if (code === 0x3e) return index + 1;
    if (code === 0x2f) {
      if (index + 1 >= last) return last === text.length ? ended : -1;
      return text.charCodeAt(index + 1) === 0x3e ? index + 2 : -1;
    }
    if (index === blankFrom || !isAttributeNameStart(code)) return -1;
    while (index < last && isAttributeNameUnit(text.charCodeAt(index))) index++;
    let afterName = index;
    while (index < last && isJsSpace(text.charCodeAt(index))) index++;
    if (index >= last) return last === text.length ? ended : -1;
    if (text.charCodeAt(index) !== 0x3d) {
      index = afterName;
      continue;
    }
    index++;
    while (index < last && isJsSpace(text.charCodeAt(index))) index++;
    if (index >= last) return last === text.length ? ended : -1;
    code = text.charCodeAt(index);
    if (code === 0x22 || code === 0x27) {
      index++;
      while (index < last && text.charCodeAt(index) !== code) {
        if (text.charCodeAt(index) === 0x3c) return -1;
        index++;
      }
      if (index >= last) return last === text.length ? ended : -1;
      index++;
    } else {
      afterName = index;
      while (index < last && isUnquotedValueUnit(text.charCodeAt(index))) index++;
      if (index === afterName) return -1;
    }
  }
}

/**
 * The tag or comment starting at `at`, or undefined when the `<` is text.
 * A tag opens at `<` or `</` and an ASCII letter (the HTML tokenizer's
 * rule) and is one only as CommonMark reads it (`tagEnd`): `a < b`,
 * `x <3`, `if a<b then` and `<b **x**>` are shown as text. A tag or comment
 * still open at the text's end is `open` (more text may close it; read as
 * text meanwhile, as Markdown shows it, round 36: read as hidden to the
 * end, `if a<b then kill **yourself**` passed). `commentsClose` is false
 * once a comment was found never to close (no `-->` after it): later ones
 * are then open too, without a search.
 */
function tagAt(text: string, at: number, commentsClose: { value: boolean }): Tag | undefined {
  if (text.startsWith('<!--', at)) {
    // `<!-->` and `<!--->` are whole (empty) comments, as a browser and CommonMark read them.
    if (text.charCodeAt(at + 4) === 0x3e) return { end: at + 5, blank: false, open: false };
    if (text.startsWith('->', at + 4)) return { end: at + 6, blank: false, open: false };
    const close = commentsClose.value ? text.indexOf('-->', at + 4) : -1;
    if (close < 0) commentsClose.value = false;
    return close < 0
      ? { end: text.length, blank: false, open: true }
      : { end: close + 3, blank: false, open: false };
  }
  let index = at + 1;
  const closing = text.charCodeAt(index) === 0x2f;
  if (closing) index++;
  const nameStart = index;
  if (!isAsciiLetter(text.charCodeAt(index))) return undefined;
  while (index < text.length && isTagNameUnit(text.charCodeAt(index))) index++;
  const blank = BLOCK_TAGS.has(text.slice(nameStart, index).toLowerCase());
  const last = Math.min(text.length, at + MAX_TAG);
  let end: number;
  if (closing) {
    while (index < last && isJsSpace(text.charCodeAt(index))) index++;
    if (index >= last) end = last === text.length ? text.length + 1 : -1;
    else end = text.charCodeAt(index) === 0x3e ? index + 1 : -1;
  } else {
    end = tagEnd(text, index, last);
  }
  if (end < 0) return undefined;
  return end > text.length ? { end: text.length, blank, open: true } : { end, blank, open: false };
}

/** A neighbour that makes a marker run emphasis: a letter or digit, or a non-blank beyond ASCII. */
function touchesWord(code: number): boolean {
  if (code < 0x80) {
    return (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a);
  }
  return !isJsSpace(code);
}

/** The longest link destination read as one (a URL is cut at 2,048 characters elsewhere too). */
const MAX_DESTINATION = 2_048;

/**
 * Punctuation that joins two words (round 35, hJ): `kill-you`, `kill.you`,
 * `kill_yourself`, `kill/yourself`, `ACME_SECRET`. A run of these between
 * two letters (an ASCII letter, or a non-blank beyond ASCII; not a digit,
 * so `3.14` and `v1.2` stay) reads as a blank too. On the 2,040 benign rows
 * of `shared/datasets/*.dev.jsonl` and the 27,602 of
 * `shared/corpora/benign.jsonl` the default lists block 0 and 2 texts,
 * the same as without this reading (each of the four measured alone, too).
 */
function isJoiner(code: number): boolean {
  return code === 0x2d || code === 0x2e || code === 0x5f || code === 0x2f;
}

/** A letter a joiner may stand beside: an ASCII letter or a non-blank beyond ASCII. */
function isLetterLike(code: number): boolean {
  return code < 0x80 ? isAsciiLetter(code) : !isJsSpace(code);
}

/**
 * Whether the joiner at `at` may begin a run between two letters: a letter
 * before it, and a letter, another joiner or the text's end after it. Reads
 * one unit on each side.
 */
function joinsAt(text: string, at: number): boolean {
  if (at === 0 || !isLetterLike(text.charCodeAt(at - 1))) return false;
  const after = at + 1 < text.length ? text.charCodeAt(at + 1) : -1;
  return after === -1 || isJoiner(after) || isLetterLike(after);
}

/**
 * `text` with each run of joiners between two letters read as blanks (one
 * blank a unit: positions stay), or undefined when there is none. Linear:
 * a run is read once forward and its start once.
 */
export function withJoinersBlank(text: string): string | undefined {
  let out: string[] | undefined;
  let copied = 0;
  for (let at = nextOf(joinerSearch, text, 0, text.length); at < text.length; ) {
    let end = at + 1;
    while (end < text.length && isJoiner(text.charCodeAt(end))) end++;
    if (
      at > 0 &&
      isLetterLike(text.charCodeAt(at - 1)) &&
      (end === text.length || isLetterLike(text.charCodeAt(end)))
    ) {
      out ??= [];
      out.push(text.slice(copied, at), ' '.repeat(end - at));
      copied = end;
    }
    at = nextOf(joinerSearch, text, end, text.length);
  }
  if (out === undefined) return undefined;
  out.push(text.slice(copied));
  return out.join('');
}

/** The characters `contentFilter`'s window triggers look at (`FilterTriggers.near`). */
export const EMPHASIS_MARKERS = '*_~`[]&<-./';

/**
 * Whether the character at `at` (one of `EMPHASIS_MARKERS`) may change what
 * is shown: a bracket always; a marker with a letter or digit beside it, or
 * ending the text (more text may bring one); a `&` before a letter or `#`,
 * or ending the text. Reads one unit on each side.
 */
export function emphasisAt(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (isJoiner(code) && joinsAt(text, at)) return true;
  if (code !== 0x5f && isJoiner(code)) return false;
  if (code === 0x5b || code === 0x5d) return true;
  const after = at + 1 < text.length ? text.charCodeAt(at + 1) : -1;
  if (code === 0x26) return after === -1 || after === 0x23 || isAsciiLetter(after);
  if (code === 0x3c)
    return after === -1 || after === 0x2f || after === 0x21 || isAsciiLetter(after);
  if (at > 0 && touchesWord(text.charCodeAt(at - 1))) return true;
  return after === -1 || touchesWord(after);
}

/** Whether `text` holds a character that may change what is shown ({@link emphasisAt}). */
export function hasEmphasis(text: string): boolean {
  for (let at = nextOf(markupSearch, text, 0, text.length); at < text.length; ) {
    if (emphasisAt(text, at)) return true;
    at = nextOf(markupSearch, text, at + 1, text.length);
  }
  return false;
}

/** `text.slice(from)` as Markdown shows it, and where each unit of it was. */
export interface EmphasisFree {
  text: string;
  /** `origin[k]`: the index in the original text of unit `k` of `text`. */
  origin: Int32Array;
}

/** The end of a link destination whose `(` is at `open`: after its `)`, or the text's end when still open. */
function destinationEnd(text: string, open: number): number | undefined {
  const last = Math.min(text.length, open + 1 + MAX_DESTINATION);
  for (let at = open + 1; at < last; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x29) return at + 1;
    if (isJsSpace(code) || code === 0x28) return undefined;
  }
  // Still open at the text's end: more text may close it.
  return last === text.length ? text.length : undefined;
}

/**
 * `text` from `from` as Markdown shows it (see above), or undefined when
 * that is the text itself. The unit before `from` counts as a neighbour.
 * Linear: each unit is read at most twice (a destination that does not
 * close is read again as text, and it holds no `(` or blank).
 */
export function withoutEmphasis(
  text: string,
  from = 0,
  to = text.length,
  /** Set to where the first comment found open (no `-->` after it) starts, when there is one. */
  found?: { openComment: number },
): EmphasisFree | undefined {
  let pieces: string[] | undefined;
  let origin: Int32Array | undefined;
  let kept = 0;
  let copied = from;
  const commentsClose = { value: true };
  const keepUpTo = (at: number) => {
    pieces ??= [];
    origin ??= new Int32Array(to - from);
    for (let index = copied; index < at; index++) origin[kept++] = index;
    pieces.push(text.slice(copied, at));
  };
  for (
    let at = nextOf(markupSearch, text, from, to);
    at < to;
    at = nextOf(markupSearch, text, at, to)
  ) {
    const code = text.charCodeAt(at);
    if (code === 0x3c) {
      const tag = tagAt(text, at, commentsClose);
      if (tag === undefined || tag.open) {
        if (tag?.open && found && found.openComment < 0 && text.startsWith('<!--', at)) {
          found.openComment = at;
        }
        at++;
        continue;
      }
      keepUpTo(at);
      if (tag.blank) {
        pieces!.push(' ');
        origin![kept++] = at;
      }
      copied = tag.end;
      at = tag.end;
      continue;
    }
    if (code === 0x26) {
      const reference = referenceAt(text, at);
      if (reference === undefined) {
        at++;
        continue;
      }
      keepUpTo(at);
      pieces!.push(reference.shown);
      for (let unit = 0; unit < reference.shown.length; unit++) origin![kept++] = at;
      copied = reference.end;
      at = reference.end;
      continue;
    }
    if (code === 0x5b || code === 0x5d) {
      let end = at + 1;
      if (code === 0x5d && text.charCodeAt(end) === 0x28) end = destinationEnd(text, end) ?? end;
      keepUpTo(at);
      copied = end;
      at = end;
      continue;
    }
    let end = at + 1;
    while (end < text.length && isMarker(text.charCodeAt(end))) end++;
    const hides =
      (at > 0 && touchesWord(text.charCodeAt(at - 1))) ||
      end >= text.length ||
      touchesWord(text.charCodeAt(end));
    if (hides) {
      keepUpTo(at);
      copied = end;
    }
    at = end;
  }
  if (pieces === undefined || origin === undefined) return undefined;
  keepUpTo(to);
  return { text: (pieces as string[]).join(''), origin: (origin as Int32Array).subarray(0, kept) };
}

/**
 * Where a link destination still open at the text's end starts (its `]`),
 * looking back at most `MAX_DESTINATION` units; -1 when there is none.
 */
function openDestinationStart(text: string): number {
  const limit = Math.max(1, text.length - MAX_DESTINATION - 1);
  for (let at = text.length - 1; at >= limit; at--) {
    const code = text.charCodeAt(at);
    if (code === 0x29 || isJsSpace(code)) return -1;
    if (code === 0x28 && text.charCodeAt(at - 1) === 0x5d) return at - 1;
    if (code === 0x28) return -1;
  }
  return -1;
}

/**
 * Where a tag still open at the text's end starts (its `<`), looking back
 * at most `MAX_TAG` units; -1 when there is none. (A comment still open
 * further back is read by `heldForEmphasis` from the whole text.)
 */
const OPENERS = new Set(['<', '</', '<!', '<!-']);

function openTagStart(text: string): number {
  // A `<` ending the text, or `</`, `<!`, `<!-`: more text may make it a
  // tag or a comment (round 37: read as text, it hid the letters before it).
  for (let at = Math.max(0, text.length - 3); at < text.length; at++) {
    if (text.charCodeAt(at) === 0x3c && OPENERS.has(text.slice(at))) return at;
  }
  const limit = Math.max(0, text.length - MAX_TAG);
  for (let at = text.length - 1; at >= limit; at--) {
    const code = text.charCodeAt(at);
    if (code === 0x3e) return -1;
    if (code === 0x3c) return tagAt(text, at, { value: false })?.open ? at : -1;
  }
  return -1;
}

/**
 * Where a character reference still open at the text's end starts (its
 * `&`): `&` and at most 32 letters or digits, or `&#` (`&#x`) and digits,
 * ending the text, which more text may make a reference (`&Neg` of
 * `&NegativeVeryThinSpace;`, shown as nothing); -1 when there is none.
 * Read as written meanwhile, it hid the letters before it (round 37).
 */
function openReferenceStart(text: string): number {
  let at = text.length;
  while (at > 0 && isAsciiAlphanumeric(text.charCodeAt(at - 1))) at--;
  const run = text.length - at;
  if (at > 0 && text.charCodeAt(at - 1) === 0x26) return run <= 32 ? at - 1 : -1;
  // A numeric one: its digits (hexadecimal after `x`), however many.
  const hex = at > 0 && (text.charCodeAt(at) | 0x20) === 0x78;
  const digitsFrom = hex ? at + 1 : at;
  for (let index = digitsFrom; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (
      !((code >= 0x30 && code <= 0x39) || (hex && (code | 0x20) >= 0x61 && (code | 0x20) <= 0x66))
    )
      return -1;
  }
  return at > 1 && text.charCodeAt(at - 1) === 0x23 && text.charCodeAt(at - 2) === 0x26
    ? at - 2
    : -1;
}

function isAsciiAlphanumeric(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || isAsciiLetter(code);
}

/** A blank that breaks no line (a line break may end a paragraph, which the hook reads). */
function isBlankInLine(code: number): boolean {
  return isJsSpace(code) && !(code >= 10 && code <= 13) && code !== 0x2028 && code !== 0x2029;
}

/**
 * `text` with each run of blanks read short, and where each unit of that
 * was in `text`; undefined when no run reads shorter. An entry's words
 * match across any run of blanks, and the hook reads the last
 * `maxMatchLength` characters: a run longer than that (`kill`, 1,000
 * spaces or line breaks, `yourself`; 300 `<br>`, read as blanks) hid the
 * words before it (round 37). A run keeps what the hook's readings of
 * lines tell apart: its first blank before a line break, at most two line
 * breaks (a blank line ends a paragraph; CR LF is one), and at most four
 * blanks after its last line break (an indent of four is no block start).
 */
function withBlankRunsAsOne(text: string): EmphasisFree | undefined {
  let pieces: string[] | undefined;
  let origin: Int32Array | undefined;
  let kept = 0;
  let copied = 0;
  for (let at = 0; at + 1 < text.length; at++) {
    if (!isJsSpace(text.charCodeAt(at)) || !isJsSpace(text.charCodeAt(at + 1))) continue;
    let end = at + 2;
    while (end < text.length && isJsSpace(text.charCodeAt(end))) end++;
    const keep = shortRun(text, at, end);
    if (keep.length < end - at) {
      pieces ??= [];
      origin ??= new Int32Array(text.length);
      for (let index = copied; index < at; index++) origin[kept++] = index;
      pieces.push(text.slice(copied, at));
      for (const index of keep) {
        origin[kept++] = index;
        pieces.push(text[index]!);
      }
      copied = end;
    }
    at = end - 1;
  }
  if (pieces === undefined || origin === undefined) return undefined;
  for (let index = copied; index < text.length; index++) origin[kept++] = index;
  pieces.push(text.slice(copied));
  return { text: pieces.join(''), origin: origin.subarray(0, kept) };
}

/** The units of the run of blanks `text[at, end)` that `withBlankRunsAsOne` keeps. */
function shortRun(text: string, at: number, end: number): number[] {
  const keep: number[] = [];
  let index = at;
  if (isBlankInLine(text.charCodeAt(index))) keep.push(index);
  let breaks = 0;
  let lastBreakEnd = -1;
  for (; index < end; index++) {
    const code = text.charCodeAt(index);
    if (isBlankInLine(code)) continue;
    const pair = code === 13 && index + 1 < end && text.charCodeAt(index + 1) === 10;
    if (breaks++ < 2) {
      keep.push(index);
      if (pair) keep.push(index + 1);
    }
    if (pair) index++;
    lastBreakEnd = index + 1;
  }
  if (lastBreakEnd >= 0) {
    for (let indent = lastBreakEnd; indent < end && indent < lastBreakEnd + 4; indent++) {
      keep.push(indent);
    }
  }
  return keep;
}

/**
 * Whether the end of `text` before `end` may read otherwise than as
 * written: looking back until `reach` units that are no markup (or
 * `4 × reach` units, a flood of markup), it meets markup (a marker, a
 * bracket, `&`, `<`, `>`, `)`, a joiner) or a run of blanks that reads
 * shorter.
 * When it meets none, the last `reach` characters are read as written,
 * which the hook reads (it counts the characters detectors read, so it
 * reads at least as far back).
 */
function mayReadOtherwise(text: string, end: number, reach: number): boolean {
  const limit = Math.max(0, end - 4 * reach);
  let letters = 0;
  for (let at = end - 1; at >= limit && letters < reach; at--) {
    const code = text.charCodeAt(at);
    if (isMarkup(code) || isJoiner(code) || code === 0x29 || code === 0x3e) return true;
    // A run of blanks that reads shorter (`withBlankRunsAsOne`): two in a line, or three.
    if (isJsSpace(code) && at > 0 && isJsSpace(text.charCodeAt(at - 1))) {
      if (isBlankInLine(code) && isBlankInLine(text.charCodeAt(at - 1))) return true;
      if (at > 1 && isJsSpace(text.charCodeAt(at - 2))) return true;
    }
    letters++;
  }
  return letters < reach && limit > 0;
}

/**
 * Whether a comment may be open at the text's end (a `<!--` with no `-->`
 * after the last one): it hides what follows it once it closes, however
 * far back it began. Two searches of the text.
 */
function mayHaveOpenComment(text: string): boolean {
  const last = text.lastIndexOf('<!--');
  return last >= 0 && text.indexOf('-->', last + 4) < 0;
}

/** What `joinedWordStart` learnt of the text so far (see `tagAt`; the end of the last tag read; `openReferenceStart`). */
interface WordRead {
  commentsClose: boolean;
  skipTo: number;
  openReference: number | undefined;
}

/**
 * Whether the markup at `at` (after a letter) is shown as nothing: a tag
 * or comment that is no blank, a reference to invisible characters
 * (`&NegativeVeryThinSpace;`, `&#8203;`, `&zwj;`), an invisible character,
 * or a reference, `<`, `</` or `<!` that ends the text (more may make it
 * one). A tag is read once: `read.skipTo` is set to its end.
 */
function hiddenAt(text: string, at: number, read: WordRead): boolean {
  const code = text.charCodeAt(at);
  if (code === 0x26) {
    const reference = referenceAt(text, at);
    if (reference !== undefined) return isInvisibleText(reference.shown);
    // Found once: it looks back over the text's last run of letters.
    read.openReference ??= openReferenceStart(text);
    return read.openReference === at;
  }
  if (code === 0x3c) {
    if (text.length - at <= 3 && OPENERS.has(text.slice(at))) return true;
    const commentsClose = { value: read.commentsClose };
    const tag = tagAt(text, at, commentsClose);
    read.commentsClose = commentsClose.value;
    if (tag !== undefined) read.skipTo = tag.end;
    return tag !== undefined && !tag.blank;
  }
  return code >= 0x80 && isInvisibleCodePoint(text.codePointAt(at)!);
}

/** Whether every character of `shown` is invisible. */
function isInvisibleText(shown: string): boolean {
  for (const character of shown) {
    if (!isInvisibleCodePoint(character.codePointAt(0)!)) return false;
  }
  return true;
}

/**
 * Round 37 (hM): `end`, or the start of the last word before it when
 * markup shown as nothing joins a letter of that word to what follows
 * (`s&NegativeVeryThinSpace;kill`, `s<b></b>kill`, `s\u200bkill`: shown
 * `skill`). The window begins the left context of its next check at a
 * word start of the text it released, else about 48 characters back: in
 * a run of such markup (`s`, ten `&NegativeVeryThinSpace;`, `k`, ...) that
 * was inside it, and the check read `…ThinSpace;kill yourself`, an entry
 * that generate, reading `skill yourself`, passes. Held from its start
 * until a blank follows it, such a word is always read whole. Markup that
 * begins the text is not held (what was released before it is unknown
 * here; the window keeps at least 48 characters of it as context). One
 * pass over the last word, a tag or comment read once. A letter of a
 * script written without blanks ends the word too (`unspacedBefore`):
 * the matcher joins no letter to it.
 */
function joinedWordStart(text: string, end: number): number {
  let from = Math.min(end, text.length);
  while (from > 0 && !isJsSpace(text.charCodeAt(from - 1)) && !unspacedBefore(text, from)) from--;
  const read: WordRead = { commentsClose: true, skipTo: 0, openReference: undefined };
  const last = Math.min(end, text.length);
  for (let at = from; at < last; at = Math.max(at + 1, read.skipTo)) {
    const code = text.charCodeAt(at);
    if (code !== 0x26 && code !== 0x3c && code < 0x80) continue;
    if (at === 0 || !touchesWord(text.charCodeAt(at - 1))) continue;
    if (hiddenAt(text, at, read)) return from;
  }
  return end;
}

/**
 * Whether the code point ending at `at` is a letter of a script written
 * without blanks (`isUnspaced`): no letter of a word the matcher reads
 * joins it, so a word joined by hidden markup starts there at the latest
 * (round 38: a Thai answer with U+200B between its words and no blank was
 * one word, held whole, and past 16,384 characters the stream blocked).
 */
function unspacedBefore(text: string, at: number): boolean {
  const unit = text.charCodeAt(at - 1);
  return unit >= 0xe00 && isUnspaced(codePointBefore(text, at));
}

/**
 * `hook` (a `potentialMatchStart`), holding back too what an entry written
 * with Markdown or HTML that hides itself may still become: the hook's
 * answer on the text read as shown (and with joiners as blanks, and each
 * run of blanks as one), mapped back to the text, up to a tag or link
 * destination still open, which is held (round 36: shown as text until it
 * closes, so it is not read); and, when a comment is open, on the text
 * before it (hidden to the end if it closes). Text with no markup, run of
 * blanks or character beyond ASCII near its end costs one backward look.
 *
 * Round 37: the shown text was read from at most `4 × reach` units back,
 * the letters inside tags counted as shown, so an entry written longer
 * than that (a tag or `&NegativeVeryThinSpace;` between each two letters,
 * 300 `<br>` between its words) was released in part: its first letters
 * went out before the rest made it whole. Now the whole text the window
 * holds is read (linear: `withoutEmphasis` and the runs of blanks read it
 * once, the hook only its last `reach` characters); an entry however long
 * its written form is held from its first letter, up to the window's
 * bound on a hold (`MIN_HOLD_BOUND`, 16,384 characters), past which the
 * stream is blocked. The window checks when the text held grows by half,
 * so reading it whole costs linear time over the stream.
 */
export function heldForEmphasis(
  hook: (text: string) => number,
  reach: number,
): (text: string) => number {
  /**
   * The hook's answer on `reading` (with each run of blanks as one), as a
   * position in the text: `origin` maps the reading's units (identity
   * when undefined); `none` when it holds nothing.
   */
  const ask = (
    reading: string,
    origin: Int32Array | undefined,
    none: number,
    runs = withBlankRunsAsOne(reading),
  ): number => {
    const read = runs?.text ?? reading;
    const at = hook(read);
    if (!(at < read.length)) return none;
    const unit = runs === undefined ? Math.max(0, at) : runs.origin[Math.max(0, at)]!;
    return origin === undefined ? unit : origin[unit]!;
  };
  return text => {
    const held = hook(text);
    const destination = openDestinationStart(text);
    let open = openTagStart(text);
    for (const start of [destination, openReferenceStart(text)]) {
      if (start >= 0 && (open < 0 || start < open)) open = start;
    }
    const end = open < 0 ? text.length : open;
    if (open < 0 && !mayReadOtherwise(text, end, reach) && !mayHaveOpenComment(text)) {
      return joinedWordStart(text, held);
    }
    // As written with a run of blanks as one, and with joiners read as blanks (same positions).
    const runs = withBlankRunsAsOne(text);
    let start = runs ? Math.min(held, ask(text, undefined, text.length, runs)) : held;
    const joined = withJoinersBlank(text);
    if (joined !== undefined) start = Math.min(start, ask(joined, undefined, text.length));
    // As shown, up to a tag, reference or destination still open (held whole).
    const found = { openComment: -1 };
    const read = withoutEmphasis(text, 0, end, found);
    if (read === undefined) {
      if (end < text.length) {
        const upToOpen = text.slice(0, end);
        start = Math.min(start, ask(upToOpen, undefined, end));
        const joinedUpToOpen = withJoinersBlank(upToOpen);
        if (joinedUpToOpen !== undefined)
          start = Math.min(start, ask(joinedUpToOpen, undefined, end));
      }
    } else {
      start = Math.min(start, ask(withJoinersBlank(read.text) ?? read.text, read.origin, end));
    }
    // A comment still open hides what follows it once it closes: the text
    // before it is read so too (the comment itself is not held).
    if (found.openComment >= 0) {
      const before = withoutEmphasis(text, 0, found.openComment);
      const shown = before?.text ?? text.slice(0, found.openComment);
      start = Math.min(start, ask(withJoinersBlank(shown) ?? shown, before?.origin, text.length));
    }
    return joinedWordStart(text, start);
  };
}
