import { generateText, streamText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { cut, modelFor, textModel, withoutTiming } from '../../../test/helpers';
import { getGuardrailOutcome } from '../../index';
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
    // Round 18: what is left of a password or secret beside the placeholder
    // goes too (`Xq9`, `3x` were read as no secret and reached the model).
    expect((mock.doGenerateCalls[0]!.prompt[0]!.content as Array<{ text: string }>)[0]!.text).toBe(
      '"password": "[GENERIC_SECRET] [EMAIL_ADDRESS] [GENERIC_SECRET]", ' +
        'password=[GENERIC_SECRET]:[IP_ADDRESS]:[GENERIC_SECRET], ' +
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

  it('findSecrets: every part of a password, secret, token or key goes; other keys judge each part (round 18)', () => {
    expect(findSecrets('"password": "Xq9 [EMAIL_ADDRESS]", token="[US_SSN] ab"')).toEqual([
      { type: 'GENERIC_SECRET', start: 13, end: 16 },
      { type: 'GENERIC_SECRET', start: 51, end: 53 },
    ]);
    expect(findSecrets('"api_key": "Xq9 [EMAIL_ADDRESS]"')).toEqual([
      { type: 'GENERIC_SECRET', start: 12, end: 15 },
    ]);
    // A key that names something about a secret, or another kind of key: parts judged as before.
    expect(
      findSecrets('"password_hint": "Xq9 [EMAIL_ADDRESS]", "login": "Xq9 [EMAIL_ADDRESS]"'),
    ).toEqual([]);
    // Placeholders only: nothing left to redact.
    expect(findSecrets('"password": "[EMAIL_ADDRESS] [GENERIC_SECRET]"')).toEqual([]);
  });

  it('generateText and window streamText with pii() then secrets(): the whole value goes, records without it', async () => {
    const answer =
      'Login: "password": "Xq9 jane@x.io", then password=Tr0ub4dor:192.168.1.20:3x done.';
    const expected =
      'Login: "password": "[GENERIC_SECRET] [EMAIL_ADDRESS]", then password=[GENERIC_SECRET]:[IP_ADDRESS]:[GENERIC_SECRET] done.';
    const model = (deltas: string[]) =>
      wrapLanguageModel({
        model: modelFor(answer, deltas),
        middleware: guardrails({
          output: [pii({ action: 'redact' }), secrets({ action: 'redact' })],
          stream: { mode: 'window' },
        }),
      });
    const generated = await generateText({ model: model([answer]), prompt: 'hi' });
    expect(generated.text).toBe(expected);
    const records = withoutTiming((await getGuardrailOutcome(generated))?.records);
    expect(JSON.stringify(records)).not.toMatch(/Xq9|3x|Tr0ub/);
    expect(records?.map(record => [record.guardrail, record.status])).toEqual([
      ['pii', 'modified'],
      ['secrets', 'modified'],
    ]);
    for (const sizes of [[1], [2], [3], [7], [5, 11], [64]]) {
      const streamed = await streamText({ model: model(cut(answer, sizes)), prompt: 'hi' }).text;
      expect({ sizes, streamed }).toEqual({ sizes, streamed: expected });
    }
  });
});
