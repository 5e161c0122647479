import { describe, expect, it } from 'vitest';
import { generatedText, streamedTextDeltas } from '../../../test/helpers/window';
import { guardrails } from '../../middleware/guardrails-middleware';
import { pii } from './pii';

/*
 * Round 42, an attacker's read of round 41's placeholder readings (a
 * placeholder the text writes itself no longer hides the name after it;
 * generate reads the text again as redacted so window mode agrees). The
 * round-40 property test (ner-stream-property.test.ts) with written
 * placeholders (`[PERSON] `, `<PERSON_1> `, `[ORGANIZATION]`, `Prof. `)
 * among its extras, seed 7, PERSON alone, found an answer that window mode
 * redacts differently from generate: the `Prof` of `Prof. Maria González`
 * is a `[PERSON]` in the window stream and kept by generate (with only
 * the sentence before it both modes keep it; alone, both write
 * `[PERSON].`, the over-redaction round 41 documents). No value
 * generate hid is released (window hides more); hold mode agrees. At
 * caa94fd1 (round 40) both modes kept `Prof` on this answer with the
 * default placeholder. Found at 285f814f. Fixed in round 43: generate's
 * first reading missed the second `Maria González` (its second reading, with
 * the others as placeholders, found it), so it never read `Prof. [PERSON]`;
 * window mode's text had the first one redacted already, found it at once
 * and read `Prof. [PERSON]` in its second reading, where the honorific alone
 * before the masked placeholder was a name. An honorific alone before a
 * number or masked placeholder is now none (tagger.ts,
 * `honorificBeforeName`), so both keep `Prof`, alone too.
 */

const answer =
  '[PERSON] Siemens hired Maria González as CEO\n\nProf. Maria González plays for Arsenal.[PERSON]  [PERSON] Globex Industries announced a new plant in Oslo.[PERSON]  [ORGANIZATION]Call Maria González on +44 20 7946 0958 or mail maria@example.org[ORGANIZATION] ';
const generateExpected =
  '[PERSON] Siemens hired [PERSON] as CEO\n\nProf. [PERSON] plays for Arsenal.[PERSON]  [PERSON] Globex Industries announced a new plant in Oslo.[PERSON]  [ORGANIZATION]Call [PERSON] on +44 20 7946 0958 or mail maria@example.org[ORGANIZATION] ';

describe('PERSON alone, an answer with placeholders written in it, streamed whole', () => {
  const guard = pii({ entities: ['PERSON'] });

  it('generate hides every Maria González and keeps Prof', async () => {
    expect(await generatedText(guardrails({ output: [guard] }), answer)).toBe(generateExpected);
  });

  it('hold mode streams what generate returns', async () => {
    const hold = guardrails({ output: [guard], stream: { mode: 'hold' } });
    expect((await streamedTextDeltas(hold, answer, [answer])).join('')).toBe(generateExpected);
  });

  it('window mode releases no name generate hid (it hides more, not less)', async () => {
    const window = guardrails({ output: [guard], stream: { mode: 'window' } });
    const released = (await streamedTextDeltas(window, answer, [answer])).join('');
    expect(released).not.toContain('González');
    expect(released).not.toContain('Maria');
  });

  // Found at 285f814f (window mode wrote `[PERSON]. [PERSON] plays` where generate kept `Prof.
  // [PERSON] plays`); fixed in round 43.
  it('window mode streams what generate returns', async () => {
    const window = guardrails({ output: [guard], stream: { mode: 'window' } });
    expect((await streamedTextDeltas(window, answer, [answer])).join('')).toBe(generateExpected);
  });

  it.each([
    // Alone, both modes over-redacted `Prof.` before round 43 (`[PERSON]. [PERSON] plays`, round
    // 41's limit); both keep it now.
    ['Prof. Maria González plays for Arsenal.', 'Prof. [PERSON] plays'],
    [
      '[PERSON] Siemens hired Maria González as CEO\n\nProf. Maria González plays for Arsenal.',
      'Prof. [PERSON] plays',
    ],
  ])('a shorter answer: window mode streams what generate returns (%j)', async (text, part) => {
    const expected = await generatedText(guardrails({ output: [guard] }), text);
    expect(expected).toContain(part);
    const window = guardrails({ output: [guard], stream: { mode: 'window' } });
    expect((await streamedTextDeltas(window, text, [text])).join('')).toBe(expected);
  });
});
