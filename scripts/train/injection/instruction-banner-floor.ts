/**
 * The instruction-banner rule by the floor method (round 51 hJ, issue 15;
 * round 49 hE's method): a left-out run's `--loso-scores` file and its
 * `--loso-out` json, with every direct row the rule fires on floored at
 * `INSTRUCTION_BANNER_PROBABILITY` at its fold's threshold (no threshold
 * moves: the rule fires on no benign row, see instruction-banner-screen.ts).
 * Prints the sources whose counts change and writes the json with only
 * those rows' `caught` / `flagged` updated (`seconds` and the look-alikes
 * are the run's). Round 51 hJ ran it on hA's run (/tmp/hA-scores.jsonl) with
 * LOSO.json = OUT.json = docs/prompt-injection-loso.json, whose direct rows
 * hA's fresh run reproduced exactly (its indirect rows kept).
 *
 *   nice -n 10 npx tsx scripts/train/injection/instruction-banner-floor.ts SCORES.jsonl LOSO.json OUT.json
 */
import { readFileSync, writeFileSync } from 'node:fs';
import {
  hasInstructionBanner,
  INSTRUCTION_BANNER_PROBABILITY,
} from '../../../src/guards/prompt-injection/instruction-banner';
import { directRows } from '../injection-data';
import type { LosoRow, LosoScore } from '../train-injection';

const [scoresPath, losoPath, outPath] = process.argv.slice(2);
if (!scoresPath || !losoPath || !outPath) throw new Error('usage: SCORES.jsonl LOSO.json OUT.json');
const texts = new Map(
  directRows({ corpora: '../shared/corpora', datasets: '../shared/datasets' }).map(row => [
    row.id,
    row.text,
  ]),
);
const gained = new Map<string, { caught: number; flagged: number }>();
for (const line of readFileSync(scoresPath, 'utf8').split('\n')) {
  if (line === '') continue;
  const score = JSON.parse(line) as LosoScore;
  if (score.p >= score.threshold || INSTRUCTION_BANNER_PROBABILITY < score.threshold) continue;
  const text = texts.get(score.id);
  if (text === undefined || !hasInstructionBanner(text)) continue;
  const gain = gained.get(score.group) ?? { caught: 0, flagged: 0 };
  if (score.label === 1) gain.caught++;
  else gain.flagged++;
  gained.set(score.group, gain);
}
const loso = JSON.parse(readFileSync(losoPath, 'utf8')) as { direct: LosoRow[] };
for (const row of loso.direct) {
  const gain = gained.get(row.source);
  if (gain === undefined) continue;
  const before = `${row.caught}/${row.attacks} caught, ${row.flagged}/${row.benign} flagged`;
  row.caught += gain.caught;
  row.flagged += gain.flagged;
  console.log(
    `${row.source}: ${before} -> ${row.caught}/${row.attacks} caught, ${row.flagged}/${row.benign} flagged`,
  );
}
writeFileSync(outPath, `${JSON.stringify(loso, null, 2)}\n`);
console.log(`wrote ${outPath}`);
