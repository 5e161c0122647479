/**
 * Streaming cost of the window mode and the latency gain of parallel input
 * guardrails, each as a ratio against a baseline measured in the same run.
 *
 *   npx tsx bench/streaming.ts
 *
 * 1. Window mode: a text streamed in 1-, 8- and 64-character deltas through a
 *    chain of deterministic guardrails, relative to checking the same text once
 *    with generate. The ratio must not grow with the answer's length
 *    (64 KB, 256 KB, 1 MB): work per delta is bounded by delta + window.
 * 2. Stream modes: time to first text and total time, window vs hold vs passthrough.
 * 3. Parallel input: a 200 ms guardrail and a 300 ms model, parallel vs sequential.
 */
import type { LanguageModelV4, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { wrapLanguageModel } from 'ai';
import { allow, block, defineGuardrail, type Guardrail, guardrails, modify } from '../src';
import { scriptedModel } from '../src/testing';
import { benchModel } from './fixtures';

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const CARD = /\b(?:\d[ -]?){15}\d\b/g;

function redactor(
  name: string,
  pattern: RegExp,
  placeholder: string,
  maxMatchLength: number,
): Guardrail {
  return defineGuardrail({
    name,
    streamSafe: true,
    maxMatchLength,
    check: text => {
      const next = text.replace(pattern, placeholder);
      return next === text ? allow() : modify(next);
    },
  });
}

const chain = (): Guardrail[] => [
  redactor('email', EMAIL, '[EMAIL]', 64),
  redactor('card', CARD, '[CARD]', 40),
  defineGuardrail({
    name: 'blocklist',
    streamSafe: true,
    maxMatchLength: 16,
    check: text => (/\b(?:forbidden|verboten)\b/i.test(text) ? block() : allow()),
  }),
];

function mixedText(size: number): string {
  const pieces = [
    'The quarterly report shows steady growth across regions. ',
    'Contact jane.doe@example.com for details. ',
    'Order 12345 shipped on Tuesday. ',
    'Card 4111 1111 1111 1111 was declined. ',
    'Meeting notes follow below with action items.\n',
  ];
  let text = '';
  for (let i = 0; text.length < size; i++) text += pieces[i % pieces.length];
  return text.slice(0, size);
}

/** The bench model streaming `text` in deltas of `deltaSize` characters. */
function modelStreaming(text: string, deltaSize: number): LanguageModelV4 {
  return benchModel({ text, deltas: Math.ceil(text.length / deltaSize) });
}

const prompt = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'go' }] }];

async function drain(stream: ReadableStream<LanguageModelV4StreamPart>) {
  let firstTextAt: number | undefined;
  const reader = stream.getReader();
  const start = performance.now();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (firstTextAt === undefined && value.type === 'text-delta')
      firstTextAt = performance.now() - start;
  }
  return { firstTextMs: firstTextAt ?? Number.NaN, totalMs: performance.now() - start };
}

async function median(runs: number, fn: () => Promise<number>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await fn());
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

async function windowVsGenerate() {
  console.log('\n## Window mode: streaming cost relative to one generate check of the same text\n');
  console.log(
    '| answer | delta | generate (ms) | bare stream (ms) | window stream (ms) | window / generate | window / bare stream |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const size of [64 * 1024, 256 * 1024, 1024 * 1024]) {
    const text = mixedText(size);
    const runs = size > 300_000 ? 3 : 5;
    const generateMs = await median(runs, async () => {
      const model = wrapLanguageModel({
        model: modelStreaming(text, 64),
        middleware: guardrails({ output: chain() }),
      });
      const start = performance.now();
      await model.doGenerate({ prompt });
      return performance.now() - start;
    });
    for (const delta of [1, 8, 64]) {
      const streamMs = await median(runs, async () => {
        const model = wrapLanguageModel({
          model: modelStreaming(text, delta),
          middleware: guardrails({ output: chain(), stream: { mode: 'window' } }),
        });
        const { stream } = await model.doStream({ prompt });
        return (await drain(stream)).totalMs;
      });
      // The unguarded stream of the same chunking: what streaming costs before any guardrail.
      const bareMs = await median(runs, async () => {
        const { stream } = await modelStreaming(text, delta).doStream({ prompt });
        return (await drain(stream)).totalMs;
      });
      console.log(
        `| ${size / 1024} KB | ${delta} | ${generateMs.toFixed(1)} | ${bareMs.toFixed(1)} | ${streamMs.toFixed(1)} | ${(streamMs / generateMs).toFixed(2)} | ${(streamMs / bareMs).toFixed(2)} |`,
      );
    }
  }
  console.log(
    '\nThe ratio for a given delta size stays flat as the answer grows: no rescans of the whole text.',
  );
}

async function streamModes() {
  console.log('\n## Stream modes: 256 KB answer in 8-character deltas\n');
  console.log('| mode | first text (ms) | total (ms) | total vs bare stream |');
  console.log('|---|---|---|---|');
  const text = mixedText(256 * 1024);
  const bare = await median(5, async () => {
    const { stream } = await modelStreaming(text, 8).doStream({ prompt });
    return (await drain(stream)).totalMs;
  });
  console.log(`| bare model | - | ${bare.toFixed(1)} | 1.00 |`);
  for (const mode of ['passthrough', 'window', 'hold'] as const) {
    let first = 0;
    const total = await median(5, async () => {
      const model = wrapLanguageModel({
        model: modelStreaming(text, 8),
        middleware: guardrails({ output: chain(), stream: { mode } }),
      });
      const { stream } = await model.doStream({ prompt });
      const timing = await drain(stream);
      first = timing.firstTextMs;
      return timing.totalMs;
    });
    console.log(
      `| ${mode} | ${first.toFixed(2)} | ${total.toFixed(1)} | ${(total / bare).toFixed(2)} |`,
    );
  }
}

async function parallelInput() {
  console.log('\n## Parallel input: 200 ms guardrail, 300 ms model\n');
  const slowCheck = (parallel: boolean) =>
    defineGuardrail({
      name: 'judge',
      parallel,
      check: async () => {
        await new Promise(resolve => setTimeout(resolve, 200));
        return allow();
      },
    });
  const time = async (parallel: boolean) =>
    median(3, async () => {
      const model = wrapLanguageModel({
        model: scriptedModel({ respond: () => 'ok', delayMs: 300 }),
        middleware: guardrails({ input: [slowCheck(parallel)] }),
      });
      const start = performance.now();
      await model.doGenerate({ prompt });
      return performance.now() - start;
    });
  const sequential = await time(false);
  const parallel = await time(true);
  console.log('| input guardrail | total (ms) | vs sequential |');
  console.log('|---|---|---|');
  console.log(`| sequential | ${sequential.toFixed(0)} | 1.00 |`);
  console.log(`| parallel | ${parallel.toFixed(0)} | ${(parallel / sequential).toFixed(2)} |`);
}

console.log(
  `# Streaming benchmarks (node ${process.version}, ${new Date().toISOString().slice(0, 10)})`,
);
await windowVsGenerate();
await streamModes();
await parallelInput();
