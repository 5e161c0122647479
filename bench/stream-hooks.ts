/**
 * The window mode's per-check work on the guardrail side, alone: the
 * built-in `mayMatch` pre-filters and `potentialMatchStart` hooks of
 * `pii()`, `secrets()` and `contentFilter()`, timed on the exact texts the
 * window processor hands them for 1 MB of ordinary prose in 4-character
 * deltas (the case of `BENCH_STREAMING=cpu npx tsx bench/streaming.ts`).
 *
 *   npx tsx bench/stream-hooks.ts
 *   HOOKS_BASELINE=/tmp/base npx tsx bench/stream-hooks.ts
 *
 * The calls are recorded once by running the processor with the chain's
 * filters and hooks wrapped. Then each function is timed over its recorded
 * texts in CPU time (`process.cpuUsage`: other jobs on a shared machine
 * stretch wall time, not this process's CPU), median of ROUNDS runs. The
 * filters are also timed as the processor calls them: the three in turn on
 * each text (they share one plain-prose test per text), and as the window
 * asks them since round 9: one scan for all three (`may-match-union`).
 *
 * With HOOKS_BASELINE (a directory holding an older `src/`, e.g. from
 * `git archive <commit> src | tar -x -C /tmp/base`, with a `node_modules`
 * link to this one) the same functions of that code are timed too, the two
 * alternating run by run in this process, so both see the same machine.
 */
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { type FilterTriggers, filterTriggersOf } from '../src/core/filtered-hooks';
import type { Guardrail } from '../src/core/types';
import { contentFilter } from '../src/guards/content-filter/content-filter';
import { pii } from '../src/guards/pii/pii';
import { secrets } from '../src/guards/secrets/secrets';
import { mayMatchUnion } from '../src/middleware/may-match-union';
import { windowProcessor } from '../src/middleware/window-processor';
import { outputCallGuard, prose } from './fixtures';

interface Built {
  pii: typeof pii;
  secrets: typeof secrets;
  contentFilter: typeof contentFilter;
  /** Window mode's one scan for the chain's filters (round 9), when that `src/` has it. */
  union?: (chain: Guardrail[]) => ((text: string) => boolean) | undefined;
}
const current: Built = {
  pii,
  secrets,
  contentFilter,
  union: chain => {
    const triggers = chain.map(filterTriggersOf);
    return triggers.every(declared => declared !== undefined)
      ? mayMatchUnion(triggers as FilterTriggers[])
      : undefined;
  },
};
/** The three factories of the `src/` under `root` (the guards' own modules: another's work elsewhere may not build). */
async function factoriesIn(root: string): Promise<Built> {
  const guards = `${root}/src/guards`;
  const built: Built = {
    pii: (await import(`${guards}/pii/pii.ts`)).pii,
    secrets: (await import(`${guards}/secrets/secrets.ts`)).secrets,
    contentFilter: (await import(`${guards}/content-filter/content-filter.ts`)).contentFilter,
  };
  try {
    const { filterTriggersOf: triggersOf } = await import(`${root}/src/core/filtered-hooks.ts`);
    const { mayMatchUnion: union } = await import(`${root}/src/middleware/may-match-union.ts`);
    built.union = chain => {
      const triggers = chain.map(triggersOf);
      return triggers.every(declared => declared !== undefined) ? union(triggers) : undefined;
    };
  } catch {
    // An older src/ without the one scan.
  }
  return built;
}
const NAMES = ['pii', 'secrets', 'contentFilter'] as const;
const chainOf = (lib: Built): Guardrail[] => [lib.pii(), lib.secrets(), lib.contentFilter()];

/** The texts each guardrail's filter and hook is asked about on 1 MB of prose in 4-character deltas. */
async function recordCalls(text: string) {
  const filterTexts: string[][] = NAMES.map(() => []);
  const hookTexts: string[][] = NAMES.map(() => []);
  const recorded = chainOf(current).map((guardrail, index) => ({
    ...guardrail,
    mayMatch: (checked: string) => {
      filterTexts[index]!.push(checked);
      return guardrail.mayMatch!(checked);
    },
    potentialMatchStart: (pending: string) => {
      hookTexts[index]!.push(pending);
      return guardrail.potentialMatchStart!(pending);
    },
  }));
  const call = outputCallGuard();
  const processor = windowProcessor(call, recorded, 2048, () => true);
  let released = 0;
  const push = async (part: LanguageModelV4StreamPart) => {
    const step = processor.push(part);
    for (const out of (step instanceof Promise ? await step : step).parts) {
      if (out.type === 'text-delta') released += out.delta.length;
    }
  };
  await push({ type: 'text-start', id: 't' });
  for (let at = 0; at < text.length; at += 4) {
    await push({ type: 'text-delta', id: 't', delta: text.slice(at, at + 4) });
  }
  await push({ type: 'text-end', id: 't' });
  if (released !== text.length) throw new Error('the processor released another text');
  return { filterTexts, hookTexts };
}

const cpuMs = (run: () => void) => {
  const before = process.cpuUsage();
  run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
};

let sink = 0;
/** The timed jobs of one implementation, by label. */
function jobsOf(lib: Built, filterTexts: string[][], hookTexts: string[][]) {
  const chain = chainOf(lib);
  const jobs = new Map<string, () => void>();
  chain.forEach((guardrail, index) => {
    const filter = guardrail.mayMatch!;
    const hook = guardrail.potentialMatchStart!;
    jobs.set(`${NAMES[index]} mayMatch`, () => {
      for (const text of filterTexts[index]!) sink += filter(text) ? 1 : 0;
    });
    jobs.set(`${NAMES[index]} potentialMatchStart`, () => {
      for (const text of hookTexts[index]!) sink += hook(text);
    });
  });
  // As the processor calls them: the three filters on each text in turn.
  const filters = chain.map(guardrail => guardrail.mayMatch!);
  jobs.set('three filters per text', () => {
    for (const text of filterTexts[0]!) for (const filter of filters) sink += filter(text) ? 1 : 0;
  });
  // Window mode's one scan instead (then the filters only where it says maybe).
  const union = lib.union?.(chain);
  if (union) {
    jobs.set('one scan for the three filters', () => {
      for (const text of filterTexts[0]!) sink += union(text) ? 1 : 0;
    });
  }
  jobs.set('three hooks per text', () => {
    const hooks = chain.map(guardrail => guardrail.potentialMatchStart!);
    for (const text of hookTexts[0]!) for (const hook of hooks) sink += hook(text);
  });
  return jobs;
}

const ROUNDS = Number(process.env.HOOKS_ROUNDS ?? 15);
const text = prose(1024 * 1024);
const { filterTexts, hookTexts } = await recordCalls(text);
const chars = (texts: string[]) => texts.reduce((sum, t) => sum + t.length, 0);
console.log(
  `# Window filters and hooks alone (node ${process.version}, ${new Date().toISOString().slice(0, 10)})\n`,
);
console.log(
  `1 MB of prose in 4-character deltas: ${filterTexts[0]!.length} filter calls per guardrail ` +
    `(${chars(filterTexts[0]!)} characters), ${hookTexts[0]!.length} hook calls ` +
    `(${chars(hookTexts[0]!)} characters). CPU time per MB, median of ${ROUNDS}.\n`,
);

const implementations: Array<[string, Map<string, () => void>]> = [
  ['current', jobsOf(current, filterTexts, hookTexts)],
];
const baselineDir = process.env.HOOKS_BASELINE;
if (baselineDir) {
  const baseline = await factoriesIn(baselineDir);
  implementations.unshift(['baseline', jobsOf(baseline, filterTexts, hookTexts)]);
}
const labels = [...new Set(implementations.flatMap(([, jobs]) => [...jobs.keys()]))];
const times = new Map<string, number[]>();
for (let round = 0; round < ROUNDS; round++) {
  for (const label of labels) {
    // Alternate which implementation goes first, so neither always runs warm.
    const order = round % 2 === 0 ? implementations : [...implementations].reverse();
    for (const [name, jobs] of order) {
      const job = jobs.get(label);
      if (!job) continue;
      const key = `${name} ${label}`;
      times.set(key, [...(times.get(key) ?? []), cpuMs(job)]);
    }
  }
}
const medianOf = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const header = implementations.map(([name]) => `${name} (ms)`);
console.log(`| function | ${header.join(' | ')} |${baselineDir ? ' current / baseline |' : ''}`);
console.log(`|---|${header.map(() => '---|').join('')}${baselineDir ? '---|' : ''}`);
for (const label of labels) {
  const medians = implementations.map(([name]) => {
    const runs = times.get(`${name} ${label}`);
    return runs ? medianOf(runs) : Number.NaN;
  });
  const ratio = baselineDir
    ? ` ${Number.isNaN(medians[1]! / medians[0]!) ? '-' : (medians[1]! / medians[0]!).toFixed(2)} |`
    : '';
  const shown = medians.map(ms => (Number.isNaN(ms) ? '-' : ms.toFixed(1)));
  console.log(`| ${label} | ${shown.join(' | ')} |${ratio}`);
}
if (sink === 0.5) console.log(sink);
