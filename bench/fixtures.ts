/**
 * Fixed inputs for the benchmarks: a seeded generator of mixed text (prose,
 * contact details, card numbers, keys, code, non-Latin text, invisible
 * characters) and an offline model whose cost is only that of building its
 * answer. The same seed gives the same bytes on every machine.
 */

import { loadavg } from 'node:os';
import type { LanguageModelV4, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { quantile } from '../src/cli/scoring';
import { CallGuard } from '../src/middleware/call-guard';
import type { InputJudge } from '../src/middleware/input-guard';
import { HELD, type ProcessorStep, type StreamProcessor } from '../src/middleware/stream-processor';

/** Seed of every generated input. */
export const BENCH_SEED = 20_240_601;

/** A small seeded PRNG (mulberry32): numbers in [0, 1). */
export function seededRandom(seed: number = BENCH_SEED): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const words =
  'the report shows steady growth across all regions this quarter while costs remain under control and the team plans to hire two engineers for the new platform after review of customer feedback and support tickets from last month'.split(
    ' ',
  );
const upperAlnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function luhnComplete(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits + ((10 - (sum % 10)) % 10);
}

/**
 * `size` characters of mixed text, about one sensitive item per 300
 * characters: what a chat transcript pasted with logs and config looks like.
 */
export function mixedText(size: number, seed: number = BENCH_SEED): string {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 10)).join('');
  const chars = (set: string, n: number) =>
    Array.from({ length: n }, () => pick([...set])).join('');
  const sentence = () => {
    const n = 8 + Math.floor(random() * 12);
    const text = Array.from({ length: n }, () => pick(words)).join(' ');
    return `${text[0]!.toUpperCase()}${text.slice(1)}. `;
  };
  const items: Array<() => string> = [
    () => `Contact ${pick(['jane.doe', 'ops', 'j.smith'])}${digits(2)}@example.com for details. `,
    () => `Call +1 (415) 555-${digits(4)} after 5pm. `,
    () =>
      `Card ${luhnComplete(`4111${digits(11)}`).replace(/(\d{4})(?=\d)/g, '$1 ')} was declined. `,
    () => `SSN on file: ${digits(3)}-${digits(2)}-${digits(4)}. `,
    () => `Server 10.${digits(1)}.${digits(2)}.${digits(1)} returned 503. `,
    () => `See https://docs.example.com/guide/${digits(3)} for the steps. `,
    () => `export AWS_ACCESS_KEY_ID=AKIA${chars(upperAlnum, 16)}\n`,
    () => `token: ghp_${chars(alnum, 36)}\n`,
    () => `const total = items.reduce((sum, item) => sum + item.price * ${digits(2)}, 0);\n`,
    () => '会議は来週の火曜日に延期されました。 ',
    () => 'Résumé attached — naïve café déjà vu. ',
    () => `Invisible\u200b marker\u200d here. `,
  ];
  let text = '';
  while (text.length < size) {
    text += sentence();
    text += sentence();
    if (random() < 0.6) text += pick(items)();
  }
  return text.slice(0, size);
}

/** `count` prompts of `size` characters each, cut from one mixed text. */
export function mixedPrompts(count: number, size: number): string[] {
  const text = mixedText(count * size);
  return Array.from({ length: count }, (_, i) => text.slice(i * size, (i + 1) * size));
}

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/**
 * An offline model: `doGenerate` answers `text`; `doStream` streams it as
 * `deltas` text deltas. No I/O, no timers.
 */
export function benchModel({ text, deltas }: { text: string; deltas: number }): LanguageModelV4 {
  const size = Math.ceil(text.length / deltas);
  const pieces = Array.from({ length: deltas }, (_, i) => text.slice(i * size, (i + 1) * size));
  return {
    specificationVersion: 'v4',
    provider: 'bench',
    modelId: 'bench',
    supportedUrls: {},
    async doGenerate() {
      return {
        content: [{ type: 'text', text }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      };
    },
    async doStream() {
      return {
        stream: textPartStream(pieces.length, at => ({
          type: 'text-delta',
          id: 't',
          delta: pieces[at]!,
        })),
      };
    },
  };
}

/**
 * A model's stream of one text: stream-start, text-start, `count` parts
 * (`partAt(0)`, `partAt(1)`, …, one per pull), text-end and finish.
 */
export function textPartStream(
  count: number,
  partAt: (at: number) => LanguageModelV4StreamPart,
): ReadableStream<LanguageModelV4StreamPart> {
  let at = -1;
  return new ReadableStream<LanguageModelV4StreamPart>({
    pull(controller) {
      if (at === -1) {
        controller.enqueue({ type: 'stream-start', warnings: [] });
        controller.enqueue({ type: 'text-start', id: 't' });
        at = 0;
      } else if (at < count) {
        controller.enqueue(partAt(at++));
      } else {
        controller.enqueue({ type: 'text-end', id: 't' });
        controller.enqueue({
          type: 'finish',
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
        });
        controller.close();
      }
    },
  });
}

/**
 * Drives `processor` as guardStream's read loop does (a held delta costs one
 * identity comparison) through text-start, `deltaParts` and text-end; the
 * number of text characters it released. It stops at a trip that withholds
 * (not `reportOnly`), as guardStream does: what it released before the
 * trip. (Round 39: it went on pushing the rest, each delta re-checking the
 * tripped window, 60 s of CPU for 64 KB of `password=` repeated.)
 */
export async function releasedByProcessor(
  processor: StreamProcessor,
  deltaParts: readonly LanguageModelV4StreamPart[],
): Promise<number> {
  let released = 0;
  /** Counts the step's text; true when it tripped and the stream ends there. */
  const take = (step: ProcessorStep) => {
    for (const part of step.parts) if (part.type === 'text-delta') released += part.delta.length;
    return step.trip !== undefined && !step.reportOnly;
  };
  if (take(await processor.push({ type: 'text-start', id: 't' }))) return released;
  for (const part of deltaParts) {
    const step = processor.push(part);
    if (step === HELD) continue;
    if (take(step instanceof Promise ? await step : step)) return released;
  }
  take(await processor.push({ type: 'text-end', id: 't' }));
  return released;
}

/** Reads a stream to its end; returns the number of parts. */
export async function drain(stream: ReadableStream<unknown>): Promise<number> {
  const reader = stream.getReader();
  let parts = 0;
  for (;;) {
    const { done } = await reader.read();
    if (done) return parts;
    parts++;
  }
}

/** The median of numbers (nearest rank, as the eval command's quantiles). */
/** `unit` repeated and cut to exactly `size` characters. */
export function repeatTo(unit: string, size: number): string {
  return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
}

/** Median wall time of `repeats` runs of `run` (sync or async), after one warm-up run. */
export async function medianMs(run: () => unknown, repeats: number): Promise<number> {
  await run(); // warm-up
  const times: number[] = [];
  for (let index = 0; index < repeats; index++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

export function median(values: readonly number[]): number {
  return (
    quantile(
      [...values].sort((a, b) => a - b),
      0.5,
    ) ?? Number.NaN
  );
}

/** Writes a bench's JSON summary where `BENCH_JSON_DIR` points, for `npm run compare`. */
export async function saveSummary(name: string, summary: unknown): Promise<void> {
  const dir = process.env.BENCH_JSON_DIR;
  if (!dir) return;
  const { writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  writeFileSync(join(dir, `${name}.json`), `${JSON.stringify(summary, null, 2)}\n`);
}

/**
 * The machine's load average at `start` (from `loadavg()`) and now, as a
 * sentence for a bench's output: on a shared machine CPU time, and its best
 * run, are the figures to compare.
 */
export function loadSentence(start: readonly number[]): string {
  const show = (loads: readonly number[]) => loads.map(load => load.toFixed(1)).join(', ');
  return `Load average (1, 5, 15 min) at the start: ${show(start)}; at the end: ${show(loadavg())} (on a shared machine CPU time, and its best run, are the figures to compare).\n`;
}

/**
 * Median wall and CPU milliseconds of `runs` calls after a warm-up, and the
 * fastest CPU run (CPU time, user + system: on a shared machine the figure to
 * compare).
 */
export async function medianWallAndCpu(
  run: () => unknown,
  runs: number,
): Promise<{ wall: number; cpu: number; bestCpu: number }> {
  await run();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let index = 0; index < runs; index++) {
    const started = performance.now();
    const usage = process.cpuUsage();
    await run();
    const used = process.cpuUsage(usage);
    wall.push(performance.now() - started);
    cpu.push((used.user + used.system) / 1000);
  }
  const middle = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1]!;
  return { wall: middle(wall), cpu: middle(cpu), bestCpu: cpu[0]! };
}

const SENTENCES = [
  'The team reviewed the quarterly plan and agreed on three priorities for the next month.',
  'Please make sure the release notes mention the new export format before Friday.',
  'If the build fails again, restart the runner and check the cache settings first.',
  'Our customers asked for clearer pricing, so the page now lists every plan side by side.',
  'The meeting moved to Thursday afternoon because two of the speakers were travelling.',
  'In short, the migration went well: no data was lost and the downtime stayed under a minute.',
  'You can change the notification settings from your profile at any time.',
  "Let me know whether you'd like a summary of the discussion or the full transcript.",
];

/** Ordinary prose (no personal data, no secrets), from a fixed seed (the streaming benches' answers). */
export function prose(size: number): string {
  const random = seededRandom(7);
  let text = '';
  while (text.length < size) {
    text += SENTENCES[Math.floor(random() * SENTENCES.length)]!;
    text += random() < 0.2 ? '\n\n' : ' ';
  }
  return text.slice(0, size);
}

/** A call guard for output checks only (no input judge), as the window-processor benches drive it. */
export function outputCallGuard(): CallGuard {
  const prompt = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'go' }] }];
  return new CallGuard({
    input: { prompt, records: [], texts: [], contents: [], cachedVerdicts: 0 },
    metadata: {},
    state: new Map(),
    controller: new AbortController(),
    release: () => {},
    judge: undefined as unknown as InputJudge, // output checks only
    defaultTimeoutMs: 30_000,
  });
}
