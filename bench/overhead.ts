/**
 * Middleware overhead: a model wrapped with `guardrails()` (no guardrails, and
 * the default deterministic chain) against the bare model, for `doGenerate`
 * and for a 1,000-delta stream. Offline model, no I/O.
 *
 *   npx tsx bench/overhead.ts
 *
 * Each variant is timed with mitata in interleaved rounds; a ratio is the
 * median over rounds of (variant p50 / bare p50) within the round, so a
 * machine that slows down mid-run moves both sides together.
 */
import type { LanguageModelV4, LanguageModelV4Middleware } from '@ai-sdk/provider';
import { wrapLanguageModel } from 'ai';
import { measure } from 'mitata';
import { guardrails, invisibleText, pii, promptInjection, secrets } from '../src';
import { benchModel, drain, median, mixedText, saveSummary } from './fixtures';

/** Rounds of the interleaved measurement. */
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
/** CPU time each variant gets per round (ns). */
const minCpuTime = Number(process.env.BENCH_MIN_CPU_MS ?? 150) * 1e6;

const prompt = [
  {
    role: 'user' as const,
    content: [
      { type: 'text' as const, text: 'Hello! Could you summarise the quarterly report for me?' },
    ],
  },
];

/** The default deterministic chain of the issue. */
const defaultChain = () =>
  guardrails({
    input: [promptInjection(), pii({ action: 'redact' }), invisibleText()],
    output: [pii({ action: 'redact' }), secrets({ action: 'redact' })],
  });

interface Variant {
  name: string;
  model: LanguageModelV4;
}

function variants(base: LanguageModelV4): Variant[] {
  const noop: LanguageModelV4Middleware = { specificationVersion: 'v4' };
  return [
    { name: 'bare model', model: base },
    {
      name: 'wrapLanguageModel, empty middleware',
      model: wrapLanguageModel({ model: base, middleware: noop }),
    },
    {
      name: 'guardrails(), no guardrails',
      model: wrapLanguageModel({ model: base, middleware: guardrails({}) }),
    },
    {
      name: 'guardrails(), default chain',
      model: wrapLanguageModel({ model: base, middleware: defaultChain() }),
    },
  ];
}

/** Ratio and timing of one variant against the bare model. */
export interface OverheadRow {
  operation: 'doGenerate' | 'doStream (1,000 deltas)';
  variant: string;
  p50Microseconds: number;
  ratioToBare: number;
}

async function timeVariants(
  operation: OverheadRow['operation'],
  all: Variant[],
  call: (model: LanguageModelV4) => PromiseLike<unknown>,
): Promise<OverheadRow[]> {
  const p50s = all.map(() => [] as number[]);
  const ratios = all.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    const roundP50: number[] = [];
    for (const variant of all) {
      const stats = await measure(() => call(variant.model), { min_cpu_time: minCpuTime });
      roundP50.push(stats.p50);
    }
    roundP50.forEach((p50, i) => {
      p50s[i]!.push(p50);
      ratios[i]!.push(p50 / roundP50[0]!);
    });
    process.stderr.write(`\r${operation}: round ${round + 1}/${rounds}`);
  }
  process.stderr.write('\n');
  return all.map((variant, i) => ({
    operation,
    variant: variant.name,
    p50Microseconds: median(p50s[i]!) / 1000,
    ratioToBare: median(ratios[i]!),
  }));
}

/** Measures the overhead table; prints it as markdown. */
export async function runOverhead(): Promise<OverheadRow[]> {
  const answer = mixedText(8_000);
  const generate = await timeVariants(
    'doGenerate',
    variants(benchModel({ text: answer, deltas: 1 })),
    model => model.doGenerate({ prompt }),
  );
  const stream = await timeVariants(
    'doStream (1,000 deltas)',
    variants(benchModel({ text: answer, deltas: 1_000 })),
    async model => drain((await model.doStream({ prompt })).stream),
  );
  const rows = [...generate, ...stream];
  console.log('\n## Middleware overhead (offline model, 8 KB answer)\n');
  console.log('| call | variant | p50 (µs) | vs bare model |');
  console.log('|---|---|---|---|');
  for (const row of rows) {
    console.log(
      `| ${row.operation} | ${row.variant} | ${row.p50Microseconds.toFixed(1)} | ${row.ratioToBare.toFixed(2)} |`,
    );
  }
  console.log(
    `\np50 per call from mitata, ${rounds} interleaved rounds of ${minCpuTime / 1e6} ms CPU per variant; ratio = median of per-round ratios. Default chain: input promptInjection(), pii({ action: 'redact' }), invisibleText(); output pii({ action: 'redact' }), secrets({ action: 'redact' }); stream mode 'hold' (the default).`,
  );
  await saveSummary('overhead', rows);
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) await runOverhead();
