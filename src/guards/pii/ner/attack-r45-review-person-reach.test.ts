import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../../test/helpers';
import { findPii } from '../find-pii-bundled';
import { pii } from '../pii';

/*
 * Round 45 review (hJ): the person reading of a country name (places.ts,
 * `personReading`, round 45: `Jordan said she …` is a PERSON) read its
 * pronoun three tokens on, however far in characters. With 250 blanks
 * between, `generateText` read the pronoun and hid `Jordan`; window mode,
 * which holds back 127 characters after a name, had released it before the
 * pronoun came (at f45bd334 neither mode hid it). The pronoun must now end
 * within 127 characters of the name's start, as the firm cues' words do
 * (`ner-firm-cue-reach.test.ts`) and the list rule's items (`listAhead`).
 */

const persons = (text: string) =>
  findPii(text, { entities: ['PERSON'] }).map(span => text.slice(span.start, span.end));

// "Jordan said" (11) + blanks + "she": the pronoun ends at 14 + the blanks.
const said = (blanks: number) => `Jordan said${' '.repeat(blanks)}she would call me back.`;

describe('a person reading of a country name reads its pronoun within 127 characters', () => {
  it('the pronoun ending at 127 makes a person, at 128 not (nor at 264)', () => {
    expect(persons('Jordan said she would call me back.')).toEqual(['Jordan']);
    expect(persons(said(113))).toEqual(['Jordan']);
    expect(persons(said(114))).toEqual([]);
    expect(persons(said(250))).toEqual([]);
  });

  it.each([
    ['said', said(250)],
    ['said that', `Jordan said that${' '.repeat(250)}she would call me back.`],
    ['said, near', 'Jordan said she would call me back.'],
  ])('stream in window mode == generate (%s)', async (_, text) => {
    const guard = pii({ entities: ['PERSON'], action: 'redact' });
    const { generated, streamed } = await windowAndGenerateTexts(guard, text, [
      [1],
      [3],
      [7],
      [30],
      [1, 7, 3],
    ]);
    for (const stream of streamed) expect(stream).toBe(generated);
  });
});
