/**
 * Screen of the code-execution signal (round 51 hB, issue 15; see
 * src/guards/prompt-injection/code-execution.ts and the model card): how
 * many rows of every benign source carry it (the brief's rule: ≤ 0.5% of a
 * source's rows, ≤ 1 row under 200) and how many attack rows, per source;
 * with `--misses FILE` (a `--loso-scores` file), how many of each attack
 * source's left-out misses carry it, and with `--floor` how many of them the
 * rule's floor raises over their fold's threshold (the floor method: the
 * rule fires on no benign row, so no threshold moves). Counts only, no rows
 * printed.
 *
 *   nice -n 10 npx tsx scripts/train/injection/code-execution-screen.ts \
 *     [--corpora DIR] [--datasets DIR] [--misses FILE]
 */
import { readFileSync } from 'node:fs';
import {
  CODE_EXECUTION_PROBABILITY,
  hasCodeExecution,
} from '../../../src/guards/prompt-injection/code-execution';
import { screenLimit, screenRows } from './screen-rows';

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1]! : fallback;
}
const rows = screenRows({
  corpora: argument('--corpora', '../shared/corpora'),
  datasets: argument('--datasets', '../shared/datasets'),
});
const missesArgument = argument('--misses', '');
const missed = new Map<string, { p: number; threshold: number }>();
if (missesArgument) {
  for (const line of readFileSync(missesArgument, 'utf8').split('\n')) {
    if (line === '') continue;
    const score = JSON.parse(line) as { id: string; label: number; p: number; threshold: number };
    if (score.label === 1 && score.p < score.threshold) missed.set(score.id, score);
  }
}
const tallies = new Map<
  string,
  { rows: number; fired: number; misses: number; missesFired: number; raised: number }
>();
for (const row of rows) {
  const fired = hasCodeExecution(row.text);
  const name = `${row.label === 1 ? 'attack' : 'benign'}\t${row.name}`;
  const tally = tallies.get(name) ?? { rows: 0, fired: 0, misses: 0, missesFired: 0, raised: 0 };
  tally.rows++;
  if (fired) tally.fired++;
  const miss = row.name.startsWith('direct') ? missed.get(row.id) : undefined;
  if (miss) {
    tally.misses++;
    if (fired) {
      tally.missesFired++;
      if (CODE_EXECUTION_PROBABILITY >= miss.threshold) tally.raised++;
    }
  }
  tallies.set(name, tally);
}
const failed: string[] = [];
console.log('kind\tset\tsource\trows\tfired\tleft-out misses\tmisses fired\traised over threshold');
for (const [name, tally] of [...tallies].sort(([a], [b]) => (a < b ? -1 : 1))) {
  const fails = name.startsWith('benign') && tally.fired > screenLimit(tally.rows);
  if (fails) failed.push(name);
  console.log(
    `${name}\t${tally.rows}\t${tally.fired}${fails ? ' FAIL' : ''}\t${tally.misses}\t${tally.missesFired}\t${tally.raised}`,
  );
}
console.log(`benign sources failing: ${failed.length}: ${failed.join(', ') || 'none'}`);
