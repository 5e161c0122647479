import { describe, expect, it } from 'vitest';
import { promptSentWithRecords, windowAndGenerateTexts } from '../../../test/helpers';
import { findPii } from './find-pii-bundled';
import { pii } from './pii';

/**
 * Round 17: a phone number after a phone word and a `-` (`tel-415-555-0132`)
 * passed, though `tel: 415-555-0132` was found: a `-` before a number
 * blocked it whatever stood before the dash. After a letter the dash now
 * joins a label as `:` does, and the number is read only when that label is
 * a phone word. After `@` (`x@415-555-0132`: a handle or an e-mail's local
 * part) and after any other word (`SKU-415-555-0132`: an id) it stays
 * unflagged, as a value glued to a word does.
 */

const phones = (text: string) =>
  findPii(text, { entities: ['PHONE_NUMBER'] }).map(span => text.slice(span.start, span.end));

describe('a phone number after a phone word and a dash', () => {
  it('finds it after tel-, phone-, mobile-, without the label', () => {
    expect(phones('reach me tel-415-555-0132 today')).toEqual(['415-555-0132']);
    expect(phones('phone-4155550132')).toEqual(['4155550132']);
    expect(phones('mobile-07700 900123')).toEqual(['07700 900123']);
  });

  it('leaves a number after another word and a dash, or after @', () => {
    for (const text of [
      'SKU-415-555-0132',
      'ORD-2024-555-0132',
      'x@415-555-0132',
      'Phone-model 4471 2290',
    ]) {
      expect(phones(text), text).toEqual([]);
    }
  });

  it('generateText: the model receives the number redacted, with the record', async () => {
    const { sent, records } = await promptSentWithRecords(
      pii(),
      'Call tel-415-555-0132, not SKU-415-555-0132.',
    );
    expect(sent).toBe('Call tel-[PHONE_NUMBER], not SKU-415-555-0132.');
    expect(records).toEqual([
      {
        guardrail: 'pii',
        kind: 'input',
        status: 'modified',
        info: { types: ['PHONE_NUMBER'], spans: [{ type: 'PHONE_NUMBER', start: 9, end: 21 }] },
      },
    ]);
  });

  it('window streaming ends as generate does, at every cut', async () => {
    const answer = 'Numbers: tel-415-555-0132 and SKU-415-555-0132, fax-212-555-0199.';
    const chunkings = [[1], [2], [3], [5], [7], [1, 4, 2]];
    const { generated, streamed } = await windowAndGenerateTexts(pii(), answer, chunkings);
    expect(generated).toBe('Numbers: tel-[PHONE_NUMBER] and SKU-415-555-0132, fax-[PHONE_NUMBER].');
    expect(streamed).toEqual(chunkings.map(() => generated));
  });
});
