import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../bench/fixtures';
import { cut } from '../../test/helpers';
import { generatedText, streamedTextDeltas } from '../../test/helpers/window';
import { contentFilter } from '../guards/content-filter/content-filter';
import { guardrails } from './guardrails-middleware';
import { spacedRunStart } from './text-boundaries';

/**
 * Round 38 (issue 16): the window began the left context of a check at a
 * word start inside a spaced-out run the fold joins into one word: after a
 * release cut at `k` of `s k i l l yourself`, the check read `k i l l
 * yourself`, folded to `kill yourself`, and the stream ended blocked where
 * generate passes (`skill yourself`). The context now starts at the run's
 * first unit (`spacedRunStart`).
 */

const filter = guardrails({
  output: [contentFilter()],
  stream: { mode: 'window' },
  blockedMessage: 'BLOCKED',
});

/** The text a stream gives the app: the deltas joined, or `BLOCKED` when it ends blocked. */
async function streamedOutcome(answer: string, deltas: string[]) {
  const streamed = await streamedTextDeltas(filter, answer, deltas);
  return streamed.at(-1) === 'BLOCKED' ? 'BLOCKED' : streamed.join('');
}

/** Words of ordinary prose the property tests draw from. */
const PROSE =
  'here is the answer you asked for with some words and more of them so that the window moves on'.split(
    ' ',
  );

/** The positions where `answer` (which generate passes) cut in two streams otherwise. */
async function differingCuts(answer: string): Promise<number[]> {
  expect(await generatedText(filter, answer)).toBe(answer);
  const differing: number[] = [];
  for (let at = 1; at < answer.length; at++) {
    const outcome = await streamedOutcome(answer, [answer.slice(0, at), answer.slice(at)]);
    if (outcome !== answer) differing.push(at);
  }
  return differing;
}

/**
 * The chunkings of `answer` whose stream differs from `generated`, 8 of
 * them: `twoParts` cut in two at a random place, the rest 16 random sizes
 * of at most `most` characters.
 */
async function mismatchedChunkings(
  answer: string,
  generated: string,
  next: () => number,
  twoParts: number,
  most: number,
): Promise<string[]> {
  const mismatches: string[] = [];
  for (let chunking = 0; chunking < 8; chunking++) {
    const at = 1 + Math.floor(next() * (answer.length - 1));
    const sizes =
      chunking < twoParts
        ? [at, answer.length]
        : Array.from({ length: 16 }, () => 1 + Math.floor(next() * most));
    const streamed = await streamedOutcome(answer, cut(answer, sizes));
    if (streamed !== generated) mismatches.push(sizes.join(','));
  }
  return mismatches;
}

describe('spacedRunStart', () => {
  it('finds the first unit of the run holding `at`, and only that', () => {
    const text = 'you should s k i l l yourself';
    expect(spacedRunStart(text, text.indexOf('k'), 0)).toBe(text.indexOf('s k'));
    expect(spacedRunStart(text, text.indexOf('s k'), 0)).toBe(text.indexOf('s k'));
    // Dots and invisible characters between the units, as the fold reads them.
    const dotted = 'as s.\u200bk.i.l.l b';
    expect(spacedRunStart(dotted, dotted.indexOf('i'), 0)).toBe(3);
    // A lone letter before is a unit of the run: `a s.k.i.l.l` joins `askill`.
    expect(spacedRunStart(dotted.slice(1), dotted.indexOf('i') - 1, 0)).toBe(0);
    // A unit ending a longer word starts no run: `ab c d e f` joins `cdef`.
    const word = 'ab c d e f';
    expect(spacedRunStart(word, word.indexOf('e'), 0)).toBe(word.indexOf('c'));
    // Not in a run, or not before `min`.
    expect(spacedRunStart(text, text.indexOf('should'), 0)).toBe(text.indexOf('should'));
    expect(spacedRunStart(text, text.indexOf('l l'), text.indexOf('i l'))).toBe(
      text.indexOf('i l'),
    );
  });
});

describe('window mode: a check never starts inside a spaced-out run', () => {
  it('the reported answer passes as generate passes it, cut in two at every position', async () => {
    const answer =
      'Here is my answer with some words before it and you should s k i l l yourself up with many more words after it so the window moves on.';
    // Before the fix: [110], the stream ended `BLOCKED`.
    expect(await differingCuts(answer)).toEqual([]);
  });

  it('stream == generate on random prose with spaced-out words, any chunking (property)', async () => {
    const next = seededRandom(3816);
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
    // Spelled out, some read as an entry (`kill yourself`), most not (`skill`, `bullshit`).
    const SPELLED = [
      'kill yourself',
      'skill yourself',
      'bullshit',
      'askill yourself',
      'mill',
      'skill yourself',
      'bullshit',
    ];
    const spelled = (phrase: string, separator: string) =>
      phrase
        .split(' ')
        .map(word => [...word].join(separator))
        .join(' ');
    const mismatches: string[] = [];
    const outcomes = new Set<string>();
    for (let round = 0; round < 40; round++) {
      // A prose word after each spelled-out phrase, so two never join into one run.
      const words: string[] = [];
      const count = 10 + Math.floor(next() * 15);
      for (let i = 0; i < count; i++) {
        words.push(next() < 0.15 ? spelled(pick(SPELLED), pick([' ', '.'])) : pick(PROSE));
        words.push(pick(PROSE));
      }
      const answer = `${words.join(' ')}.`;
      const generated = await generatedText(filter, answer);
      outcomes.add(generated === 'BLOCKED' ? 'BLOCKED' : 'passed');
      // Two deltas cut at a random place (as reported), or 16 random sizes.
      for (const sizes of await mismatchedChunkings(answer, generated, next, 2, 40)) {
        mismatches.push(`${round} ${sizes}`);
      }
    }
    // Before the fix: 3 of the 320 streams differed (all ended blocked where generate passes).
    expect(mismatches).toEqual([]);
    // Both verdicts are exercised.
    expect([...outcomes].sort()).toEqual(['BLOCKED', 'passed']);
  });
});

/**
 * Round 39 (issue 16): a check whose text ended inside a spaced-out run that
 * more text continues (`k.i.l.l y.o.u.r.s.e.l.f ` before `a s k i l l`,
 * which the fold joins to `yourselfaskill`) tripped, and its confirmation on
 * the text up to its last blank (the one after `f`) read `kill yourself`
 * too: the stream ended blocked where generate passes. The confirmation now
 * ends before such a run (`lastSettledBreak`).
 */
describe('window mode: a check ending inside a spaced-out run that goes on', () => {
  it('the answer of docs/streaming.md ends as generate ends it (blocked since round 44), cut in two at every position', async () => {
    const answer =
      'Some words before it: k.i.l.l y.o.u.r.s.e.l.f a s k i l l and more words after it so the window moves on.';
    // Before the fix: [46], the stream ended `BLOCKED` where generate passed.
    // Since round 44 contentFilter reads an entry inside a joined run
    // (`yourselfaskill` holds `yourself`), so generate blocks the spelled
    // `kill yourself` too: the stream must end as generate does at every cut.
    expect(await generatedText(filter, answer)).toBe('BLOCKED');
    const differing: number[] = [];
    for (let at = 1; at < answer.length; at++) {
      const outcome = await streamedOutcome(answer, [answer.slice(0, at), answer.slice(at)]);
      if (outcome !== 'BLOCKED') differing.push(at);
    }
    expect(differing).toEqual([]);
  });

  it('stream == generate on spelled-out phrases that more units continue, any chunking (property)', async () => {
    const next = seededRandom(39);
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
    const SPELLED = [
      'kill yourself',
      'kill you',
      'shit',
      'bullshit',
      'skill yourself',
      'mill',
      'kill myself',
      'a skill',
    ];
    // Units after a phrase, one blank apart, that the fold joins to its last word.
    const MORE = ['a s k i l l', 'a', 'x y z', 'o k', 'n o w', 'a.s.k', 's'];
    const spelled = (phrase: string, separator: string, between: string) =>
      phrase
        .split(' ')
        .map(word => [...word].join(separator))
        .join(between);
    const mismatches: string[] = [];
    const outcomes = new Set<string>();
    for (let round = 0; round < 40; round++) {
      const words: string[] = [];
      const count = 8 + Math.floor(next() * 12);
      for (let i = 0; i < count; i++) {
        if (next() < 0.25) {
          const separator = pick(['.', ' ', '-']);
          const between = separator === ' ' ? pick(['  ', '   ']) : ' ';
          let phrase = spelled(pick(SPELLED), separator, between);
          if (next() < 0.6) phrase += ` ${pick(MORE)}`;
          words.push(phrase);
        } else {
          words.push(pick(PROSE));
        }
      }
      const answer = `${words.join(' ')} ${PROSE.join(' ')}.`;
      const generated = await generatedText(filter, answer);
      outcomes.add(generated === 'BLOCKED' ? 'BLOCKED' : 'passed');
      for (const sizes of await mismatchedChunkings(answer, generated, next, 3, 30)) {
        mismatches.push(`${round} ${sizes}`);
      }
    }
    // Before the fix: 2 of the 320 streams ended blocked where generate passes.
    expect(mismatches).toEqual([]);
    expect([...outcomes].sort()).toEqual(['BLOCKED', 'passed']);
  });
});
