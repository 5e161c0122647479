/**
 * Paired-twin training (an experiment of the harmful trainer,
 * `PAIRED_TWIN_WEIGHT`, ninth round): every training look-alike is paired
 * with its nearest harmful training row (word-set Jaccard similarity s of
 * their content words), and both rows gain `factor · s` times the
 * look-alike's weight, so the words a pair shares (topic, request frame)
 * keep their net evidence while the words that tell the two apart (intent,
 * a target, evasion vs. history, fiction, explanation) get more of the
 * gradient. The classes are then scaled back to their totals.
 *
 * Only training rows of the fold are paired (never the calibration slice
 * nor a left-out source): each look-alike keeps a list of its closest
 * harmful rows over all sources, and a fold takes the first of them it
 * trains on. Twins (tense rephrasings) follow their row's weight as before.
 */
import type { HarmfulRow } from './harmful-data';

/** Words too common to say what a request is about. */
const FUNCTION_WORDS = new Set(
  (
    'the and for are but not you your yours all any can had her was one our out has him his how its may ' +
    'who did get let say she too use that with have this will they from them then than what when where ' +
    'which while would there their these those been were into some such only also very just more most ' +
    'other about could should might must does doing being each like make made want need give write ' +
    'create provide explain describe tell list please some way ways best'
  ).split(' '),
);

/** The content words of a folded text (letters or digits, three characters or more). */
export function contentWords(folded: string): Set<string> {
  const words = new Set<string>();
  for (const match of folded.matchAll(/[\p{L}\p{N}]{3,}/gu)) {
    if (!FUNCTION_WORDS.has(match[0])) words.add(match[0]);
  }
  return words;
}

/** For each look-alike original: its `keep` most similar harmful originals, best first ([row index, similarity]). */
export function nearestHarmful(
  rows: readonly HarmfulRow[],
  folded: readonly string[],
  keep = 8,
): Map<number, [number, number][]> {
  const postings = new Map<string, number[]>();
  const sizes = new Map<number, number>();
  for (const [index, row] of rows.entries()) {
    if (row.label !== 1 || row.augmentOf !== undefined) continue;
    const words = contentWords(folded[index]!);
    sizes.set(index, words.size);
    for (const word of words) {
      const list = postings.get(word);
      if (list === undefined) postings.set(word, [index]);
      else list.push(index);
    }
  }
  const nearest = new Map<number, [number, number][]>();
  for (const [index, row] of rows.entries()) {
    if (row.label !== 0 || row.kind !== 'lookalike' || row.augmentOf !== undefined) continue;
    const words = contentWords(folded[index]!);
    const shared = new Map<number, number>();
    for (const word of words) {
      for (const other of postings.get(word) ?? []) shared.set(other, (shared.get(other) ?? 0) + 1);
    }
    const ranked: [number, number][] = [...shared].map(([other, both]) => [
      other,
      both / (words.size + sizes.get(other)! - both),
    ]);
    ranked.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    nearest.set(index, ranked.slice(0, keep));
  }
  return nearest;
}

/**
 * Adds the pairs' weight to the training originals of `weights` (in place):
 * a look-alike and its nearest harmful training row each gain `factor · s ·
 * w` (w: the look-alike's weight), then each class is scaled back to its
 * total before pairing.
 */
export function weighPairs(
  rows: readonly HarmfulRow[],
  originals: readonly number[],
  weights: Float64Array,
  nearest: ReadonlyMap<number, readonly [number, number][]>,
  factor: number,
): void {
  const training = new Set(originals);
  const before = [0, 0];
  for (const index of originals) before[rows[index]!.label]! += weights[index]!;
  const extra = new Float64Array(weights.length);
  for (const index of originals) {
    const pair = nearest.get(index)?.find(([other]) => training.has(other));
    if (pair === undefined) continue;
    const gain = factor * pair[1] * weights[index]!;
    extra[index]! += gain;
    extra[pair[0]]! += gain;
  }
  const after = [0, 0];
  for (const index of originals) {
    weights[index]! += extra[index]!;
    after[rows[index]!.label]! += weights[index]!;
  }
  for (const index of originals) {
    const label = rows[index]!.label;
    weights[index] = (weights[index]! * before[label]!) / after[label]!;
  }
}
