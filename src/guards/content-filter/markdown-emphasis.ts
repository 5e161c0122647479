import { isJsSpace } from '../shared/js-space';

/**
 * Markdown that hides itself (round 35): emphasis (`*`, `_`), GFM
 * strikethrough (`~`) and code spans (`` ` ``). A model answers in
 * Markdown, and `kill **yourself**`, `k**ill** yourself` or
 * `~~kill~~ yourself` show "kill yourself", while `contentFilter`'s blank
 * matches white space only and its words need no letter beside them. A run
 * of these markers is read as not there when a letter or digit (or any
 * character beyond ASCII that is no blank: an invisible one the filter
 * drops) stands beside it, as a delimiter run of emphasis does; a run with
 * blanks on both sides (`a * b`) is shown, and stays.
 */
function isMarker(code: number): boolean {
  return code === 0x2a || code === 0x5f || code === 0x7e || code === 0x60;
}

/** A neighbour that makes a marker run emphasis: a letter or digit, or a non-blank beyond ASCII. */
function touchesWord(code: number): boolean {
  if (code < 0x80) {
    return (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a);
  }
  return !isJsSpace(code);
}

/** The markers `contentFilter`'s window triggers look at (`FilterTriggers.near`). */
export const EMPHASIS_MARKERS = '*_~`';

/**
 * Whether the marker at `at` may hide itself: a letter or digit beside it,
 * or the text's end after it (more text may bring one). Reads one unit on
 * each side.
 */
export function emphasisAt(text: string, at: number): boolean {
  if (at > 0 && touchesWord(text.charCodeAt(at - 1))) return true;
  return at + 1 >= text.length || touchesWord(text.charCodeAt(at + 1));
}

/** Whether `text` holds a marker that may hide itself ({@link emphasisAt}). */
export function hasEmphasis(text: string): boolean {
  for (let at = 0; at < text.length; at++) {
    if (isMarker(text.charCodeAt(at)) && emphasisAt(text, at)) return true;
  }
  return false;
}

/** `text.slice(from)` without the marker runs that hide themselves, and where each kept unit was. */
export interface EmphasisFree {
  text: string;
  /** `origin[k]`: the index in the original text of unit `k` of `text`. */
  origin: Int32Array;
}

/**
 * `text` from `from` without its marker runs that hide themselves (one
 * beside a letter or digit, or ending the text), or undefined when it has
 * none. The unit before `from` counts as a neighbour. Linear.
 */
export function withoutEmphasis(text: string, from = 0): EmphasisFree | undefined {
  let pieces: string[] | undefined;
  let origin: Int32Array | undefined;
  let kept = 0;
  let copied = from;
  for (let at = from; at < text.length; ) {
    if (!isMarker(text.charCodeAt(at))) {
      at++;
      continue;
    }
    let end = at + 1;
    while (end < text.length && isMarker(text.charCodeAt(end))) end++;
    const hides =
      (at > 0 && touchesWord(text.charCodeAt(at - 1))) ||
      end >= text.length ||
      touchesWord(text.charCodeAt(end));
    if (hides) {
      pieces ??= [];
      origin ??= new Int32Array(text.length - from);
      for (let index = copied; index < at; index++) origin[kept++] = index;
      pieces.push(text.slice(copied, at));
      copied = end;
    }
    at = end;
  }
  if (pieces === undefined || origin === undefined) return undefined;
  for (let index = copied; index < text.length; index++) origin[kept++] = index;
  pieces.push(text.slice(copied));
  return { text: pieces.join(''), origin: origin.subarray(0, kept) };
}

/**
 * `hook` (a `potentialMatchStart`), holding back too what an entry written
 * with hiding markers may still become: the hook's answer on the last
 * `reach` characters read without them (at most `4 × reach` units back, a
 * flood of markers held from there), mapped back to the text. Text without
 * a marker near its end costs one backward look.
 */
export function heldForEmphasis(
  hook: (text: string) => number,
  reach: number,
): (text: string) => number {
  return text => {
    const held = hook(text);
    const limit = Math.max(0, text.length - 4 * reach);
    let from = text.length;
    let letters = 0;
    let markers = false;
    while (from > limit && letters < reach) {
      from--;
      if (isMarker(text.charCodeAt(from))) markers = true;
      else letters++;
    }
    if (!markers) return held;
    // A flood of markers: held from where the look stopped.
    if (letters < reach && from > 0) return Math.min(held, from);
    const read = withoutEmphasis(text, from);
    if (read === undefined) return held;
    const at = hook(read.text);
    const start = at >= read.text.length ? text.length : read.origin[at]!;
    return Math.min(held, start);
  };
}
