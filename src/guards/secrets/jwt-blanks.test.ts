import { describe, expect, it } from 'vitest';
import { promptSentWithRecords, windowAndGenerateTexts } from '../../../test/helpers';
import { findSecrets } from './find-secrets';
import { secrets } from './secrets';

/**
 * A JWT written with blanks around its dots (`header . payload . signature`)
 * reads to a model as the token: only its signature was found (as a
 * `HIGH_ENTROPY_STRING`), the header and payload reached the model
 * (round 18). One to three blanks before or after each dot join the parts.
 */
const header = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9';
const payload = 'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ';
const signature = 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';

describe('JWTs with blanks around their dots', () => {
  it('finds the token whole, blanks included, with blanks before, after or around each dot', () => {
    for (const [before, after] of [
      [' ', ' '],
      ['', ' '],
      [' ', ''],
      ['\t', '  '],
    ]) {
      const jwt = [header, payload, signature].join(`${before}.${after}`);
      expect(findSecrets(`token ${jwt} ok`), JSON.stringify(jwt)).toEqual([
        { type: 'JWT', start: 6, end: 6 + jwt.length },
      ]);
    }
  });

  it('takes no sentence after a token for its signature, and no four blanks', () => {
    const jwt = `${header} . ${payload}`;
    expect(findSecrets(`got ${jwt} . Then it expired.`)).toEqual([
      { type: 'JWT', start: 4, end: 4 + jwt.length },
    ]);
    // Four blanks are a gap: two separate strings, neither a token alone.
    expect(findSecrets(`got ${header}    .    ${payload} x`)).toEqual([]);
  });

  it('generateText: the model receives the token redacted whole; the record has its span', async () => {
    const jwt = [header, payload, signature].join(' . ');
    const { sent, records } = await promptSentWithRecords(
      secrets({ action: 'redact' }),
      `jwt ${jwt} ok`,
    );
    expect(sent).toBe('jwt [JWT] ok');
    expect(records).toEqual([
      {
        guardrail: 'secrets',
        kind: 'input',
        status: 'modified',
        info: { types: ['JWT'], spans: [{ type: 'JWT', start: 4, end: 4 + jwt.length }] },
      },
    ]);
  });

  it('window streaming ends as generate does, at every cut', async () => {
    const answer = `Your session: ${[header, payload, signature].join(' . ')} and ${[header, payload, signature].join('. ')} done.`;
    const chunkings = [[1], [2], [3], [7], [5, 11], [64]];
    const { generated, streamed } = await windowAndGenerateTexts(
      secrets({ action: 'redact' }),
      answer,
      chunkings,
    );
    expect(generated).toBe('Your session: [JWT] and [JWT] done.');
    expect(streamed).toEqual(chunkings.map(() => generated));
  });
});
