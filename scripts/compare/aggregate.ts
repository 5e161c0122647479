/** Aggregates and cell formatting shared by the markdown and the chart. */
import { type Confusion, emptyConfusion, type Rates, rates } from '../../src/cli/scoring';
import { allPiiEntities } from '../../src/guards/pii/find-pii';
import { type DetectorResult, nerTypes } from './report';

export const num = (value: number | null | undefined, digits = 3) =>
  value === null || value === undefined || !Number.isFinite(value) ? '-' : value.toFixed(digits);

export function rowName(result: DetectorResult): string {
  return `${result.system}${result.label ? ` (${result.label})` : ''}`;
}

export function sumConfusions(confusions: Confusion[]): Confusion {
  const total = emptyConfusion();
  for (const c of confusions) {
    total.truePositives += c.truePositives;
    total.falsePositives += c.falsePositives;
    total.falseNegatives += c.falseNegatives;
    total.trueNegatives += c.trueNegatives;
  }
  return total;
}

export function piiAggregate(
  result: DetectorResult,
  types: (type: string) => boolean,
): Rates & Confusion {
  const confusion = sumConfusions(
    Object.entries(result.entities ?? {})
      .filter(([type]) => types(type))
      .map(([, c]) => c),
  );
  return { ...confusion, ...rates(confusion) };
}

/** Our pattern types: the NER tagger's types are trained on this very split, so they are scored apart (in sample). */
export const ourTypes = new Set<string>(allPiiEntities.filter(type => !nerTypes.has(type)));
export const inOurTypes = (type: string) => ourTypes.has(type);
export const notNer = (type: string) => !nerTypes.has(type);

export function statusNote(result: DetectorResult): string {
  if (result.status === 'error') return `**did not run**: ${result.error}`;
  if (result.status === 'stopped') return `stopped: ${result.error}`;
  if (result.rowErrors > 0)
    return `${result.rowErrors} rows threw (counted as not flagged): ${result.error}`;
  return '';
}
