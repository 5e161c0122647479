import { describe, expect, it } from 'vitest';
import { expectInputRedacted } from '../../../test/helpers/redacted-input';
import { foundSecrets as found } from '../../../test/helpers/secrets-redacted';
import { secrets } from './secrets';

/**
 * Round 26. Round 25 ended a split key's chain, while its rule had no
 * match yet, at a piece starting with a prefix literal of three characters
 * or more (the next key's start). A key whose own piece starts so
 * (`sk-proj-Tq7vR2 mX9pLw4Z xoxb8nYd…`: its body holds `xox` where it was
 * cut) was cut there and no piece of it redacted. Such a piece is now
 * joined when the key is complete with it.
 */

describe('a key piece that starts with another rule’s prefix', () => {
  it('generateText: the key is redacted whole', async () => {
    const written = 'sk-proj-Tq7vR2 mX9pLw4Z xoxb8nYd3HsK6fJg1QaE5uVo0iWt';
    await expectInputRedacted(
      () => secrets({ action: 'redact' }),
      `key ${written} now`,
      'key [OPENAI_API_KEY] now',
      [
        {
          guardrail: 'secrets',
          kind: 'input',
          status: 'modified',
          info: {
            types: ['OPENAI_API_KEY'],
            spans: [{ type: 'OPENAI_API_KEY', start: 4, end: 4 + written.length }],
          },
        },
      ],
    );
  });

  it('any literal, and the next key after a partial one still stands apart', () => {
    for (const literal of ['xoxb', 'AKIA', 'sk-a', 'ghp_', 'glpat-']) {
      const written = `sk-proj-Tq7vR2 mX9pLw4Z ${literal}8nYd3HsK6fJg1QaE5uVo0iWt`;
      expect(found(`key ${written} now`), literal).toEqual([['OPENAI_API_KEY', written]]);
    }
    const github = 'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';
    expect(found(`key ghp_q8Zr4Lm2Xw9Tb6 a1 b2 ${github} now`)).toEqual([['GITHUB_TOKEN', github]]);
  });
});
