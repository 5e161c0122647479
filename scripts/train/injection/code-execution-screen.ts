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
import { join } from 'node:path';
import {
  CODE_EXECUTION_PROBABILITY,
  hasCodeExecution,
} from '../../../src/guards/prompt-injection/code-execution';
import { syntheticRows } from '../augment';
import { directRows, indirectRows, readJsonl, repositoryOf } from '../injection-data';

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1]! : fallback;
}
const paths = {
  corpora: argument('--corpora', '../shared/corpora'),
  datasets: argument('--datasets', '../shared/datasets'),
};
interface Row {
  id: string;
  name: string;
  label: number;
  text: string;
}
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
/** Ordinary first turns and follow-ups of the test fixtures (one text a line, or JSONL). */
const fixtures = [
  'ordinary-chat.txt',
  'decoding-requests.txt',
  'instruction-disclosure-ordinary.txt',
  'pretext-ordinary.txt',
  'system-prompt-questions.txt',
  'r50-blind-first-turns.txt',
  'r50-blind-noise-tails.txt',
  'r50-prior-override-ordinary.txt',
  'r50-prior-override-ordinary-2.txt',
  'r50-prior-override-ordinary-3.txt',
  'r50-prior-override-ordinary-4.txt',
  'r50-prior-override-ordinary-5.txt',
  'r50-blind-follow-ups.jsonl',
  'r50-blind-harmful-benign.jsonl',
  'r50-ordinary-addressing.jsonl',
  'r50-harmful-directed-harm-benign.jsonl',
  'followup-ordinary-hj.jsonl',
  'followup-conversations.jsonl',
  'harmful-ordinary-requests.jsonl',
  'harmful-lookalikes.jsonl',
  'r51-hB-code-ordinary.txt',
];
for (const file of fixtures) {
  for (const line of readFileSync(join('test/fixtures', file), 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const texts: string[] = [];
    if (file.endsWith('.jsonl')) {
      const value = JSON.parse(line) as Record<string, unknown>;
      if (typeof value.label === 'number' && value.label !== 0) continue;
      for (const key of ['text', 'user', 'followUp']) {
        if (typeof value[key] === 'string') texts.push(value[key] as string);
      }
      if (Array.isArray(value.turns)) {
        value.turns.forEach((turn, index) => {
          if (index % 2 === 0 && typeof turn === 'string') texts.push(turn);
        });
      }
    } else texts.push(line);
    for (const text of texts) rows.push({ id: '', name: `fixture\t${file}`, label: 0, text });
  }
}
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
const limit = (count: number) => (count < 200 ? 1 : Math.floor(0.005 * count));
const failed: string[] = [];
console.log('kind\tset\tsource\trows\tfired\tleft-out misses\tmisses fired\traised over threshold');
for (const [name, tally] of [...tallies].sort(([a], [b]) => (a < b ? -1 : 1))) {
  const fails = name.startsWith('benign') && tally.fired > limit(tally.rows);
  if (fails) failed.push(name);
  console.log(
    `${name}\t${tally.rows}\t${tally.fired}${fails ? ' FAIL' : ''}\t${tally.misses}\t${tally.missesFired}\t${tally.raised}`,
  );
}
console.log(`benign sources failing: ${failed.length}: ${failed.join(', ') || 'none'}`);
