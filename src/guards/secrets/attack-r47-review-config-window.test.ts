import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../test/helpers';
import { expectLinearOnRepeats } from '../../../test/helpers/repeated-unit-cost';
import { findSecrets } from './find-secrets';
import { openConfigAnchorStart } from './potential-start';
import { secrets } from './secrets';

/*
 * Round 47 review (hK): round 47's config rules (provider-rules.ts) read an
 * anchor before the value (`.netrc`'s `machine` / `login`, `htpasswd -b`,
 * `docker login`, `redis-cli`, a JSON key over its array's strings). Window
 * mode keeps 48 released characters as context, so with the anchor farther
 * back (a long host, file, user, earlier strings) it released the anchor and
 * then the value raw, where generateText redacts it. Every value below is
 * made up for this file.
 */

const PASSWORD = 'Hv7!qR2zLm9w';
const words = (count: number, word: string) => Array.from({ length: count }, () => word).join(' ');
// A host or user of letters and dots only: ordinary prose to `secretsMayMatch`.
const dotted = Array.from({ length: 20 }, () => 'abcd').join('.');

const CHUNKINGS = [[1], [2], [3], [7], [13], [50], [1, 7, 3], [4096]];

describe('round 47 config shapes with the anchor far from the value, in window mode', () => {
  it.each([
    ['.netrc, a long machine name', `machine ${'h'.repeat(190)}.test password ${PASSWORD}\nok`],
    ['.netrc, a dotted host (prose to the filter)', `machine ${dotted} password ${PASSWORD}\nok`],
    ['.netrc, a long login', `machine x.test login ${'u'.repeat(190)} password ${PASSWORD}\nok`],
    [
      '.netrc, a long block on three lines',
      `machine ${'h'.repeat(150)}.test\n  login ${'u'.repeat(150)}\n  password ${PASSWORD}\nok`,
    ],
    [
      'htpasswd -b, a long file',
      `htpasswd -bc /etc/${'d'.repeat(190)}/users admin ${PASSWORD}\nok`,
    ],
    [
      'htpasswd -b, a long file and user',
      `htpasswd -b -c ${'f'.repeat(200)} ${'u'.repeat(200)} ${PASSWORD}\nok`,
    ],
    [
      'docker login, six long words before -p',
      `docker login ${words(6, 'w'.repeat(200))} -p ${PASSWORD} r.test\nok`,
    ],
    [
      'redis-cli, six long words before -a',
      `redis-cli ${words(6, 'w'.repeat(200))} -a ${PASSWORD} ping\nok`,
    ],
    [
      'a JSON array whose 8th string comes 1,400 characters after the key',
      `{"passwords": [${Array.from({ length: 7 }, (_, index) => `"${'v'.repeat(190)}${index}"`).join(', ')}, "${PASSWORD}"]}\nok`,
    ],
  ])('%s: stream == generate, the value redacted', async (_, text) => {
    const start = text.indexOf(PASSWORD);
    expect(findSecrets(text)).toEqual([
      { type: 'GENERIC_SECRET', start, end: start + PASSWORD.length },
    ]);
    const { generated, streamed } = await windowAndGenerateTexts(
      secrets({ action: 'redact' }),
      text,
      CHUNKINGS,
    );
    const redacted = text.replace(PASSWORD, '[GENERIC_SECRET]');
    expect(generated).toBe(redacted);
    expect(streamed).toEqual(Array(CHUNKINGS.length).fill(redacted));
  });
});

describe('the config anchors hold only while the rule may still reach a value', () => {
  it.each([
    ['a .netrc block whose password came', `machine h.test password ${PASSWORD} `, -1],
    ['login in prose', 'Please login to your account and then the settings page. ', -1],
    ['a ninth JSON string', `{"tokens": [${words(9, '"abcdef",').slice(0, -1)}`, -1],
    ['an array under a name that is no secret', '{"hosts": ["a.test", "b.te', -1],
    ['an open array under a secret name', '{"hosts": [], "api_tokens": ["abc", "de', 14],
    ['docker login still going', 'run: docker login -u ci ', 5],
  ])('%s', (_, text, start) => {
    expect(openConfigAnchorStart(text)).toBe(start < 0 ? text.length : start);
  });

  it.each([
    ['machine a '],
    ['login '],
    ['default password '],
    ['docker login -u '],
    ['htpasswd -b '],
    ['redis-cli -h '],
    ['"password": ["a", '],
    ['"password": ['],
  ])('linear on repeats of %j', unit => {
    expectLinearOnRepeats(openConfigAnchorStart, unit);
  });
});
