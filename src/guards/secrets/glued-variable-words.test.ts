import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../test/helpers';
import { foundSecrets } from '../../../test/helpers/secrets-redacted';
import { secrets } from './secrets';

/*
 * Round 44: a variable-length key glued after a plain word (glued-keys.ts).
 * Round 43b read them glued after any word, so identifiers of words that
 * end in a prefix's letters were keys. Found at ec645340: each row of the
 * first table a STRIPE_KEY, SLACK_TOKEN or OPENAI_API_KEY. A glued match of
 * such a rule now needs a digit past its prefix.
 */

const STRIPE = 'sk_live_51Hq8Zr4Lm2Xw9Tb6Yp1Kd7Hs3N';
const SLACK = 'xoxb-123456789012-1234567890123-q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3N';

describe('identifiers of words that end in a prefix', () => {
  it.each([
    'desk_test_environment',
    'task_live_configuration',
    'def network_test_connectivity():',
    'bookmark_live_notifications',
    'framework_test_environment',
    'self.desk_test_environment',
    'x.comsk_test_environment',
    'maskxoxb-thing-here-longer-than-twenty',
    'taskxoxp-notification-handler-service',
    'desk-admin-configuration-panel-for-users',
    'task-proj-configuration-management-tool',
    'mask-xoxb-notification-handler',
  ])('%s: no key', text => {
    expect(foundSecrets(`see ${text} ok`)).toEqual([]);
  });
});

describe('a random key glued after a word is still found', () => {
  it.each([
    ['after a domain', `x.com${STRIPE} ok`, [['STRIPE_KEY', STRIPE]]],
    ['after an e-mail address', `jane@example.org${SLACK} ok`, [['SLACK_TOKEN', SLACK]]],
    // The entropy reading takes word and key as one token, as before.
    ['after a plain word', `see key${STRIPE} ok`, [['HIGH_ENTROPY_STRING', `key${STRIPE}`]]],
    ['after a plain word', `see token${SLACK} ok`, [['HIGH_ENTROPY_STRING', `token${SLACK}`]]],
  ])('%s: %s', (_, text, found) => {
    expect(foundSecrets(text)).toEqual(found);
  });

  it('window streaming ends as generate does, at every cut', async () => {
    const answer = `Run network_test_connectivity on x.com${STRIPE} and desk-admin-configuration-panel-for-users now.\nDone.`;
    const { generated, streamed } = await windowAndGenerateTexts(
      secrets({ action: 'redact' }),
      answer,
      [[1], [2], [3], [5], [7], [11], [1, 7, 3], [30]],
    );
    expect(generated).toBe(
      'Run network_test_connectivity on x.com[STRIPE_KEY] and desk-admin-configuration-panel-for-users now.\nDone.',
    );
    for (const text of streamed) expect(text).toBe(generated);
  });
});
