/**
 * The window processor alone (the last row of `BENCH_STREAMING=cpu`), A/B:
 * `windowProcessor` with pii + secrets + contentFilter fed 1 MB of prose in
 * 4-character deltas (262,144 parts, no web stream), for two or more copies
 * of the code alternating run by run in one process, so all see the same
 * machine. CPU time (`process.cpuUsage`), median, fastest and quartiles.
 *
 *   taskset -c 1 npx tsx bench/window-processor-ab.ts /tmp/old /tmp/new
 *   AB_RUNS=21 taskset -c 1 npx tsx bench/window-processor-ab.ts /tmp/old /tmp/new
 *
 * Each argument is a directory holding its own copy of `src/`, `bench/` and
 * `package.json` (e.g. `git archive <commit> src bench package.json | tar
 * -x -C /tmp/old`) with a `node_modules` link to this tree's: an A/B whose
 * sides share the current `bench/fixtures` measures a gap several times the
 * real one (docs/streaming.md, round 10). Without arguments: this tree alone.
 * AB_PROFILE=1 runs the first side only, without timing (for `--cpu-prof`).
 * AB_FLOOR=1 adds a side with a processor that does no guardrail work.
 * AB_TEXT=spaced feeds random single letters each followed by a blank
 * (`q x b a …`, the costliest input measured in round 39: every check runs
 * the chain) instead of the prose; AB_KB sets the size (default 1024).
 */
import { fileURLToPath } from 'node:url';

interface Side {
  name: string;
  once: () => Promise<number>;
}

type Delta = { type: 'text-delta'; id: string; delta: string };

/**
 * The 1 MB of prose in 4-character deltas, made once and fed to every side
 * (the same 262,144 part objects, so no side reads a copy laid out
 * differently in memory).
 */
async function deltasOf(root: string) {
  const { prose, seededRandom } = await import(`${root}/bench/fixtures.ts`);
  const size = Number(process.env.AB_KB ?? 1024) * 1024;
  let text = '';
  if (process.env.AB_TEXT === 'spaced') {
    const random: () => number = seededRandom();
    while (text.length < size) text += `${String.fromCharCode(97 + Math.floor(random() * 26))} `;
    text = text.slice(0, size);
  } else {
    text = prose(size);
  }
  const deltas: Delta[] = [];
  for (let at = 0; at < text.length; at += 4) {
    deltas.push({ type: 'text-delta', id: 't', delta: text.slice(at, at + 4) });
  }
  return { text, deltas };
}

async function sideOf(root: string, text: string, deltas: readonly Delta[]): Promise<Side> {
  const { pii, secrets, contentFilter } = await import(`${root}/src/index.ts`);
  const { windowProcessor } = await import(`${root}/src/middleware/window-processor.ts`);
  const { outputCallGuard } = await import(`${root}/bench/fixtures.ts`);
  const once = async () => {
    const before = process.cpuUsage();
    const processor = windowProcessor(
      outputCallGuard(),
      [pii(), secrets(), contentFilter()],
      2048,
      () => true,
    );
    let released = 0;
    let parts = 0;
    const take = (step: { parts: Array<{ type: string; delta?: string }> }) => {
      for (const part of step.parts) {
        if (part.type === 'text-delta') {
          released += part.delta!.length;
          parts++;
        }
      }
    };
    take(await processor.push({ type: 'text-start', id: 't' }));
    for (const part of deltas) {
      const step = processor.push(part);
      take(step instanceof Promise ? await step : step);
    }
    take(await processor.push({ type: 'text-end', id: 't' }));
    const used = process.cpuUsage(before);
    if (released !== text.length) throw new Error(`${root}: the processor released another text`);
    // One part per check (16,393 a MB with today's steps): far fewer means it stopped streaming.
    if (parts < text.length / 256)
      throw new Error(`${root}: ${parts} text parts, the window barely streamed`);
    return (used.user + used.system) / 1000;
  };
  return { name: root, once };
}

/**
 * The same drive with a processor that only appends each delta and, every
 * 64 characters, reads its pending text once and releases all but the last
 * 8: what this harness and holding deltas cost before any guardrail work.
 */
function floorSide(text: string, deltas: readonly Delta[]): Side {
  const HELD = Object.freeze({ parts: Object.freeze([]) as unknown as Array<{ type: string }> });
  const once = async () => {
    const before = process.cpuUsage();
    let pending = '';
    let nextCheckAt = 64;
    let sink = 0;
    const processor = {
      push(part: { type: string; id: string; delta: string }) {
        pending += part.delta;
        if (pending.length < nextCheckAt) return HELD;
        for (let at = 0; at < pending.length; at++) sink += pending.charCodeAt(at);
        const cut = pending.length - 8;
        const released = pending.slice(0, cut);
        pending = pending.slice(cut);
        nextCheckAt = pending.length + 64;
        return { parts: [{ type: 'text-delta', id: part.id, delta: released }] };
      },
    };
    let released = 0;
    for (const part of deltas) {
      const step = processor.push(part) as { parts: Array<{ type: string; delta?: string }> };
      for (const out of step.parts) if (out.type === 'text-delta') released += out.delta!.length;
    }
    released += pending.length;
    const used = process.cpuUsage(before);
    if (released !== text.length || sink === 0.5)
      throw new Error('the floor released another text');
    return (used.user + used.system) / 1000;
  };
  return { name: 'floor (harness, appends, one read per check)', once };
}

const here = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const roots = process.argv.slice(2);
const { text, deltas } = await deltasOf(here);
const sides: Side[] = [];
for (const root of roots.length > 0 ? roots : [here]) sides.push(await sideOf(root, text, deltas));
if (process.env.AB_FLOOR) sides.push(floorSide(text, deltas));
const runs = Number(process.env.AB_RUNS ?? 15);

if (process.env.AB_PROFILE) {
  for (let i = 0; i < runs; i++) await sides[0]!.once();
} else {
  // Warm-up: two runs each, not counted.
  for (let i = 0; i < 2; i++) for (const side of sides) await side.once();
  const times = sides.map(() => [] as number[]);
  for (let i = 0; i < runs; i++) {
    // Alternate the order too, so neither side always runs first.
    const order = i % 2 === 0 ? sides.map((_, k) => k) : sides.map((_, k) => k).reverse();
    for (const k of order) times[k]!.push(await sides[k]!.once());
  }
  const at = (sorted: number[], q: number) => sorted[Math.round(q * (sorted.length - 1))]!;
  for (const [k, side] of sides.entries()) {
    const sorted = [...times[k]!].sort((a, b) => a - b);
    console.log(
      `${side.name}: median ${at(sorted, 0.5).toFixed(1)} ms, fastest ${sorted[0]!.toFixed(1)}, quartiles ${at(sorted, 0.25).toFixed(1)}–${at(sorted, 0.75).toFixed(1)} (${runs} runs)`,
    );
  }
}
