import { streamText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { modelFor } from '../../../test/helpers';
import { guardrails } from '../../middleware/guardrails-middleware';
import { contentFilter } from './content-filter';
import { spelledRunHold } from './potential-start';

/** The text deltas `streamText` delivers for `deltas` streamed through `contentFilter` in window mode. */
async function released(answer: string, deltas: string[]): Promise<string[]> {
  const model = wrapLanguageModel({
    model: modelFor(answer, deltas),
    middleware: guardrails({
      output: [contentFilter()],
      stream: { mode: 'window' },
      blockedMessage: 'BLOCKED',
    }),
  });
  const result = streamText({ model, prompt: 'q' });
  const parts: string[] = [];
  for await (const delta of result.textStream) parts.push(delta);
  return parts;
}

/** Ordinary prose before the phrase, long enough that window mode checks and releases text around it. */
const PROSE =
  'Here is the plan we talked about, written out in full so that nothing is missed on the day. ';

// Round 38 (issue 16): the hook held a trailing run of single letters
// shorter than four units from its last letter that began an entry (`i` of
// `k i`), so `k ` went out before `l l  y o u r s e l f` made the filter
// join `k i l l …` and block.
describe('contentFilter in window mode: a spelled-out entry whose run is still short', () => {
  for (const phrase of [
    'k i l l  y o u r s e l f',
    'k i l l   y o u',
    'k.i.l.l y.o.u',
    // Round 39: invisible characters the fold drops, read through (before,
    // they cut the run: `k\u200b` went out at 5 cuts, `k\u00ad.` at 4).
    'k\u200b i l l  y o u r s e l f',
    'k\u00ad.i.l.l y.o.u',
    // However many at one place (before: 5 cuts; the window's word starts read 32).
    `k${'\u200b'.repeat(33)} i l l  y o u r s e l f`,
  ]) {
    const answer = `${PROSE}Then: ${phrase} now.`;
    const start = answer.indexOf(phrase);
    it(`releases nothing of ${JSON.stringify(phrase)} before the block, cut at every position`, async () => {
      for (let at = 1; at < answer.length; at++) {
        const parts = await released(answer, [answer.slice(0, at), answer.slice(at)]);
        expect(parts.at(-1), `cut at ${at}`).toBe('BLOCKED');
        const before = parts.slice(0, -1).join('');
        expect(answer.startsWith(before), `cut at ${at}`).toBe(true);
        expect(before.length, `cut at ${at}`).toBeLessThanOrEqual(start);
      }
    });
  }

  it('releases an ordinary sentence with single letters exactly as before', async () => {
    const answer = `${PROSE}So I said: plot x y, then a b, and I am done with a plan.`;
    const at = (part: string, offset: number) => answer.indexOf(part) + offset;
    // The parts at base 7839b32 (the same since), the answer cut after `x`, `x y`, `a`, `a b`, ` I` and `So I`.
    const expected: Array<[number, string]> = [
      [at('x y', 2), 'So I said: plot x '],
      [at('x y', 3), 'So I said: plot x y'],
      [at('a b', 2), 'So I said: plot x y, then '],
      [at('a b', 3), 'So I said: plot x y, then a '],
      [at(' I am', 2), 'So I said: plot x y, then a b, and '],
      [at('I said', 1), 'So '],
    ];
    for (const [cut, first] of expected) {
      const parts = await released(answer, [answer.slice(0, cut), answer.slice(cut)]);
      expect(parts).toEqual([PROSE + first, answer.slice(PROSE.length + first.length)]);
    }
  });
});

describe('spelledRunHold', () => {
  const hold = spelledRunHold(['kill yourself', 'kill you', 'ass']);
  it('holds a short run from its first unit when its joined units begin an entry', () => {
    const cases: Array<[string, number]> = [
      ['Then: k i', 6],
      ['Then: k i ', 6],
      ['Then: k.i.l', 6],
      ['Then: k.i l', 6],
      ['Then: k i l l   y', 6],
      // The last unit may start a word (`n` of `now`): held while the run before it is an entry.
      ['Then: k i l l  y o u r s e l f n', 6],
      // The space may cut `k.i.l.l` from `y.o.u`.
      ['Then: k.i.l.l y', 6],
      // A unit after a space may begin a joined word of its own.
      ['plot x y a s', 9],
      // A digit may read as leetspeak: held, bounded by the run.
      ['give me 3', 8],
      // Invisible characters between units, and after the last, read through (round 39).
      ['Then: k\u200b i', 6],
      ['Then: k \u200bi\u200b', 6],
      ['Then: k\u00ad.i.l', 6],
      ['Then: k i l l \u2060 \u200b y', 6],
      // However many invisible characters at one place.
      [`Then: k${'\u200b'.repeat(40)} i`, 6],
      [`Then: k i${'\u200b'.repeat(40)}`, 6],
    ];
    for (const [text, start] of cases) expect(hold(text), text).toBe(start);
  });

  it('holds nothing when no joined reading begins an entry or the run cannot go on', () => {
    for (const text of [
      'plot x y',
      'then a b',
      'Then: k i    ',
      'look i',
      'Then: kill',
      'Then: k i l l  y o u r s e l f now',
      '',
    ]) {
      expect(hold(text), text).toBe(text.length);
    }
    // Round 44: an entry of several words is read inside a run across its
    // word breaks (`k  i l l y o u` holds `kill you`), so a word break may
    // read as nothing: `k  i` may begin one.
    expect(hold('Then: k  i')).toBe(6);
    // Round 45: a line break after a letter reads as a blank (`k i\nl l` is
    // `kill` in the check's second reading, `spelled-blanks.ts`), so the run may go on.
    expect(hold('Then: k i\n')).toBe(6);
  });

  it('reads at most the longest entry + 2 units of a run, and past 64 holds them unread', () => {
    // `kill you` spelled out after 30 units that begin no entry: held from `k` only.
    const long = `${'z '.repeat(30)}k i l l  y o`;
    expect(hold(long)).toBe(long.indexOf('k'));
    const longEntry = spelledRunHold(['a'.repeat(100)]);
    const text = `x ${'a '.repeat(99)}a`;
    // 64 units of 100 are read, from the last: held from the 64th.
    expect(longEntry(text)).toBe(text.length - 127);
  });

  // Round 39: the live trie nodes of a reading are kept once each by a
  // stamp, in typed arrays reused from call to call (was `includes` on
  // arrays); the answers are the same.
  it('reads an entry of spaced and joined letters every way the fold may join them', () => {
    // 15 `a`s and 4 blanks: a run of single `a`s reads as it in one way only.
    const spaced = spelledRunHold(['aa aaaaa a aaaaa aa']);
    const run = (units: number) => `so: ${'a '.repeat(units).trim()}`;
    // 20 units: the last 15 are the entry's letters, and a 16th may begin a
    // word (`withoutLast`): held from the 16th unit from the end.
    expect(spaced(run(20))).toBe(4 + 2 * 4);
    expect(spaced(run(15))).toBe(4);
    // 14 units may still grow into it; the `b` ending the run may start a word.
    expect(spaced(`${run(14)} b`)).toBe(4);
    // After those calls, with their many live nodes, a run that begins no entry holds nothing.
    expect(spaced('so: b a b')).toBe('so: b a b'.length);
  });

  it('reads an entry longer than the units it may read from its first 128 characters', () => {
    const hold = spelledRunHold([`ab ${'c'.repeat(300)}`]);
    // `a b  c c c`: `ab ccc`, a prefix of the entry, held from `a`.
    expect(hold('so a b  c c c')).toBe(3);
    // `ab cd` begins no entry, nor does any reading from `c` or the last unit.
    expect(hold('so a b  c d c')).toBe('so a b  c d c'.length);
  });
});
