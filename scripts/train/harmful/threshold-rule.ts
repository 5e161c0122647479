/**
 * Threshold rules for the harmful-request detector (round 47, issue 19).
 *
 * The shipped rule (`pooled`) picks the lowest threshold at which the
 * held-apart slice's ordinary prompts and look-alikes, each pooled over all
 * slice rows, are within `TARGET_FPR`. The targets themselves are medians
 * over sources, so a large easy source (thousands of maths problems) or a
 * small hard one (nine JailbreakBench twins) can set the pooled rate.
 * `source-median` judges the slice as the targets judge the left-out
 * sources: the rate of each slice source with at least `minRows` rows of
 * the kind, and the median over those sources.
 */

/** The threshold rules `THRESHOLD_RULE` accepts. */
export const THRESHOLD_RULES = ['pooled', 'source-median'] as const;
export type ThresholdRule = (typeof THRESHOLD_RULES)[number];

/** A benign calibration row at one threshold. */
export interface SliceFlag {
  source: string;
  kind: 'lookalike' | 'general';
  flagged: boolean;
}

/** The rule named by `value` (the environment's `THRESHOLD_RULE`); an unknown name throws. */
export function thresholdRule(value: string | undefined): ThresholdRule {
  const rule = value ?? 'pooled';
  if (!(THRESHOLD_RULES as readonly string[]).includes(rule)) {
    throw new Error(
      `train-harmful: THRESHOLD_RULE must be one of ${THRESHOLD_RULES.join(', ')}, not ${JSON.stringify(rule)}`,
    );
  }
  return rule as ThresholdRule;
}

/** The median of `values` (NaN when empty). */
export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Per kind, the median over sources with ≥ `minRows` rows of that kind of
 * the share of their rows flagged; a kind with no such source has no rate
 * (NaN), which no target allows (the rule then never passes: fail closed).
 */
export function sourceMedianRates(
  flags: readonly SliceFlag[],
  minRows: number,
): Record<'lookalike' | 'general', number> {
  const counts = { lookalike: new Map<string, [number, number]>(), general: new Map() };
  for (const flag of flags) {
    const byKind = counts[flag.kind];
    const pair = byKind.get(flag.source) ?? [0, 0];
    byKind.set(flag.source, [pair[0] + (flag.flagged ? 1 : 0), pair[1] + 1]);
  }
  const rate = (byKind: Map<string, [number, number]>) =>
    median([...byKind.values()].filter(([, n]) => n >= minRows).map(([f, n]) => f / n));
  return { lookalike: rate(counts.lookalike), general: rate(counts.general) };
}
