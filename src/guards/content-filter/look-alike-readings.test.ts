import { generateText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { textModel } from '../../../test/helpers';
import { getGuardrailOutcome, guardrails } from '../../index';
import { foldText } from '../prompt-injection/fold-text';
import { contentFilter } from './content-filter';

/*
 * Round 25: what round 24's look-alike folding still read otherwise than a
 * person does (`foldText`, read by contentFilter, the injection signals and
 * the injection and harmful models).
 */

/** generateText of `answer` through contentFilter({ blocklist }): the text the app gets and the records. */
async function filtered(blocklist: string[], answer: string) {
  const result = await generateText({
    model: wrapLanguageModel({
      model: textModel(answer),
      middleware: guardrails({ output: [contentFilter({ blocklist, categories: {} })] }),
    }),
    prompt: 'q',
  });
  const records = (await getGuardrailOutcome(result))?.records ?? [];
  return [result.text, records.map(record => [record.guardrail, record.status, record.reason])];
}

const BLOCKED = [
  'This content is not allowed.',
  [['content-filter', 'blocked', 'matched blocklist entry 0']],
];
const passed = (answer: string) => [answer, [['content-filter', 'passed', undefined]]];

describe('turned m (generateText, contentFilter)', () => {
  it('ɯ reads as the w it is drawn as; turned back, upside-down text reads it as m', async () => {
    // LATIN SMALL LETTER TURNED M is drawn as a w (Unicode's confusables give w).
    expect(await filtered(['weapon'], 'Buy a ɯeapon now')).toEqual(BLOCKED);
    expect(await filtered(['meapon'], 'Buy a ɯeapon now')).toEqual(passed('Buy a ɯeapon now'));
    expect(foldText('ɯeapon')).toBe('weapon');
    // Upside-down text (`me ʞɔɐʇʇɐ` turned): the second reading turns ɯ back into m.
    expect(foldText('ǝɯ ʞɔɐʇʇɐ')).toBe('ew kcatta\nattack me');
    expect(await filtered(['attack me'], 'ǝɯ ʞɔɐʇʇɐ')).toEqual(BLOCKED);
  });
});
