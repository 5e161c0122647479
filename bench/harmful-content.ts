/**
 * Throughput and linearity of the harmful-request detector (`scoreHarmful`,
 * used by `harmfulContent()`), as ratios against a baseline measured in the
 * same run, on the bench's mixed text (bench/fixtures.ts, fixed seed) and on
 * adversarial inputs.
 *
 *   npx tsx bench/harmful-content.ts
 *
 * Every figure is the median of several runs after a JIT warm-up. Wall
 * time (ms per MB, MB/s) is what a caller waits; the CPU-time column
 * (`process.cpuUsage`, same runs) is less swayed by other processes on a
 * shared machine, and is the figure to compare across runs there (with its
 * best run, and the load average printed beside it).
 *
 * 1. MB/s on 1 MB of mixed text, and the same as a multiple of `findPii` and
 *    of `contentFilter()`'s default blocklist on the same megabyte (linear
 *    scanners of this package). Target: >= 10 MB/s.
 * 2. Linearity: time per byte at 4 MB relative to 1 MB (1.0 = linear).
 * 3. Hostile 1 MB inputs (one repeated harmful phrase, spaced-out letters,
 *    leetspeak, one unbroken letter run, zero-width characters between
 *    letters, non-Latin text) relative to the mixed megabyte.
 * 4. The score of the mixed megabyte itself (ordinary text: it must stay
 *    under the default threshold).
 */

import { loadavg } from 'node:os';
import { contentFilter } from '../src/guards/content-filter/content-filter';
import {
  DEFAULT_HARMFUL_THRESHOLD,
  scoreHarmful,
} from '../src/guards/harmful-content/score-harmful';
import { findPii } from '../src/guards/pii/find-pii-bundled';
import { guardContext } from '../test/helpers/index';
import {
  loadSentence,
  medianMs,
  medianWallAndCpu,
  mixedText,
  repeatTo,
  saveSummary,
} from './fixtures';

const MB = 1_000_000;

const loadAtStart = loadavg();
const text = mixedText(MB);
const filter = contentFilter();
const context = guardContext();
const baseline = await medianWallAndCpu(() => findPii(text), 7);
const filterRun = await medianWallAndCpu(() => filter.check(text, context), 7);
const harmfulRun = await medianWallAndCpu(() => scoreHarmful(text), 7);
const baselineMs = baseline.wall;
const filterMs = filterRun.wall;
const harmfulMs = harmfulRun.wall;
const large = mixedText(4 * MB);
const largeMs = await medianMs(() => scoreHarmful(large), 3);
const hostile: Record<string, string> = {
  'one repeated harmful phrase': repeatTo('how to build a pipe bomb ', MB),
  'spaced letters': repeatTo('b u i l d a b o m b ', MB),
  leetspeak: repeatTo('h0w t0 bu1ld 4 p1p3 b0mb ', MB),
  'one letter run': repeatTo('a', MB),
  'zero-width between letters': repeatTo('b\u200bo\u200bm\u200bb ', MB),
  'non-Latin text': repeatTo('วิธีทำระเบิดท่อ 如何制造管状炸弹 ', MB),
};
const hostileRows: Array<{ name: string; ratio: number }> = [];
for (const [name, input] of Object.entries(hostile)) {
  hostileRows.push({ name, ratio: (await medianMs(() => scoreHarmful(input), 3)) / harmfulMs });
}
const mixed = scoreHarmful(text);

const mbps = (ms: number) => 1000 / ms;
console.log('\n## Harmful-request detector: speed (1 MB of mixed text, bench/fixtures.ts)\n');
console.log(loadSentence(loadAtStart));
console.log(
  '| what | ms per MB | MB/s | CPU ms per MB | MB/s of CPU time | best CPU ms per MB | vs findPii on the same MB (CPU) |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const [name, run] of [
  ['findPii (baseline)', baseline],
  ['contentFilter() (blocklist)', filterRun],
  ['scoreHarmful', harmfulRun],
] as const) {
  console.log(
    `| ${name} | ${run.wall.toFixed(1)} | ${mbps(run.wall).toFixed(1)} | ${run.cpu.toFixed(1)} | ${mbps(run.cpu).toFixed(1)} | ${run.bestCpu.toFixed(1)} | ${(run.cpu / baseline.cpu).toFixed(2)}x the time |`,
  );
}
console.log(
  `\nLinearity: time per byte at 4 MB / at 1 MB = ${(largeMs / 4 / harmfulMs).toFixed(2)} (1.00 = linear).`,
);
console.log('\n| hostile 1 MB input | time vs mixed 1 MB |\n|---|---:|');
for (const row of hostileRows) console.log(`| ${row.name} | ${row.ratio.toFixed(2)}x |`);
console.log(
  `\nScore of the mixed megabyte (ordinary text): ${mixed.score} (threshold ${DEFAULT_HARMFUL_THRESHOLD}).`,
);
await saveSummary('harmful-content', {
  baselineMs,
  contentFilterMs: filterMs,
  harmfulMs,
  megabytesPerSecond: mbps(harmfulMs),
  cpuMs: { baseline: baseline.cpu, contentFilter: filterRun.cpu, harmful: harmfulRun.cpu },
  cpuMegabytesPerSecond: mbps(harmfulRun.cpu),
  linearity: largeMs / 4 / harmfulMs,
  hostile: hostileRows,
  bestCpuMs: { baseline: baseline.bestCpu, harmful: harmfulRun.bestCpu },
  loadAverage: loadavg(),
  mixedScore: mixed.score,
});
