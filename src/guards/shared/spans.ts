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
 *
 * Candidates are first cut into clusters (runs of spans chained by
 * overlaps): a span never competes with a span of another cluster, so each
 * cluster is settled on its own, and a span that overlaps nothing is kept
 * without ranking.
 */
export function resolveOverlaps(candidates: RankedSpan[]): DetectedSpan[] {
  for (const span of candidates) {
    // An empty span blocks only a point; settle such input all at once.
    if (span.end <= span.start) return settle(candidates);
  }
  // Stable: identical spans keep their input order, as in `settle`. Input
  // already in order (one finder's candidates) is used as it is: a copy and
  // a sort of every value cost more than the check on text full of values.
  const sorted = sortedByStart(candidates)
    ? candidates
    : [...candidates].sort((a, b) => a.start - b.start);
  const result: DetectedSpan[] = [];
  let first = 0;
  while (first < sorted.length) {
    let end = sorted[first]!.end;
    let last = first + 1;
    while (last < sorted.length && sorted[last]!.start < end) {
      end = Math.max(end, sorted[last]!.end);
      last++;
    }
    if (last === first + 1) {
      const { type, start, end: spanEnd } = sorted[first]!;
      result.push({ type, start, end: spanEnd });
    } else {
      for (const span of settle(sorted.slice(first, last))) result.push(span);
    }
    first = last;
  }
  return result;
}

function sortedByStart(spans: readonly DetectedSpan[]): boolean {
  for (let index = 1; index < spans.length; index++) {
    if (spans[index]!.start < spans[index - 1]!.start) return false;
  }
  return true;
}

/** The index of the first of `spans` (sorted by start) that starts at or after `position`. */
export function firstStartAtOrAfter(
  spans: ReadonlyArray<{ start: number }>,
  position: number,
): number {
  let low = 0;
  let high = spans.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (spans[middle]!.start < position) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** `resolveOverlaps` for one set of candidates: greedy by length, then priority, then start. */
function settle(candidates: RankedSpan[]): DetectedSpan[] {
  const ranked = [...candidates].sort(
    (a, b) => b.end - b.start - (a.end - a.start) || b.priority - a.priority || a.start - b.start,
  );
  const kept: RankedSpan[] = [];
  // Kept spans sorted by start, for a binary search of neighbours.
  const byStart: RankedSpan[] = [];
  for (const span of ranked) {
    const low = firstStartAtOrAfter(byStart, span.start);
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
  if (spans.length === 0) return text;
  // Grown by `+=`: a rope of slices, copied into one flat string only when
  // something reads it. In the chain `pii()` + `secrets()`, `secrets` scans
  // a normal form derived without reading the redacted text (see
  // `redacted-normal-form.ts`), so when it blocks, the redacted megabyte is
  // never written out (a fresh 2 MB string costs about 7 ms of page faults
  // here); flattening the rope later costs what one `join` costs.
  let result = '';
  let cursor = 0;
  for (const span of spans) {
    result += text.slice(cursor, span.start);
    result += replacement(span, text.slice(span.start, span.end));
    cursor = span.end;
  }
  result += text.slice(cursor);
  return result;
}
