import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../bench/fixtures';
import { guardContext } from '../../../test/helpers';
import { bareCallGuard, deltasOf } from '../../../test/helpers/window';
import type { Guardrail, Verdict } from '../../core/types';
import { HELD, type ProcessorStep, type StreamPart } from '../../middleware/stream-processor';
import { reachTail } from '../../middleware/text-boundaries';
import { windowProcessor } from '../../middleware/window-processor';
import { pii } from '../pii/pii';
import { secrets } from '../secrets/secrets';
import {
  BUILTIN_CONTENT_CATEGORIES,
  type ContentFilterOptions,
  contentFilter,
} from './content-filter';

// Round 43 (issue 16): contentFilter's filter said "maybe" on every text
// with a spelled-out run, so window mode ran the chain and the full hooks on
// every check of spaced letters (`q x b a …`). It now reads around each run
// (`spelledRunsMayMatch` in potential-start.ts) and rules out runs that
// spell no entry; its reach grew to cover what it reads.

const ctx = guardContext('output');

const OPTIONS: Array<[string, ContentFilterOptions | undefined]> = [
  ['default', undefined],
  ['built-in', { categories: Object.keys(BUILTIN_CONTENT_CATEGORIES) }],
  ['custom', { categories: {}, blocklist: ['kill', 'a b', 'qq q', 'acme internal', 'z z z z'] }],
];

/** Entries of every list, to spell out. */
const ENTRIES = [
  ...Object.values(BUILTIN_CONTENT_CATEGORIES).flat(),
  'kill',
  'a b',
  'qq q',
  'acme internal',
];

/**
 * Seeded texts most of which are `[a-z ]`: random spaced letters, entries
 * spelled out (single spaces, word breaks, partly joined, cut short),
 * words; some with a capital, punctuation, a line break or a digit.
 */
function spacedTexts(count: number, seed: number): string[] {
  const random = seededRandom(seed);
  const pick = <T>(from: readonly T[]) => from[Math.floor(random() * from.length)]!;
  const letter = () => String.fromCharCode(97 + Math.floor(random() * 26));
  const spelled = (entry: string) => {
    let out = '';
    for (const unit of entry) {
      if (unit === ' ') out += pick(['  ', '   ', '  ', ' ']);
      else out += unit + pick([' ', ' ', ' ', '']);
    }
    return random() < 0.2 ? out.slice(0, Math.floor(random() * out.length)) : out;
  };
  const others = ['A', 'K', '.', ',', '-', '\n', '!', '4', 'The', 'é', '*'];
  const texts: string[] = [];
  while (texts.length < count) {
    let text = '';
    const pieces = 2 + Math.floor(random() * 10);
    for (let i = 0; i < pieces; i++) {
      const kind = random();
      if (kind < 0.45) {
        const letters = 1 + Math.floor(random() * 30);
        for (let j = 0; j < letters; j++) text += `${letter()}${pick([' ', ' ', ' ', '  '])}`;
      } else if (kind < 0.75) text += `${spelled(pick(ENTRIES))} `;
      else if (kind < 0.9) text += `${pick(['the', 'skill', 'you', 'ki', 'll', 'bomb', 'my'])} `;
      else text += pick(others) + pick(['', ' ']);
    }
    texts.push(text);
  }
  return texts;
}

describe("contentFilter's filter on spelled-out runs (round 43)", () => {
  it.each(OPTIONS)('%s lists: never rules out a text the check blocks', (_, options) => {
    const filter = contentFilter(options);
    let ruledOut = 0;
    let ruledOutSpaced = 0;
    let blocked = 0;
    const wrong: string[] = [];
    for (const text of spacedTexts(6_000, 43)) {
      const action = (filter.check(text, ctx) as Verdict).action;
      if (action === 'block') blocked++;
      if (filter.mayMatch!(text)) continue;
      ruledOut++;
      if (/^[a-z ]*$/.test(text) && /\b[a-z] [a-z] [a-z] [a-z]\b/.test(text)) ruledOutSpaced++;
      if (action !== 'allow') wrong.push(text);
    }
    expect(wrong).toEqual([]);
    // Not vacuous: entries are found, and most spaced texts that spell none are ruled out.
    expect(blocked).toBeGreaterThan(300);
    expect(ruledOutSpaced).toBeGreaterThan(500);
    expect(ruledOut).toBeGreaterThan(ruledOutSpaced);
  });

  it('rules out spaced letters that spell no entry, and not those that do or a run beside other characters', () => {
    const filter = contentFilter();
    const spaced = 'q x b a r t o p e n w m z c v b a l u q e r';
    expect(filter.mayMatch!(spaced)).toBe(false);
    expect(filter.mayMatch!(`${spaced} k i l l  y o u r s e l f`)).toBe(true);
    expect(filter.mayMatch!(`${spaced} k i l l   yourself`)).toBe(true);
    // A character outside `[a-z ]` near a run: the filter does not read it, so "maybe".
    expect(filter.mayMatch!(`${spaced} K`)).toBe(true);
    expect(filter.mayMatch!(`K ${spaced}`)).toBe(true);
    // Far enough from every run (more than 2 x 19 + 8 counted characters), it is not the runs' concern.
    const far = `q x b a ${'zzz '.repeat(12)}Then`;
    expect(filter.mayMatch!(far)).toBe(false);
    expect(filter.mayMatch!(`q x b a ${'zzz '.repeat(9)}Then`)).toBe(true);
  });
});

/** `mayMatch(a + b)` without `mayMatch(a)` nor `mayMatch(tail + b)`, `tail` the end of `a` holding `reach`. */
function counterexamples(filter: Guardrail, reach: number, cases: Array<[string, string]>) {
  const mayMatch = filter.mayMatch!;
  return cases.filter(
    ([a, b]) => mayMatch(a + b) && !mayMatch(a) && !mayMatch(reachTail(a, reach) + b),
  );
}

/** Random splits of the texts above, and the split that needs the whole reach (see the test). */
function splits(seed: number): Array<[string, string]> {
  const random = seededRandom(seed);
  const cases: Array<[string, string]> = spacedTexts(8_000, seed).map(text => {
    const at = Math.floor(random() * (text.length + 1));
    return [text.slice(0, at), text.slice(at)];
  });
  // With the list ['kill'] (longest entry 4, reach 2 x 4 + 8 = 16): the
  // zone of the run's match at 0 ends 2 x 4 + 8 counted characters on, at
  // `A`, which the filter then reads ("maybe"); cut off `z`, no run is left.
  cases.push(['z z z zqq qqqqqq', 'A']);
  return cases;
}

describe("contentFilter's reach (round 43)", () => {
  const filters: Array<[string, Guardrail]> = [
    ...OPTIONS.map(([name, options]): [string, Guardrail] => [name, contentFilter(options)]),
    ['one short entry', contentFilter({ categories: {}, blocklist: ['kill'] })],
  ];

  it.each(filters)('%s: mayMatch(a + b) implies mayMatch(a) or mayMatch(tail + b)', (_, filter) => {
    expect(counterexamples(filter, filter.mayMatchReach!, splits(7))).toEqual([]);
  });

  it('one less than the reach fails the promise (the test can fail)', () => {
    const filter = contentFilter({ categories: {}, blocklist: ['kill'] });
    expect(filter.mayMatchReach).toBe(16);
    expect(counterexamples(filter, 15, splits(7))).toEqual([['z z z zqq qqqqqq', 'A']]);
    // Round 42's reach (the longest entry + 4) is far too short on spaced letters.
    const builtIn = contentFilter({ categories: Object.keys(BUILTIN_CONTENT_CATEGORIES) });
    expect(counterexamples(builtIn, 12, splits(7)).length).toBeGreaterThan(10);
  });
});

/** Every part `processor` releases for `text` in `deltas`, and its trip. */
async function streamed(processor: ReturnType<typeof windowProcessor>, deltas: readonly string[]) {
  const parts: string[] = [];
  let trip: unknown;
  const take = async (step: ProcessorStep | Promise<ProcessorStep>) => {
    if (step === HELD) return;
    const { parts: out, trip: tripped } = await step;
    for (const part of out) if (part.type === 'text-delta') parts.push(part.delta);
    if (tripped) trip = [tripped.guardrail, tripped.status, tripped.reason, tripped.info];
  };
  await take(processor.push({ type: 'text-start', id: 't' }));
  for (const delta of deltas) {
    if (trip) break;
    await take(processor.push({ type: 'text-delta', id: 't', delta }));
  }
  if (!trip) await take(processor.push({ type: 'text-end', id: 't' } as StreamPart));
  return { parts, trip };
}

describe('window mode with the filter releases what it releases without it (round 43)', () => {
  it.each(OPTIONS)('%s lists: the same parts and trips, fewer checks', async (_, options) => {
    const random = seededRandom(4343);
    let checks = 0;
    let unfilteredChecks = 0;
    let tripped = 0;
    const differ: string[] = [];
    for (const text of spacedTexts(150, 11)) {
      for (const mode of [0, 1, 2]) {
        const deltas = deltasOf(text, mode, random);
        const filter = contentFilter(options);
        // The same guardrail, its check counted (filter and hook kept: registered).
        const counted: Guardrail = {
          ...filter,
          check: (content, context) => {
            checks++;
            return filter.check(content, context);
          },
        };
        // Without its filter: every check runs, and the full hook answers.
        const bare: Guardrail = {
          ...filter,
          mayMatch: undefined,
          mayMatchReach: undefined,
          check: (content, context) => {
            unfilteredChecks++;
            return filter.check(content, context);
          },
        };
        const run = (guardrail: Guardrail) =>
          streamed(
            windowProcessor(bareCallGuard(), [pii(), secrets(), guardrail], 2048, () => true),
            deltas,
          );
        const withFilter = await run(counted);
        const without = await run(bare);
        if (without.trip) tripped++;
        if (JSON.stringify(withFilter) !== JSON.stringify(without))
          differ.push(JSON.stringify(deltas));
      }
    }
    expect(differ).toEqual([]);
    expect(tripped).toBeGreaterThan(30);
    // The filter skips checks of spaced letters (these texts spell many entries: see below).
    expect(checks).toBeLessThan(unfilteredChecks * 0.8);
  });

  it("skips nearly every check of the bench's random spaced letters, released whole", async () => {
    const random = seededRandom(1);
    let text = '';
    while (text.length < 8_192) text += `${String.fromCharCode(97 + Math.floor(random() * 26))} `;
    const deltas = deltasOf(text, 0, random);
    const counts = { filtered: 0, bare: 0 };
    const filter = contentFilter();
    const counted = (key: 'filtered' | 'bare', without: boolean): Guardrail => ({
      ...filter,
      ...(without && { mayMatch: undefined, mayMatchReach: undefined }),
      check: (content, context) => {
        counts[key]++;
        return filter.check(content, context);
      },
    });
    const run = (guardrail: Guardrail) =>
      streamed(
        windowProcessor(bareCallGuard(), [pii(), secrets(), guardrail], 2048, () => true),
        deltas,
      );
    const withFilter = await run(counted('filtered', false));
    const without = await run(counted('bare', true));
    expect(withFilter).toEqual(without);
    expect(withFilter.parts.join('')).toBe(text);
    expect(counts.bare).toBeGreaterThan(100);
    expect(counts.filtered).toBeLessThan(counts.bare / 10);
  });
});
