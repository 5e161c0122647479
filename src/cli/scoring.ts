/**
 * Scoring for the eval command: row-level confusion per `set` and span-level
 * confusion per entity type. Pure functions, kept apart from I/O for tests.
 */

/** A labelled span of a PII row. */
export interface GoldSpan {
  type: string;
  start: number;
  end: number;
}

/** Counts behind precision, recall, F1 and false-positive rate. */
export interface Confusion {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  trueNegatives: number;
}

/** Precision, recall, F1 and false-positive rate of a confusion count. */
export interface Rates {
  precision: number | null;
  recall: number | null;
  f1: number | null;
  falsePositiveRate: number | null;
}

/** An empty confusion count. */
export function emptyConfusion(): Confusion {
  return { truePositives: 0, falsePositives: 0, falseNegatives: 0, trueNegatives: 0 };
}

const ratio = (numerator: number, denominator: number) =>
  denominator === 0 ? null : numerator / denominator;

/** Rates of a confusion count; `null` where the denominator is zero. */
export function rates({
  truePositives,
  falsePositives,
  falseNegatives,
  trueNegatives,
}: Confusion): Rates {
  const precision = ratio(truePositives, truePositives + falsePositives);
  const recall = ratio(truePositives, truePositives + falseNegatives);
  const f1 =
    precision === null || recall === null || precision + recall === 0
      ? null
      : (2 * precision * recall) / (precision + recall);
  return {
    precision,
    recall,
    f1,
    falsePositiveRate: ratio(falsePositives, falsePositives + trueNegatives),
  };
}

/**
 * Label names that data sets use for the types this library reports:
 * presidio-research's synthetic set calls full URLs `DOMAIN_NAME`, and
 * cities, regions and countries `GPE` (spaCy's label), which `pii` reports
 * as `LOCATION`.
 */
export const goldTypeAliases: Record<string, string> = { DOMAIN_NAME: 'URL', GPE: 'LOCATION' };

/**
 * Most comparisons of a prediction with a gold span one `scoreSpans` call
 * makes (round 36): past it, a `SpanPairsError`.
 */
export const MAX_SPAN_PAIRS = 10_000_000;

/** A row whose spans would take more than `MAX_SPAN_PAIRS` comparisons to match. */
export class SpanPairsError extends RangeError {
  override readonly name = 'SpanPairsError';
}

/** A gold span where `scoreSpans` looks for it: its position in the row's list. */
interface Candidate {
  start: number;
  end: number;
  position: number;
}

/** The gold spans of one (aliased) type, for `'overlap'`: by start, and the longest. */
interface TypeIndex {
  byStart: Candidate[];
  longest: number;
}

/** The first index of `list` (sorted by start) whose start is after `bound`. */
function firstAfter(list: readonly Candidate[], bound: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (list[middle]!.start <= bound) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Matches predicted spans to gold spans of the same type, one to one: a pair
 * matches when the spans overlap (`'overlap'`) or coincide (`'exact'`); a
 * prediction takes the first gold span in the row's order that it matches
 * and no earlier prediction took.
 * Adds true positives, false positives (unmatched predictions) and false
 * negatives (unmatched gold) per type to `byType`. Only gold types in
 * `scoredTypes` are counted as misses; predictions of any type count.
 *
 * A prediction is compared only with the gold spans of its type that start
 * where one could overlap it (within the type's longest gold span before
 * it), or, exactly, looked up by its bounds: round 36 compared each with
 * every gold span, so a row of 100,000 addresses took 10^10 comparisons.
 * Gold spans stacked on each other still meet every prediction: more than
 * `MAX_SPAN_PAIRS` comparisons is a `SpanPairsError`, not hours of work.
 */
export function scoreSpans(
  predicted: readonly GoldSpan[],
  gold: readonly GoldSpan[],
  byType: Map<string, Confusion>,
  scoredTypes: ReadonlySet<string>,
  match: 'overlap' | 'exact' = 'overlap',
): void {
  const confusion = (type: string) => {
    let entry = byType.get(type);
    if (!entry) {
      entry = emptyConfusion();
      byType.set(type, entry);
    }
    return entry;
  };
  const used = new Uint8Array(gold.length);
  const find = match === 'exact' ? exactFinder(gold, used) : overlapFinder(gold, used, predicted);
  for (const span of predicted) {
    const position = find(span);
    if (position >= 0) {
      used[position] = 1;
      confusion(span.type).truePositives++;
    } else {
      confusion(span.type).falsePositives++;
    }
  }
  gold.forEach((span, position) => {
    const type = goldTypeAliases[span.type] ?? span.type;
    if (used[position] === 0 && scoredTypes.has(type)) confusion(type).falseNegatives++;
  });
}

/** The gold span a prediction coincides with: the first unused of its type and bounds, or -1. */
function exactFinder(gold: readonly GoldSpan[], used: Uint8Array) {
  // Positions ascending per type and bounds; a match always takes the first unused one.
  const queues = new Map<string, { positions: number[]; next: number }>();
  gold.forEach((span, position) => {
    // NaN equals nothing, not even itself.
    if (Number.isNaN(span.start) || Number.isNaN(span.end)) return;
    const key = `${goldTypeAliases[span.type] ?? span.type}\u0000${span.start}\u0000${span.end}`;
    const queue = queues.get(key);
    if (queue) queue.positions.push(position);
    else queues.set(key, { positions: [position], next: 0 });
  });
  return (span: GoldSpan): number => {
    const queue = queues.get(`${span.type}\u0000${span.start}\u0000${span.end}`);
    if (!queue) return -1;
    while (queue.next < queue.positions.length && used[queue.positions[queue.next]!] === 1)
      queue.next++;
    return queue.next < queue.positions.length ? queue.positions[queue.next]! : -1;
  };
}

/** The gold span a prediction overlaps: the first unused of its type in the row's order, or -1. */
function overlapFinder(
  gold: readonly GoldSpan[],
  used: Uint8Array,
  predicted: readonly GoldSpan[],
) {
  const types = new Map<string, TypeIndex>();
  gold.forEach((span, position) => {
    // A NaN bound overlaps nothing.
    if (Number.isNaN(span.start) || Number.isNaN(span.end)) return;
    const type = goldTypeAliases[span.type] ?? span.type;
    let index = types.get(type);
    if (!index) {
      index = { byStart: [], longest: Number.NEGATIVE_INFINITY };
      types.set(type, index);
    }
    index.byStart.push({ start: span.start, end: span.end, position });
    index.longest = Math.max(index.longest, span.end - span.start);
  });
  for (const index of types.values()) {
    index.byStart.sort((a, b) =>
      a.start < b.start ? -1 : a.start > b.start ? 1 : a.position - b.position,
    );
  }
  let compared = 0;
  return (span: GoldSpan): number => {
    const index = types.get(span.type);
    if (!index || Number.isNaN(span.start) || Number.isNaN(span.end)) return -1;
    const { byStart, longest } = index;
    // A gold span that ends after this one starts began after `span.start - longest`.
    let found = -1;
    for (let at = firstAfter(byStart, span.start - longest); at < byStart.length; at++) {
      const candidate = byStart[at]!;
      if (candidate.start >= span.end) break;
      if (++compared > MAX_SPAN_PAIRS) {
        throw new SpanPairsError(
          `its spans are too many to match one by one (${predicted.length} predicted, ${gold.length} gold; more than ${MAX_SPAN_PAIRS} pairs to compare)`,
        );
      }
      if (used[candidate.position] === 1 || candidate.end <= span.start) continue;
      if (found < 0 || candidate.position < found) found = candidate.position;
    }
    return found;
  };
}

/** The value at quantile `q` (0..1) of sorted numbers, nearest rank. */
export function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}
