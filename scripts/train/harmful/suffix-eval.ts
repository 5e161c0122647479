/**
 * Harmful requests with optimised adversarial suffixes, out of source: the
 * `gcg-like-suffix` rows of `injection_direct.jsonl` (AdvBench goals with
 * published GCG and random-search suffixes; never harmful-model training
 * rows) scored by the model trained without the AdvBench source
 * (YancyKahn/PocoGCG) and without llm-adaptive-attacks (whose artifacts most
 * of these rows are), at that fold's threshold, with the readings the
 * trainer's environment sets (by default the reading without the noisy
 * tail, suffix-noise.ts; NOISY_TAIL_MAX=0 turns it off, NOISY_TAIL_SYMBOLS=1
 * counts code-like symbols as noise). Also how often a noisy tail is found in
 * each benign source's rows.
 *
 *   [NOISY_TAIL_MAX=0] [NOISY_TAIL_SYMBOLS=1] npx tsx scripts/train/harmful/suffix-eval.ts
 */
import { join, resolve } from 'node:path';
import { bestHarmfulWindow } from '../../../src/guards/harmful-content/harmful-model';
import { noisyTailStart } from '../../../src/guards/harmful-content/suffix-noise';
import { foldText } from '../../../src/guards/prompt-injection/fold-text';
import { readJsonl } from '../injection-data';
import { augmentedRows, fitHarmful, harmfulTrainOptions, prepare } from '../train-harmful';
import { harmfulRows } from './harmful-data';

const root = resolve(import.meta.dirname, '../../..');
const corpora = join(root, '../shared/corpora');
const rows = harmfulRows({ corpora, datasets: join(root, '../shared/datasets') });
const left = new Set(['YancyKahn/PocoGCG', 'tml-epfl/llm-adaptive-attacks']);
// One fold without both sources: relabel them as one group.
for (const row of rows) if (left.has(row.group)) row.group = 'advbench-sources';
rows.push(...augmentedRows(rows));
const data = prepare(rows, harmfulTrainOptions.bits);
const fitted = fitHarmful(data, 'advbench-sources');
const probability = (folded: string) =>
  Math.round(fitted.scorer.probability(bestHarmfulWindow(folded, fitted.scorer).logit) * 1000) /
  1000;

const suffixed = readJsonl(join(corpora, 'injection_direct.jsonl')).filter(
  row => row.family === 'gcg-like-suffix',
);
const symbols = fitted.scorer.readings.noisyTailSymbols !== false;
let caught = 0;
let fired = 0;
for (const row of suffixed) {
  const folded = foldText(row.text);
  if (noisyTailStart(folded, symbols) > 0) fired++;
  if (probability(folded) >= fitted.threshold) caught++;
}
console.log(
  `readings ${JSON.stringify(fitted.scorer.readings)}: gcg-like-suffix rows ${suffixed.length}; threshold ${fitted.threshold}; caught ${caught} (${(caught / suffixed.length).toFixed(3)}); a noisy tail found in ${fired}`,
);
const goals = rows.filter(row => row.group === 'advbench-sources' && row.augmentOf === undefined);
let goalsCaught = 0;
for (const row of goals) if (probability(foldText(row.text)) >= fitted.threshold) goalsCaught++;
console.log(`the left-out AdvBench rows themselves: ${goalsCaught}/${goals.length}`);

// Benign rows: how often a noisy tail is found (the LOSO run measures what it does to false positives).
const bySource = new Map<string, [number, number]>();
for (const [index, row] of rows.entries()) {
  if (row.label !== 0 || row.augmentOf !== undefined) continue;
  const counts = bySource.get(row.group) ?? [0, 0];
  counts[0]++;
  if (noisyTailStart(data.folded[index]!, symbols) > 0) counts[1]++;
  bySource.set(row.group, counts);
}
for (const [source, [n, fired]] of [...bySource].sort()) {
  if (fired > 0) console.log(`${source}: ${n} benign rows, a noisy tail in ${fired}`);
}
