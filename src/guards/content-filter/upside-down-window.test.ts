import { describe, expect, it } from 'vitest';
import { cut } from '../../../test/helpers';
import { contentFilterWindowMiddleware } from '../../../test/helpers/content-filter-cases';
import { generatedText, randomSizes, streamedTextDeltas } from '../../../test/helpers/window';

const middleware = contentFilterWindowMiddleware;

const generated = (answer: string) => generatedText(middleware(), answer);

const streamedDeltas = (answer: string, deltas: string[]) =>
  streamedTextDeltas(middleware(), answer, deltas);

// What "flip text" generators write: letters turned, in reverse order.
const TURNED: Record<string, string> = {
  a: 'ɐ',
  b: 'q',
  c: 'ɔ',
  d: 'p',
  e: 'ǝ',
  f: 'ɟ',
  g: 'ƃ',
  h: 'ɥ',
  i: 'ı',
  j: 'ɾ',
  k: 'ʞ',
  m: 'ɯ',
  n: 'u',
  p: 'd',
  q: 'b',
  r: 'ɹ',
  t: 'ʇ',
  u: 'n',
  v: 'ʌ',
  w: 'ʍ',
  y: 'ʎ',
};
function upsideDown(text: string): string {
  return [...text]
    .reverse()
    .map(character => TURNED[character] ?? character)
    .join('');
}

describe('contentFilter in window mode: upside-down text, read right to left, is held until it can no longer join an entry', () => {
  const phrase = upsideDown('kill yourself'); // ɟlǝsɹnoʎ llıʞ
  const filler = upsideDown(
    'well then, here is what i think you should do about all of this right now, my friend, and please do it soon, today, without waiting',
  );
  // The phrase's start ("kill", read first once turned) arrives last.
  const answer = `Sure. ${filler} ${phrase}`;

  it('generate blocks; the stream releases nothing of the phrase, any chunking ', async () => {
    expect(answer.length).toBe(151);
    expect(await generated(answer)).toBe('BLOCKED');
    const at = answer.indexOf(phrase);
    for (const sizes of [
      [1],
      [3],
      [4],
      [7],
      [32],
      [answer.length],
      ...[1, 2, 3].map(randomSizes),
    ]) {
      const deltas = await streamedDeltas(answer, cut(answer, sizes));
      expect(deltas.at(-1), `${sizes}`).toBe('BLOCKED');
      const released = deltas.slice(0, -1).join('');
      expect(answer.startsWith(released), `${sizes}`).toBe(true);
      expect(released.length, `${sizes}`).toBeLessThanOrEqual(at);
    }
    // 4-character deltas: while a turned letter is among them, the last 140 characters
    // read stay held back (the filter's maxMatchLength, 76, and twice TURNED_REACH, 32:
    // what decides on either side of a match whether it reads turned, round 26).
    // Round 46: the window's first check ended right after punctuation of the turned
    // filler and waits one delta (hH's punctuation wait); by then turned
    // letters hold the text back to its start, so `Sure` is not released first.
    expect(await streamedDeltas(answer, cut(answer, [4]))).toEqual(['BLOCKED']);
  });

  it('wherever a check falls, no released prefix holds a character of the phrase', async () => {
    for (let offset = 0; offset <= 60; offset++) {
      const text = `${'Fine words. '.repeat(6).slice(0, offset)} ${filler.slice(0, 40)} ${phrase} ${upsideDown('and more')}`;
      expect(await generated(text)).toBe('BLOCKED');
      const deltas = await streamedDeltas(text, cut(text, [1]));
      expect(deltas.at(-1)).toBe('BLOCKED');
      const released = deltas.slice(0, -1).join('');
      expect(text.startsWith(released)).toBe(true);
      expect(released.length, `offset ${offset}`).toBeLessThanOrEqual(text.indexOf(phrase));
    }
  });

  it('harmless upside-down text still streams, and stream equals generate', async () => {
    const harmless = `Here it is flipped: ${upsideDown('have a wonderful day, and thank you for asking me about this little trick, it is fun to write text this way ').repeat(5)}Done.`;
    expect(await generated(harmless)).toBe(harmless);
    for (const sizes of [[1], [4], [harmless.length], randomSizes(7)]) {
      const deltas = await streamedDeltas(harmless, cut(harmless, sizes));
      expect(deltas.join('')).toBe(harmless);
      if (sizes[0] !== harmless.length) expect(deltas.length, `${sizes}`).toBeGreaterThan(3);
    }
  });
});
