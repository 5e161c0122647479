/**
 * Error analysis of the harmful-request detector on unseen sources, by kind
 * (never by row): for each left-out source, the model is trained without it
 * (as in `--loso`), and its harmful rows are counted caught/missed by
 * family, length, script, opening (how-to question, imperative, other
 * question, statement), sentence count and whether a stretch reads as
 * gibberish to the injection detector's character language model. For the
 * missed rows, the words whose removal raises the logit most (the model's
 * strongest evidence against them) and those whose removal lowers it most
 * are tallied.
 *
 *   npx tsx scripts/train/harmful/error-analysis.ts --groups a,b [--corpora DIR] [--datasets DIR]
 */
import { join, resolve } from 'node:path';
import { maxWindowLogit } from '../../../src/guards/harmful-content/harmful-model';
import { dominantScript } from '../../../src/guards/harmful-content/script';
import { maxWindowSurprisal } from '../../../src/guards/prompt-injection/char-language-model';
import { injectionModels } from '../../../src/guards/prompt-injection/load-models';
import { augmentedRows, fitHarmful, harmfulTrainOptions, prepare } from '../train-harmful';
import { harmfulRows } from './harmful-data';

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(name);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1]! : fallback;
}

const root = resolve(import.meta.dirname, '../../..');
const rows = harmfulRows({
  corpora: resolve(argument('--corpora', join(root, '../shared/corpora'))),
  datasets: resolve(argument('--datasets', join(root, '../shared/datasets'))),
});
rows.push(...augmentedRows(rows));
const data = prepare(rows, harmfulTrainOptions.bits);
const languageModel = injectionModels().languageModel;

const lengthBucket = (n: number) =>
  n < 60 ? '<60' : n < 150 ? '60-149' : n < 400 ? '150-399' : n < 1000 ? '400-999' : '>=1000';
const opening = (text: string) => {
  const t = text.trim().toLowerCase();
  if (/^(please\s+)?(how|what is the best way|what's the best way)\b/.test(t))
    return 'how-to question';
  if (
    /^(please\s+)?(write|create|give|provide|explain|describe|develop|generate|design|outline|teach|tell|list|draft|suggest|show|compose|produce|make|build|find|help)\b/.test(
      t,
    )
  )
    return 'imperative';
  if (/\?\s*$/.test(t)) return 'other question';
  return 'statement/other';
};
const sentences = (text: string) => {
  const n = text.split(/[.!?]+\s+/).filter(s => s.trim() !== '').length;
  return n <= 1 ? '1' : n <= 3 ? '2-3' : '4+';
};

type Tally = Map<string, [number, number]>;
const add = (tally: Tally, key: string, caught: number) => {
  const pair = tally.get(key) ?? [0, 0];
  pair[0] += caught;
  pair[1] += 1;
  tally.set(key, pair);
};

for (const group of argument('--groups', '').split(',').filter(Boolean)) {
  const fitted = fitHarmful(data, group);
  const threshold = fitted.threshold;
  const logitThreshold =
    (Math.log(threshold / (1 - threshold)) - fitted.spec.plattB) / fitted.spec.plattA;
  const kinds: Record<string, Tally> = {
    family: new Map(),
    length: new Map(),
    script: new Map(),
    opening: new Map(),
    sentences: new Map(),
    gibberish: new Map(),
  };
  const against = new Map<string, number>();
  const forIt = new Map<string, number>();
  let missedLogits = 0;
  let missed = 0;
  for (const [index, row] of rows.entries()) {
    if (row.group !== group || row.augmentOf !== undefined || row.label !== 1) continue;
    const folded = data.folded[index]!;
    const logit = maxWindowLogit(folded, fitted.scorer);
    const caught = logit >= logitThreshold ? 1 : 0;
    add(kinds.family!, row.family, caught);
    add(kinds.length!, lengthBucket(row.text.length), caught);
    add(kinds.script!, dominantScript(row.text), caught);
    add(kinds.opening!, opening(row.text), caught);
    add(kinds.sentences!, sentences(row.text), caught);
    const surprisal = maxWindowSurprisal(row.text, languageModel);
    add(kinds.gibberish!, surprisal >= 3.5 ? 'gibberish stretch' : 'none', caught);
    if (caught) continue;
    missed++;
    missedLogits += logit - logitThreshold;
    // Leave-one-word-out: which word's removal moves the logit most.
    const words = folded.split(/\s+/).filter(Boolean);
    if (words.length > 80) continue;
    let up = { word: '', delta: 0 };
    let down = { word: '', delta: 0 };
    for (let at = 0; at < words.length; at++) {
      const without = [...words.slice(0, at), ...words.slice(at + 1)].join(' ');
      const delta = maxWindowLogit(without, fitted.scorer) - logit;
      if (delta > up.delta) up = { word: words[at]!, delta };
      if (delta < down.delta) down = { word: words[at]!, delta };
    }
    if (up.word) against.set(up.word, (against.get(up.word) ?? 0) + 1);
    if (down.word) forIt.set(down.word, (forIt.get(down.word) ?? 0) + 1);
  }
  console.log(
    `\n## ${group} (threshold ${threshold}; missed ${missed}, mean logit gap ${(missedLogits / Math.max(1, missed)).toFixed(2)})`,
  );
  for (const [kind, tally] of Object.entries(kinds)) {
    const parts = [...tally]
      .sort((a, b) => b[1][1] - a[1][1])
      .slice(0, 12)
      .map(([key, [c, n]]) => `${key} ${c}/${n} (${(c / n).toFixed(2)})`);
    console.log(`- ${kind}: ${parts.join('; ')}`);
  }
  const top = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, 15)
      .map(([w, n]) => `${w} ${n}`)
      .join(', ');
  console.log(`- missed: word most against (count of misses): ${top(against)}`);
  console.log(`- missed: word most for: ${top(forIt)}`);
}
