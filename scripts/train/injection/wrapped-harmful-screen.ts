/**
 * Round 48 (hE, issue 15): the screen of the wrapped-harmful signal
 * (`wrapped-harmful.ts`) before any training, with the shipped harmful
 * model (which trained on benign.jsonl, harmful.jsonl and harmful.dev.jsonl:
 * its benign counts here are in sample, a lower bound of what a model that
 * never saw them gives). Prints, per reading (`whole`, `payload`):
 *
 * - per benign source (benign.jsonl and the direct dev set's benign rows by
 *   repository / set, the indirect corpus's and dev set's benign rows,
 *   harmful.jsonl's benign rows, harmful.dev.jsonl's benign rows, the
 *   hand-written ordinary chat): rows, rows that fire, and whether the
 *   source passes (≤ 0.5% of its rows; a source under 200 rows: ≤ 1 row);
 * - per direct attack source: rows that fire, and rows whose goal the
 *   harmful model trained on (a harmful request of harmful.jsonl or
 *   harmful.dev.jsonl of 5 words or more inside the row, or the row inside
 *   one, both normalised to lower-case words);
 * - the share of harmful.jsonl's harmful requests that fire.
 *
 *   nice -n 10 npx tsx scripts/train/injection/wrapped-harmful-screen.ts
 */
import { join } from 'node:path';
import { harmfulModels } from '../../../src/guards/harmful-content/load-harmful-model';
import { foldText } from '../../../src/guards/prompt-injection/fold-text';
import { syntheticRows } from '../augment';
import { directRows, indirectRows, readJsonl, repositoryOf } from '../injection-data';
import {
  WRAPPED_HARMFUL_CUTOFF,
  type WrappedReading,
  wrappedHarmfulProbability,
} from './wrapped-harmful';

const paths = { corpora: '../shared/corpora', datasets: '../shared/datasets' };
const { scorer } = harmfulModels();
const readingsOf: WrappedReading[] = ['whole', 'payload'];

interface Row {
  set: string;
  group: string;
  label: number;
  text: string;
}
const rows: Row[] = [];
for (const row of [...directRows(paths), ...syntheticRows()]) {
  rows.push({ set: 'direct', group: row.group, label: row.label, text: row.text });
}
for (const row of indirectRows(paths)) {
  if (row.label === 0) rows.push({ set: 'indirect', group: row.group, label: 0, text: row.text });
}
const harmfulRows = readJsonl(join(paths.corpora, 'harmful.jsonl'));
const harmfulDev = readJsonl(join(paths.datasets, 'harmful.dev.jsonl'));
for (const row of harmfulRows) {
  rows.push({
    set: 'harmful',
    group: repositoryOf(row.source ?? ''),
    label: row.label,
    text: row.text,
  });
}
for (const row of harmfulDev) {
  if (row.label === 0)
    rows.push({ set: 'harmful.dev', group: `dev:${row.set}`, label: 0, text: row.text });
}

const normal = (text: string) =>
  ` ${text
    .toLowerCase()
    .replace(/[^0-9a-z]+/g, ' ')
    .trim()} `;
const goals = [...harmfulRows, ...harmfulDev]
  .filter(row => row.label === 1)
  .map(row => normal(row.text))
  .filter(text => text.trim().split(' ').length >= 5);
const sawGoal = (text: string) => {
  const row = normal(text);
  return goals.some(goal => row.includes(goal) || goal.includes(row));
};

const key = (row: Row) => `${row.set}\t${row.group}`;
const tallies = new Map<string, { rows: number; fired: Record<string, number>; saw: number }>();
let bare = 0;
const bareFired: Record<string, number> = { whole: 0, payload: 0 };
for (const row of rows) {
  const folded = foldText(row.text);
  const fired = Object.fromEntries(
    readingsOf.map(reading => [
      reading,
      wrappedHarmfulProbability(row.text, scorer, reading, folded) >= WRAPPED_HARMFUL_CUTOFF
        ? 1
        : 0,
    ]),
  );
  if (row.set === 'harmful' && row.label === 1) {
    bare++;
    for (const reading of readingsOf) bareFired[reading]! += fired[reading]!;
    continue;
  }
  const name = `${row.label === 1 ? 'attack' : 'benign'}\t${key(row)}`;
  const tally = tallies.get(name) ?? { rows: 0, fired: { whole: 0, payload: 0 }, saw: 0 };
  tally.rows++;
  for (const reading of readingsOf) tally.fired[reading]! += fired[reading]!;
  if (row.label === 1 && row.set === 'direct' && sawGoal(row.text)) tally.saw++;
  tallies.set(name, tally);
}
const limit = (count: number) => (count < 200 ? 1 : Math.floor(0.005 * count));
const failed: Record<string, string[]> = { whole: [], payload: [] };
console.log(`cutoff ${WRAPPED_HARMFUL_CUTOFF}`);
console.log('kind\tset\tsource\trows\twhole\tpayload\tsaw goals');
for (const [name, tally] of [...tallies].sort(([a], [b]) => (a < b ? -1 : 1))) {
  const marks = readingsOf.map(reading => {
    const count = tally.fired[reading]!;
    const fails = name.startsWith('benign') && count > limit(tally.rows);
    if (fails) failed[reading]!.push(name.split('\t').slice(1).join(' '));
    return `${count}${fails ? ' FAIL' : ''}`;
  });
  console.log(
    `${name}\t${tally.rows}\t${marks.join('\t')}\t${name.startsWith('attack') ? tally.saw : ''}`,
  );
}
for (const reading of readingsOf) {
  console.log(
    `${reading}: harmful.jsonl requests firing ${bareFired[reading]} of ${bare}; benign sources failing ${failed[reading]!.length}: ${failed[reading]!.join(', ') || 'none'}`,
  );
}
