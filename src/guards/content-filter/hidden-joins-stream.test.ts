import { streamText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../bench/fixtures';
import { cut, modelFor } from '../../../test/helpers';
import {
  contentFilterGenerate,
  contentFilterWindowMiddleware,
  SELF_HARM_BLOCKED,
} from '../../../test/helpers/content-filter-cases';
import { generatedText, randomSizes, streamedTextDeltas } from '../../../test/helpers/window';

/**
 * Round 37 (hM): a word whose letters are joined by markup shown as
 * nothing (`s`, ten `&NegativeVeryThinSpace;`, then `k`, ten more, `i`,
 * ...: shown `skill`) was released in part, and the next check's left
 * context, cut by the window inside that run (no word start in what it
 * keeps), read `…ThinSpace;kill yourself`: the stream blocked what
 * generate passes. The filter now holds such a word from its start until a
 * word starts after it, so the context never begins inside it.
 */

const PROSE = 'Here is my answer. Some plain words to stream first. You should ';
const spread = (phrase: string, separator: string) => [...phrase].join(separator);
const NVTS = '&NegativeVeryThinSpace;';

/** `skill yourself up`: no entry as shown, nor as written (each letter of `skill` apart). */
const SKILL: ReadonlyArray<readonly [string, string]> = [
  ['ten &NegativeVeryThinSpace;', `${spread('skill', NVTS.repeat(10))} yourself up`],
  ['ten &#8203;', `${spread('skill', '&#8203;'.repeat(10))} yourself up`],
  ['ten &zwj;', `${spread('skill', '&zwj;'.repeat(10))} yourself up`],
  ['ten <b></b>', `${spread('skill', '<b></b>'.repeat(10))} yourself up`],
  ['forty U+200B', `${spread('skill', '\u200b'.repeat(40))} yourself up`],
  ['a comment', `${spread('skill', '<!-- a note that is rather long -->')} yourself up`],
];

const middleware = contentFilterWindowMiddleware();
const answerOf = (phrase: string) => `${PROSE}${phrase} today.`;

describe('contentFilter in window mode: a word joined by hidden markup', () => {
  for (const [label, phrase] of SKILL) {
    it(`${label}: streamText gives the whole answer, as generate does (exact parts)`, async () => {
      const answer = answerOf(phrase);
      expect(await generatedText(middleware, answer)).toBe(answer);
      const result = streamText({
        model: wrapLanguageModel({ model: modelFor(answer, cut(answer, [4])), middleware }),
        prompt: 'q',
      });
      const parts: string[] = [];
      const texts: string[] = [];
      for await (const part of result.fullStream) {
        parts.push(part.type);
        if (part.type === 'text-delta') texts.push(part.text);
      }
      expect(texts.join('')).toBe(answer);
      expect(parts).toEqual([
        'start',
        'start-step',
        'text-start',
        ...texts.map(() => 'text-delta'),
        'text-end',
        'finish-step',
        'finish',
      ]);
    });

    it(`${label}: any chunking streams the whole answer`, async () => {
      const answer = answerOf(phrase);
      for (const sizes of [[1], [7], [64], [answer.length], ...[1, 2, 3, 4].map(randomSizes)]) {
        const deltas = await streamedTextDeltas(middleware, answer, cut(answer, sizes));
        expect(deltas.join(''), `${sizes}`).toBe(answer);
      }
    });
  }

  it('the same words with a letter apart stream blocked, as generate blocks them', async () => {
    // `s`, a blank, then the entry: the hold does not let the entry out.
    const answer = answerOf(`s ${spread('kill', NVTS.repeat(10))} yourself up`);
    expect(await generatedText(middleware, answer)).toBe('BLOCKED');
    for (const sizes of [[1], [4], [64], ...[1, 2].map(randomSizes)]) {
      const deltas = await streamedTextDeltas(middleware, answer, cut(answer, sizes));
      expect(deltas.at(-1), `${sizes}`).toBe('BLOCKED');
      expect(`${PROSE}s `.startsWith(deltas.slice(0, -1).join('')), `${sizes}`).toBe(true);
    }
  });
});

/** Markup shown as nothing. */
const HIDDEN = ['&NegativeVeryThinSpace;', '&#8203;', '&#x200B;', '&zwnj;', '<b></b>', '\u200b'];

describe('contentFilter in window mode: hidden markup between letters, any chunking (property)', () => {
  it('stream == generate on words that are no entry as shown or written', async () => {
    const next = seededRandom(3737);
    for (let round = 0; round < 16; round++) {
      const pick = () => HIDDEN[Math.floor(next() * HIDDEN.length)]!;
      const repeat = 1 + Math.floor(next() * 12);
      const word = (text: string) => [...text].map(letter => letter + pick().repeat(repeat));
      const phrase = `${word('skill').join('')} yourself up, ${word('askill').join('')}`;
      const answer = answerOf(phrase);
      expect(await generatedText(middleware, answer), phrase).toBe(answer);
      const sizes = Array.from({ length: 16 }, () => 1 + Math.floor(next() * 48));
      const deltas = await streamedTextDeltas(middleware, answer, cut(answer, sizes));
      expect(deltas.join(''), `${phrase} ${sizes}`).toBe(answer);
    }
  });
});

const PASSED = { guardrail: 'content-filter', kind: 'output', status: 'passed' };

describe('contentFilter: a character reference for an invisible character and the character', () => {
  it('read the same as shown: joined to the letter before, no entry', async () => {
    for (const answer of [
      `s${NVTS}k${NVTS}ill yourself`,
      's\u200bk\u200bill yourself',
      's&#8203;k&#8203;ill yourself',
    ]) {
      expect(await contentFilterGenerate(answer)).toEqual({ text: answer, records: [PASSED] });
    }
  });

  it('read the same as shown: with no letter before, the entry', async () => {
    for (const answer of [`${NVTS}kill yourself`, '\u200bkill yourself', '&#8203;kill yourself']) {
      expect(await contentFilterGenerate(answer)).toEqual({
        text: 'This content is not allowed.',
        records: [SELF_HARM_BLOCKED],
      });
    }
  });

  it('the reference is also read as written: `;kill yourself` is shown by an app that shows text raw', async () => {
    // Shown, `s&NegativeVeryThinSpace;kill` is `skill`, as `s\u200bkill` is;
    // written, it is `s&NegativeVeryThinSpace;` then the word `kill`.
    expect(await contentFilterGenerate(`s${NVTS}kill yourself`)).toEqual({
      text: 'This content is not allowed.',
      records: [SELF_HARM_BLOCKED],
    });
    expect(await contentFilterGenerate('s\u200bkill yourself')).toEqual({
      text: 's\u200bkill yourself',
      records: [PASSED],
    });
  });
});
