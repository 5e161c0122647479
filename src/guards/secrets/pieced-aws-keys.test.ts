import { describe, expect, it } from 'vitest';
import { promptSentWithRecords, windowAndGenerateTexts } from '../../../test/helpers';
import { findSecrets } from './find-secrets';
import { secrets } from './secrets';

/**
 * Round 20: an AWS access key id in pieces that are each shorter than a
 * printable run the provider scan reads (14) passed: `AKIAZ7QH3M2K
 * X9TN4LPW` (round 19 joined a short piece to a long one only), with a
 * line break or a `+` between them, as concatenated strings, in three or
 * more pieces. Upper-case prose that happens to add up to 20 characters is
 * no key (a digit after the prefix, each piece over 4 characters mixed).
 */

const found = (text: string) =>
  findSecrets(text).map(span => [span.type, text.slice(span.start, span.end)]);

describe('an AWS access key id in short pieces', () => {
  it('is found whole across blanks, a line break, a +, quote concatenation, 3+ pieces', () => {
    for (const key of [
      'AKIAZ7QH3M2K X9TN4LPW',
      'AKIAZ7QH3M2K\nX9TN4LPW',
      'AKIAZ7QH3M2K\r\nX9TN4LPW',
      'AKIAZ7QH3M2K+X9TN4LPW',
      'AKIAZ7QH3M2K + X9TN4LPW',
      'AKIAZ7QH" + "3M2KX9TN4LPW',
      "AKIAZ7QH' '3M2KX9TN4LPW",
      'AKIAZ7QH 3M2K X9TN4LPW',
      'AKIA Z7QH 3M2K X9TN 4LPW',
      'ASIAZ7QH3M2K X9TN4LPW',
    ]) {
      expect(found(`the key is ${key}, use it`)).toEqual([['AWS_ACCESS_KEY_ID', key]]);
    }
    expect(found('key = "AKIAZ7QH" + "3M2KX9TN4LPW";')).toEqual([
      ['AWS_ACCESS_KEY_ID', 'AKIAZ7QH" + "3M2KX9TN4LPW'],
    ]);
  });

  it('upper-case prose, a longer run, a wrong length or a placeholder is no key', () => {
    for (const text of [
      'ASIA IS THE BEST AREA FOR US',
      'ASIA 2024 SUMMIT REPORT',
      'ASIA PACIFIC 2024 TOUR IN MAY',
      'AKIAZ7QH3M2K X9TN4LPWQ',
      'AKIAZ7QH3M2K X9TN4LP',
      'AKIAZ7QH3M2K X9TN4LPWq',
      'AKIAXXXXXXXX XXXXXXXX',
      'AKIAZ7QH3M2K" + \'X9TN4LPW',
    ]) {
      expect(found(text)).toEqual([]);
    }
  });

  it('generateText: the model receives the key redacted, with the record', async () => {
    const { sent, records } = await promptSentWithRecords(
      secrets({ action: 'redact' }),
      'aws "AKIAZ7QH" + "3M2KX9TN4LPW" ok',
    );
    expect(sent).toBe('aws "[AWS_ACCESS_KEY_ID]" ok');
    expect(records).toEqual([
      {
        guardrail: 'secrets',
        kind: 'input',
        status: 'modified',
        info: {
          types: ['AWS_ACCESS_KEY_ID'],
          spans: [{ type: 'AWS_ACCESS_KEY_ID', start: 5, end: 30 }],
        },
      },
    ]);
  });

  it('window streaming ends as generate does, at every cut', async () => {
    const answer = 'Old key AKIAZ7QH3M2K X9TN4LPW and AKIA Z7QH 3M2K X9TN 4LPW done.';
    const chunkings = [[1], [2], [3], [5], [7], [1, 4, 2]];
    const { generated, streamed } = await windowAndGenerateTexts(
      secrets({ action: 'redact' }),
      answer,
      chunkings,
    );
    expect(generated).toBe('Old key [AWS_ACCESS_KEY_ID] and [AWS_ACCESS_KEY_ID] done.');
    expect(streamed).toEqual(chunkings.map(() => generated));
  });
});
