/**
 * Quick screening of ranking changes (not the reported protocol): the
 * sources are dealt into 5 folds as `--loso --source-folds 5` does; for each
 * fold one model is trained without it (the configured MODEL_KIND and
 * knobs), and the fold's rows are scored from their cached features (the
 * folded text only: no leet or decoded readings). Per fold, the threshold
 * is set where the fold's worst benign source reaches FPR 0.03 (an oracle
 * on the evaluated data: it measures the ranking, not a deployable
 * threshold), and each attack source's recall there is printed, with the
 * median over attack sources of ≥ 10 rows. Candidates that improve this are
 * then measured with the real protocol.
 *
 *   nice -n 10 npx tsx scripts/train/injection/screen.ts
 */
import { syntheticRows } from '../augment';
import { type DataPaths, directRows, englishParagraphs, isCalibrationRow } from '../injection-data';
import { buildLanguageModel } from '../logistic';
import { makeScorer, prepare, sampleWeights, trainOptions, trainSpec } from '../train-injection';

const paths: DataPaths = { corpora: '../shared/corpora', datasets: '../shared/datasets' };
const languageModel = buildLanguageModel(englishParagraphs(paths));
const rows = [...directRows(paths), ...syntheticRows()].sort((a, b) =>
  a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
);
const data = prepare(rows, trainOptions.direct.bits, languageModel);
const groups = [...new Set(rows.map(row => row.group))].sort();
const folds = 5;
const recalls: Array<{ group: string; recall: number }> = [];
const started = performance.now();
for (let fold = 0; fold < folds; fold++) {
  const left = new Set(groups.filter((_, index) => (index * 7) % folds === fold));
  const train = rows
    .map((row, index) => (left.has(row.group) || isCalibrationRow(row) ? -1 : index))
    .filter(index => index >= 0);
  const { spec, deep } = trainSpec(data, train, sampleWeights(rows, train), trainOptions.direct);
  const scorer = makeScorer(spec, deep);
  const byGroup = new Map<string, { benign: number[]; attacks: number[] }>();
  for (const [index, row] of rows.entries()) {
    if (!left.has(row.group)) continue;
    const { offsets, indices, surprisal } = data.sparse;
    const z = scorer.logit(
      indices.subarray(offsets[index]!, offsets[index + 1]!),
      surprisal[index]!,
    ).logit;
    const entry = byGroup.get(row.group) ?? { benign: [], attacks: [] };
    (row.label === 1 ? entry.attacks : entry.benign).push(z);
    byGroup.set(row.group, entry);
  }
  // Lowest logit threshold at which every benign source (≥ 10 rows) of the fold stays ≤ 0.03.
  let threshold = Number.NEGATIVE_INFINITY;
  let binding = '';
  for (const [group, { benign }] of byGroup) {
    if (benign.length < 10 || group.startsWith('synthetic:')) continue;
    const sorted = [...benign].sort((a, b) => b - a);
    const allowed = Math.floor(0.03 * sorted.length);
    if (sorted[allowed]! + 1e-9 > threshold) binding = group;
    threshold = Math.max(threshold, sorted[allowed]! + 1e-9);
  }
  console.log(
    `fold ${fold}: benign sources ${[...byGroup]
      .filter(([, v]) => v.benign.length >= 10)
      .map(([g]) => g)
      .join(', ')}; binding ${binding} at logit ${threshold.toFixed(2)}`,
  );
  for (const [group, { attacks }] of byGroup) {
    if (attacks.length < 10 || group.startsWith('synthetic:')) continue;
    const recall = attacks.filter(z => z >= threshold).length / attacks.length;
    recalls.push({ group, recall });
    console.log(`fold ${fold} ${group}: ${attacks.length} attacks, recall ${recall.toFixed(3)}`);
  }
}
const sorted = recalls.map(r => r.recall).sort((a, b) => a - b);
const m = Math.floor(sorted.length / 2);
const median = sorted.length % 2 ? sorted[m]! : (sorted[m - 1]! + sorted[m]!) / 2;
console.log(
  `MODEL_KIND=${process.env.MODEL_KIND ?? 'linear'} median recall ${median.toFixed(3)} mean ${(sorted.reduce((a, b) => a + b, 0) / sorted.length).toFixed(3)} over ${sorted.length} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
);
