import { inChain, keptInChain } from '../../core/chain-memo';
import { clearFlatMark, flatString, markFlat } from './flat-string';
import {
  type NormalizationPoints,
  type NormalizedText,
  normalizationPoints,
  normalizePiece,
  normalizeText,
} from './normalize-text';
import { upperBound } from './sorted-search';
import type { DetectedSpan } from './spans';

// Where the detectors' piece loops have long imported it from.
export { flatString };

/**
 * Long texts scanned in bounded pieces.
 *
 * Detectors match on a normal form of the text (`normalize-text.ts`); for a
 * long text that is a fresh string of its size, and `pii()` redacting hands
 * `secrets()` a second one (the normal form of the redacted text). V8
 * allocates a string above 128 KB in its large-object space, whose pages
 * are fresh on every allocation: each 4 KB page faults in. On the machine
 * the benches run on, the two megabyte-sized copies of the chain
 * `pii()` + `secrets()` cost about 1,030 page faults and 18 ms of its
 * 48 ms on 1 MB of real text. Pieces of at most 61,440 characters live in the
 * young generation instead, whose pages are reused.
 *
 * Each piece is scanned with `overlap` characters of the text on either
 * side, and owns the findings that start in it. The detectors' matches are
 * bounded (their `maxMatchLength`: 1,040 characters for `pii`, 1,024 for
 * `secrets`) and so is the context they read around a match (at most a few
 * hundred characters), so a finding is decided by the text near it. That is
 * checked rather than trusted at every seam: the two pieces beside it must
 * report the very same findings around it (`seamZone` on either side), and
 * no finding near a seam may run to within `seamZone` of where its piece's
 * text was cut. Otherwise the whole text is scanned as before, as it is
 * when a detector finds a construct that is not bounded (the caller's
 * `scanPiece` returns undefined: a PEM block, a Kubernetes manifest whose
 * `kind: Secret` may be anywhere in the text). Findings are then those of
 * the whole text: `chunked-scan.test.ts` and the A/B over the dev sets
 * compare them.
 */

/** A text read in pieces: a string, or a redacted text built on demand from its original. */
export interface TextSource {
  readonly length: number;
  /** The text from `start` to `end` (as `String.prototype.slice`, 0 <= start <= end <= length). */
  slice(start: number, end: number): string;
  /** `normalizationPoints` of the text, when known without reading it. */
  readonly normalizationPoints?: Int32Array;
  /**
   * Every `slice` shorter than `chunkedScanFrom` (every piece `scanInChunks`
   * reads) is a fresh flat string (see `flat-string.ts`): a piece is not
   * copied again. A longer one is a rope of the text's own slices.
   */
  readonly flatSlices?: boolean;
  /**
   * The text from `start` to `end` as a rope of the strings the source is
   * made of (slices of its original and its placeholders), nothing copied:
   * for a reader that hands a long stretch on unread (`invisibleText()`
   * stripping a redacted text).
   */
  rope?(start: number, end: number): string;
  /**
   * The normal form a reader before in the chain made of the text from
   * `start` to `end`, when that reader read these very characters as one of
   * its pieces (`pii()` redacting: the pieces it found nothing in, see
   * `redactedTextSource`); given once (the source lets go of it).
   */
  readNormalForm?(start: number, end: number): NormalizedText | undefined;
  /**
   * Where that reader cut its pieces, moved to this text's offsets (those
   * not inside a placeholder), in order: a piece is cut at one of them when
   * one lies where `cutAfter` would cut, so the pieces are that reader's
   * (a placeholder longer or shorter than its value moved the line breaks
   * `cutAfter` finds).
   */
  readonly earlierCuts?: Int32Array;
}

/** What `normalizeText` may change (its own first test): anything but printable ASCII, tab and line breaks. */
const beyondPrintableAscii = /[^\t\n\r\x20-\x7e]/;

/** Texts shorter than this are scanned whole (a chat message is). */
export const chunkedScanFrom = 131_072;
/**
 * Characters a piece owns at most (it is cut at a line break before). With
 * the overlap on both sides, a piece of text in two-byte characters is
 * 120 KB, below V8's 128 KB limit for the young generation.
 */
const pieceLength = 57_344;
/** Characters of text read on either side of a piece. */
const overlap = 2_048;
/** Findings within this distance of a seam must be the same in the pieces on either side of it. */
const seamZone = 512;
/** How far before its target length a piece is cut at a line break (else at white space, else where it falls). */
const cutSearch = 2_048;

/**
 * What the caller's scan found in one piece: findings in text order (fresh
 * objects: they are moved to the whole text's offsets in place), and
 * positions (such as placeholders skipped) counted as findings are.
 */
export interface PieceFindings<T extends DetectedSpan> {
  spans: readonly T[];
  points?: readonly number[];
  /**
   * The normal form the piece was scanned in (`normalizeText(piece)`): the
   * text read on either side of the piece must hold `overlap - seamZone`
   * characters of it, not only of the original. Invisible characters, which
   * it drops, would otherwise leave a piece no context at all: `kind` and
   * `: Secret` (or `-----` and `BEGIN`) 6,000 zero-width spaces apart were
   * in no piece together, and their Secret or private key went unfound.
   */
  normalForm?: { readonly text: string; toOriginal(index: number): number };
}

/** The findings of the whole text, offsets into it. */
export interface ChunkedFindings<T extends DetectedSpan> {
  spans: T[];
  points: number[];
  /** Where the text holds characters its normal form may change, when found (see `normalizationPoints`). */
  normalizationPoints?: Int32Array;
  /**
   * With `keepPieceForms`: the normal forms of the pieces that found
   * nothing (anywhere in the piece, its overlap too), and where the pieces
   * were cut, for a reader of this text's redaction (`redactedTextSource`).
   */
  pieces?: PiecesRead;
}

/**
 * The normal form of a piece (`normalizeText` with the text's points), flat:
 * what the detectors' piece scans read.
 */
export function pieceNormalForm(piece: string, points?: NormalizationPoints): NormalizedText {
  const normalized = points ? normalizePiece(piece, points) : normalizeText(piece);
  normalized.text = flatString(normalized.text);
  return normalized;
}

/**
 * How a reader of a chain run read a string in pieces that found nothing in
 * it, for the next guardrail of the run that reads the same string (round
 * 37): `secrets()` after a `pii()` that changed nothing normalised every
 * piece again. Keyed by the run's `normalizationPoints` of the string (the
 * chain memo's, see `scanInChunks`), so it lives as long as that run's
 * entry at most. The same string is cut the same way, so the next reader
 * takes each piece's normal form (`takePieceForm`) as a reader of the
 * string's redaction does (`redactedTextSource`, round 40): one mechanism.
 */
const sharedPieces = new WeakMap<Int32Array, PiecesRead>();

/** A piece's normal form, with where the piece ends (keyed by where it starts). */
export interface PieceForm {
  end: number;
  normalized: NormalizedText;
}

/**
 * How a text was read in pieces: the normal forms of some, by piece start
 * (`from`, overlap included), and every piece's end but the last.
 */
export interface PiecesRead {
  forms: Map<number, PieceForm>;
  cuts: number[];
}

/**
 * The normal form `pieces` kept of the piece from `from` to `to` (its
 * characters are the very ones read), given once; undefined when no piece
 * read started and ended there. A normal form is a function of the piece's
 * characters alone, so its reader finds what it would normalising.
 */
function takePieceForm(pieces: PiecesRead, from: number, to: number): NormalizedText | undefined {
  const form = pieces.forms.get(from);
  if (form?.end !== to) return undefined;
  pieces.forms.delete(from);
  return form.normalized;
}

/** A string as a `TextSource`. */
export function stringSource(text: string): TextSource {
  return text;
}

/**
 * The findings of `scanPiece` over `source` in pieces, as one scan of the
 * whole text reports them (see above), or undefined when the text is
 * shorter than `chunkedScanFrom` or a string of printable ASCII only (its
 * own normal form: scanned whole, it is not copied), a piece's scan gave
 * up, or the pieces disagree at a seam: then the caller scans the whole text. The findings
 * are the objects `scanPiece` returned. Linear in the length of the text.
 * `scanPiece` gets the piece, its points and its `pieceNormalForm` (or the
 * one a reader before in the chain run made of the same characters, of the
 * same string, see `sharedPieces`, or of a text it redacted, see
 * `TextSource.readNormalForm`). With `keepPieceForms`, the findings carry
 * the normal forms of the pieces that found nothing, and the cuts (`pieces`).
 */
export function scanInChunks<T extends DetectedSpan>(
  source: TextSource,
  scanPiece: (
    text: string,
    points: NormalizationPoints | undefined,
    normalForm: NormalizedText,
  ) => PieceFindings<T> | undefined,
  { keepPieceForms = false }: { keepPieceForms?: boolean } = {},
): ChunkedFindings<T> | undefined {
  const length = source.length;
  if (!(length >= chunkedScanFrom)) return undefined;
  // What normalising may change is found once for the whole text, not
  // searched for again in each piece (nor by the next guardrail, see
  // `redactedTextSource`). Printable ASCII is its own normal form: no copy
  // to save, only the pieces' own costs to add (text full of short values: 30-40% more).
  const normalizing =
    typeof source === 'string'
      ? // Once per text in a chain: `secrets` after a `pii` that changed nothing reads the same string.
        inChain('normalizationPoints', source, normalizationPoints)
      : source.normalizationPoints;
  if (typeof source === 'string' && normalizing?.length === 0) return undefined;
  // How a reader before in the run read this very string (it found
  // nothing: the run reads the same string again), see `sharedPieces`.
  const given =
    typeof source === 'string' && normalizing ? sharedPieces.get(normalizing) : undefined;
  if (given) sharedPieces.delete(normalizing!);
  // Handed on when this reader finds nothing, in a chain run only (the
  // points are the run's: outside one no reader could be given them).
  let handOn =
    typeof source === 'string' &&
    normalizing !== undefined &&
    !given &&
    keptInChain('normalizationPoints', source) === normalizing;
  // The pieces this reader finds nothing in: for the next reader of the
  // same string (`handOn`) or of its redaction (`keepPieceForms`, round 40).
  let pieces: PiecesRead | undefined =
    keepPieceForms || handOn ? { forms: new Map(), cuts: [] } : undefined;
  const readNormalForm =
    typeof source !== 'string'
      ? source.readNormalForm
      : given && ((from: number, to: number) => takePieceForm(given, from, to));
  const spans: T[] = [];
  const points: number[] = [];
  // The findings of the previous piece near the seam it ends at, to compare.
  let seamSpans: T[] = [];
  let seamPoints: number[] = [];
  let pieceStart = 0;
  while (pieceStart < length) {
    const pieceEnd = cutAfter(source, pieceStart);
    const from = Math.max(0, pieceStart - overlap);
    const to = Math.min(length, pieceEnd + overlap);
    const piecePoints = normalizing && { positions: normalizing, offset: from };
    let found: PieceFindings<T> | undefined;
    // The very characters a reader before in the run normalised (a piece
    // it found nothing in, read again as it is or in its redaction): its
    // normal form is not made again, nor is the piece written out.
    let normalized = readNormalForm?.(from, to);
    if (normalized !== undefined) found = scanPiece(normalized.original, piecePoints, normalized);
    else {
      const piece = source.slice(from, to);
      try {
        if (typeof source !== 'string' && source.flatSlices) markFlat(piece);
        normalized = pieceNormalForm(piece, piecePoints);
        found = scanPiece(piece, piecePoints, normalized);
      } finally {
        clearFlatMark();
      }
    }
    if (found === undefined) return undefined;
    // A reader that finds something changes the text or stops the run: no
    // one reads the same string again (only a redaction's reader needs them).
    if (found.spans.length > 0 && !keepPieceForms) {
      handOn = false;
      pieces = undefined;
    }
    if (pieces !== undefined) {
      if (found.spans.length === 0) pieces.forms.set(from, { end: to, normalized });
      if (pieceEnd < length) pieces.cuts.push(pieceEnd);
    }
    if (found.normalForm !== undefined) {
      const before = normalCharsBefore(found.normalForm, pieceStart - from);
      const after =
        found.normalForm.text.length - normalCharsBefore(found.normalForm, pieceEnd - from);
      if (
        (from > 0 && before < overlap - seamZone) ||
        (to < length && after < overlap - seamZone)
      ) {
        return undefined;
      }
    }
    // What this piece says near its seams: [pieceStart - seamZone, pieceStart + seamZone) and
    // [pieceEnd - seamZone, pieceEnd + seamZone). A finding from the first of these on must
    // end well before the piece's text was cut, so it is not one cut short.
    const headEnd = pieceStart + seamZone;
    const tailStart = pieceEnd - seamZone;
    const tailEnd = pieceEnd + seamZone;
    const safeEnd = to === length ? length : to - seamZone;
    const head: T[] = [];
    const tail: T[] = [];
    for (const span of found.spans) {
      const start = span.start + from;
      if (start >= tailEnd) break;
      const end = span.end + from;
      if (start < pieceStart - (pieceStart > 0 ? seamZone : 0)) continue;
      if (end > safeEnd) return undefined;
      // The piece's own objects, moved to the whole text's offsets (text
      // full of values has 100,000s: a copy of each costs what finding it does).
      span.start = start;
      span.end = end;
      if (pieceStart > 0 && start < headEnd) head.push(span);
      if (pieceEnd < length && start >= tailStart) tail.push(span);
      if (start >= pieceStart && start < pieceEnd) spans.push(span);
    }
    const headPoints: number[] = [];
    const tailPoints: number[] = [];
    for (const point of found.points ?? []) {
      const at = point + from;
      if (pieceStart > 0 && at >= pieceStart - seamZone && at < headEnd) headPoints.push(at);
      if (pieceEnd < length && at >= tailStart && at < tailEnd) tailPoints.push(at);
      if (at >= pieceStart && at < pieceEnd) points.push(at);
    }
    if (pieceStart > 0 && !(sameSpans(seamSpans, head) && samePoints(seamPoints, headPoints))) {
      return undefined;
    }
    seamSpans = tail;
    seamPoints = tailPoints;
    pieceStart = pieceEnd;
  }
  if (handOn && spans.length === 0) sharedPieces.set(normalizing!, pieces!);
  // Pieces' findings come in text order; points too, but a piece's own may not be sorted.
  points.sort((first, second) => first - second);
  return {
    spans,
    points,
    ...(normalizing && { normalizationPoints: normalizing }),
    ...(keepPieceForms && pieces && { pieces }),
  };
}

/** How many characters of `normalForm` come from the original's first `originalOffset` characters. */
function normalCharsBefore(
  normalForm: { readonly text: string; toOriginal(index: number): number },
  originalOffset: number,
): number {
  let low = 0;
  let high = normalForm.text.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (normalForm.toOriginal(middle) < originalOffset) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * How far past its target length a piece may run to end where the reader
 * before it in the chain cut (`TextSource.earlierCuts`): placeholders
 * longer than their values move that reader's cuts on (round 41: on the
 * dev sets' first MB, `pii()`'s placeholders moved one of its 18 cuts past
 * the target; `secrets()` cut elsewhere there, its later targets fell
 * beside that reader's cuts, and 10 of its 18 cuts were its own: 2 pieces
 * of 19 read with a normal form given, now 7).
 * With the overlap, a piece stays within 63,488 characters (124 KB in
 * two-byte characters), below V8's 128 KB limit for the young generation.
 */
const earlierCutReach = 2_048;

/** Where the piece starting at `start` ends: after a line break near its target length, else white space. */
function cutAfter(source: TextSource, start: number): number {
  const length = source.length;
  const target = start + pieceLength;
  const earlier = typeof source === 'string' ? undefined : source.earlierCuts;
  if (earlier !== undefined) {
    const reach = target + earlierCutReach;
    // The last of them at or before `reach`: where that reader cut, if after `target - cutSearch`.
    const low = upperBound(earlier, reach);
    if (low > 0 && earlier[low - 1]! > target - cutSearch) return earlier[low - 1]!;
    // Its last piece starts here: the text ends within reach, as that piece did.
    if (low === earlier.length && (low === 0 || earlier[low - 1]! <= start) && length <= reach) {
      return length;
    }
  }
  if (length - start <= pieceLength) return length;
  const before = source.slice(target - cutSearch, target);
  const lineBreak = before.lastIndexOf('\n');
  if (lineBreak >= 0) return target - cutSearch + lineBreak + 1;
  const blank = Math.max(before.lastIndexOf(' '), before.lastIndexOf('\t'));
  return blank >= 0 ? target - cutSearch + blank + 1 : target;
}

function sameSpans(first: readonly DetectedSpan[], second: readonly DetectedSpan[]): boolean {
  if (first.length !== second.length) return false;
  for (let index = 0; index < first.length; index++) {
    const a = first[index]!;
    const b = second[index]!;
    if (a.type !== b.type || a.start !== b.start || a.end !== b.end) return false;
  }
  return true;
}

function samePoints(first: readonly number[], second: readonly number[]): boolean {
  if (first.length !== second.length) return false;
  const a = [...first].sort((x, y) => x - y);
  const b = [...second].sort((x, y) => x - y);
  return a.every((point, index) => point === b[index]);
}

/**
 * `original` with each of `spans` (in order, apart) replaced by
 * `replacementOf(index)`, as a `TextSource` whose slices are built from the
 * original and the placeholders: the redacted text `replaceSpans` returns
 * is a rope, and slicing it would first write the whole of it out.
 * `original` may itself be such a source (a text redacted twice: `pii()`
 * then `secrets()`); its `normalizationPoints` are `originalPoints`'s default.
 * `originalPieces`: how the scan that found `spans` read the original
 * (`ChunkedFindings.pieces`): its cuts are offered moved (`earlierCuts`),
 * and a stretch of the redacted text that holds no placeholder and is one
 * of its pieces with a normal form, moved, is given that normal form
 * (`readNormalForm`), once.
 */
export function redactedTextSource(
  original: string | TextSource,
  spans: readonly DetectedSpan[],
  replacementOf: (index: number) => string,
  originalPoints: Int32Array | undefined = typeof original === 'string'
    ? undefined
    : original.normalizationPoints,
  originalPieces?: PiecesRead,
): TextSource {
  const count = spans.length;
  // Where each placeholder ends in the redacted text.
  const endsAt = new Int32Array(count);
  let shift = 0;
  // The original's `normalizationPoints` carry over when every placeholder
  // is printable ASCII (one string per type is tested once).
  let plainPlaceholders = originalPoints !== undefined;
  let plain: string | undefined;
  for (let index = 0; index < count; index++) {
    const span = spans[index]!;
    const replacement = replacementOf(index);
    if (plainPlaceholders && replacement !== plain) {
      plainPlaceholders = !beyondPrintableAscii.test(replacement);
      plain = replacement;
    }
    shift += replacement.length - (span.end - span.start);
    endsAt[index] = span.end + shift;
  }
  const length = original.length + shift;
  // The original's points outside every span, moved by the placeholders before them.
  let normalizationPoints: Int32Array | undefined;
  if (plainPlaceholders && originalPoints !== undefined) {
    normalizationPoints = new Int32Array(originalPoints.length);
    let kept = 0;
    let next = 0;
    let moved = 0;
    for (const point of originalPoints) {
      while (next < count && spans[next]!.end <= point) {
        moved = endsAt[next]! - spans[next]!.end;
        next++;
      }
      if (next < count && spans[next]!.start <= point) continue;
      normalizationPoints[kept++] = point + moved;
    }
    normalizationPoints = normalizationPoints.subarray(0, kept);
  }
  /** The first span whose placeholder ends after `position`. */
  const spanAfter = (position: number) => {
    let low = 0;
    let high = count;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (endsAt[middle]! > position) high = middle;
      else low = middle + 1;
    }
    return low;
  };
  /** The parts of the text from `start` to `end`, in order: the original's (`read`) and the placeholders'. */
  const partsOf = (start: number, end: number, read: (from: number, to: number) => string) => {
    const parts: string[] = [];
    let at = start;
    let index = spanAfter(start);
    while (at < end) {
      // Original text before span `index` sits shifted by what the placeholders before it changed.
      const shiftBefore = index > 0 ? endsAt[index - 1]! - spans[index - 1]!.end : 0;
      const placeholder = index < count ? replacementOf(index) : '';
      const placeholderStart = index < count ? endsAt[index]! - placeholder.length : length;
      if (at < placeholderStart) {
        const stop = Math.min(end, placeholderStart);
        parts.push(read(at - shiftBefore, stop - shiftBefore));
        at = stop;
        continue;
      }
      parts.push(
        placeholder.slice(
          at - placeholderStart,
          Math.min(placeholder.length, end - placeholderStart),
        ),
      );
      at = placeholderStart + placeholder.length;
      index++;
    }
    return parts;
  };
  const sliceOriginal = (from: number, to: number) => original.slice(from, to);
  const ropeOfOriginal =
    typeof original === 'string'
      ? sliceOriginal
      : (from: number, to: number) => original.rope?.(from, to) ?? original.slice(from, to);
  // A slice of a source of flat slices is flat already (see `TextSource.flatSlices`).
  const copiedFlat =
    typeof original === 'string' || !original.flatSlices
      ? flatString
      : (part: string) => (part.length < chunkedScanFrom ? part : flatString(part));
  /**
   * The kept normal form of the original's piece whose characters the
   * redacted text holds from `start` to `end`: no placeholder starts before
   * `end` (an empty one at `end` or `start` neither: the stretch is then
   * the original's text before or after that span), so the stretch is the
   * original's from `start` less the shift of the placeholders before it.
   */
  const readNormalForm = (start: number, end: number): NormalizedText | undefined => {
    const index = spanAfter(start);
    const shiftBefore = index > 0 ? endsAt[index - 1]! - spans[index - 1]!.end : 0;
    if (index < count && spans[index]!.start + shiftBefore < end) return undefined;
    return takePieceForm(originalPieces!, start - shiftBefore, end - shiftBefore);
  };
  // The original's cuts outside every span (or at one's edge), moved by the placeholders before them.
  let earlierCuts: Int32Array | undefined;
  if (originalPieces !== undefined && originalPieces.forms.size > 0) {
    earlierCuts = new Int32Array(originalPieces.cuts.length);
    let kept = 0;
    let next = 0;
    for (const cut of originalPieces.cuts) {
      while (next < count && spans[next]!.end <= cut) next++;
      if (next < count && spans[next]!.start < cut) continue;
      earlierCuts[kept++] = cut + (next > 0 ? endsAt[next - 1]! - spans[next - 1]!.end : 0);
    }
    earlierCuts = earlierCuts.subarray(0, kept);
  }
  return {
    length,
    ...(normalizationPoints && { normalizationPoints }),
    ...(earlierCuts && { readNormalForm, earlierCuts }),
    flatSlices: true,
    slice(start: number, end: number): string {
      const parts = partsOf(start, end, sliceOriginal);
      // A long stretch (what `secrets()` redacting keeps between its own
      // findings) is a rope of slices of the original, not written out: a
      // flat copy above V8's 128 KB limit takes fresh pages (about 1,000 page
      // faults for the dev MB, half the time of `secrets()` redacting it),
      // and the next guardrail writes the text it is given out anyway.
      if (end - start >= chunkedScanFrom) return rope(parts);
      // Joined from parts: a flat string, not a rope of slices (see
      // `flat-string.ts`); a join of one part is that part (a slice): copied flat.
      return parts.length === 1 ? copiedFlat(parts[0]!) : parts.join('');
    },
    rope(start: number, end: number): string {
      return rope(partsOf(start, end, ropeOfOriginal));
    },
  };
}

/** `parts` concatenated as a rope (nothing copied but parts of under 13 characters). */
function rope(parts: readonly string[]): string {
  let text = '';
  for (const part of parts) text += part;
  return text;
}
