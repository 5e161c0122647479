/**
 * How many of the hand-written look-alikes (test/fixtures/harmful-lookalikes.jsonl:
 * questions asked for safety, study, work or fiction) pass the shipped
 * harmful-request model at its default threshold.
 *
 *   npx tsx scripts/train/harmful/fixture-report.ts [FILE]
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  DEFAULT_HARMFUL_THRESHOLD,
  scoreHarmful,
} from '../../../src/guards/harmful-content/score-harmful';

const path = resolve(
  process.argv[2] ??
    resolve(import.meta.dirname, '../../../test/fixtures/harmful-lookalikes.jsonl'),
);
const rows = readFileSync(path, 'utf8')
  .split('\n')
  .filter(line => line.trim() !== '')
  .map(line => JSON.parse(line) as { text: string; label: number; topic?: string });
let passed = 0;
for (const row of rows) {
  const { score } = scoreHarmful(row.text);
  const pass = score < DEFAULT_HARMFUL_THRESHOLD;
  if (pass === (row.label === 0)) passed++;
  console.log(`${pass ? 'pass ' : 'BLOCK'} ${score.toFixed(3)} [${row.topic ?? ''}] ${row.text}`);
}
console.log(`\n${passed}/${rows.length} as labelled at threshold ${DEFAULT_HARMFUL_THRESHOLD}`);
