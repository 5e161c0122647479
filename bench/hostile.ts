/**
 * Hostile input against ordinary input, per built-in, at 1 MB: how much more
 * the worst text an attacker can write costs than real text of the same size.
 * Ordinary text is the `text` of every record of `../shared/datasets/*.dev.jsonl`
 * concatenated (read here, never copied into the repository), cut to 1 MB.
 * Hostile texts are the catalogue of `test/hostile-generators.ts`, the one the
 * linearity test (`test/hostile-input.test.ts`) runs. Each time is the CPU
 * time of the cheapest of a few runs after a warm-up, in this process.
 *
 *   npm run bench -- hostile
 */
import { fileURLToPath } from 'node:url';
import {
  type HostileTarget,
  hostileGenerators,
  hostileJsonGenerators,
  hostileTargets,
} from '../test/hostile-generators';
import { devSetTexts } from './dev-text';
import { median, saveSummary } from './fixtures';

const MB = 2 ** 20;
const RUNS = Number(process.env.HOSTILE_RUNS ?? 2);
const datasetsDir = fileURLToPath(new URL('../../shared/datasets/', import.meta.url));

/** 1 MB of real text from the eval datasets, one record per line. */
function ordinaryText(size: number): string {
  const texts = devSetTexts(datasetsDir) ?? [];
  const length = texts.reduce((sum, text) => sum + text.length + 1, 0);
  if (length === 0) throw new Error(`no dataset text in ${datasetsDir}`);
  let joined = texts.join('\n');
  while (joined.length < size) joined += `\n${joined}`;
  return joined.slice(0, size);
}

function flat(text: string): string {
  text.charCodeAt(text.length >> 1);
  return text;
}

/**
 * The cheapest of RUNS calls, in CPU milliseconds of this process: on a
 * machine shared with other work, wall time measures the neighbours too.
 */
async function fastest(run: () => unknown): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let index = 0; index < RUNS; index++) {
    const started = process.cpuUsage();
    await run();
    const { user, system } = process.cpuUsage(started);
    best = Math.min(best, (user + system) / 1000);
  }
  return best;
}

interface Input {
  text: string;
  value?: unknown;
}

function asInput(target: HostileTarget, text: string): Input {
  if (!target.toolArguments) return { text: flat(text) };
  const value = { input: text };
  return { text: flat(JSON.stringify(value)), value };
}

interface Row {
  target: string;
  ordinaryMs: number;
  medianRatio: number;
  worstRatio: number;
  worstGenerator: string;
  worstMs: number;
}

async function measure(target: HostileTarget, ordinary: string): Promise<Row> {
  const ordinaryInput = asInput(target, ordinary);
  await target.run(ordinaryInput.text, ordinaryInput.value);
  const ordinaryMs = await fastest(() => target.run(ordinaryInput.text, ordinaryInput.value));
  const inputs = [
    ...hostileGenerators.map(generator => ({
      name: generator.name,
      input: () => asInput(target, generator.make(MB)),
    })),
    ...(target.toolArguments
      ? hostileJsonGenerators.map(generator => ({
          name: generator.name,
          input: () => generator.make(MB),
        }))
      : []),
  ];
  const ratios: number[] = [];
  let worst = { ratio: 0, name: '', ms: 0 };
  for (const { name, input } of inputs) {
    const { text, value } = input();
    const ms = await fastest(() => target.run(text, value));
    const ratio = ms / ordinaryMs;
    ratios.push(ratio);
    if (ratio > worst.ratio) worst = { ratio, name, ms };
  }
  return {
    target: target.name,
    ordinaryMs,
    medianRatio: median(ratios),
    worstRatio: worst.ratio,
    worstGenerator: worst.name,
    worstMs: worst.ms,
  };
}

const ordinary = flat(ordinaryText(MB));
const only = process.argv.slice(2);
const rows: Row[] = [];
console.log('\n## Hostile input (1 MB, hostile / ordinary time per built-in)\n');
console.log(
  `Ordinary: 1 MB of dataset text (../shared/datasets/*.dev.jsonl). Hostile: ${hostileGenerators.length} text generators (+${hostileJsonGenerators.length} JSON shapes for tool input) from test/hostile-generators.ts. CPU time, cheapest of ${RUNS} runs each.\n`,
);
console.log(
  '| built-in @ kind | ordinary 1 MB | median hostile / ordinary | worst hostile / ordinary | worst generator (its time) |',
);
console.log('|---|--:|--:|--:|---|');
for (const target of hostileTargets()) {
  if (only.length > 0 && !only.some(name => target.name.includes(name))) continue;
  process.stderr.write(`hostile: ${target.name}\n`);
  let row: Row;
  try {
    row = await measure(target, ordinary);
  } catch (error) {
    // One built-in that does not load (or throws) must not hide the others' numbers.
    console.log(`| ${target.name} | failed: ${String(error).split('\n')[0]} | | | |`);
    process.exitCode = 1;
    continue;
  }
  rows.push(row);
  console.log(
    `| ${row.target} | ${row.ordinaryMs.toFixed(1)} ms | ${row.medianRatio.toFixed(1)}x | ${row.worstRatio.toFixed(1)}x | ${row.worstGenerator} (${row.worstMs.toFixed(0)} ms) |`,
  );
}
await saveSummary('hostile', { sizeBytes: MB, runs: RUNS, rows });
