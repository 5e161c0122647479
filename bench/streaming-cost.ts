/**
 * One side of the streaming cost measurement, alone in its process: the
 * child that `BENCH_STREAMING=cost` (bench/streaming.ts) starts once per
 * side and run, under `valgrind --tool=cachegrind` to count instructions or
 * plainly to time CPU.
 *
 *   npx tsx bench/streaming-cost.ts <side> <KB> [runs]
 *
 * Every process loads the same modules and builds the same text (prose of
 * `KB` kilobytes) and its 4-character deltas before doing anything else;
 * the side `load` stops there, so its instruction count is what the other
 * sides subtract. The other sides then run `runs` times (default 1):
 *
 * - `generate`: one generate check of the whole text through pii + secrets
 *   + contentFilter;
 * - `bare`: the model's stream of the deltas read to its end, unguarded;
 * - `window`: the same stream through the same chain in window mode;
 * - `processor`: the window processor alone fed the same delta parts, driven
 *   as guardStream's read loop drives it (no web stream around it).
 *
 * Prints one JSON line: `{ side, kb, runs, cpuMs: [one per run] }` (CPU time
 * of this process, user + system, during each run).
 */
import type { LanguageModelV4, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { wrapLanguageModel } from 'ai';
import { contentFilter, guardrails, pii, secrets } from '../src';
import { windowProcessor } from '../src/middleware/window-processor';
import {
  benchModel,
  outputCallGuard,
  prose,
  releasedByProcessor,
  textPartStream,
} from './fixtures';

const costSides = ['load', 'generate', 'bare', 'window', 'processor'] as const;
type CostSide = (typeof costSides)[number];

const [side, kbArg, runsArg] = process.argv.slice(2) as [CostSide, string, string | undefined];
if (!costSides.includes(side) || !(Number(kbArg) > 0)) {
  console.error(`usage: streaming-cost.ts <${costSides.join('|')}> <KB> [runs]`);
  process.exit(2);
}
const kb = Number(kbArg);
const runs = Number(runsArg ?? 1);

const chain = () => [pii(), secrets(), contentFilter()];
const prompt = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'go' }] }];

// What every side builds, `load` included: the text and its deltas, once.
const text = prose(kb * 1024);
const deltaParts: LanguageModelV4StreamPart[] = [];
for (let at = 0; at < text.length; at += 4) {
  deltaParts.push({ type: 'text-delta', id: 't', delta: text.slice(at, at + 4) });
}
const generateModel = benchModel({ text, deltas: 1 });

/** A model streaming the prebuilt delta parts, one per pull. */
function streamingModel(): LanguageModelV4 {
  return {
    ...generateModel,
    async doStream() {
      return { stream: textPartStream(deltaParts.length, at => deltaParts[at]!) };
    },
  };
}

/** Reads `stream` to its end; the number of text characters it carried. */
async function drain(stream: ReadableStream<LanguageModelV4StreamPart>): Promise<number> {
  const reader = stream.getReader();
  let released = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return released;
    if (value.type === 'text-delta') released += value.delta.length;
  }
}

const sides: Record<Exclude<CostSide, 'load'>, () => Promise<number>> = {
  async generate() {
    const model = wrapLanguageModel({
      model: generateModel,
      middleware: guardrails({ output: chain() }),
    });
    const result = await model.doGenerate({ prompt });
    const part = result.content[0];
    return part?.type === 'text' ? part.text.length : 0;
  },
  async bare() {
    const { stream } = await streamingModel().doStream({ prompt });
    return drain(stream);
  },
  async window() {
    const model = wrapLanguageModel({
      model: streamingModel(),
      middleware: guardrails({ output: chain(), stream: { mode: 'window' } }),
    });
    const { stream } = await model.doStream({ prompt });
    return drain(stream);
  },
  async processor() {
    return releasedByProcessor(
      windowProcessor(outputCallGuard(), chain(), 2048, () => true),
      deltaParts,
    );
  },
};

const cpuMs: number[] = [];
if (side !== 'load') {
  for (let i = 0; i < runs; i++) {
    const before = process.cpuUsage();
    const released = await sides[side]();
    const used = process.cpuUsage(before);
    // Prose holds nothing the chain changes: every side hands out the whole text.
    if (released !== text.length)
      throw new Error(`${side}: ${released} of ${text.length} characters`);
    cpuMs.push((used.user + used.system) / 1000);
  }
}
console.log(JSON.stringify({ side, kb, runs: cpuMs.length, cpuMs }));
