import { generateText, streamText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { cut, modelFor } from '../../test/helpers';
import { rawWhereGenerateRedacts } from '../../test/helpers/window-differential';
import { pii } from '../guards/pii/pii';
import { guardrails } from './guardrails-middleware';

/*
 * Round 51 second review (hI) of r51-hD (c3debeef) and r51-hE (f6e9ea85)
 * merged (a clean merge, 855f926a in the review's scratch worktree). A
 * list of names, one a line (83 lines, 1,126 characters, seeded generator
 * of this review, seed 515103, text 90), streamed in window mode with
 * PERSON, STREET_ADDRESS, LOCATION, ORGANIZATION. At the base, at hD alone
 * and at hE alone the stream equals generate, in one delta and in deltas
 * of 30. Merged, in one delta it does not: generate (hE's tagger: an
 * address run no longer ends 160 characters after its B token, and goes
 * on over lines of at most 64 characters) reads most of the list as one
 * address run, cut into lines (`[STREET_ADDRESS]` a line); the window's
 * checks (hD's hook: context of `maxMatchLength` before the pending text)
 * start after that run's B token and read the lines as names, releasing
 * `[PERSON] van der [PERSON]`: `van der` raw where generate redacts the
 * line. hE's claim (the cut is the same from any start that sees at least
 * the bound of the run) does not hold once the run itself has no bound.
 * Expected: streamed === generated; observed merged: differs, raw
 * ['van', 'der'].
 */
const NAMES = [
  'Katarzyna Müller',
  'Fatima Fischer',
  'Chloé Chen',
  'Giulia Novak',
  'Nguyen van der Berg',
  'José Haddad',
  'José Nakamura',
  "Zoë O'Brien",
  "Dmitri O'Brien",
  'Ahmed Dubois',
  'Zoë Patel',
  "Priya O'Brien",
  'Mateo García',
  'Lars García',
  'Lars Smith',
  "Anna O'Brien",
  'José Nakamura',
  'Dmitri Smith',
  'Priya Lopez',
  'Anna Lopez',
  'Nguyen Nakamura',
  'Olusegun Kim',
  'Chloé Ivanova',
  'Dmitri Andersson',
  'Chloé Rossi',
  'Björn Ivanova',
  'Mateo Silva',
  'Lars Patel',
  'Yuki Smith',
  'Ahmed Chen',
  'Katarzyna Kim',
  'Fatima Okafor',
  'Zoë Fischer',
  'Giulia Lopez',
  'Ahmed Ivanova',
  'Wei Okafor',
  'Chloé García',
  'Yuki Novak',
  'Katarzyna Patel',
  'Hannah Smith',
  'Olusegun van der Berg',
  'Dmitri van der Berg',
  'Olusegun Novak',
  'Priya García',
  'Dmitri Rossi',
  'Dmitri Kim',
  'Dmitri Müller',
  'Chloé Chen',
  'José Haddad',
  "Wei O'Brien",
  'Priya Nakamura',
  'Mateo Ivanova',
  'Giulia Silva',
  'Chloé Haddad',
  'Katarzyna van der Berg',
  'Chloé Okafor',
  'Anna Lopez',
  'Priya Rossi',
  'Giulia Chen',
  'Seán Fischer',
  'Olusegun Smith',
  'José Müller',
  'Maria Fischer',
  'Chloé Novak',
  'Chloé Ivanova',
  'Olusegun Novak',
  'Chloé Silva',
  'Wei Haddad',
  'Maria Okafor',
  'Maria Chen',
  'Ahmed van der Berg',
  'Nguyen Okafor',
  'Chloé Haddad',
  'Mateo Dubois',
  'Priya Chen',
  'Katarzyna Dubois',
  'Fatima Smith',
  'Hannah Andersson',
  'Seán Smith',
  'Dmitri Andersson',
  'Dmitri Smith',
  'Olusegun Nakamura',
  'Maria Dubois',
].join('\n');

const FOUR = ['PERSON', 'STREET_ADDRESS', 'LOCATION', 'ORGANIZATION'] as const;

/** What generate gives for `text`, and what the window stream in deltas of `size` gives and how it ends. */
async function generatedAndStreamed(text: string, size: number) {
  const make = () =>
    guardrails({
      output: [pii({ entities: [...FOUR], action: 'redact' })],
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

describe('attack r51 review 2 (hI): hD and hE merged, a name list read as one address run', () => {
  it.fails('a list of names, one a line, in one delta streams as generate gives it', async () => {
    expect(NAMES.length).toBe(1_126);
    const { generated, streamed, finish } = await generatedAndStreamed(NAMES, NAMES.length);
    expect(finish).toBe('stop');
    expect(rawWhereGenerateRedacts(NAMES, generated, streamed)).toEqual([]);
    expect(streamed).toBe(generated);
  }, 120_000);
});
