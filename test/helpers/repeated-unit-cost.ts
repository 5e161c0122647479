import { expect } from 'vitest';

/**
 * CPU milliseconds (user + system of this process) of the cheapest of `runs`
 * calls. The one clock for a time bound in a test: wall time counts whatever
 * else the machine runs (a CI run at load 20 failed wall-time bounds).
 */
export function cpuMs(run: () => unknown, runs = 5): number {
  let best = Number.POSITIVE_INFINITY;
  for (let index = 0; index < runs; index++) {
    const started = process.cpuUsage();
    run();
    const { user, system } = process.cpuUsage(started);
    best = Math.min(best, (user + system) / 1000);
  }
  return best;
}

/** `scan` of 1 MB of `unit` repeated costs under 3x four times its 256 KB (linear time). */
export function expectLinearOnRepeats(scan: (text: string) => unknown, unit: string): void {
  const of = (size: number) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
  const large = of(1 << 20);
  const small = of(1 << 18);
  scan(small);
  const ratio = cpuMs(() => scan(large)) / (4 * cpuMs(() => scan(small)));
  expect(ratio).toBeLessThan(3);
}
