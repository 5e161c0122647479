/**
 * Hard-negative mining restricted to look-alikes (an experiment of the
 * harmful trainer, `HARD_LOOKALIKE_WEIGHT` / `HARD_LOOKALIKE_SHARE`): after
 * a first training pass, the look-alike rows of the training set that the
 * pass scores highest (the top share of them) weigh `factor` times more,
 * with their twins, in a second pass from scratch. Only training rows are
 * ranked (never the calibration slice nor a left-out source), and ordinary
 * prompts are not mined, so the model spends its capacity on the benign
 * rows nearest the harmful side (safety, fiction, command help) rather than
 * on prompts no threshold would flag.
 */
import type { RealModel, SparseRows } from '../logistic';
import type { HarmfulRow } from './harmful-data';

/** A row's logit under the real-valued weights, as training reads it (features scaled by 1/√n). */
export function trainingLogit(data: SparseRows, model: RealModel, row: number): number {
  const start = data.offsets[row]!;
  const end = data.offsets[row + 1]!;
  if (end === start) return model.bias;
  let sum = 0;
  for (let at = start; at < end; at++) sum += model.weights[data.indices[at]!]!;
  return model.bias + sum / Math.sqrt(end - start);
}

/**
 * The ids of the training look-alikes (originals, not twins) whose first-pass
 * logit is in the top `share` of all training look-alikes; ties broken by id,
 * so the choice is deterministic.
 */
export function hardLookalikes(
  rows: readonly HarmfulRow[],
  data: SparseRows,
  train: readonly number[],
  model: RealModel,
  share: number,
): Set<string> {
  const scored = train
    .filter(index => {
      const row = rows[index]!;
      return row.label === 0 && row.kind === 'lookalike' && row.augmentOf === undefined;
    })
    .map(index => ({ id: rows[index]!.id, logit: trainingLogit(data, model, index) }))
    .sort((a, b) => b.logit - a.logit || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return new Set(scored.slice(0, Math.round(scored.length * share)).map(entry => entry.id));
}

/** `weights` with every row of `hard` (and each twin of one) multiplied by `factor`. */
export function weighHard(
  rows: readonly HarmfulRow[],
  train: readonly number[],
  weights: Float64Array,
  hard: ReadonlySet<string>,
  factor: number,
): Float64Array {
  const out = weights.slice();
  for (const index of train) {
    const row = rows[index]!;
    if (hard.has(row.augmentOf ?? row.id)) out[index]! *= factor;
  }
  return out;
}
