import { generateText, streamText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { cut, modelFor } from '../../test/helpers';
import { pii } from '../guards/pii/pii';
import { guardrails } from './guardrails-middleware';

/*
 * The lead reverted r50-hL after this review: each case below streams as
 * generate again (plain tests; they failed with hL's bound).
 *
 * Round 50 third review (hO) of r50-hL (issue 16), the ordinary side of the
 * hold bound without hooks: `pii` with NER entities now fails closed once
 * 16,384 characters are held with no break to release at. An ordinary
 * one-line list of places (`Berlin, Paris, Oslo, …`, 19 KB, deltas of 20)
 * is such a run: at the base 14a3fe92 it streamed exactly as generate
 * (its places redacted as generate does, finish `stop`); now the stream ends `BLOCKED`,
 * finish `content-filter`, with nothing of the list released. Same for a
 * semicolon list of cities (60 KB) and `Acme Corp, Maria Lopez, …` (60 KB);
 * a list with line breaks (guest list, table, bibliography, chat) is not
 * blocked. Expected: the stream ends as generate does (as at the base), or
 * at least releases the redacted list in pieces; observed: blocked.
 */

const NAMES = ['PERSON', 'LOCATION', 'ORGANIZATION'] as const;
const ADDRESSES = ['STREET_ADDRESS', 'LOCATION'] as const;
const FOUR = ['PERSON', 'STREET_ADDRESS', 'LOCATION', 'ORGANIZATION'] as const;
const STREETS = ['Elm Street', 'Oak Avenue', 'Main Street', 'Park Road', 'Maple Drive'];
const TOWNS = ['Springfield', 'Portland', 'Denver', 'Austin'];
/** The `index`th address of the lists below (`59 Main Street, Springfield`). */
const address = (index: number) =>
  `${10 + ((index * 7) % 90)} ${STREETS[index % 5]}, ${TOWNS[index % 4]}`;

/** What generate gives for `text`, and what the stream in deltas of `size` gives and how it ends. */
async function generatedAndStreamed(
  text: string,
  size: number,
  entities: readonly (typeof FOUR)[number][],
) {
  const make = () =>
    guardrails({
      output: [pii({ entities: [...entities], action: 'redact' })],
      stream: { mode: 'window' },
      blockedMessage: 'BLOCKED',
    });
  const generated = (
    await generateText({
      model: wrapLanguageModel({ model: modelFor(text, [text]), middleware: make() }),
      prompt: 'hi',
    })
  ).text;
  const result = streamText({
    model: wrapLanguageModel({ model: modelFor(text, cut(text, [size])), middleware: make() }),
    prompt: 'hi',
  });
  let streamed = '';
  let finish = '';
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') streamed += part.text;
    if (part.type === 'finish') finish = part.finishReason;
  }
  return { generated, streamed, finish };
}

describe('attack r50 review 3: the hold bound without hooks blocks ordinary lists and prose', () => {
  // Observed since r50-hL: streamed 'BLOCKED', finish 'content-filter'.
  it('a 19 KB one-line list of cities streams as generate gives it (deltas of 20)', async () => {
    const cities = ['Berlin', 'Paris', 'Oslo', 'Madrid', 'Lisbon', 'Tokyo', 'Boston'];
    const text = Array.from({ length: 2_600 }, (_, index) => cities[(index * 5) % 7]).join(', ');
    expect(text.length).toBe(19_313);
    const { generated, streamed, finish } = await generatedAndStreamed(text, 20, NAMES);
    // generate keeps the list and redacts its names (10,418 characters of 19,313)
    expect(generated.length).toBe(10_418);
    expect(finish).toBe('stop');
    expect(streamed).toBe(generated);
  }, 120_000);

  // An address book, one address a line (820 lines, 19,639 characters,
  // `42 Elm Street, Springfield`), with STREET_ADDRESS and LOCATION: at the
  // base it streamed exactly as generate (3,488 characters of
  // placeholders, finish `stop`; held whole until the end, the memory issue
  // hL bounds); now `BLOCKED`, finish `content-filter`, nothing of
  // the list released. Line breaks do not give the window a break here.
  it('a 20 KB address list, one a line, streams as generate gives it (deltas of 20)', async () => {
    const lines = Array.from({ length: 820 }, (_, index) => `${address(index)}\n`).join('');
    expect(lines.length).toBe(19_639);
    const { generated, streamed, finish } = await generatedAndStreamed(lines, 20, ADDRESSES);
    // generate redacts the list (3,488 characters, placeholders spanning lines)
    expect(generated.length).toBe(3_488);
    expect(generated.startsWith('[STREET_ADDRESS], [LOCATION]\n')).toBe(true);
    expect(finish).toBe('stop');
    expect(streamed).toBe(generated);
  }, 120_000);

  // Prose, sentences with full stops: `Guest 7 lives at 59 Main Street,
  // Springfield. ` to 32,811 characters, deltas of 3, with PERSON,
  // STREET_ADDRESS, LOCATION, ORGANIZATION. At the base it streamed
  // exactly as generate (19,494 characters, finish `stop`); now 5,978
  // characters of it, then `BLOCKED`, finish `content-filter`, record
  // info { heldBack: 16385, bound: 16384 }. (20 KB of it still streams.)
  it('32 KB of sentences naming addresses streams as generate gives it (deltas of 3)', async () => {
    let prose = '';
    for (let index = 0; prose.length < 32 * 1024; index++)
      prose += `Guest ${index} lives at ${address(index)}. `;
    expect(prose.length).toBe(32_811);
    const { generated, streamed, finish } = await generatedAndStreamed(prose, 3, FOUR);
    expect(generated.length).toBe(19_494);
    expect(finish).toBe('stop');
    expect(streamed).toBe(generated);
  }, 120_000);
});
