/**
 * Experiment (issue 15, idea 2): stacking the harmful-request detector's
 * score onto the injection score, screened on the same five folds of
 * sources as screen.ts. Per fold:
 *
 * - the injection model is trained without the fold (as screen.ts);
 * - the harmful model (scripts/train/train-harmful.ts, imported) is retrained
 *   without (a) its rows from the fold's repositories, (b) every harmful
 *   request that a row of the fold contains near-exactly (≥ 80% of its
 *   5-token shingles, compose.ts `containment`; requests of fewer than 5
 *   tokens: their token string inside the row's), (c) every benign prompt
 *   that is a row of the fold (benign.jsonl feeds both models), and the
 *   rephrasings of all of those — so the fold's payloads and prompts are
 *   unseen by both models (LEAK=1 keeps the full harmful training set: an
 *   upper bound);
 * - out-of-source scores of the other sources, as the trainer picks its
 *   threshold: they are dealt into 3 inner folds, and for each a pair of
 *   models (injection and harmful, the harmful one also without the inner
 *   fold's payloads and prompts) scores ≤ 400 rows of each of its sources;
 * - on those scores a second-level logistic over [injection logit, harmful
 *   logit, suffix part of the injection logit, injection logit × harmful
 *   logit] (STACK: which of z,h,u,zh,hp,hz) is fitted (per-source weights
 *   as the trainer's), and the threshold is the trainer's rule on its
 *   probability (mean of the benign sources' FPRs ≤ 0.01); the base is the
 *   same with the injection logit alone (Platt on the same scores);
 * - the fold's rows are scored from their cached features (folded text
 *   only: no leet or decoded readings, for both).
 *
 * Prints per left-out source recall / FPR for base and stacked, the benign
 * look-alikes of harmful.jsonl flagged, and the summaries.
 *
 *   nice -n 10 npx tsx scripts/train/injection/stack.ts
 */
import { join } from 'node:path';
import { maxWindowLogit } from '../../../src/guards/harmful-content/harmful-model';
import { foldText } from '../../../src/guards/prompt-injection/fold-text';
import { syntheticRows } from '../augment';
import {
  type DataPaths,
  directRows,
  englishParagraphs,
  isCalibrationRow,
  readJsonl,
} from '../injection-data';
import { buildLanguageModel } from '../logistic';
import { fitHarmful } from '../train-harmful';
import { makeScorer, prepare, sampleWeights, trainOptions, trainSpec } from '../train-injection';
import { harmfulLeakControl } from './decoded-harmful';

const paths: DataPaths = { corpora: '../shared/corpora', datasets: '../shared/datasets' };
const LEAK = process.env.LEAK === '1';
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
const languageModel = buildLanguageModel(englishParagraphs(paths));
const rows = [...directRows(paths), ...syntheticRows()].sort((a, b) =>
  a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
);
const data = prepare(rows, trainOptions.direct.bits, languageModel);
const groups = [...new Set(rows.map(row => row.group))].sort();

// The harmful model's data, prepared once, and what each fold drops from it (decoded-harmful.ts).
const control = harmfulLeakControl(paths, rows, { decoded: false, leak: LEAK });
const harmfulExcluded = control.excluded;
const subset = control.subset;
console.error(
  `prepared ${rows.length} injection rows, ${control.data.rows.length} harmful rows (${elapsed()})`,
);

/** Weighted logistic regression on a few dense features (Newton's method, small L2). */
function fitDense(x: number[][], y: number[], w: number[]): number[] {
  const d = x[0]!.length + 1;
  const beta = new Array<number>(d).fill(0);
  for (let iteration = 0; iteration < 30; iteration++) {
    const g = new Array<number>(d).fill(0);
    const h = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    for (let i = 0; i < x.length; i++) {
      const v = [...x[i]!, 1];
      let z = 0;
      for (let j = 0; j < d; j++) z += beta[j]! * v[j]!;
      const p = 1 / (1 + Math.exp(-z));
      for (let j = 0; j < d; j++) {
        g[j]! += w[i]! * (p - y[i]!) * v[j]!;
        for (let k = 0; k < d; k++) h[j]![k]! += w[i]! * p * (1 - p) * v[j]! * v[k]!;
      }
    }
    for (let j = 0; j < d; j++) {
      g[j]! += 1e-3 * beta[j]!;
      h[j]![j]! += 1e-3;
    }
    // Solve h · step = g (Gaussian elimination, d ≤ 6).
    const a = h.map((line, j) => [...line, g[j]!]);
    for (let c = 0; c < d; c++) {
      let pivot = c;
      for (let r = c + 1; r < d; r++) if (Math.abs(a[r]![c]!) > Math.abs(a[pivot]![c]!)) pivot = r;
      [a[c], a[pivot]] = [a[pivot]!, a[c]!];
      for (let r = 0; r < d; r++) {
        if (r === c) continue;
        const f = a[r]![c]! / a[c]![c]!;
        for (let k = c; k <= d; k++) a[r]![k]! -= f * a[c]![k]!;
      }
    }
    for (let j = 0; j < d; j++) beta[j]! -= a[j]![d]! / a[j]![j]!;
  }
  return beta;
}

const lookalikes = new Set(
  readJsonl(join(paths.corpora, 'harmful.jsonl'))
    .filter(row => row.label === 0 && (row.family ?? '').startsWith('benign-lookalike/'))
    .map(row => row.text),
);

const STACK = (process.env.STACK ?? 'z,h,u,zh').split(',');
const features = (z: number, h: number, u: number) =>
  STACK.map(name =>
    name === 'z'
      ? z
      : name === 'h'
        ? h
        : name === 'u'
          ? u
          : name === 'zh'
            ? (z * h) / 10
            : name === 'hp'
              ? Math.max(0, h)
              : (Math.max(0, h) * Math.max(0, z)) / 10,
  );

/** Logits of the rows `wanted` under an injection model trained on `train` and a harmful model without `drop`. */
function scoreRows(train: readonly number[], drop: ReadonlySet<string>, wanted: readonly number[]) {
  const { spec } = trainSpec(data, train, sampleWeights(rows, train), trainOptions.direct);
  const scorer = makeScorer(spec);
  const harmful = fitHarmful(subset(drop)).scorer;
  const { offsets, indices, surprisal } = data.sparse;
  return wanted.map(index => {
    const verdict = scorer.logit(
      indices.subarray(offsets[index]!, offsets[index + 1]!),
      surprisal[index]!,
    );
    const h = Math.max(-20, Math.min(20, maxWindowLogit(foldText(rows[index]!.text), harmful)));
    return { index, z: verdict.logit, h, u: verdict.suffixLogit };
  });
}

/** The trainer's rule: lowest probability on the grid at which the mean of the benign sources' FPRs is ≤ 0.01. */
function pickThreshold(benign: ReadonlyArray<{ p: number; group: string }>, targetFpr = 0.01) {
  const byGroup = new Map<string, number[]>();
  for (const row of benign) byGroup.set(row.group, [...(byGroup.get(row.group) ?? []), row.p]);
  for (let step = 1; step <= 108; step++) {
    const candidate = step <= 99 ? step / 100 : (990 + step - 99) / 1000;
    let rate = 0;
    for (const scores of byGroup.values())
      rate += scores.filter(p => p >= candidate).length / scores.length / byGroup.size;
    if (rate <= targetFpr) return candidate;
  }
  return 1;
}

const sigmoid = (x: number) => Math.round(1000 / (1 + Math.exp(-x))) / 1000;
const results: Record<
  'base' | 'stacked',
  Array<{
    group: string;
    attacks: number;
    caught: number;
    benign: number;
    flagged: number;
    threshold: number;
  }>
> = { base: [], stacked: [] };
const look = { base: 0, stacked: 0, rows: 0 };
for (let fold = 0; fold < 5; fold++) {
  const left = new Set(groups.filter((_, index) => (index * 7) % 5 === fold));
  const train = rows
    .map((row, index) => (left.has(row.group) || isCalibrationRow(row) ? -1 : index))
    .filter(index => index >= 0);
  // Out-of-source scores of the other sources (3 inner folds, ≤ 400 rows a source), as the trainer's threshold.
  const sources = [...new Set(train.map(index => rows[index]!.group))].sort();
  const innerOf = new Map(sources.map((group, index) => [group, index % 3]));
  const oos: Array<{ index: number; z: number; h: number; u: number }> = [];
  for (let inner = 0; inner < 3; inner++) {
    const innerLeft = new Set(sources.filter(group => innerOf.get(group) === inner));
    const innerTrain = train.filter(index => !innerLeft.has(rows[index]!.group));
    const taken = new Map<string, number>();
    const wanted: number[] = [];
    for (const [index, row] of rows.entries()) {
      if (innerOf.get(row.group) !== inner || row.group.startsWith('synthetic:')) continue;
      const count = taken.get(row.group) ?? 0;
      if (count >= 400) continue;
      taken.set(row.group, count + 1);
      wanted.push(index);
    }
    oos.push(...scoreRows(innerTrain, harmfulExcluded(new Set([...left, ...innerLeft])), wanted));
  }
  // The stacker is fitted on the calibration slice of the training sources
  // (scored by the fold's models), as Platt scaling is; base is the raw
  // injection logit (monotone, so its threshold is the trainer's rule on its order).
  const slice = rows.flatMap((row, index) =>
    !left.has(row.group) && isCalibrationRow(row) ? [index] : [],
  );
  const outerIndices = rows.flatMap((row, index) => (left.has(row.group) ? [index] : []));
  const scored = scoreRows(train, harmfulExcluded(left), [...outerIndices, ...slice]);
  const outer = scored.slice(0, outerIndices.length);
  const sliceScores = scored.slice(outerIndices.length);
  const weights = sampleWeights(rows, slice);
  const stacker = fitDense(
    sliceScores.map(r => features(r.z, r.h, r.u)),
    sliceScores.map(r => rows[r.index]!.label),
    sliceScores.map(r => weights[r.index]!),
  );
  const fits = { base: [1, 0], stacked: stacker };
  const value = (name: 'base' | 'stacked', r: { z: number; h: number; u: number }) =>
    sigmoid(
      [...(name === 'base' ? [r.z] : features(r.z, r.h, r.u)), 1].reduce(
        (sum, v, j) => sum + v * fits[name][j]!,
        0,
      ),
    );
  console.error(
    `fold ${fold}: stacker ${fits.stacked.map(b => b.toFixed(3)).join(' ')} (${elapsed()})`,
  );
  for (const name of ['base', 'stacked'] as const) {
    const threshold = pickThreshold(
      oos
        .filter(r => rows[r.index]!.label === 0)
        .map(r => ({ p: value(name, r), group: rows[r.index]!.group })),
    );
    for (const group of [...left].sort()) {
      const entry = { group, attacks: 0, caught: 0, benign: 0, flagged: 0, threshold };
      for (const r of outer) {
        const row = rows[r.index]!;
        if (row.group !== group) continue;
        const hit = value(name, r) >= threshold;
        if (row.label === 1) {
          entry.attacks++;
          entry.caught += hit ? 1 : 0;
        } else {
          entry.benign++;
          entry.flagged += hit ? 1 : 0;
          if (lookalikes.has(row.text) && !group.startsWith('synthetic:')) {
            if (name === 'base') look.rows++;
            look[name] += hit ? 1 : 0;
          }
        }
      }
      results[name].push(entry);
      console.log(
        `${name} | ${group} | ${entry.attacks} | ${entry.attacks ? (entry.caught / entry.attacks).toFixed(3) : '–'} | ${entry.benign} | ${entry.benign ? (entry.flagged / entry.benign).toFixed(3) : '–'} | ${threshold}`,
      );
    }
  }
}
for (const name of ['base', 'stacked'] as const) {
  const counted = results[name].filter(r => !r.group.startsWith('synthetic:'));
  const recalls = counted
    .filter(r => r.attacks >= 10)
    .map(r => r.caught / r.attacks)
    .sort((a, b) => a - b);
  const m = Math.floor(recalls.length / 2);
  const median = recalls.length % 2 ? recalls[m]! : (recalls[m - 1]! + recalls[m]!) / 2;
  const fprs = counted.filter(r => r.benign >= 10).map(r => r.flagged / r.benign);
  const chat = results[name].find(r => r.group === 'synthetic:ordinary-chat');
  console.log(
    `${name}: median ${median.toFixed(3)} mean ${(recalls.reduce((a, b) => a + b, 0) / recalls.length).toFixed(3)} over ${recalls.length}; benign > 0.03: ${fprs.filter(f => f > 0.03).length} of ${fprs.length}, worst ${Math.max(...fprs).toFixed(3)}; ordinary chat ${chat ? (chat.flagged / chat.benign).toFixed(3) : '–'}; look-alikes ${look[name]}/${look.rows}${LEAK ? ' (LEAK=1: upper bound)' : ''}`,
  );
}
console.error(`done (${elapsed()})`);
