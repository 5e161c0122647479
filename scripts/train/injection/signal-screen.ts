/**
 * A screen of a signal over every source (round 50 hF's prior-override
 * screen, shared since round 51 hA): how many rows of every benign source
 * carry it (the brief's rule: ≤ 0.5% of a source's rows, ≤ 1 row under
 * 200) and how many attack rows, per source; with `--misses FILE` (a
 * `--loso-scores` file), how many of each attack source's left-out misses
 * carry it. Counts only, no rows printed. `fixtures`: ordinary-message
 * fixture files (one message a line) screened as benign sources.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { syntheticRows } from '../augment';
import { directRows, indirectRows, readJsonl, repositoryOf } from '../injection-data';

interface Row {
  id: string;
  name: string;
  label: number;
  text: string;
}

/** Prints the screen of `fires` (see the file's comment). */
export function screenSignal(fires: (text: string) => boolean, fixtures: readonly string[]): void {
  const paths = { corpora: '../shared/corpora', datasets: '../shared/datasets' };
  const rows: Row[] = [];
  for (const row of [...directRows(paths), ...syntheticRows()]) {
    rows.push({ id: row.id, name: `direct\t${row.group}`, label: row.label, text: row.text });
  }
  for (const row of indirectRows(paths)) {
    rows.push({ id: row.id, name: `indirect\t${row.group}`, label: row.label, text: row.text });
  }
  for (const row of readJsonl(join(paths.corpora, 'harmful.jsonl'))) {
    if (row.label === 0)
      rows.push({
        id: '',
        name: `harmful\t${repositoryOf(row.source ?? '')}`,
        label: 0,
        text: row.text,
      });
  }
  for (const row of readJsonl(join(paths.datasets, 'harmful.dev.jsonl'))) {
    if (row.label === 0)
      rows.push({ id: '', name: `harmful.dev\t${row.set}`, label: 0, text: row.text });
  }
  for (const file of fixtures) {
    for (const text of readFileSync(file, 'utf8').split('\n')) {
      if (text.trim() !== '') rows.push({ id: '', name: `fixture\t${file}`, label: 0, text });
    }
  }
  const missesArgument = process.argv.indexOf('--misses');
  const missed = new Set<string>();
  if (missesArgument >= 0) {
    for (const line of readFileSync(process.argv[missesArgument + 1]!, 'utf8').split('\n')) {
      if (line === '') continue;
      const score = JSON.parse(line) as { id: string; label: number; p: number; threshold: number };
      if (score.label === 1 && score.p < score.threshold) missed.add(score.id);
    }
  }
  const tallies = new Map<
    string,
    { rows: number; fired: number; misses: number; missesFired: number }
  >();
  for (const row of rows) {
    const fired = fires(row.text);
    const name = `${row.label === 1 ? 'attack' : 'benign'}\t${row.name}`;
    const tally = tallies.get(name) ?? { rows: 0, fired: 0, misses: 0, missesFired: 0 };
    tally.rows++;
    if (fired) tally.fired++;
    if (row.name.startsWith('direct') && missed.has(row.id)) {
      tally.misses++;
      if (fired) tally.missesFired++;
    }
    tallies.set(name, tally);
  }
  const limit = (count: number) => (count < 200 ? 1 : Math.floor(0.005 * count));
  const failed: string[] = [];
  console.log('kind\tset\tsource\trows\tfired\tleft-out misses\tmisses fired');
  for (const [name, tally] of [...tallies].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const fails = name.startsWith('benign') && tally.fired > limit(tally.rows);
    if (fails) failed.push(name);
    console.log(
      `${name}\t${tally.rows}\t${tally.fired}${fails ? ' FAIL' : ''}\t${tally.misses}\t${tally.missesFired}`,
    );
  }
  console.log(`benign sources failing: ${failed.length}: ${failed.join(', ') || 'none'}`);
}
