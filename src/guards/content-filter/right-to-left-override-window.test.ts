import { describe, expect, it } from 'vitest';
import { cut } from '../../../test/helpers';
import { contentFilterWindowMiddleware } from '../../../test/helpers/content-filter-cases';
import { generatedText, randomSizes, streamedTextDeltas } from '../../../test/helpers/window';

const RLO = '\u202e';
const PDF = '\u202c';

const middleware = contentFilterWindowMiddleware;

const generated = (answer: string) => generatedText(middleware(), answer);

const streamedDeltas = (answer: string, deltas: string[]) =>
  streamedTextDeltas(middleware(), answer, deltas);

describe('contentFilter in window mode: a right-to-left override is held until its stretch ends', () => {
  // foldText reads the stretch after U+202E reversed (what the screen shows).
  // The hook only read the last ~52 characters: an override further back was
  // in no check, and the listed phrase it shows streamed out.
  const long = `Hi.${RLO}${'dnif '.repeat(40)}flesruoy llik`;
  const short = `Fine. ${RLO}flesruoy llik and then more words to push the window along, nothing else.`;
  const closed = `Fine. ${RLO}flesruoy llik${PDF} and then more words to push the window along.`;

  for (const [label, answer] of [
    ['far back', long],
    ['short, open to the end', short],
    ['short, closed by U+202C', closed],
  ] as const) {
    it(`${label}: generate blocks, and the stream releases nothing of the stretch, any chunking`, async () => {
      expect(await generated(answer)).toBe('BLOCKED');
      const override = answer.indexOf(RLO);
      for (const sizes of [
        [1],
        [3],
        [7],
        [32],
        [answer.length],
        ...[1, 2, 3, 4].map(randomSizes),
      ]) {
        const deltas = await streamedDeltas(answer, cut(answer, sizes));
        expect(deltas.at(-1), `${sizes}`).toBe('BLOCKED');
        const released = deltas.slice(0, -1).join('');
        expect(answer.startsWith(released)).toBe(true);
        expect(released.length, `${sizes}`).toBeLessThanOrEqual(override);
      }
    });
  }

  it('a short override releases none of its stretch before it closes, wherever a check falls', async () => {
    for (let offset = 1; offset <= 80; offset++) {
      const answer = `${'word '.repeat(40).slice(0, offset)} ${RLO}flesruoy llik, then some more words.`;
      expect(await generated(answer)).toBe('BLOCKED');
      const deltas = await streamedDeltas(answer, cut(answer, [1]));
      expect(deltas.at(-1)).toBe('BLOCKED');
      const released = deltas.slice(0, -1).join('');
      expect(answer.startsWith(released)).toBe(true);
      expect(released.length, `offset ${offset}`).toBeLessThanOrEqual(answer.indexOf(RLO));
    }
  });

  it('the long case: nothing after "Hi." goes out (before: all 217 characters, unblocked)', async () => {
    const deltas = await streamedDeltas(long, cut(long, [1]));
    expect(deltas).toEqual(['Hi.', 'BLOCKED']);
  });

  it('an override closed by a paragraph break ends the hold: text after it streams', async () => {
    // A blank line: in Markdown a single line break joins the lines, and the override goes on (round 27).
    const answer = `Name: ${RLO}olleh\n\nThen ${'ordinary words go on here '.repeat(8)}end.`;
    expect(await generated(answer)).toBe(answer);
    const deltas = await streamedDeltas(answer, cut(answer, [1]));
    expect(deltas.join('')).toBe(answer);
    // Released before the end: the stretch closed, so the hold did not last.
    expect(deltas.length).toBeGreaterThan(3);
  });

  it('an override left open holds its stretch to the end of the part, then releases it judged whole', async () => {
    // Within the window's hold bound (16,384 characters read, MIN_HOLD_BOUND).
    const answer = `Intro words. ${RLO}${'olleh dlrow '.repeat(15)}`;
    expect(await generated(answer)).toBe(answer);
    const deltas = await streamedDeltas(answer, cut(answer, [5]));
    expect(deltas.join('')).toBe(answer);
    // Nothing of the stretch before the part ended: one delta holds all of it.
    expect(deltas.at(-1)!.startsWith(RLO)).toBe(true);
  });

  it('an override left open past the hold bound fails closed (round 29; before: 48,000 characters held to the end)', async () => {
    const answer = `Intro words. ${RLO}${'olleh dlrow '.repeat(4_000)}`;
    expect(await generated(answer)).toBe(answer);
    const deltas = await streamedDeltas(answer, cut(answer, [50]));
    expect(deltas).toEqual(['Intro words. ', 'BLOCKED']);
  });

  it('Hebrew and Arabic with RLM / ALM marks (no override) still stream', async () => {
    const answer = `שלום עולם\u200f, זה טקסט רגיל. مرحبا بالعالم\u061c هذا نص عادي. ${'more words here '.repeat(10)}`;
    expect(await generated(answer)).toBe(answer);
    const deltas = await streamedDeltas(answer, cut(answer, [1]));
    expect(deltas.join('')).toBe(answer);
    expect(deltas.length).toBeGreaterThan(3);
  });
});
