/**
 * Rows measured each in fresh processes of their own (since round 46).
 *
 * A figure timed in a long bench process depends on what ran before it
 * there: after data-protection's floods the same `findSecrets` read 1.29x
 * slower than a fresh copy of itself, and streaming's spaced-letters row's
 * median was twice its fastest (docs/data-protection.md and
 * docs/streaming.md, round 46). So the rows the issues' targets are judged
 * by are measured here: the bench file is bundled by esbuild into plain
 * JavaScript (a child then pays no TypeScript loader), and for each round
 * every row runs in a fresh `node` process (rows in reverse order every
 * other round, so a load change reaches each alike). A child runs its row
 * (`BENCH_ROW`) a few times and prints the CPU milliseconds of its timed
 * runs as its last line (`reportRow`); a row's figure is the median of its
 * processes' medians, and its fastest the fastest run of any process.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The environment variable naming the row a child process runs. */
export const ROW_ENV = 'BENCH_ROW';

/** A row's figures over its processes. */
export interface Spread {
  /** Median of the processes' medians (ms). */
  median: number;
  /** Fastest timed run of any process (ms). */
  fastest: number;
  /** Each process's median, in run order. */
  medians: number[];
}

/** Median of `values` (the upper one of an even count); NaN when empty. */
export function medianOf(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  return [...values].sort((a, b) => a - b)[values.length >> 1]!;
}

/** The spread of the timed runs of several processes (one array per process). */
export function spreadOf(runsPerProcess: ReadonlyArray<readonly number[]>): Spread {
  const medians = runsPerProcess.map(medianOf);
  return {
    median: medianOf(medians),
    fastest: Math.min(...runsPerProcess.flat()),
    medians,
  };
}

/** `rows` in the order of round `round`: as given on even rounds, reversed on odd ones. */
export function interleaved<T>(rows: readonly T[], round: number): T[] {
  return round % 2 === 0 ? [...rows] : [...rows].reverse();
}

/** The timed runs a child printed: its last stdout line, `{"cpuMs":[...]}`. */
export function parseRowOutput(row: string, stdout: string): number[] {
  const last = stdout.trimEnd().split('\n').at(-1) ?? '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(last);
  } catch {
    throw new Error(`row ${row}: the child printed no result line`);
  }
  const cpuMs = (parsed as { cpuMs?: unknown } | null)?.cpuMs;
  if (
    !Array.isArray(cpuMs) ||
    cpuMs.length === 0 ||
    !cpuMs.every(value => typeof value === 'number' && Number.isFinite(value) && value >= 0)
  ) {
    throw new Error(`row ${row}: the child's result line holds no CPU times`);
  }
  return cpuMs as number[];
}

/** The row this process is to run alone (a child of `inFreshProcesses`), if any. */
export function isolatedRow(): string | undefined {
  return process.env[ROW_ENV] || undefined;
}

/** CPU milliseconds (user + system) of this process. */
function cpuNow(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * In a child: runs `work` `warm` times untimed, then `timed` times, and
 * prints the CPU milliseconds of the timed runs (each scaled by `scale`) as
 * the last line for the parent.
 */
export async function runRow(
  work: () => unknown,
  { warm = 2, timed = 5, scale = 1 }: { warm?: number; timed?: number; scale?: number } = {},
): Promise<void> {
  for (let run = 0; run < warm; run++) await work();
  const cpuMs: number[] = [];
  for (let run = 0; run < timed; run++) {
    const started = cpuNow();
    await work();
    cpuMs.push((cpuNow() - started) * scale);
  }
  console.log(JSON.stringify({ cpuMs }));
}

/** `entry` bundled by esbuild into one plain JavaScript file in a fresh directory. */
export async function bundled(entry: string): Promise<{ file: string; dispose: () => void }> {
  const { build } = await import('esbuild');
  const dir = mkdtempSync(join(tmpdir(), 'bench-isolated-'));
  const file = join(dir, 'bench.mjs');
  try {
    await build({
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      external: ['esbuild'],
      outfile: file,
      logLevel: 'warning',
    });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { file, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Each of `rows` run by `file` (plain JavaScript) in `processes` fresh node
 * processes, interleaved; `env` is added to this process's environment.
 */
export function inFreshProcesses(
  file: string,
  rows: readonly string[],
  { processes = 7, env = {} }: { processes?: number; env?: Record<string, string> } = {},
): Map<string, Spread> {
  const runs = new Map(rows.map(row => [row, [] as number[][]]));
  for (let round = 0; round < processes; round++) {
    for (const row of interleaved(rows, round)) {
      const result = spawnSync(process.execPath, [file], {
        env: { ...process.env, ...env, [ROW_ENV]: row },
        encoding: 'utf8',
        maxBuffer: 1 << 24,
      });
      if (result.status !== 0) {
        throw new Error(`row ${row}: the child failed (${result.status}): ${result.stderr}`);
      }
      runs.get(row)!.push(parseRowOutput(row, result.stdout));
    }
  }
  return new Map([...runs].map(([row, each]) => [row, spreadOf(each)]));
}
