/** A detected span of the original text: `[start, end)` with its type. */
export interface DetectedSpan {
  /** Entity or secret type, e.g. `EMAIL_ADDRESS` or `AWS_ACCESS_KEY`. */
  type: string;
  /** Offset of the first character in the original text. */
  start: number;
  /** Offset just after the last character in the original text (exclusive). */
  end: number;
}

/** A candidate span with the priority used to settle overlaps. */
export interface RankedSpan extends DetectedSpan {
  /** When two overlapping candidates are as long, the higher priority wins. */
  priority: number;
}

/**
 * Keeps non-overlapping spans, preferring the longer span (a phone number
 * `+55 11 98456 5666` over the ITIN-shaped digits inside it) and then the
 * higher priority, and returns them in text order. O(n log n).
 */
export function resolveOverlaps(candidates: RankedSpan[]): DetectedSpan[] {
  const ranked = [...candidates].sort(
    (a, b) => b.end - b.start - (a.end - a.start) || b.priority - a.priority || a.start - b.start,
  );
  const kept: RankedSpan[] = [];
  // Kept spans sorted by start, for a binary search of neighbours.
  const byStart: RankedSpan[] = [];
  for (const span of ranked) {
    let low = 0;
    let high = byStart.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (byStart[middle]!.start < span.start) low = middle + 1;
      else high = middle;
    }
    const before = byStart[low - 1];
    const after = byStart[low];
    if (before && before.end > span.start) continue;
    if (after && after.start < span.end) continue;
    byStart.splice(low, 0, span);
    kept.push(span);
  }
  return byStart.map(({ type, start, end }) => ({ type, start, end }));
}

/**
 * Replaces each span of `text` (non-overlapping, in order) with what
 * `replacement` returns for it.
 */
export function replaceSpans(
  text: string,
  spans: readonly DetectedSpan[],
  replacement: (span: DetectedSpan, value: string) => string,
): string {
  let result = '';
  let cursor = 0;
  for (const span of spans) {
    result += text.slice(cursor, span.start) + replacement(span, text.slice(span.start, span.end));
    cursor = span.end;
  }
  return result + text.slice(cursor);
}
