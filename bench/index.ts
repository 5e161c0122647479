/**
 * `npm run bench`: every benchmark suite, each in its own Node process (so one
 * suite's loaded peers or timers cannot disturb another), offline, printing
 * markdown. Each result is a ratio against a baseline measured in the same run.
 *
 *   npm run bench                     # all suites
 *   npm run bench -- overhead chains  # some suites
 *
 * Within a suite, the rows the issues' targets are judged by (data-protection's
 * real-text rows and hostile/ordinary ratios, streaming's CPU table) run each
 * in fresh processes of their own since round 46 (bench/isolated.ts), so a
 * row does not read what the sections before it left in the suite's process.
 *
 * Set BENCH_JSON_DIR to also get each suite's JSON summary there (used by
 * `npm run compare`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';

/** The suites in run order; files of other suites are run when present. */
export const suites = [
  'overhead',
  'chains',
  'streaming',
  'data-protection',
  'ner',
  'prompt-injection',
  'harmful-content',
  'store',
  'memory-soak',
  'hostile',
] as const;

const benchDir = fileURLToPath(new URL('.', import.meta.url));

/** Runs the suites named (default all); returns the names that failed. */
export function runSuites(names: readonly string[] = suites): string[] {
  const failed: string[] = [];
  console.log(
    `# Benchmarks (node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB)`,
  );
  for (const name of names) {
    const file = `${benchDir}${name}.ts`;
    if (!existsSync(file)) {
      console.log(`\n(bench/${name}.ts is not there: skipped)`);
      continue;
    }
    process.stderr.write(`\n== bench/${name}.ts\n`);
    const result = spawnSync(process.execPath, ['--import', 'tsx', file], {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: process.env,
    });
    if (result.status !== 0) {
      failed.push(name);
      console.log(`\n**bench/${name}.ts failed (exit ${result.status ?? result.signal}).**`);
    }
  }
  return failed;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const requested = process.argv.slice(2);
  const unknown = requested.filter(name => !(suites as readonly string[]).includes(name));
  if (unknown.length > 0) {
    console.error(`Unknown suite(s): ${unknown.join(', ')}; expected some of ${suites.join(', ')}`);
    process.exit(2);
  }
  const failed = runSuites(requested.length > 0 ? requested : suites);
  process.exitCode = failed.length > 0 ? 1 : 0;
}
