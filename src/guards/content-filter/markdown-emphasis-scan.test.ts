import { describe, expect, it } from 'vitest';
import { hasEmphasis, withJoinersBlank, withoutEmphasis } from './markdown-emphasis';

/**
 * Round 40: `withoutEmphasis`, `withJoinersBlank` and `hasEmphasis` skip to
 * the next character they act on with a native search instead of reading
 * every unit. These pin their answers where the skip starts, ends or
 * resumes: markup first and last, runs of it, a range (`from`, `to`) with
 * markup outside it, a tag or destination read past the range. (The
 * answers are those of the unit-by-unit loops, compared on 200,000 random
 * texts of markup when the change was made.)
 */
describe('Markdown reading: the native skip gives the unit-by-unit answers', () => {
  const shown = (text: string, from?: number, to?: number) => {
    const found = { openComment: -1 };
    const read = withoutEmphasis(text, from, to, found);
    return {
      read: read === undefined ? undefined : { text: read.text, origin: Array.from(read.origin) },
      openComment: found.openComment,
    };
  };

  it('withoutEmphasis: the text as shown and where each unit was, in a range too', () => {
    const cases: Array<[[string, number?, number?], ReturnType<typeof shown>]> = [
      [
        ['*kill* you'],
        { read: { text: 'kill you', origin: [1, 2, 3, 4, 6, 7, 8, 9] }, openComment: -1 },
      ],
      [
        ['kill you*'],
        { read: { text: 'kill you', origin: [0, 1, 2, 3, 4, 5, 6, 7] }, openComment: -1 },
      ],
      [['plain text with no markup at all'], { read: undefined, openComment: -1 }],
      [['a * b'], { read: undefined, openComment: -1 }],
      [['x **y** z', 2, 7], { read: { text: 'y', origin: [4] }, openComment: -1 }],
      [['**y** z', 2], { read: { text: 'y z', origin: [2, 5, 6] }, openComment: -1 }],
      [['k<b>il</b>l', 0, 5], { read: { text: 'ki', origin: [0, 4] }, openComment: -1 }],
      [
        ['[kill](https://a.io) you', 1],
        { read: { text: 'kill you', origin: [1, 2, 3, 4, 20, 21, 22, 23] }, openComment: -1 },
      ],
      [['&#107;ill', 0, 6], { read: { text: 'k', origin: [0] }, openComment: -1 }],
      [['s<!-- x', 0, 7], { read: undefined, openComment: 1 }],
    ];
    for (const [[text, from, to], expected] of cases) {
      expect(shown(text, from, to), JSON.stringify([text, from, to])).toEqual(expected);
    }
  });

  it('withJoinersBlank: each run of joiners between two letters as blanks, else undefined', () => {
    const cases: Array<[string, string | undefined]> = [
      ['kill-you', 'kill you'],
      ['v1.2 and 3.14', undefined],
      ['a--b_c/d.', 'a  b c d '],
      ['-lead', undefined],
      ['trail.', 'trail '],
      ['no joiners here', undefined],
      ['é.ü', 'é ü'],
    ];
    for (const [text, expected] of cases) expect(withJoinersBlank(text), text).toBe(expected);
  });

  it('hasEmphasis: true only where a character may change what is shown', () => {
    const cases: Array<[string, boolean]> = [
      ['no markup', false],
      ['a * b', false],
      ['*x', true],
      ['x_', true],
      ['a & b', false],
      ['a &b', true],
      ['2-3', false],
      ['a-b', false],
      ['q x b a', false],
      ['a [ b', true],
    ];
    for (const [text, expected] of cases) expect(hasEmphasis(text), text).toBe(expected);
  });
});
