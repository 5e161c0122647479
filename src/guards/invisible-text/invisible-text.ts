import { callerArgument } from '../../core/caller-values';
import { declareSignalFreeCheck } from '../../core/chain';
import { keptInChain } from '../../core/chain-memo';
import { allow, block, defineGuardrail, modify } from '../../core/define-guardrail';
import { booleanOption, validateFactoryOptions, validateOptionsOnce } from '../../core/options';
import type { Guardrail } from '../../core/types';
import { chunkSourceInCall } from '../shared/call-normalization';
import { chunkedScanFrom, type TextSource } from '../shared/chunked-scan';
import { GatheredText } from '../shared/gathered-text';
import {
  codePointBefore,
  INVISIBLE_CONTROL_RANGES,
  INVISIBLE_FORMAT_RANGES,
  isDefaultIgnorableOrControl,
  rangesClassSource,
} from '../shared/invisible-code-points';
import { invisibleTextOptionShape } from './invisible-text-options';
import { invisiblePotentialStart } from './potential-start';

/** Options of `invisibleText`. */
export interface InvisibleTextOptions {
  /** `'strip'` (default): remove the characters; `'block'`: trip when any is found. */
  action?: 'strip' | 'block';
  /** Also treat private-use characters (U+E000–F8FF, planes 15–16) as hidden. Default true. */
  privateUse?: boolean;
  /** Guardrail name in records. Default `'invisible-text'`. */
  name?: string;
  /** Message of a block. */
  message?: string;
}

// Every default-ignorable code point (they render as nothing): zero-width,
// bidi controls, invisible operators, BOM, soft hyphen, combining grapheme
// joiner, Hangul and Khmer fillers, Mongolian and other variation selectors,
// shorthand, musical and (outside a group of signs, see
// `hieroglyphJoinEnd`) Egyptian hieroglyph format controls, and the whole plane-14 block of tags
// and selectors (U+E0000–E0FFF); plus the control characters that are not
// white space (C0 but tab and line breaks, DEL, C1 but NEL): an ESC sequence
// (`\x1b[8m`) hides the text after it in a terminal. Variation selectors
// (U+FE00–FE0F, U+180B–180D, U+180F) are matched here but reported only when
// they select nothing (see `findInvisibleText`). The ranges live in
// shared/invisible-code-points.ts, the list the detectors' normaliser reads
// past too. Two classes as alternatives:
// one class mixing the ASCII controls with the astral ranges lost V8's fast
// scan (1 MB of prose: 1.6 ms -> 21 ms).
// U+1D159 (musical null notehead) is drawn as nothing: the detectors'
// normaliser reads past it (`isInvisibleCodePoint`), and since round 37 it is
// reported too (`k\u{1D159}ill` showed "kill" and was left in).
const NULL_NOTEHEAD = 0x1d159;
const hiddenSource = `${rangesClassSource(INVISIBLE_CONTROL_RANGES)}|${rangesClassSource(INVISIBLE_FORMAT_RANGES)}|\\u{1D159}`;
const privateUseSource = '[\\uE000-\\uF8FF\\u{F0000}-\\u{FFFFD}\\u{100000}-\\u{10FFFD}]';
const extendedPictographic = /\p{Extended_Pictographic}/u;
// Built once, not per call (a chat message costs less to scan than a fresh
// `u` regex); `findInvisibleText` never re-enters itself, so one `lastIndex` each.
const hidden = new RegExp(hiddenSource, 'gu');
const hiddenOrPrivateUse = new RegExp(`${hiddenSource}|${privateUseSource}`, 'gu');

type Category =
  | 'tag'
  | 'zero-width'
  | 'bidi'
  | 'private-use'
  | 'variation-selector'
  | 'control'
  | 'other';

/** A variation selector a base character may carry (one, right after it). */
function isSelector(codePoint: number | undefined): boolean {
  return (
    codePoint !== undefined &&
    ((codePoint >= 0xfe00 && codePoint <= 0xfe0f) ||
      (codePoint >= 0x180b && codePoint <= 0x180d) ||
      codePoint === 0x180f ||
      (codePoint >= 0xe0100 && codePoint <= 0xe01ef))
  );
}

/**
 * Whether a variation selector after `base` may select a glyph of it. No
 * variation sequence (Unicode's StandardizedVariants and emoji variation
 * sequences) has a base below U+1000 but the keycap and sign bases
 * `# * 0-9 © ®`: a selector after a Latin, Greek, Cyrillic... letter, a
 * space or a mark selects nothing. Round 37: one selector after each
 * letter of a visible text (`H\uFE01e\uFE0Al…`, 4 bits a letter) was
 * taken for a glyph choice and never reported.
 */
function takesSelector(base: number | undefined): boolean {
  if (base === undefined) return false;
  if (base >= 0x1000) return true;
  return (
    base === 0x23 ||
    base === 0x2a ||
    (base >= 0x30 && base <= 0x39) ||
    base === 0xa9 ||
    base === 0xae
  );
}

function categorize(codePoint: number): Category {
  if (codePoint >= 0xe0000 && codePoint <= 0xe007f) return 'tag';
  if (isSelector(codePoint)) return 'variation-selector';
  if (codePoint <= 0x9f) return 'control';
  if ((codePoint >= 0x202a && codePoint <= 0x202e) || (codePoint >= 0x2066 && codePoint <= 0x2069))
    return 'bidi';
  if (codePoint === 0x200e || codePoint === 0x200f || codePoint === 0x061c) return 'bidi';
  if (codePoint >= 0x200b && codePoint <= 0x200d) return 'zero-width';
  if (codePoint === 0x2060 || codePoint === 0xfeff) return 'zero-width';
  if (codePoint >= 0xe000 && codePoint <= 0xf8ff) return 'private-use';
  if (codePoint >= 0xf0000) return 'private-use';
  return 'other';
}

const isFlagTag = (codePoint: number | undefined) =>
  codePoint !== undefined && codePoint >= 0xe0020 && codePoint <= 0xe007e;

/** An emoji presentation selector (U+FE0E, U+FE0F) or skin-tone modifier, which may sit before a ZWJ. */
function isEmojiDecoration(codePoint: number | undefined): boolean {
  return (
    codePoint === 0xfe0e ||
    codePoint === 0xfe0f ||
    (codePoint !== undefined && codePoint >= 0x1f3fb && codePoint <= 0x1f3ff)
  );
}

/**
 * True when the ZWJ at `index` joins two pictographs (👩‍💻), the one before
 * it perhaps with its presentation selector or skin tone (🏳️‍🌈, 👩🏽‍💻).
 */
function joinsPictographs(text: string, index: number): boolean {
  let end = index;
  for (let skipped = 0; skipped < 2 && isEmojiDecoration(codePointBefore(text, end)); skipped++) {
    end -= codePointBefore(text, end)! > 0xffff ? 2 : 1;
  }
  const before = codePointBefore(text, end);
  const after = text.codePointAt(index + 1);
  return (
    before !== undefined &&
    after !== undefined &&
    extendedPictographic.test(String.fromCodePoint(before)) &&
    extendedPictographic.test(String.fromCodePoint(after))
  );
}

/**
 * The end (exclusive) of the subdivision flag whose tag characters start at
 * `start` (🏴 before it, at most eight tags, then the cancel tag U+E007F), or
 * -1 when the tags there are not one. Reads at most nine tags, so a long run
 * of tags costs one bounded look per run rather than a walk per character.
 */
function flagSequenceEnd(text: string, start: number): number {
  if (start < 2 || text.codePointAt(start - 2) !== 0x1f3f4) return -1;
  let end = start;
  for (let tags = 0; tags <= 8; tags++) {
    const codePoint = text.codePointAt(end);
    if (codePoint === 0xe007f) return end + 2;
    if (!isFlagTag(codePoint)) return -1;
    end += 2;
  }
  return -1;
}

/** An Egyptian hieroglyph format control (U+13430–1343F: joiners, inserts, segments, enclosures). */
const isHieroglyphControl = (codePoint: number | undefined) =>
  codePoint !== undefined && codePoint >= 0x13430 && codePoint <= 0x1343f;

/** An Egyptian hieroglyph sign or mark (U+13000–143FF but the format controls). */
const isHieroglyph = (codePoint: number | undefined) =>
  codePoint !== undefined &&
  codePoint >= 0x13000 &&
  codePoint <= 0x143ff &&
  !isHieroglyphControl(codePoint);

/** Most format controls that may open a group before its first sign (an enclosure, a segment). */
const CONTROLS_BEFORE_SIGN = 4;

/**
 * The end (exclusive) of the run of hieroglyph format controls starting at
 * `start` when it joins signs, else -1: the run follows a sign (`𓀀𓐰𓀁`, a
 * quadrat), or holds at most `CONTROLS_BEFORE_SIGN` controls and a sign
 * follows it (a cartouche or segment opening). Anywhere else they arrange
 * nothing and are drawn as nothing (round 38: `k\u{13430}ill`). Called on
 * a run's first control only; reads past the run only when it follows a
 * sign (once per run), else at most `CONTROLS_BEFORE_SIGN` controls ahead,
 * so whether a control is kept depends on at most that many code points
 * after it (window mode holds a trailing run of them: `invisiblePotentialStart`).
 */
function hieroglyphJoinEnd(text: string, start: number): number {
  const afterSign = isHieroglyph(codePointBefore(text, start));
  let end = start;
  for (let controls = 0; isHieroglyphControl(text.codePointAt(end)); controls++) {
    if (!afterSign && controls === CONTROLS_BEFORE_SIGN) return -1;
    end += 2;
  }
  return afterSign || isHieroglyph(text.codePointAt(end)) ? end : -1;
}

/**
 * Finds characters that hide text from a human reader but not from a model:
 * Unicode tag characters ("ASCII smuggling"), zero-width characters, bidi
 * controls, every other default-ignorable character (fillers, the combining
 * grapheme joiner, plane 14), control characters (an ESC sequence hides text
 * in a terminal), variation selectors that select nothing (a second one in a
 * row: "emoji smuggling") and (optionally) private-use characters.
 * Legitimate emoji sequences (ZWJ between pictographs, also after a
 * presentation selector or skin tone; subdivision flags; one selector after
 * its base character) are not reported. Returns `[{ type, start, end }]`,
 * one span per run of hidden characters of one type (`TAG`, `ZERO_WIDTH`,
 * `BIDI`, `VARIATION_SELECTOR`, `CONTROL`, `PRIVATE_USE`, `OTHER`).
 */
export function findInvisibleText(
  text: string,
  options?: Pick<InvisibleTextOptions, 'privateUse'>,
): Array<{ type: string; start: number; end: number }> {
  callerArgument(text, 'string', 'findInvisibleText', 'text');
  const { privateUse = true } = validateOptionsOnce(options, {
    prefix: 'findInvisibleText',
    root: 'findInvisibleText.options',
    shape: findOptionShape,
  });
  const spans: Array<{ type: string; start: number; end: number }> = [];
  eachHiddenRun(text, privateUse, (type, start, end) => {
    spans.push({ type, start, end });
  });
  return spans;
}

/** The options `findInvisibleText` takes. */
const findOptionShape = { privateUse: booleanOption };

/** Each category's span type. */
const TYPES: Record<Category, string> = {
  tag: 'TAG',
  'zero-width': 'ZERO_WIDTH',
  bidi: 'BIDI',
  'private-use': 'PRIVATE_USE',
  'variation-selector': 'VARIATION_SELECTOR',
  control: 'CONTROL',
  other: 'OTHER',
};

function isPrivateUseCodePoint(codePoint: number): boolean {
  return (
    (codePoint >= 0xe000 && codePoint <= 0xf8ff) ||
    (codePoint >= 0xf0000 && codePoint <= 0xffffd) ||
    (codePoint >= 0x100000 && codePoint <= 0x10fffd)
  );
}

/** A run of hidden characters of one type: `start` to `end` (UTF-16 offsets), `chars` code points. */
type HiddenRunCallback = (type: string, start: number, end: number, chars: number) => void;

/**
 * `findInvisibleText`'s spans, in order, given to `found` one by one
 * (`type`, `start`, `end`) rather than made objects: `invisibleText`
 * strips and counts them as they come. Round 30: a code-unit walk while
 * hidden characters are near, a native search (`hidden`) past 16 other
 * characters in a row; before, a regex match, a span object and a type
 * string made per character cost about 430 ms on 1 MB of `a\u200B`.
 * Offsets are `offset` past `text`'s own (`text` is then a window of a
 * longer text, see `eachHiddenRunIn`).
 */
function eachHiddenRun(
  text: string,
  privateUse: boolean,
  found: HiddenRunCallback,
  offset = 0,
): void {
  const pattern = privateUse ? hiddenOrPrivateUse : hidden;
  const length = text.length;
  // The run found last, not given yet (`runEnd` -1: none).
  let runType = '';
  let runStart = 0;
  let runEnd = -1;
  // Characters (code points) in the run.
  let runChars = 0;
  // Tag characters up to here belong to a subdivision flag found earlier,
  // hieroglyph format controls to a group of signs.
  let flagEnd = -1;
  let index = 0;
  let visibleInRow = 0;
  while (index < length) {
    const unit = text.charCodeAt(index);
    const codePoint = unit >= 0xd800 && unit <= 0xdbff ? text.codePointAt(index)! : unit;
    const size = codePoint > 0xffff ? 2 : 1;
    if (
      !isDefaultIgnorableOrControl(codePoint) &&
      codePoint !== NULL_NOTEHEAD &&
      !(privateUse && isPrivateUseCodePoint(codePoint))
    ) {
      index += size;
      if (++visibleInRow === 16) {
        visibleInRow = 0;
        pattern.lastIndex = index;
        if (!pattern.test(text)) break;
        // The match ends at `lastIndex`: one unit, or a surrogate pair (no lone surrogate matches).
        const end = pattern.lastIndex;
        const last = text.charCodeAt(end - 1);
        index = last >= 0xdc00 && last <= 0xdfff && end >= 2 ? end - 2 : end - 1;
      }
      continue;
    }
    visibleInRow = 0;
    const at = index;
    index += size;
    if (at < flagEnd) continue;
    if (codePoint === 0x200d && joinsPictographs(text, at)) continue;
    if (isHieroglyphControl(codePoint) && !isHieroglyphControl(codePointBefore(text, at))) {
      const end = hieroglyphJoinEnd(text, at);
      if (end !== -1) {
        flagEnd = end;
        continue;
      }
    }
    // A BMP or Mongolian variation selector right after its base character
    // is how emoji (❤️) and some CJK and Mongolian glyphs are written. One
    // after another selector, or after a hidden character, selects nothing:
    // a run of them carries bits (4 per selector, "emoji smuggling").
    if (isSelector(codePoint) && codePoint < 0xe0100) {
      const base = codePointBefore(text, at);
      if (runEnd !== at && !isSelector(base) && takesSelector(base)) continue;
    }
    if (codePoint >= 0xe0020 && codePoint <= 0xe007f) {
      // Only the first tag of a run can start a flag: the one before it is not a tag.
      const end = isFlagTag(text.codePointAt(at - 2)) ? -1 : flagSequenceEnd(text, at);
      if (end !== -1) {
        flagEnd = end;
        continue;
      }
    }
    const type = TYPES[categorize(codePoint)];
    if (runEnd === at && runType === type) {
      runEnd += size;
      runChars++;
      continue;
    }
    if (runEnd >= 0) found(runType, runStart + offset, runEnd + offset, runChars);
    runType = type;
    runStart = at;
    runEnd = at + size;
    runChars = 1;
  }
  pattern.lastIndex = 0;
  if (runEnd >= 0) found(runType, runStart + offset, runEnd + offset, runChars);
}

/**
 * Characters read on either side of a window's points (`hiddenWindows`):
 * more than any look around a hidden character reaches (an emoji's
 * decorations before a ZWJ, 6 units back; a flag's black flag, 2 back).
 */
const WINDOW_MARGIN = 32;

/**
 * The windows of a text of `length` units to read for its hidden
 * characters, as flat `[from, to, from, to, …]`, given `points`: every
 * offset holding a unit outside printable ASCII, tab and line breaks (a
 * long text's `normalizationPoints`), in order. Every hidden character is
 * such a unit, and the characters between points are printable ASCII,
 * which no rule looks through: a window holds each cluster of points (two
 * more than `2 * WINDOW_MARGIN` apart start a new one) with
 * `WINDOW_MARGIN` characters on either side, so what is read around a
 * hidden character is in its window, and a run never joins two windows.
 * Undefined when a window would be as long as `chunkedScanFrom` (text
 * dense with other scripts): the text is then read whole.
 */
function hiddenWindows(points: Int32Array, length: number): Int32Array | undefined {
  const windows = new Int32Array(2 * points.length);
  let count = 0;
  let first = 0;
  while (first < points.length) {
    let last = first;
    while (last + 1 < points.length && points[last + 1]! - points[last]! <= 2 * WINDOW_MARGIN) {
      last++;
    }
    const from = Math.max(0, points[first]! - WINDOW_MARGIN);
    const to = Math.min(length, points[last]! + 1 + WINDOW_MARGIN);
    if (to - from >= chunkedScanFrom) return undefined;
    windows[count++] = from;
    windows[count++] = to;
    first = last + 1;
  }
  return windows.subarray(0, count);
}

/**
 * A long text's hidden runs read in windows (`hiddenWindows`) of `source`,
 * offsets into the whole text: the same runs `eachHiddenRun` finds in it,
 * without reading (or, for a redacted text, writing out) the rest.
 */
function eachHiddenRunIn(
  source: TextSource,
  windows: Int32Array,
  privateUse: boolean,
  found: HiddenRunCallback,
): void {
  for (let window = 0; window < windows.length; window += 2) {
    const from = windows[window]!;
    eachHiddenRun(source.slice(from, windows[window + 1]!), privateUse, found, from);
  }
}

/**
 * How `check` reads a long `content`: the source a guardrail before it
 * offered for it (`pii()`'s redacted text, a rope that is read in pieces
 * without being written out), or the string itself, with the windows its
 * known `normalizationPoints` give; undefined when those are not known
 * (the text is read whole, as a short one is).
 */
function windowedReading(
  content: string,
  state: object | undefined,
): { source: TextSource; windows: Int32Array } | undefined {
  if (content.length < chunkedScanFrom) return undefined;
  const source = chunkSourceInCall(content, state);
  if (source === undefined) return undefined;
  const points =
    typeof source === 'string'
      ? // Found by a guardrail before it in the chain that read the same string in pieces.
        keptInChain<Int32Array | undefined>('normalizationPoints', content)
      : source.normalizationPoints;
  const windows = points && hiddenWindows(points, content.length);
  return windows && { source, windows };
}

/**
 * Detects and strips characters used to hide instructions from human
 * readers (tag characters, zero-width characters, bidi controls, private-use
 * characters), keeping emoji sequences intact. Strips by default; `block`
 * trips and reports the kinds found. Stream-safe: it judges one character
 * at a time (a window of 16 keeps emoji sequences whole).
 */
export function invisibleText(options?: InvisibleTextOptions): Guardrail {
  const {
    action = 'strip',
    privateUse = true,
    name = 'invisible-text',
    message = 'The text contains hidden characters.',
  } = validateFactoryOptions(options, 'invisible-text', invisibleTextOptionShape);
  const guardrail = defineGuardrail({
    name,
    // Verdicts cached under another configuration must not apply to this one.
    fingerprint: options,
    streamSafe: true,
    // A retry gets the feedback only: the blocked answer holds the values the block is about.
    retryable: 'without-answer',
    maxMatchLength: 20,
    // Window mode holds back only a trailing run of characters that may join what follows.
    potentialMatchStart: invisiblePotentialStart,
    check(content, ctx) {
      // Stripped, counted and typed as the runs come, with no span objects.
      const types: string[] = [];
      // Characters, not UTF-16 units: a tag character is two units.
      let count = 0;
      let cursor = 0;
      const reading = windowedReading(content, ctx?.state);
      const source = reading?.source;
      // A redacted text offered as a source is stripped into a rope of its
      // own parts (`TextSource.rope`), as it came: nothing written out here.
      const rope = source !== undefined && typeof source !== 'string' && action !== 'block';
      const read = rope ? (source.rope ?? source.slice).bind(source) : undefined;
      let stripped = '';
      const kept = action === 'block' || rope ? undefined : new GatheredText();
      const found: HiddenRunCallback = (type, start, end, chars) => {
        if (!types.includes(type)) types.push(type);
        count += chars;
        if (read) stripped += read(cursor, start);
        else kept?.copy(content, cursor, start);
        cursor = end;
      };
      if (reading) eachHiddenRunIn(reading.source, reading.windows, privateUse, found);
      else eachHiddenRun(content, privateUse, found);
      if (types.length === 0) return allow();
      if (action === 'block') {
        return block({
          message,
          reason: `hidden characters: ${types.join(', ')}`,
          info: { types, count },
        });
      }
      if (read) return modify(stripped + read(cursor, content.length), { types, count });
      kept!.copy(content, cursor, content.length);
      return modify(kept!.finish(), { types, count });
    },
  });
  // It never reads ctx.abortSignal nor assigns to ctx: a chain may share one context among such checks.
  declareSignalFreeCheck(guardrail.check);
  return guardrail;
}
