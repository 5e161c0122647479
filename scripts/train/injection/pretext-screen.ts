/**
 * Round 48 (hN, issue 15): the screen of the pretext-wrapper signal
 * (src/guards/prompt-injection/pretext.ts) before any training. Prints, per
 * source (benign.jsonl and the direct corpus and dev set by repository /
 * set, the indirect corpus's and dev set's benign rows, harmful.jsonl's
 * rows that are not harmful requests, harmful.dev.jsonl's benign rows, the
 * synthetic rows, the hand-written ordinary chat): rows and rows that fire
 * on the folded text, and rows with a claimed situation at all (with or
 * without a directive to the model); a benign source fails above 0.5% of its rows (under
 * 200 rows: above 1 row). Attack sources: rows that fire, and by `family`.
 *
 *   nice -n 10 npx tsx scripts/train/injection/pretext-screen.ts
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { foldText } from '../../../src/guards/prompt-injection/fold-text';
import { readPretext } from '../../../src/guards/prompt-injection/pretext';
import { syntheticRows } from '../augment';
import { directRows, indirectRows, readJsonl, repositoryOf } from '../injection-data';

const paths = { corpora: '../shared/corpora', datasets: '../shared/datasets' };
interface Row {
  name: string;
  label: number;
  text: string;
  family?: string;
}
const rows: Row[] = [];
for (const row of [...directRows(paths), ...syntheticRows()]) {
  rows.push({ name: `direct\t${row.group}`, label: row.label, text: row.text });
}
for (const row of indirectRows(paths)) {
  if (row.label === 0) rows.push({ name: `indirect\t${row.group}`, label: 0, text: row.text });
}
for (const row of readJsonl(join(paths.corpora, 'harmful.jsonl'))) {
  if (row.label === 0)
    rows.push({ name: `harmful\t${repositoryOf(row.source ?? '')}`, label: 0, text: row.text });
}
for (const row of readJsonl(join(paths.datasets, 'harmful.dev.jsonl'))) {
  if (row.label === 0) rows.push({ name: `harmful.dev\t${row.set}`, label: 0, text: row.text });
}
for (const text of readFileSync('test/fixtures/ordinary-chat.txt', 'utf8').split('\n')) {
  if (text.trim() !== '') rows.push({ name: 'fixture\tordinary-chat', label: 0, text });
}
const families = new Map<string, string>();
for (const row of readJsonl(join(paths.corpora, 'injection_direct.jsonl'))) {
  const family = (row as { family?: string }).family;
  if (family) families.set(row.text, family);
}

const tallies = new Map<string, { rows: number; fired: number; situation: number }>();
const add = (name: string, reading: string) => {
  const tally = tallies.get(name) ?? { rows: 0, fired: 0, situation: 0 };
  tally.rows++;
  if (reading === 'pretext') tally.fired++;
  if (reading !== 'none') tally.situation++;
  tallies.set(name, tally);
};
for (const row of rows) {
  const fired = readPretext(foldText(row.text));
  add(`${row.label === 1 ? 'attack' : 'benign'}\t${row.name}`, fired);
  const family = row.label === 1 ? families.get(row.text) : undefined;
  if (family) add(`family\t${family}`, fired);
}
const limit = (count: number) => (count < 200 ? 1 : Math.floor(0.005 * count));
const failed: string[] = [];
console.log('kind\tset\tsource\trows\tfired\tclaimed situation (with or without a directive)');
for (const [name, tally] of [...tallies].sort(([a], [b]) => (a < b ? -1 : 1))) {
  const fails = name.startsWith('benign') && tally.fired > limit(tally.rows);
  if (fails) failed.push(name);
  console.log(`${name}\t${tally.rows}\t${tally.fired}${fails ? ' FAIL' : ''}\t${tally.situation}`);
}
console.log(`benign sources failing: ${failed.length}: ${failed.join(', ') || 'none'}`);
