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
  return keptCandidates(candidates, index => candidates[index]!.priority).map(
    ({ type, start, end }) => ({ type, start, end }),
  );
}

/**
 * `resolveOverlaps` for candidates whose priorities are kept beside them
 * (`priorityOf(i)` ranks `candidates[i]`): the kept candidates themselves,
 * not copies, and `candidates` itself when they are in text order and none
 * overlaps another. On text full of values each object (or array slot)
 * made per value costs (fresh memory for it, then its copies as it
 * survives collections) about what scanning the text for it costs.
 */
export function resolveOverlapsBeside<T extends DetectedSpan>(
  candidates: T[],
  priorityOf: (index: number) => number,
): T[] {
  if (apartInOrder(candidates)) return candidates;
  return keptCandidates(candidates, priorityOf);
}

/** True when every span is non-empty and ends at or before the next one starts. */
function apartInOrder(spans: readonly DetectedSpan[]): boolean {
  let previousEnd = 0;
  for (let index = 0; index < spans.length; index++) {
    const { start, end } = spans[index]!;
    if (start < previousEnd || end <= start) return false;
    previousEnd = end;
  }
  return true;
}

/** The candidates `resolveOverlaps` keeps, in text order; `priority(i)` ranks `candidates[i]`. */
function keptCandidates<T extends DetectedSpan>(
  candidates: readonly T[],
  priority: (index: number) => number,
): T[] {
  const indices = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, offset) => from + offset);
  for (const span of candidates) {
    // An empty span blocks only a point; settle such input all at once.
    if (span.end <= span.start) return settle(candidates, indices(0, candidates.length), priority);
  }
  // Stable: identical spans keep their input order, as in `settle`. Input
  // already in order (one finder's candidates) is used as it is: a copy and
  // a sort of every value cost more than the check on text full of values.
  const order = sortedByStart(candidates)
    ? undefined
    : indices(0, candidates.length).sort(
        (a, b) => candidates[a]!.start - candidates[b]!.start || a - b,
      );
  const at = (position: number) => (order === undefined ? position : order[position]!);
  const result: T[] = [];
  let first = 0;
  while (first < candidates.length) {
    let end = candidates[at(first)]!.end;
    let last = first + 1;
    while (last < candidates.length && candidates[at(last)]!.start < end) {
      end = Math.max(end, candidates[at(last)]!.end);
      last++;
    }
    if (last === first + 1) {
      result.push(candidates[at(first)]!);
    } else {
      const cluster = order === undefined ? indices(first, last) : order.slice(first, last);
      for (const span of settle(candidates, cluster, priority)) result.push(span);
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

/**
 * `keptCandidates` for the candidates at `cluster` (indices, in the order
 * ties keep): greedy by length, then priority, then start.
 */
function settle<T extends DetectedSpan>(
  candidates: readonly T[],
  cluster: number[],
  priority: (index: number) => number,
): T[] {
  const lengthOf = (index: number) => candidates[index]!.end - candidates[index]!.start;
  const ranked = cluster.sort(
    (a, b) =>
      lengthOf(b) - lengthOf(a) ||
      priority(b) - priority(a) ||
      candidates[a]!.start - candidates[b]!.start,
  );
  // Kept spans sorted by start, for a binary search of neighbours.
  const byStart: T[] = [];
  for (const index of ranked) {
    const span = candidates[index]!;
    const low = firstStartAtOrAfter(byStart, span.start);
    const before = byStart[low - 1];
    const after = byStart[low];
    if (before && before.end > span.start) continue;
    if (after && after.start < span.end) continue;
    byStart.splice(low, 0, span);
  }
  return byStart;
}

/**
 * Replaces each span of `text` (non-overlapping, in order) with what
 * `replacement` returns for it.
 */
export function replaceSpans(
  text: string,
  spans: readonly DetectedSpan[],
  replacement: (span: DetectedSpan) => string,
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
  for (let index = 0; index < spans.length; index++) {
    const span = spans[index]!;
    result += text.slice(cursor, span.start);
    // No copy of the value: no caller reads it (one string per value
    // found, a third of what redacting a flood of short values allocated).
    result += replacement(span);
    cursor = span.end;
  }
  result += text.slice(cursor);
  return result;
}
