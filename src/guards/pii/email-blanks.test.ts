import { describe, expect, it } from 'vitest';
import { promptSentWithRecords, windowAndGenerateTexts } from '../../../test/helpers';
import { findPii } from './find-pii-bundled';
import { pii } from './pii';

/**
 * An e-mail address with a blank after its `@`, or a blank on both sides,
 * reads to a model as the address (round 17: `jane.doe @ example.com` and
 * `jane.doe@ example.com` passed). A bare `@` between words is a handle, a
 * decorator or an operator far more often, so only unambiguous shapes count:
 * with a blank before the `@` the local part must hold a character no plain
 * word has (`.`, `_`, `+`, `-`, `%` or a digit), a blank before the `@` and
 * none after is a handle or decorator (`@pytest.fixture`), and a domain
 * followed by `(` or `[` is code (`self.W @ x.to(device)`).
 */

const emails = (text: string) =>
  findPii(text, { entities: ['EMAIL_ADDRESS'] }).map(span => text.slice(span.start, span.end));

describe('e-mail addresses with blanks around the @', () => {
  it('finds an address with a blank after the @, or on both sides, blanks inside the span', () => {
    expect(emails('write to jane.doe @ example.com today')).toEqual(['jane.doe @ example.com']);
    expect(emails('write to jane.doe@ example.com today')).toEqual(['jane.doe@ example.com']);
    expect(emails('write to jane@ example.com.')).toEqual(['jane@ example.com']);
    expect(emails('write to j_doe42\t@\texample.co.uk')).toEqual(['j_doe42\t@\texample.co.uk']);
    expect(findPii('mail jdoe+news @ example.org')).toEqual([
      { type: 'EMAIL_ADDRESS', start: 5, end: 28 },
    ]);
  });

  it('leaves words around a bare @, handles, decorators and code alone', () => {
    for (const text of [
      'Available @ amazon.com now',
      'meet @ noon.',
      'using @pytest.fixture here',
      'contact jane.doe @example.com',
      'y = self.W @ x.to(device)',
      'z = a.b @ c.io[0]',
      'jane.doe @ example.notatld',
      'jane  @  example.com',
      'jane.doe @\nexample.com',
    ]) {
      expect(emails(text), text).toEqual([]);
    }
  });

  it('generateText: the model receives the addresses redacted, with the record', async () => {
    const { sent, records } = await promptSentWithRecords(
      pii(),
      'Reach jane.doe @ example.com or bob@ example.org.',
    );
    expect(sent).toBe('Reach [EMAIL_ADDRESS] or [EMAIL_ADDRESS].');
    expect(records).toEqual([
      {
        guardrail: 'pii',
        kind: 'input',
        status: 'modified',
        info: {
          types: ['EMAIL_ADDRESS'],
          spans: [
            { type: 'EMAIL_ADDRESS', start: 6, end: 28 },
            { type: 'EMAIL_ADDRESS', start: 32, end: 48 },
          ],
        },
      },
    ]);
  });

  it('window streaming ends as generate does, at every cut', async () => {
    const answer = 'Write to jane.doe @ example.com, or to bob@ example.org; not to @ noon.';
    const chunkings = [[1], [2], [3], [5], [7], [1, 4, 2]];
    const { generated, streamed } = await windowAndGenerateTexts(pii(), answer, chunkings);
    expect(generated).toBe('Write to [EMAIL_ADDRESS], or to [EMAIL_ADDRESS]; not to @ noon.');
    expect(streamed).toEqual(chunkings.map(() => generated));
  });
});
