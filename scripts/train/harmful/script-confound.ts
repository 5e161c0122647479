/**
 * Round 48 (issue 19): the script confound, measured (never by row).
 *
 *   npx tsx scripts/train/harmful/script-confound.ts [--group SOURCE]
 *     1. per writing system (script.ts): harmful, look-alike and ordinary
 *        rows, and the sources they come from;
 *     2. the fold with SOURCE left out (default MultiJail; the trainer's
 *        knobs from the environment): for SOURCE's and XQuAD's rows by
 *        label and script, the mean logit of the first window and the
 *        n-grams that move it most on average (named by the first string
 *        of that group's rows that hashes to their bucket: 3–5 characters or a
 *        word, never a row).
 *
 * Options: --corpora DIR, --datasets DIR (default ../shared/…).
 */
import { join, resolve } from 'node:path';
import { dominantScript } from '../../../src/guards/harmful-content/script';
import {
  BIGRAM_SEED,
  CHAR_SEED,
  isWordUnit,
  UNIGRAM_SEED,
} from '../../../src/guards/prompt-injection/hashed-features';
import { MODEL_WINDOW } from '../../../src/guards/prompt-injection/injection-model';
import { augmentedRows, fitHarmful, harmfulTrainOptions, prepare } from '../train-harmful';
import { type HarmfulRow, harmfulRows } from './harmful-data';

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(name);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1]! : fallback;
}

const kindOf = (row: HarmfulRow) => (row.label === 1 ? 'harmful' : (row.kind ?? 'general'));

function scriptCounts(rows: readonly HarmfulRow[]): void {
  const table = new Map<string, Map<string, number>>();
  for (const row of rows) {
    const script = dominantScript(row.text);
    const counts = table.get(script) ?? new Map<string, number>();
    for (const key of [kindOf(row), `${kindOf(row)} ${row.group}`]) {
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    table.set(script, counts);
  }
  console.log('| script | harmful | look-alikes | ordinary | largest sources |');
  console.log('| --- | ---: | ---: | ---: | --- |');
  for (const [script, counts] of table) {
    const sources = [...counts]
      .filter(([key]) => key.includes(' '))
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([key, count]) => `${key} ${count}`);
    console.log(
      `| ${script} | ${counts.get('harmful') ?? 0} | ${counts.get('lookalike') ?? 0} | ${counts.get('general') ?? 0} | ${sources.join('; ')} |`,
    );
  }
}

function finalMix(hash: number): number {
  let h = hash;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h;
}

/** Bucket → a string that hashes to it (hashed-features.ts's hashes, written out for naming). */
function nameBuckets(text: string, bits: number, names: Map<number, string>): void {
  const shift = 32 - bits;
  const padded = ` ${text.replace(/\n/g, ' ')} `;
  for (let at = 0; at + 3 <= padded.length; at++) {
    let hash = CHAR_SEED;
    for (let k = 0; k < 5 && at + k < padded.length; k++) {
      hash = Math.imul(hash ^ padded.charCodeAt(at + k), 0x01000193);
      const bucket = finalMix(hash ^ (k << 29)) >>> shift;
      if (k >= 2 && !names.has(bucket)) names.set(bucket, `"${padded.slice(at, at + k + 1)}"`);
    }
  }
  let previous: number | undefined;
  let word = '';
  for (let at = 0; at <= text.length; at++) {
    if (at < text.length && isWordUnit(text.charCodeAt(at))) {
      word += text[at];
      continue;
    }
    if (word === '') continue;
    let hash = UNIGRAM_SEED;
    for (let k = 0; k < word.length; k++) hash = Math.imul(hash ^ word.charCodeAt(k), 0x01000193);
    const unigram = finalMix(hash) >>> shift;
    if (!names.has(unigram)) names.set(unigram, `w:${word}`);
    if (previous !== undefined) {
      const bigram = finalMix(Math.imul(previous ^ BIGRAM_SEED, 0x01000193) ^ hash) >>> shift;
      if (!names.has(bigram)) names.set(bigram, 'w:(a word pair)');
    }
    previous = hash;
    word = '';
  }
}

function foldReport(group: string, paths: { corpora: string; datasets: string }): void {
  const rows = harmfulRows(paths);
  const data = prepare([...rows, ...augmentedRows(rows)], harmfulTrainOptions.bits);
  const fitted = fitHarmful(data, group);
  const { weights, scale, bias, bits } = fitted.spec;
  const groups = new Map<
    string,
    { rows: number; logit: number; moves: Map<number, number>; names: Map<number, string> }
  >();
  for (const [index, row] of data.rows.entries()) {
    if (row.augmentOf !== undefined) continue;
    if (row.group !== group && row.group !== 'google-deepmind/xquad') continue;
    const text = data.folded[index]!.slice(0, MODEL_WINDOW);
    const key = `| ${row.group} | ${kindOf(row)} | ${dominantScript(text)} |`;
    const entry = groups.get(key) ?? {
      rows: 0,
      logit: 0,
      moves: new Map<number, number>(),
      names: new Map<number, string>(),
    };
    const features = fitted.scorer.features(text, 0, text.length).slice();
    const norm = features.length === 0 ? 0 : scale / Math.sqrt(features.length);
    entry.rows++;
    entry.logit += bias;
    for (const feature of features) {
      const move = weights[feature]! * norm;
      entry.logit += move;
      entry.moves.set(feature, (entry.moves.get(feature) ?? 0) + move);
    }
    groups.set(key, entry);
    nameBuckets(text, bits, entry.names);
  }
  console.log(`\nLeft out: ${group} (threshold ${fitted.threshold}; bias ${bias.toFixed(2)})\n`);
  console.log(
    '| source | kind | script | rows | mean logit | most negative n-grams | most positive |',
  );
  console.log('| --- | --- | --- | ---: | ---: | --- | --- |');
  for (const [key, entry] of [...groups].sort()) {
    if (entry.rows < 20) continue;
    const moves = [...entry.moves]
      .map(
        ([feature, move]) =>
          [entry.names.get(feature) ?? `#${feature}`, move / entry.rows] as const,
      )
      .sort((a, b) => a[1] - b[1]);
    const show = (list: (readonly [string, number])[]) =>
      list.map(([name, move]) => `${name} ${move.toFixed(3)}`).join(', ');
    console.log(
      `${key} ${entry.rows} | ${(entry.logit / entry.rows).toFixed(2)} | ${show(moves.slice(0, 4))} | ${show(moves.slice(-3).reverse())} |`,
    );
  }
}

const root = resolve(import.meta.dirname, '../../..');
const paths = {
  corpora: resolve(argument('--corpora', join(root, '../shared/corpora'))),
  datasets: resolve(argument('--datasets', join(root, '../shared/datasets'))),
};
scriptCounts(harmfulRows(paths));
foldReport(argument('--group', 'DAMO-NLP-SG/multilingual-safety-for-LLMs'), paths);
