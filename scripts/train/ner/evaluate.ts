/** Span-level and character-level scores of the tagger per entity type. */
import { type NerEntity, nerEntities } from '../../../src/guards/pii/ner/labels';
import type { NerSpan } from '../../../src/guards/pii/ner/tagger';
import type { GoldSpan } from './data';

/** Counts of one entity type. */
export interface Tally {
  /** Exact spans: predicted, gold, both (same type, same offsets). */
  predicted: number;
  gold: number;
  exact: number;
  /** Overlap matching: gold spans a predicted span of their type overlaps; predicted spans overlapping a gold span of their type. */
  goldFound: number;
  predictedRight: number;
  /** Non-blank characters: predicted, gold, both (same type). */
  predictedChars: number;
  goldChars: number;
  overlapChars: number;
}

/** Tallies per entity type. */
export type Tallies = Record<NerEntity, Tally>;

export function emptyTallies(): Record<NerEntity, Tally> {
  const tallies = {} as Record<NerEntity, Tally>;
  for (const type of nerEntities) {
    tallies[type] = {
      predicted: 0,
      gold: 0,
      exact: 0,
      goldFound: 0,
      predictedRight: 0,
      predictedChars: 0,
      goldChars: 0,
      overlapChars: 0,
    };
  }
  return tallies;
}

/** Adds one text's predicted and gold spans to the tallies. */
export function tally(
  tallies: Record<NerEntity, Tally>,
  text: string,
  predicted: readonly NerSpan[],
  gold: readonly GoldSpan[],
): void {
  for (const type of nerEntities) {
    const mine = predicted.filter(span => span.type === type);
    const theirs = gold.filter(span => span.type === type);
    const entry = tallies[type];
    entry.predicted += mine.length;
    entry.gold += theirs.length;
    entry.exact += mine.filter(span =>
      theirs.some(g => g.start === span.start && g.end === span.end),
    ).length;
    const overlap = (a: { start: number; end: number }, b: { start: number; end: number }) =>
      a.start < b.end && b.start < a.end;
    entry.goldFound += theirs.filter(g => mine.some(span => overlap(span, g))).length;
    entry.predictedRight += mine.filter(span => theirs.some(g => overlap(span, g))).length;
    const marks = new Uint8Array(text.length);
    for (const span of mine) for (let at = span.start; at < span.end; at++) marks[at]! |= 1;
    for (const span of theirs) for (let at = span.start; at < span.end; at++) marks[at]! |= 2;
    for (let at = 0; at < text.length; at++) {
      if (/\s/.test(text[at]!)) continue;
      const mark = marks[at]!;
      if (mark & 1) entry.predictedChars++;
      if (mark & 2) entry.goldChars++;
      if (mark === 3) entry.overlapChars++;
    }
  }
}

function prf(both: number, predicted: number, gold: number) {
  const precision = predicted === 0 ? 0 : both / predicted;
  const recall = gold === 0 ? 0 : both / gold;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

/** Span F1 of one type: exact matching, or overlap matching. */
export function spanF1(entry: Tally, matching: 'exact' | 'overlap'): number {
  return matching === 'exact'
    ? prf(entry.exact, entry.predicted, entry.gold).f1
    : prfOf(entry.predictedRight, entry.predicted, entry.goldFound, entry.gold).f1;
}

function prfOf(right: number, predicted: number, found: number, gold: number) {
  const precision = predicted === 0 ? 0 : right / predicted;
  const recall = gold === 0 ? 0 : found / gold;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

/** A markdown table: per type, exact-span P/R/F1, overlap-span P/R/F1 and character P/R/F1. */
export function table(tallies: Record<NerEntity, Tally>): string {
  const lines = [
    '| type | gold spans | exact P | exact R | exact F1 | overlap P | overlap R | overlap F1 | char P | char R | char F1 |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const f = (value: number) => value.toFixed(3);
  for (const type of nerEntities) {
    const entry = tallies[type];
    const span = prf(entry.exact, entry.predicted, entry.gold);
    const loose = prfOf(entry.predictedRight, entry.predicted, entry.goldFound, entry.gold);
    const chars = prf(entry.overlapChars, entry.predictedChars, entry.goldChars);
    lines.push(
      `| ${type} | ${entry.gold} | ${f(span.precision)} | ${f(span.recall)} | ${f(span.f1)} | ${f(loose.precision)} | ${f(loose.recall)} | ${f(loose.f1)} | ${f(chars.precision)} | ${f(chars.recall)} | ${f(chars.f1)} |`,
    );
  }
  return lines.join('\n');
}

/** Char F1 of one type. */
function charF1(entry: Tally): number {
  return prf(entry.overlapChars, entry.predictedChars, entry.goldChars).f1;
}

/** A markdown table of F1 over several runs: mean (min–max) per type for exact, overlap and character matching. */
export function spread(runs: readonly Tallies[]): string {
  const lines = ['| type | exact F1 | overlap F1 | char F1 |', '|---|---:|---:|---:|'];
  const cell = (values: number[]) => {
    const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
    return `${mean.toFixed(3)} (${Math.min(...values).toFixed(3)}–${Math.max(...values).toFixed(3)})`;
  };
  for (const type of nerEntities) {
    lines.push(
      `| ${type} | ${cell(runs.map(run => spanF1(run[type], 'exact')))} | ${cell(runs.map(run => spanF1(run[type], 'overlap')))} | ${cell(runs.map(run => charF1(run[type])))} |`,
    );
  }
  return lines.join('\n');
}
