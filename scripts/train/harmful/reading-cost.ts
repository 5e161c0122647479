/**
 * What the sentence reading (src/guards/harmful-content/sentence-windows.ts)
 * costs on prompt-sized texts, where it applies (the bench's megabyte is
 * past its length bound, so `bench/harmful-content.ts` does not see it):
 * the bench's mixed text cut into prompts of a few sizes, scored by the
 * shipped model with and without the reading, alternating in one process;
 * CPU time, best of several rounds, as a ratio.
 *
 *   npx tsx scripts/train/harmful/reading-cost.ts
 */
import { mixedText } from '../../../bench/fixtures';
import { HarmfulScorer } from '../../../src/guards/harmful-content/concept-features';
import { bestHarmfulWindow } from '../../../src/guards/harmful-content/harmful-model';
import { harmfulModels } from '../../../src/guards/harmful-content/load-harmful-model';
import { NO_EXTRA_READING } from '../../../src/guards/harmful-content/sentence-windows';
import { foldText } from '../../../src/guards/prompt-injection/fold-text';

const { scorer: shipped } = harmfulModels();
const plain = new HarmfulScorer(shipped.spec, shipped.concepts, NO_EXTRA_READING);
const text = mixedText(1_000_000);

function cpuMs(run: () => void): number {
  const usage = process.cpuUsage();
  run();
  const used = process.cpuUsage(usage);
  return (used.user + used.system) / 1000;
}

console.log(`reading: ${JSON.stringify(shipped.readings)}`);
console.log(
  '| prompt size | without (CPU ms/MB) | with (CPU ms/MB) | ratio |\n|---:|---:|---:|---:|',
);
for (const size of [300, 1000, 4000]) {
  const prompts: string[] = [];
  for (let start = 0; start + size <= text.length; start += size) {
    prompts.push(text.slice(start, start + size));
  }
  // Whole scoring path (fold + windows), as scoreHarmful does it.
  const run = (scorer: HarmfulScorer) => () => {
    for (const prompt of prompts) bestHarmfulWindow(foldText(prompt), scorer);
  };
  run(plain)();
  run(shipped)();
  let without = Number.POSITIVE_INFINITY;
  let withReading = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 7; round++) {
    without = Math.min(without, cpuMs(run(plain)));
    withReading = Math.min(withReading, cpuMs(run(shipped)));
  }
  console.log(
    `| ${size} | ${without.toFixed(1)} | ${withReading.toFixed(1)} | ${(withReading / without).toFixed(2)} |`,
  );
}
