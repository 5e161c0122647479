import { generateText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { promptSentWithRecords, textModel } from '../../../test/helpers';
import { guardrails } from '../../middleware/guardrails-middleware';
import { pii } from '../pii/pii';
import { findSecrets } from './find-secrets';
import { secrets } from './secrets';

/**
 * Round 19: `password = Xq9_4111111111111111` passed both `pii()` and
 * `secrets()`. The card number is glued to a word by `_` (an identifier to
 * `pii`), and `secrets` read the run of `1`s as a mask beside `Xq9_4`,
 * which left too little to be a password. A run of one digit glued to a
 * digit no run marks is part of a number now, not a mask.
 */

const found = (text: string) =>
  findSecrets(text).map(span => [span.type, text.slice(span.start, span.end)]);

describe('a number holding a run of one digit, as a password', () => {
  it('is the password', () => {
    expect(found('password = Xq9_4111111111111111')).toEqual([
      ['GENERIC_SECRET', 'Xq9_4111111111111111'],
    ]);
    expect(found('db_password: Xq9_5500000000000004')).toEqual([
      ['GENERIC_SECRET', 'Xq9_5500000000000004'],
    ]);
    expect(found('token=Lm2Zr8_70000000000001')).toEqual([
      ['GENERIC_SECRET', 'Lm2Zr8_70000000000001'],
    ]);
  });

  it('leaves masks and placeholders alone', () => {
    for (const text of [
      'password = xxxx1111111111',
      'password = 11111111',
      'password = 0000000011111111',
      'token = your_token_00000000',
    ]) {
      expect(found(text), text).toEqual([]);
    }
  });

  it('generateText, secrets() alone and after pii(): the model receives the password redacted', async () => {
    const { sent, records } = await promptSentWithRecords(
      secrets({ action: 'redact' }),
      'login with password = Xq9_4111111111111111 today',
    );
    expect(sent).toBe('login with password = [GENERIC_SECRET] today');
    expect(records).toEqual([
      {
        guardrail: 'secrets',
        kind: 'input',
        status: 'modified',
        info: {
          types: ['GENERIC_SECRET'],
          spans: [{ type: 'GENERIC_SECRET', start: 22, end: 42 }],
        },
      },
    ]);
    const mock = textModel('ok');
    await generateText({
      model: wrapLanguageModel({
        model: mock,
        middleware: guardrails({ input: [pii(), secrets({ action: 'redact' })] }),
      }),
      prompt: 'password = Xq9_4111111111111111',
    });
    expect(mock.doGenerateCalls[0]!.prompt[0]!.content).toEqual([
      { type: 'text', text: 'password = [GENERIC_SECRET]' },
    ]);
  });
});
