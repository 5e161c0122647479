import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../bench/fixtures';
import { guardContext } from '../../../test/helpers';
import { bareCallGuard, deltasOf } from '../../../test/helpers/window';
import type { Verdict } from '../../core/types';
import { HELD, type ProcessorStep, type StreamPart } from '../../middleware/stream-processor';
import { windowProcessor } from '../../middleware/window-processor';
import { pii } from '../pii/pii';
import { secrets } from '../secrets/secrets';
import {
  BUILTIN_CONTENT_CATEGORIES,
  type ContentFilterOptions,
  contentFilter,
} from './content-filter';
import { lowerCaseLettersCannotMatch } from './lower-case-letters-pretest';
import { spelledRunEntries } from './spelled-run-entries';

// Round 44 (issue 16): an entry spelled out inside a longer spelled-out run
// (`u k i l l   y o u r s e l f`, `j u s t k i l l y o u r s e l f`) matched
// nothing: the fold joins a run into words, and the matcher reads whole
// words. It is now read by its letters inside a run.

const ctx = guardContext('output');
const actionOf = (options: ContentFilterOptions, text: string) =>
  (contentFilter(options).check(text, ctx) as Verdict).action;

describe('spelledRunEntries', () => {
  const read = spelledRunEntries(['kill yourself', 'shit', 'killz']);
  it.each([
    ['an entry of several words after a letter', ['ukill yourself'], 0],
    ['its blanks dropped', ['justkillyourself'], 0],
    ['across a word break of the run, its blanks dropped', ['ki llyourself'], 0],
    ['an entry of one word inside a word', ['askillz'], 2],
    ['in the second run', ['ab', 'xshity'], 1],
    ['an entry of one word across a word break', ['this hit'], undefined],
    ['across two runs', ['kil', 'lyourself'], undefined],
    ['no run', [], undefined],
  ] as const)('%s', (_, runs, expected) => {
    expect(read(runs)).toBe(expected);
  });
});

describe('contentFilter on an entry inside a spelled-out run', () => {
  const options = { blocklist: ['kill yourself', 'shit'], categories: [] };
  it.each([
    ['a letter before it', 'u k i l l   y o u r s e l f', 'block'],
    ['no word breaks', 'j u s t k i l l y o u r s e l f', 'block'],
    ['a word break inside a word', 'k i   l l y o u r s e l f', 'block'],
    ['letters after it', 'k i l l y o u r s e l f x y', 'block'],
    ['joined with dots', 'u.k.i.l.l.y.o.u.r.s.e.l.f', 'block'],
    ['inside a word of the run', 'x s h i t y', 'block'],
    ['in leetspeak', 'u k 1 l l y 0 u r s e l f', 'block'],
    ['a one-word entry across a word break', 't h i s   h i t', 'allow'],
    ['written, inside a word', 'washita skillyourselfish', 'allow'],
    ['a run of three letters (not joined)', 'u k i   l l', 'allow'],
  ])('%s: %s', (_, text, action) => {
    expect(actionOf(options, text)).toBe(action);
  });

  it('reads `s k i l l` as holding an entry `kill` (spelling drops the word edges)', () => {
    expect(actionOf({ blocklist: ['kill'], categories: [] }, 's k i l l')).toBe('block');
    expect(actionOf({ blocklist: ['kill'], categories: [] }, 'skill')).toBe('allow');
  });
});

/** Every text part `processor` releases for `deltas`, and its trip's guardrail. */
async function streamed(deltas: readonly string[], options: ContentFilterOptions) {
  const processor = windowProcessor(
    bareCallGuard(),
    [pii(), secrets(), contentFilter(options)],
    2048,
    () => true,
  );
  const parts: string[] = [];
  let trip: string | undefined;
  const take = async (step: ProcessorStep | Promise<ProcessorStep>) => {
    if (step === HELD) return;
    const { parts: out, trip: tripped } = await step;
    for (const part of out) if (part.type === 'text-delta') parts.push(part.delta);
    if (tripped) trip = tripped.guardrail;
  };
  await take(processor.push({ type: 'text-start', id: 't' }));
  for (const delta of deltas) {
    if (trip) break;
    await take(processor.push({ type: 'text-delta', id: 't', delta }));
  }
  if (!trip) await take(processor.push({ type: 'text-end', id: 't' } as StreamPart));
  return { text: parts.join(''), trip };
}

describe('window mode on an entry inside a spelled-out run', () => {
  it.each([
    'q x b a u k i l l   y o u r s e l f now and then',
    'j u s t k i l l y o u r s e l f and more words after it',
    'some prose first, then u.k.i.l.l.y.o.u.r.s.e.l.f',
    'k i   l l y o u r s e l f',
  ])('trips on %j in 4-character, random and whole deltas, the entry not released', async text => {
    const random = seededRandom(44);
    for (const mode of [0, 1, 2]) {
      const { text: released, trip } = await streamed(deltasOf(text, mode, random), {
        blocklist: ['kill yourself'],
        categories: [],
      });
      expect(trip).toBe('content-filter');
      // The entry's last letters never went out.
      expect(released.replace(/[^a-z]/g, '')).not.toContain('yourself');
    }
  });
});

/** Seeded texts of `[a-z ]` with entries spelled inside longer runs: letters on either side, breaks anywhere, none. */
function runTexts(entries: readonly string[], count: number, seed: number): string[] {
  const random = seededRandom(seed);
  const pick = <T>(from: readonly T[]) => from[Math.floor(random() * from.length)]!;
  const letter = () => String.fromCharCode(97 + Math.floor(random() * 26));
  const gap = () => pick([' ', ' ', ' ', ' ', '  ', '   ']);
  const texts: string[] = [];
  while (texts.length < count) {
    const units: string[] = [];
    const pieces = 1 + Math.floor(random() * 6);
    for (let piece = 0; piece < pieces; piece++) {
      const before = Math.floor(random() * 4);
      for (let i = 0; i < before; i++) units.push(letter());
      const entry = pick(entries);
      const cut = random() < 0.3 ? 1 + Math.floor(random() * (entry.length - 1)) : entry.length;
      for (const unit of entry.slice(0, cut)) if (unit !== ' ' || random() < 0.5) units.push(unit);
      const after = Math.floor(random() * 4);
      for (let i = 0; i < after; i++) units.push(letter());
    }
    let text = '';
    for (const unit of units) text += unit === ' ' ? pick([' ', '  ', '   ']) : unit + gap();
    // At most three blanks (four end a run).
    texts.push(text.replace(/ {4,}/g, '   ').trim());
  }
  return texts;
}

const LISTS: Array<[string, ContentFilterOptions, readonly string[]]> = [
  ['default', {}, ['kill yourself', 'kill you', 'shit', 'fuck', 'end my life', 'pipe bomb']],
  [
    'built-in',
    { categories: Object.keys(BUILTIN_CONTENT_CATEGORIES) },
    ['heil hitler', 'send nudes', 'gas the jews', 'nerve agent', 'cunt'],
  ],
  ['custom', { categories: {}, blocklist: ['kill', 'a b', 'qq q'] }, ['kill', 'a b', 'qq q']],
];

describe("contentFilter's filter and pre-test on entries inside runs (round 44)", () => {
  it.each(LISTS)('%s lists: never rule out a text the check blocks', (_, options, entries) => {
    const filter = contentFilter(options);
    let blocked = 0;
    const wrong: string[] = [];
    for (const text of runTexts(entries, 3_000, 44)) {
      if ((filter.check(text, ctx) as Verdict).action !== 'block') continue;
      blocked++;
      if (!filter.mayMatch!(text)) wrong.push(text);
    }
    expect(wrong).toEqual([]);
    expect(blocked).toBeGreaterThan(1_000);
  });

  it('a planted bug fails it: a walk that reads no letter across a word break', () => {
    const terms = ['kill yourself', 'kill you', 'end my life'];
    const cannotMatch = lowerCaseLettersCannotMatch(terms)!;
    // The planted walk: every word break made four blanks (ends a run), so no letter is read across one.
    const planted = (text: string) => cannotMatch(text.replace(/ {2,3}/g, '    '));
    const filter = contentFilter({ blocklist: terms, categories: [] });
    const missed = runTexts(terms, 3_000, 44).filter(
      text => (filter.check(text, ctx) as Verdict).action === 'block' && planted(text),
    );
    expect(missed.length).toBeGreaterThan(20);
    // The real pre-test rules none of them out.
    expect(missed.filter(cannotMatch)).toEqual([]);
  });
});
