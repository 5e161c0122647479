import { streamText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../bench/fixtures';
import { cut, modelFor, withoutTiming } from '../../../test/helpers';
import {
  contentFilterWindowMiddleware,
  SELF_HARM_BLOCKED,
} from '../../../test/helpers/content-filter-cases';
import { generatedText, randomSizes, streamedTextDeltas } from '../../../test/helpers/window';
import { getGuardrailOutcome } from '../../middleware/get-guardrail-outcome';

/**
 * Round 37: an entry written longer than the window (4x the longest entry,
 * 76 characters for the default lists) with markup the reader does not see
 * between its letters (a tag, `&NegativeVeryThinSpace;`, a long comment or
 * link destination, a run of `<br>`, or of blanks) was not held whole: the hook read the
 * shown text of the last 304 units only, counting the letters inside tags
 * as shown, so the stream released the entry's first letters while
 * generate and the whole text's check blocked it. The hook now reads the
 * whole held text as shown (a run of blanks as one), so the stream holds
 * such an entry from its first letter; a hold past 16,384 characters
 * blocks the stream (fails closed).
 */

/** `phrase` with `separator` between each two of its characters. */
const spread = (phrase: string, separator: string) => [...phrase].join(separator);

const WRITTEN: ReadonlyArray<readonly [string, string]> = [
  ['&NegativeVeryThinSpace; between letters', spread('kill yourself', '&NegativeVeryThinSpace;')],
  ['an empty span between letters', spread('kill yourself', '<span class="x"></span>')],
  ['40 empty <b> between letters', spread('kill yourself', '<b></b>'.repeat(40))],
  ['&#8203; between letters', spread('kill yourself', '&#8203;&#8203;&#8203;&#8203;')],
  ['300 <br> between the words', `kill${'<br>'.repeat(300)}yourself`],
  ['1,000 spaces between the words', `kill${' '.repeat(1_000)}yourself`],
  ['200 blank lines between the words', `kill${' \n'.repeat(200)}yourself`],
  [
    'a comment of 2,000 characters between the words',
    `kill <!-- ${'x'.repeat(2_000)} --> yourself`,
  ],
  [
    'a link destination of 2,000 characters in a word',
    `k[](https://e.io/${'a'.repeat(2_000)})ill yourself`,
  ],
];

const PROSE = 'Here is my answer. Some plain words to stream first. You should ';
const answerOf = (phrase: string) => `${PROSE}${phrase} today.`;

const middleware = contentFilterWindowMiddleware();

/** The parts `streamText` gives for `answer` in `deltas`: type and text. */
async function streamedParts(answer: string, deltas: string[]) {
  const result = streamText({
    model: wrapLanguageModel({ model: modelFor(answer, deltas), middleware }),
    prompt: 'q',
  });
  const parts: Array<[string, string | undefined]> = [];
  for await (const part of result.fullStream) {
    parts.push([part.type, 'text' in part ? (part.text as string) : undefined]);
  }
  return { parts, records: withoutTiming((await getGuardrailOutcome(result))?.records) };
}

/**
 * `answer` streamed by `streamText` in `sizes`: the prose before the entry
 * went out, nothing of the entry, then the blocked message (exact parts).
 * The records.
 */
async function expectProseThenBlocked(answer: string, sizes: number[]) {
  const { parts, records } = await streamedParts(answer, cut(answer, sizes));
  const texts = parts.filter(([type]) => type === 'text-delta').map(([, text]) => text);
  expect(texts.slice(0, -1).join('')).toBe(PROSE);
  expect(texts.at(-1)).toBe('BLOCKED');
  expect(parts.map(([type]) => type)).toEqual([
    'start',
    'start-step',
    'text-start',
    ...texts.slice(0, -1).map(() => 'text-delta'),
    'text-end',
    'text-start',
    'text-delta',
    'text-end',
    'finish-step',
    'finish',
  ]);
  return records;
}

describe('contentFilter in window mode: an entry written longer than the window', () => {
  for (const [label, phrase] of WRITTEN) {
    it(`${label}: 4-character deltas give the prose, then the block (exact parts and record)`, async () => {
      const answer = answerOf(phrase);
      expect(await generatedText(middleware, answer)).toBe('BLOCKED');
      expect(await expectProseThenBlocked(answer, [4])).toEqual([SELF_HARM_BLOCKED]);
    });

    it(`${label}: any chunking releases no piece of the entry`, async () => {
      const answer = answerOf(phrase);
      for (const sizes of [[1], [7], [answer.length], ...[1, 2, 3].map(randomSizes)]) {
        const deltas = await streamedTextDeltas(middleware, answer, cut(answer, sizes));
        expect(deltas.at(-1), `${sizes}`).toBe('BLOCKED');
        const released = deltas.slice(0, -1).join('');
        expect(PROSE.startsWith(released), `${sizes}`).toBe(true);
      }
    });
  }
});

/** Markup shown as nothing, put between two letters of an entry. */
const HIDDEN = [
  '<b></b>',
  '<span class="x"></span>',
  '</i>',
  '<!---->',
  '<!-- a note -->',
  '&NegativeVeryThinSpace;',
  '&ZeroWidthSpace;',
  '&#8203;',
  '&#x200B;',
  '**',
];
/** Markup shown as a blank, or blanks, put between two words of an entry. */
const BLANK = [' ', '<br>', '<p>', '&nbsp;', ' <b></b>', '&ensp;'];

/** `entry` written with `repeat` hidden units between its letters and blank ones between its words. */
function written(entry: string, next: () => number, repeat: number): string {
  const pick = (list: readonly string[]) => list[Math.floor(next() * list.length)]!;
  const words = entry.split(' ').map(word => [...word].join(pick(HIDDEN).repeat(repeat)));
  return words.join(pick(BLANK).repeat(repeat));
}

describe('contentFilter in window mode: written forms of entries, any chunking (property)', () => {
  const entries = ['kill yourself', 'kill myself', 'end my life', 'i will kill you', 'shit'];

  it('stream == generate (blocked), no piece of the entry released', async () => {
    const next = seededRandom(37);
    for (let round = 0; round < 24; round++) {
      const entry = entries[round % entries.length]!;
      const phrase = written(entry, next, 1 + Math.floor(next() * 12));
      const answer = answerOf(phrase);
      expect(await generatedText(middleware, answer), phrase).toBe('BLOCKED');
      const sizes = Array.from({ length: 16 }, () => 1 + Math.floor(next() * 48));
      const deltas = await streamedTextDeltas(middleware, answer, cut(answer, sizes));
      expect(deltas.at(-1), `${phrase} ${sizes}`).toBe('BLOCKED');
      expect(PROSE.startsWith(deltas.slice(0, -1).join('')), `${phrase} ${sizes}`).toBe(true);
    }
  });

  it('the same markup around words that are no entry streams whole, as generate gives it', async () => {
    const next = seededRandom(38);
    for (let round = 0; round < 12; round++) {
      const phrase = written('kill the process, then skill up', next, 1 + Math.floor(next() * 12));
      const answer = answerOf(phrase);
      expect(await generatedText(middleware, answer), phrase).toBe(answer);
      const sizes = Array.from({ length: 16 }, () => 1 + Math.floor(next() * 48));
      const deltas = await streamedTextDeltas(middleware, answer, cut(answer, sizes));
      expect(deltas.join(''), `${phrase} ${sizes}`).toBe(answer);
    }
  });
});

describe('contentFilter in window mode: a written form past the hold bound', () => {
  it('is held past 16,384 characters, then the stream is blocked (fails closed)', async () => {
    // 70,000 characters of tags between `k` and `ill yourself`: the window
    // checks when the text held grows by half, and the first check past the
    // bound (30,272 held) judges it (no entry whole yet), then blocks.
    const phrase = `k${'<b></b>'.repeat(10_000)}ill yourself`;
    const answer = answerOf(phrase);
    expect(await generatedText(middleware, answer)).toBe('BLOCKED');
    expect(await expectProseThenBlocked(answer, [64])).toEqual([
      {
        guardrail: 'content-filter',
        kind: 'output',
        status: 'blocked',
        reason:
          "window mode: more than 16384 characters held back by a match that does not end (an open bidirectional override, a PEM block without its END line); stream such answers in 'hold' mode or with a larger stream.window",
        info: { heldBack: 30_272, bound: 16_384 },
      },
    ]);
  });

  it('markup with no letters, and a comment never closed after prose, stream whole', async () => {
    for (const answer of [
      `${PROSE}${'<b></b>'.repeat(3_000)} done.`,
      `${PROSE}use <!-- to open a comment, ${'and then plain words follow. '.repeat(800)}`,
    ]) {
      expect(await generatedText(middleware, answer)).toBe(answer);
      const deltas = await streamedTextDeltas(middleware, answer, cut(answer, [64]));
      expect(deltas.join('')).toBe(answer);
      // Released as it came, not held to the end.
      expect(deltas.length).toBeGreaterThan(100);
    }
  });
});
