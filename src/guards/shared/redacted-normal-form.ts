import { type NormalizedText, normalizeText } from './normalize-text';
import type { DetectedSpan } from './spans';

/**
 * The normal form of a redacted text, built from the normal form of the text
 * before redaction instead of normalising the redacted text again.
 *
 * `pii()` finds its spans on `normalized.text` (the normal form of the
 * original) and replaces each span's original extent with a placeholder;
 * `secrets()` next in the chain must scan the normal form of that redacted
 * text. `normalizeText` works segment by segment (a character with its
 * combining marks, or one invisible character), and each segment's output
 * depends on that segment alone. So when
 *
 * - every placeholder is non-empty printable ASCII (its own normal form, and
 *   it cannot absorb or be absorbed by a neighbouring segment), and
 * - every span boundary in the normal form falls between the outputs of two
 *   segments (not inside what one segment produced, such as the `i` of the
 *   `fi` a ligature becomes),
 *
 * the redacted text's segments are the original's outside the spans plus the
 * placeholders' characters, and its normal form is the normal form of the
 * original with each span replaced by its placeholder, with the same map
 * back to offsets (shifted by what each replacement added or removed). A
 * segment never ends right before a combining mark (marks join the segment
 * before them), so the character after a span is never a mark the
 * placeholder's last character could take. When a condition fails, the
 * redacted text is normalised as usual. `redacted-normal-form.test.ts`
 * checks the result against `normalizeText` over generated texts.
 */
export function redactedNormalForm(
  normalized: NormalizedText,
  normalizedSpans: readonly DetectedSpan[],
  replacements: readonly string[],
  redacted: string,
): NormalizedText {
  if (!normalized.changed || !derivable(normalized, normalizedSpans, replacements)) {
    return normalizeText(redacted);
  }
  const source = normalized.text;
  // Pieces of the result in order: start in the result, start in `source`
  // (or -1 for a placeholder), shift to the redacted text's offsets. Typed
  // arrays of the final size: growing plain arrays of 100,000 entries costs
  // more here (fresh memory at each growth) than the rest of this function.
  const most = 2 * normalizedSpans.length + 1;
  const pieceOut = new Int32Array(most);
  const pieceSource = new Int32Array(most);
  const pieceShift = new Int32Array(most);
  const parts: string[] = [];
  let pieces = 0;
  const addPiece = (from: number, shift: number, part: string) => {
    pieceOut[pieces] = out;
    pieceSource[pieces] = from;
    pieceShift[pieces] = shift;
    pieces++;
    parts.push(part);
    out += part.length;
  };
  let out = 0;
  let cursor = 0;
  // Redacted offset = original offset - removed (for text between spans).
  let removed = 0;
  // Each span's extent in the original: start, end, start, end, ...
  const spanEdges = new Int32Array(2 * normalizedSpans.length);
  for (let index = 0; index < normalizedSpans.length; index++) {
    const span = normalizedSpans[index]!;
    if (span.start > cursor) addPiece(cursor, removed, source.slice(cursor, span.start));
    const replacement = replacements[index]!;
    const originalStart = normalized.toOriginal(span.start);
    const originalEnd = normalized.toOriginalEnd(span.end);
    spanEdges[2 * index] = originalStart;
    spanEdges[2 * index + 1] = originalEnd;
    // A placeholder maps one to one onto the redacted text from here.
    addPiece(-1, originalStart - removed, replacement);
    removed += originalEnd - originalStart - replacement.length;
    cursor = span.end;
  }
  if (cursor < source.length) addPiece(cursor, removed, source.slice(cursor));
  const text = parts.join('');
  if (
    text.length === redacted.length &&
    sameAsRedacted(text, normalized.original, spanEdges, replacements)
  ) {
    // As `normalizeText` does for a text that is its own normal form: every
    // offset maps to itself (its per-segment map would send the second half
    // of a surrogate pair to the first).
    return {
      text: redacted,
      original: redacted,
      changed: false,
      toOriginal: index => index,
      toOriginalEnd: index => index,
      toOriginalSpan: (start, end) => ({ start, end }),
    };
  }
  const outLength = out;
  const redactedLength = redacted.length;
  const pieceOf = (unit: number) => {
    let low = 0;
    let high = pieces - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (pieceOut[middle]! <= unit) low = middle;
      else high = middle - 1;
    }
    return low;
  };
  /** Start, in the redacted text, of what produced output unit `unit`. */
  const startOf = (unit: number) => {
    const piece = pieceOf(unit);
    const from = pieceSource[piece]!;
    if (from < 0) return pieceShift[piece]! + (unit - pieceOut[piece]!);
    return normalized.toOriginal(from + unit - pieceOut[piece]!) - pieceShift[piece]!;
  };
  /** End, in the redacted text, of what produced output unit `unit`. */
  const endOf = (unit: number) => {
    const piece = pieceOf(unit);
    const from = pieceSource[piece]!;
    if (from < 0) return pieceShift[piece]! + (unit - pieceOut[piece]!) + 1;
    return normalized.toOriginalEnd(from + unit - pieceOut[piece]! + 1) - pieceShift[piece]!;
  };
  const firstStart = outLength > 0 ? startOf(0) : 0;
  // The same conventions as `normalizeText`'s map.
  const toOriginal = (position: number) =>
    position >= outLength ? redactedLength : position <= 0 ? firstStart : startOf(position);
  const toOriginalEnd = (position: number) =>
    position <= 0 ? firstStart : position > outLength ? redactedLength : endOf(position - 1);
  return {
    text,
    original: redacted,
    changed: true,
    toOriginal,
    toOriginalEnd,
    toOriginalSpan: (start, end) => ({ start: toOriginal(start), end: toOriginalEnd(end) }),
  };
}

/**
 * `text === redacted`, where `redacted` is `original` with the spans at
 * `spanEdges` replaced by `replacements`, compared piece by piece against
 * the flat `original` and placeholders: `redacted` is a rope, and comparing
 * it whole would write it out.
 */
function sameAsRedacted(
  text: string,
  original: string,
  spanEdges: Int32Array,
  replacements: readonly string[],
): boolean {
  let at = 0; // offset in the redacted text
  let cursor = 0; // offset in the original
  for (let index = 0; index <= replacements.length; index++) {
    const end = index < replacements.length ? spanEdges[2 * index]! : original.length;
    if (text.slice(at, at + end - cursor) !== original.slice(cursor, end)) return false;
    at += end - cursor;
    if (index === replacements.length) break;
    const replacement = replacements[index]!;
    if (!text.startsWith(replacement, at)) return false;
    at += replacement.length;
    cursor = spanEdges[2 * index + 1]!;
  }
  return true;
}

/** Printable ASCII, at least one character. */
const plainAscii = /^[\x20-\x7e]+$/;

function derivable(
  normalized: NormalizedText,
  spans: readonly DetectedSpan[],
  replacements: readonly string[],
): boolean {
  if (spans.length !== replacements.length) return false;
  let previousEnd = 0;
  for (let index = 0; index < spans.length; index++) {
    const { start, end } = spans[index]!;
    if (start < previousEnd || end <= start) return false;
    const replacement = replacements[index];
    if (typeof replacement !== 'string' || !plainAscii.test(replacement)) return false;
    if (!segmentBoundary(normalized, start) || !segmentBoundary(normalized, end)) return false;
    previousEnd = end;
  }
  return true;
}

/**
 * True when output offset `position` lies between the outputs of two
 * segments: the character before it ends (in the original) no later than the
 * character at it starts.
 */
function segmentBoundary(normalized: NormalizedText, position: number): boolean {
  if (position <= 0 || position >= normalized.text.length) return true;
  return normalized.toOriginalEnd(position) <= normalized.toOriginal(position);
}
