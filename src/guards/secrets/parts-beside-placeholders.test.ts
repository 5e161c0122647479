import { generateText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { textModel } from '../../../test/helpers';
import { guardrails } from '../../middleware/guardrails-middleware';
import { pii } from '../pii/pii';
import { findSecrets } from './find-secrets';
import { secrets } from './secrets';

/**
 * `pii()` then `secrets()`: a password holding an e-mail, an IP address or
 * an SSN reaches `secrets()` with a placeholder inside it, and the parts
 * beside it were judged with their blanks and separators (`Xq9 `,
 * ` Lm2Zr8Wq4Tb6Yp`, `Tr0ub4dor:`): no secret, so the chain let through
 * what `secrets()` alone redacts (round 17).
 */
describe('parts of a value beside a pii placeholder', () => {
  it('generateText with pii() then secrets(): the parts are redacted', async () => {
    const prompt =
      '"password": "Xq9 jane@x.io Lm2Zr8Wq4Tb6Yp", password=Tr0ub4dor:192.168.1.20:3x, ' +
      'secret="Xq9Lm2 536-22-1234 Zr8Wq4Tb6Yp"';
    const mock = textModel('ok');
    await generateText({
      model: wrapLanguageModel({
        model: mock,
        middleware: guardrails({
          input: [pii({ action: 'redact' }), secrets({ action: 'redact' })],
        }),
      }),
      prompt,
    });
    expect((mock.doGenerateCalls[0]!.prompt[0]!.content as Array<{ text: string }>)[0]!.text).toBe(
      '"password": "Xq9 [EMAIL_ADDRESS] [GENERIC_SECRET]", ' +
        'password=[GENERIC_SECRET]:[IP_ADDRESS]:3x, ' +
        'secret="[GENERIC_SECRET] [US_SSN] [GENERIC_SECRET]"',
    );
  });

  it('findSecrets: the span of a part leaves out its blanks and separators', () => {
    const text = 'password=Tr0ub4dor:[IP_ADDRESS]: secret="Xq9Lm2 [US_SSN] Zr8Wq4Tb6Yp"';
    expect(findSecrets(text)).toEqual([
      { type: 'GENERIC_SECRET', start: 9, end: 18 },
      { type: 'GENERIC_SECRET', start: 41, end: 47 },
      { type: 'GENERIC_SECRET', start: 57, end: 68 },
    ]);
  });
});
