import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../bench/fixtures';
import { cut } from '../../../test/helpers';
import { contentFilterWindowMiddleware } from '../../../test/helpers/content-filter-cases';
import { generatedText, randomSizes, streamedTextDeltas } from '../../../test/helpers/window';
import { foldText } from '../prompt-injection/fold-text';
import { isReadThrough } from '../shared/normalize-text';
import { TURNED, TURNED_NEIGHBOURHOOD, turnedReadingLetters } from '../shared/upside-down';

const generated = (answer: string) => generatedText(contentFilterWindowMiddleware(), answer);
const streamed = (answer: string, deltas: string[]) =>
  streamedTextDeltas(contentFilterWindowMiddleware(), answer, deltas);

/** A stream of `answer` in `deltas` ends as generateText does: the same text, or BLOCKED after a prefix. */
async function expectStreamAsGenerate(answer: string, deltas: string[], label: string) {
  const whole = await generated(answer);
  const parts = await streamed(answer, deltas);
  if (whole === 'BLOCKED') {
    expect(parts.at(-1), label).toBe('BLOCKED');
    expect(answer.startsWith(parts.slice(0, -1).join('')), label).toBe(true);
  } else {
    expect(whole, label).toBe(answer);
    expect(parts.join(''), label).toBe(answer);
  }
  return { whole, parts };
}

// 160 ordinary characters, no turned letter, nothing an entry begins with.
const ORDINARY =
  'The weather is fine and the garden grows well this year, so we plant more beans and peas along the southern fence line today, then water them all at sunset ok. ';

describe('contentFilter: upside-down text is read where three kinds of turned letter stand near each other, so a window reads it as the whole answer (round 26)', () => {
  it('a turned word far before a two-kind phrase: generate and every chunking of the stream agree', async () => {
    // Three kinds (ɐ ǝ ɹ) 160 characters before `noʎ llıʞ` (ʎ ʞ: two kinds) no longer
    // turn the phrase: before, generateText read the whole answer turned ("kill you")
    // and blocked while the window, which never saw ɐǝɹ with it, released all of it.
    const answer = `Fun fact: ɐǝɹ is flipped. ${ORDINARY}Then noʎ llıʞ`;
    expect(ORDINARY.length).toBe(160);
    expect(await generated(answer)).toBe(answer);
    for (const sizes of [[1], [4], [9], [answer.length], randomSizes(26), randomSizes(27)]) {
      expect(await streamed(answer, cut(answer, sizes))).toSatisfy(
        (parts: string[]) => parts.join('') === answer,
      );
    }
  });

  it('a phrase with three kinds near each other blocks both ways, and its plain first letters are held', async () => {
    // `i will kill you` turned: `noʎ llıʞ llıʍ ı` (ʎ ʞ ʍ). Its first letters `no` are
    // plain: they arrive before any turned letter and, read turned last, end `you`.
    const phrase = 'noʎ llıʞ llıʍ ı';
    const answer = `${ORDINARY}${phrase} and so on.`;
    const at = answer.indexOf(phrase);
    expect(await generated(answer)).toBe('BLOCKED');
    for (const sizes of [[1], [2], [3], [4], [7], [answer.length], randomSizes(5)]) {
      const { parts } = await expectStreamAsGenerate(answer, cut(answer, sizes), `${sizes}`);
      expect(parts.slice(0, -1).join('').length, `${sizes}`).toBeLessThanOrEqual(at);
    }
    // Cut right after `no`: the check there holds it (a turned letter may still follow).
    const deltas = [answer.slice(0, at + 2), answer.slice(at + 2)];
    expect(await streamed(answer, deltas)).toEqual([answer.slice(0, at), 'BLOCKED']);
  });

  it('plain words before a turned phrase are not read with it; a turned word in their token is', () => {
    expect(foldText('Me: sn noʎ llıʞ llıʍ ı')).toBe(
      'me: sn noy llik lliw i\ni will kill you us\n.\nme: us you kill will i',
    );
    expect(foldText(`Fun fact: ɐǝɹ is flipped. ${ORDINARY}Then noʎ llıʞ`)).not.toContain('kill');
    // Two regions far apart read apart, the later first, no blank between them.
    const two = `ǝɹɐ ${ORDINARY}ʎɔɐ`;
    // Then each read in place, with the whole words within 16 units of it (round 28).
    expect(foldText(two).split('\n').slice(1)).toEqual([
      'acy',
      '.',
      'are',
      '.',
      'are the weather is',
      '.',
      'at sunset ok. acy',
    ]);
  });

  it('random mixes of plain, turned and look-alike words, invisible characters and marks: stream equals generate for every chunking', async () => {
    const plain = [
      'the',
      'so',
      'no',
      'you',
      'will',
      'up',
      'pool',
      'garden',
      'sun',
      'do',
      'us',
      'I',
    ];
    const turned = [
      'noʎ llıʞ',
      'noʎ llıʞ',
      'noʎ',
      'llıʞ',
      'llıʍ',
      'ı',
      'ɟlǝsɹnoʎ',
      'ǝɥʇ',
      'uǝpɹɐƃ',
      'qɯoq',
      'ǝdıd',
      'll\u200bıʞ',
      'no\u0301ʎ',
      'ɔ',
      'ʌ',
    ];
    const next = seededRandom(2026);
    const pick = (list: readonly string[]) => list[Math.floor(next() * list.length)]!;
    let blocked = 0;
    for (let sample = 0; sample < 40; sample++) {
      const words: string[] = [];
      const count = 10 + Math.floor(next() * 60);
      const turnedShare = next();
      for (let index = 0; index < count; index++) {
        // Now and then 160 ordinary characters: turned words far apart.
        if (next() < 0.1) words.push(ORDINARY);
        else words.push(next() < turnedShare ? pick(turned) : pick(plain));
        if (next() < 0.05) words.push('\n');
      }
      const answer = words.join(next() < 0.8 ? ' ' : ' \u200b');
      for (const sizes of [[1], [5], randomSizes(sample)]) {
        const { whole } = await expectStreamAsGenerate(
          answer,
          cut(answer, sizes),
          `${JSON.stringify(answer)} ${sizes}`,
        );
        if (sizes[0] === 1 && whole === 'BLOCKED') blocked++;
      }
    }
    // Both outcomes are exercised.
    expect(blocked).toBeGreaterThan(5);
    expect(blocked).toBeLessThan(35);
  }, 120_000);
});

describe('contentFilter: long upside-down text', () => {
  // `have a nice day and thank you ` turned: every kind of turned letter the phrase needs is near.
  const turnedFiller = ' noʎ ʞuɐɥʇ puɐ ʎɐp ǝɔıu ɐ ǝʌɐɥ';
  const phrase = 'ɟlǝsɹnoʎ llıʞ'; // kill yourself

  it('1 MB of it: generate reads the phrase at its end, and passes the text without it', async () => {
    const filler = turnedFiller.repeat(Math.ceil(1_000_000 / turnedFiller.length));
    expect(await generated(`${filler} ${phrase}`)).toBe('BLOCKED');
    expect(await generated(filler)).toBe(filler);
  }, 120_000);

  it('20 KB of it streamed, the phrase last, with marks and invisible characters between deltas: nothing of the phrase goes out', async () => {
    const filler = `${turnedFiller}\u0301\u200b`.repeat(Math.ceil(20_000 / turnedFiller.length));
    const answer = `${filler} ${phrase}`;
    const at = answer.indexOf(phrase);
    for (const sizes of [[7], randomSizes(41)]) {
      const { parts } = await expectStreamAsGenerate(answer, cut(answer, sizes), `${sizes}`);
      expect(parts.at(-1)).toBe('BLOCKED');
      const released = parts.slice(0, -1).join('').length;
      expect(released, `${sizes}`).toBeLessThanOrEqual(at);
      // It streams: all but the last 140 characters read or so went out before the block.
      expect(released, `${sizes}`).toBeGreaterThan(at - 400);
    }
  }, 120_000);
});

describe('turnedReadingLetters: the turned letters with three kinds within 16 counted characters', () => {
  it('answers as a count of every pair, on 3,000 random texts with invisible characters, marks and astral ones', () => {
    const pieces = [
      ...TURNED,
      'a',
      'no',
      ' ',
      '\u200b',
      '\u0301',
      '\ud83d\ude00',
      'ı',
      'ordinary words ',
    ];
    const next = seededRandom(616);
    let read = 0;
    for (let sample = 0; sample < 3_000; sample++) {
      let text = '';
      for (let index = 0, count = Math.floor(next() * 80); index < count; index++) {
        text += pieces[Math.floor(next() * pieces.length)];
      }
      // The reference: counted characters before each turned letter, then every pair.
      const letters: Array<{ at: number; counted: number; kind: number }> = [];
      for (let at = 0; at < text.length; at++) {
        const kind = TURNED.indexOf(text[at]!);
        if (kind >= 0) letters.push({ at, counted: countedOfPrefix(text, at), kind });
      }
      const kindsTotal = new Set(letters.map(letter => letter.kind)).size;
      const expected = letters
        .filter(
          letter =>
            kindsTotal >= 3 &&
            new Set(
              letters
                .filter(other => Math.abs(other.counted - letter.counted) <= TURNED_NEIGHBOURHOOD)
                .map(other => other.kind),
            ).size >= 3,
        )
        .map(letter => [letter.at, letter.counted]);
      const got: number[][] = [];
      turnedReadingLetters(text, (at, counted) => got.push([at, counted]));
      expect(got, JSON.stringify(text)).toEqual(expected);
      read += got.length;
    }
    expect(read).toBeGreaterThan(10_000);
  });
});

/** The code points of `text` before `end` a detector reads (`countedStart`'s rule), counted forward. */
function countedOfPrefix(text: string, end: number): number {
  let count = 0;
  for (const character of text.slice(0, end)) {
    const codePoint = character.codePointAt(0)!;
    if ((codePoint >= 0x20 && codePoint < 0x7f) || !isReadThrough(codePoint)) count++;
  }
  return count;
}
