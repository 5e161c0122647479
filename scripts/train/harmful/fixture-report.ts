/**
 * How many of the hand-written look-alikes (test/fixtures/harmful-lookalikes.jsonl:
 * questions asked for safety, study, work or fiction) pass the shipped
 * harmful-request model at its default threshold, and how many of the
 * hand-written harmful requests on the same topics
 * (test/fixtures/harmful-requests.jsonl) it blocks.
 *
 *   npx tsx scripts/train/harmful/fixture-report.ts [FILE]
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  DEFAULT_HARMFUL_THRESHOLD,
  scoreHarmful,
} from '../../../src/guards/harmful-content/score-harmful';

const paths = process.argv[2]
  ? [resolve(process.argv[2])]
  : ['harmful-lookalikes.jsonl', 'harmful-requests.jsonl'].map(name =>
      resolve(import.meta.dirname, '../../../test/fixtures', name),
    );
for (const path of paths) {
  const rows = readFileSync(path, 'utf8')
    .split('\n')
    .filter(line => line.trim() !== '')
    .map(line => JSON.parse(line) as { text: string; label: number; topic?: string });
  let right = 0;
  for (const row of rows) {
    const { score, categories } = scoreHarmful(row.text);
    const pass = score < DEFAULT_HARMFUL_THRESHOLD;
    if (pass === (row.label === 0)) right++;
    console.log(
      `${pass ? 'pass ' : 'BLOCK'} ${score.toFixed(3)} [${row.topic ?? ''}] ${categories.join(',') || '-'} ${row.text}`,
    );
  }
  console.log(
    `\n${path}: ${right}/${rows.length} as labelled at threshold ${DEFAULT_HARMFUL_THRESHOLD}\n`,
  );
}
