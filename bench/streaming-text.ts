/**
 * What a long answer costs through the AI SDK's `streamText`, guarded and
 * not (docs/streaming.md, "Long answers through `streamText`"):
 *
 *   npx tsx bench/streaming-text.ts <side> <KB> [runs]
 *
 * The model streams `KB` kilobytes of the bench's prose in 4-character
 * deltas; `streamText`'s `textStream` is read to its end. Sides:
 *
 * - `bare`, `window`, `hold`: unguarded, and through pii + secrets +
 *   contentFilter in window and hold mode; the model's stream enqueues one
 *   part per pull (as a provider's does, as the network delivers);
 * - `queued-bare`, `queued-window`, `queued-hold`: the same with every part
 *   of the model's stream queued at its start, as `ai/test`'s
 *   `convertArrayToReadableStream` (the test mocks') makes it: Node's web
 *   stream queue makes reading such a stream quadratic in its length,
 *   guarded or not.
 *
 * Prints one JSON line: `{ side, kb, runs, cpuMs: [one per run] }` (CPU time
 * of this process, user + system, during each run). Not bundled into
 * `BENCH_STREAMING=cost` (bench/streaming-cost.ts): `streamText` pulls in
 * modules an esbuild bundle cannot load.
 */
import type { LanguageModelV4, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { streamText, wrapLanguageModel } from 'ai';
import { convertArrayToReadableStream } from 'ai/test';
import { contentFilter, guardrails, pii, secrets } from '../src';
import { benchModel, prose } from './fixtures';

const modes = { bare: undefined, window: 'window', hold: 'hold' } as const;
type Mode = keyof typeof modes;

const [sideArg, kbArg, runsArg] = process.argv.slice(2) as [string, string, string | undefined];
const queued = sideArg?.startsWith('queued-') ?? false;
const mode = (queued ? sideArg.slice('queued-'.length) : sideArg) as Mode;
if (!(mode in modes) || !(Number(kbArg) > 0)) {
  console.error(
    'usage: streaming-text.ts <bare|window|hold|queued-bare|queued-window|queued-hold> <KB> [runs]',
  );
  process.exit(2);
}
const kb = Number(kbArg);
const text = prose(kb * 1024);
const pulling = benchModel({ text, deltas: Math.ceil(text.length / 4) });

/** Every part `model` streams, read once before any run. */
async function partsOf(model: LanguageModelV4): Promise<LanguageModelV4StreamPart[]> {
  const parts: LanguageModelV4StreamPart[] = [];
  const reader = (await model.doStream({ prompt: [] })).stream.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    parts.push(read.value);
  }
  return parts;
}

const queuedParts = queued ? await partsOf(pulling) : [];
const model: LanguageModelV4 = queued
  ? { ...pulling, doStream: async () => ({ stream: convertArrayToReadableStream(queuedParts) }) }
  : pulling;
const streamMode = modes[mode];
const streamed =
  streamMode === undefined
    ? model
    : wrapLanguageModel({
        model,
        middleware: guardrails({
          output: [pii(), secrets(), contentFilter()],
          stream: { mode: streamMode },
        }),
      });

const cpuMs: number[] = [];
for (let run = 0; run < Number(runsArg ?? 1); run++) {
  const before = process.cpuUsage();
  let released = 0;
  for await (const delta of streamText({ model: streamed, prompt: 'go' }).textStream) {
    released += delta.length;
  }
  const used = process.cpuUsage(before);
  // Prose holds nothing the chain changes: every side hands out the whole text.
  if (released !== text.length)
    throw new Error(`${sideArg}: ${released} of ${text.length} characters`);
  cpuMs.push((used.user + used.system) / 1000);
}
console.log(JSON.stringify({ side: sideArg, kb, runs: cpuMs.length, cpuMs }));
