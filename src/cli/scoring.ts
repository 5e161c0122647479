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
 * Matches predicted spans to gold spans of the same type, one to one: a pair
 * matches when the spans overlap (`'overlap'`) or coincide (`'exact'`).
 * Adds true positives, false positives (unmatched predictions) and false
 * negatives (unmatched gold) per type to `byType`. Only gold types in
 * `scoredTypes` are counted as misses; predictions of any type count.
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
  const used = new Set<number>();
  for (const span of predicted) {
    const index = gold.findIndex(
      (candidate, position) =>
        !used.has(position) &&
        (goldTypeAliases[candidate.type] ?? candidate.type) === span.type &&
        (match === 'exact'
          ? candidate.start === span.start && candidate.end === span.end
          : candidate.start < span.end && span.start < candidate.end),
    );
    if (index >= 0) {
      used.add(index);
      confusion(span.type).truePositives++;
    } else {
      confusion(span.type).falsePositives++;
    }
  }
  gold.forEach((span, position) => {
    const type = goldTypeAliases[span.type] ?? span.type;
    if (!used.has(position) && scoredTypes.has(type)) confusion(type).falseNegatives++;
  });
}

/** The value at quantile `q` (0..1) of sorted numbers, nearest rank. */
export function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}
