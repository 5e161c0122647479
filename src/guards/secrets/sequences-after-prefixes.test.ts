import { describe, expect, it } from 'vitest';
import { promptSentWithRecords } from '../../../test/helpers';
import { foundSecrets } from '../../../test/helpers/secrets-redacted';
import { secrets } from './secrets';

/**
 * A provider's prefix alone makes a key (`shpat_` is a Shopify admin token
 * whatever follows), but a counting or repeated value after it
 * (`shpat_0123456789abcdef0123456789abcdef`) was taken for an example and
 * passed: the ascending-run and repeated-block excuses were applied to the
 * characters after every provider prefix (round 26 found it for Shopify;
 * all 57 prefixed rules had it). Since round 27 only a placeholder word or
 * a masking run excuses them there (`ghp_xxxx…`, `shpat_…EXAMPLE…`).
 */
describe('sequences after a provider prefix', () => {
  it('generateText: a Shopify token of counting hex reaches the model redacted; the record has its span', async () => {
    const prompt =
      'SHOPIFY=shpat_0123456789abcdef0123456789abcdef and ghp_abcdefghijklmnopqrstuvwxyz0123456789';
    const { sent, records } = await promptSentWithRecords(secrets({ action: 'redact' }), prompt);
    expect(sent).toBe('SHOPIFY=[SHOPIFY_TOKEN] and [GITHUB_TOKEN]');
    expect(records).toEqual([
      {
        guardrail: 'secrets',
        kind: 'input',
        status: 'modified',
        info: {
          types: ['SHOPIFY_TOKEN', 'GITHUB_TOKEN'],
          spans: [
            { type: 'SHOPIFY_TOKEN', start: 8, end: 46 },
            { type: 'GITHUB_TOKEN', start: 51, end: 91 },
          ],
        },
      },
    ]);
  });

  it('finds sequences after other prefixes; masks and placeholder words still pass', () => {
    expect(foundSecrets('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')).toEqual([
      ['SHOPIFY_TOKEN', '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'],
    ]);
    expect(foundSecrets('key npm_abcdefghijklmnopqrstuvwxyz0123456789')).toEqual([
      ['NPM_TOKEN', 'npm_abcdefghijklmnopqrstuvwxyz0123456789'],
    ]);
    expect(foundSecrets('key xoxb-123456789012-1234567890123-abcdefghijklmnopqrstuvwx')).toEqual([
      ['SLACK_TOKEN', 'xoxb-123456789012-1234567890123-abcdefghijklmnopqrstuvwx'],
    ]);
    for (const text of [
      'shpat_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
      'ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
      'shpat_00000000000000000000000000000000',
      'npm_EXAMPLEEXAMPLEEXAMPLEEXAMPLEEXAMPLE',
    ]) {
      expect({ text, found: foundSecrets(text) }).toEqual({ text, found: [] });
    }
  });
});
