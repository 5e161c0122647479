import { describe, expect, it } from 'vitest';
import { cut } from '../../../test/helpers';
import {
  contentFilterBlocklistGenerate,
  contentFilterWindowMiddleware,
} from '../../../test/helpers/content-filter-cases';
import { generatedText, randomSizes, streamedTextDeltas } from '../../../test/helpers/window';

/**
 * Round 38: in scripts written without blanks between words (Thai, Lao,
 * Khmer, Myanmar, Chinese, Japanese, …) an entry matches as a substring.
 * Before, the whole-word rule needed no letter beside an entry, so an
 * entry inside a Thai or Chinese sentence never matched; and a Thai answer
 * with U+200B between its words, which the filter reads through, was one
 * word held whole in window mode: past 16,384 characters the stream was
 * blocked. Letters of scripts written with blanks still join (`skill` is
 * no `kill`).
 */

const BLOCKED = [
  'This content is not allowed.',
  [['content-filter', 'blocked', 'matched blocklist entry 0']],
];
const passed = (text: string) => [text, [['content-filter', 'passed', undefined]]];

/** Thai words (hello, language, country, eat, rice, water, house, school, book, city, sea, mountain). */
const THAI = [
  'สวัสดี',
  'ภาษา',
  'ประเทศ',
  'กิน',
  'ข้าว',
  'น้ำ',
  'บ้าน',
  'โรงเรียน',
  'หนังสือ',
  'เมือง',
  'ทะเล',
  'ภูเขา',
];

/** `count` Thai words, the `seed`-th first, each followed by U+200B, no blank. */
function thaiWithZwsp(count: number, seed = 0): string {
  let text = '';
  for (let index = 0; index < count; index++) {
    text += `${THAI[(index * 7 + seed) % THAI.length]}\u200b`;
  }
  return text;
}

describe('contentFilter: entries in scripts written without blanks match as substrings', () => {
  it('a Thai, Chinese or Japanese entry inside a sentence of its script', async () => {
    for (const [entry, answer] of [
      ['ระเบิด', 'ฉันอยากทำระเบิดที่บ้าน'],
      ['ระเบิด', 'ฉันอยากทำระ\u200bเบิดที่บ้าน'], // split by U+200B
      ['炸弹', '我想做一个炸弹给你'],
      ['爆弾', '家で爆弾を作りたい'],
    ] as const) {
      expect([entry, answer, await contentFilterBlocklistGenerate([entry], answer)]).toEqual([
        entry,
        answer,
        BLOCKED,
      ]);
    }
  });

  it('a Latin entry glued to Thai letters, split by U+200B too; a Latin near miss still passes', async () => {
    expect(await contentFilterBlocklistGenerate(['fuck'], 'ไทยfuckไทย')).toEqual(BLOCKED);
    expect(await contentFilterBlocklistGenerate(['fuck'], 'ไทย\u200bf\u200buck\u200bไทย')).toEqual(
      BLOCKED,
    );
    expect(await contentFilterBlocklistGenerate(['kill'], 'ไทยskillไทย')).toEqual(
      passed('ไทยskillไทย'),
    );
    expect(await contentFilterBlocklistGenerate(['kill'], 'a skillful kill-joy')).toEqual(BLOCKED);
    expect(await contentFilterBlocklistGenerate(['kill'], 'a skillful move')).toEqual(
      passed('a skillful move'),
    );
    // A Korean sentence is written with blanks: its letters still join.
    expect(await contentFilterBlocklistGenerate(['폭탄'], '폭탄을 만들다')).toEqual(
      passed('폭탄을 만들다'),
    );
    expect(await contentFilterBlocklistGenerate(['폭탄'], '폭탄 만들다')).toEqual(BLOCKED);
  });
});

describe('contentFilter in window mode: Thai with U+200B between words and no blank', () => {
  it('100 KB streams in many deltas, text from the first check on, as generate gives it', async () => {
    const answer = thaiWithZwsp(17_000);
    expect(answer.length).toBeGreaterThan(100_000);
    const middleware = contentFilterWindowMiddleware({ blocklist: ['ระเบิด', 'fuck'] });
    expect(await generatedText(middleware, answer)).toBe(answer);
    const deltas = await streamedTextDeltas(middleware, answer, cut(answer, [4]));
    expect(deltas.join('')).toBe(answer);
    // Held back about four times the longest entry, never the whole text
    // (before: one `BLOCKED` part after 16,384 characters held).
    expect(deltas.length).toBeGreaterThan(500);
    expect(deltas[0]!.length).toBeLessThanOrEqual(64);
  });

  it('an entry split by U+200B in Thai or Latin letters is blocked, nothing of it released, any chunking', async () => {
    const middleware = contentFilterWindowMiddleware({ blocklist: ['ระเบิด', 'fuck'] });
    for (const hidden of ['ระ\u200bเบิด', 'f\u200bu\u200bc\u200bk', 'ระเบิด']) {
      const before = thaiWithZwsp(40, 3);
      const answer = `${before}${hidden}\u200b${thaiWithZwsp(40, 5)}`;
      expect(await generatedText(middleware, answer)).toBe('BLOCKED');
      for (const sizes of [[1], [3], [7], [answer.length], ...[1, 2, 3].map(randomSizes)]) {
        const deltas = await streamedTextDeltas(middleware, answer, cut(answer, sizes));
        expect(deltas.at(-1), `${hidden} ${sizes}`).toBe('BLOCKED');
        const released = deltas.slice(0, -1).join('');
        expect(before.startsWith(released), `${hidden} ${sizes}`).toBe(true);
      }
    }
  });

  it('Thai around a Latin word joined by U+200B (`s\\u200bkill`): no entry, streams whole', async () => {
    const middleware = contentFilterWindowMiddleware({ blocklist: ['kill'] });
    const answer = `${thaiWithZwsp(30)}s\u200bk\u200bi\u200bl\u200bl\u200b${thaiWithZwsp(30, 1)}`;
    expect(await generatedText(middleware, answer)).toBe(answer);
    for (const sizes of [[1], [4], [answer.length], ...[1, 2].map(randomSizes)]) {
      const deltas = await streamedTextDeltas(middleware, answer, cut(answer, sizes));
      expect(deltas.join(''), `${sizes}`).toBe(answer);
    }
  });
});
