import { generateText, streamText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { cut, modelFor } from '../../test/helpers';
import { rawWhereGenerateRedacts } from '../../test/helpers/window-differential';
import { pii } from '../guards/pii/pii';
import { guardrails } from './guardrails-middleware';

/*
 * The lead reverted r50-hL after this review: each case below streams as
 * generate again (plain tests; they failed with hL's bound).
 *
 * Round 50 third review (hO) of r50-hL (issue 16), a leak: with pii's NER
 * entities, a one-line run of names (20,487 characters of `First Last `
 * pairs from the seeded list below, deltas of 20) streamed exactly as
 * generate at the base 14a3fe92. With r50-hL (checks scheduled at the hold
 * bound plus one once the next step would pass it, `nextCheckAfter`, and
 * `heldPastRelease`) the stream releases raw `Mikhail`, `Rossi`, `Fatima`,
 * `Haddad` where generate redacts them (the stream is 6,772 characters,
 * generate 6,747; first difference at 4,947). Reverting only hL's two
 * changes in a scratch copy gives the base's stream again (equal to
 * generate); disabling hK's `lastRead` does not. Expected: no word raw
 * that generate redacts; observed: four.
 */

const FIRSTS = [
  ...['Maria', 'James', 'Anna', 'Lars', 'Priya', 'Kenji', 'Olga', 'Pedro', 'Fatima', 'John'],
  ...['Emily', 'Chen', 'Sofia', 'David', 'Ahmed', 'Laura', 'Mikhail', 'Grace', 'Tom', 'Ines'],
];
const LASTS = [
  ...['Lopez', 'Smith', 'Kowalski', 'Nilsson', 'Patel', 'Tanaka', 'Ivanova', 'Santos', 'Haddad'],
  ...['Miller', 'Brown', 'Wei', 'Rossi', 'Cohen', 'Khan', 'Garcia', 'Petrov', 'Okafor', 'Baker'],
  'Silva',
];

/** `First Last ` pairs from a fixed linear congruential sequence, to past 20 KB. */
function nameRun(): string {
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  let text = '';
  while (text.length < 20 * 1024) text += `${FIRSTS[next(20)]} ${LASTS[next(20)]} `;
  return text;
}

const middleware = () =>
  guardrails({
    output: [pii({ entities: ['PERSON', 'LOCATION', 'ORGANIZATION'], action: 'redact' })],
    stream: { mode: 'window' },
  });

describe('attack r50 review 3: the hold bound without hooks releases names raw', () => {
  // Observed since r50-hL: ['Mikhail', 'Rossi', 'Fatima', 'Haddad'] raw.
  it('a 20 KB one-line name run: no word raw that generate redacts (deltas of 20)', async () => {
    const text = nameRun();
    expect(text.length).toBe(20_487);
    const generated = (
      await generateText({
        model: wrapLanguageModel({ model: modelFor(text, [text]), middleware: middleware() }),
        prompt: 'hi',
      })
    ).text;
    expect(generated.length).toBe(6_747);
    const streamed = await streamText({
      model: wrapLanguageModel({
        model: modelFor(text, cut(text, [20])),
        middleware: middleware(),
      }),
      prompt: 'hi',
    }).text;
    expect(rawWhereGenerateRedacts(text, generated, streamed)).toEqual([]);
    expect(streamed).toBe(generated);
  }, 120_000);
});
