import { generateText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { promptTextSent, textModel, withoutTiming } from '../../../test/helpers';
import { getGuardrailOutcome } from '../../middleware/get-guardrail-outcome';
import { guardrails } from '../../middleware/guardrails-middleware';
import { findSecrets } from './find-secrets';
import { secrets } from './secrets';

/** What the model got for `prompt` with secrets redacting input. */
const sent = (prompt: string) => promptTextSent(secrets({ action: 'redact' }), prompt);

/** What the model got for `prompt` with secrets redacting input, and the call's records. */
async function sentWithRecords(prompt: string) {
  const model = textModel('ok');
  const result = await generateText({
    model: wrapLanguageModel({
      model,
      middleware: guardrails({ input: [secrets({ action: 'redact' })] }),
    }),
    prompt,
  });
  return {
    sent: (model.doGenerateCalls[0]!.prompt[0]!.content as Array<{ text: string }>)[0]!.text,
    records: withoutTiming((await getGuardrailOutcome(result))?.records),
  };
}

describe('a secret-named key whose value has the shape of an e-mail, host, path or member access', () => {
  it('is a secret when a part of it looks like one: the shape excused it before', async () => {
    // Each passed findSecrets whole and reached the model: the e-mail, host
    // name, path / file name and member-access shapes were excused before
    // the value itself was looked at.
    const prompt = [
      'password=P@ssw0rd.io',
      'password=Tr0ub4dor@corp.io',
      'password=hunter2.com',
      'password=.Tr0ub4dor3x',
      'password=Tr0ub4dor3x.key',
      'password=Xq9Lm2.Zr8Wq4',
      'token=Xq9Lm2Zr8Wq4Tb@x.io',
      'api_key=/9j4Lm2Xw9Tb6Yp1+Kd7Zr8Wq4',
      '"password": "Dr.WhoFan_1963"',
    ].join('\n');
    expect(await sentWithRecords(prompt)).toEqual({
      sent: [
        'password=[GENERIC_SECRET]',
        'password=[GENERIC_SECRET]',
        'password=[GENERIC_SECRET]',
        'password=[GENERIC_SECRET]',
        'password=[GENERIC_SECRET]',
        'password=[GENERIC_SECRET]',
        'token=[GENERIC_SECRET]',
        'api_key=[GENERIC_SECRET]',
        '"password": "[GENERIC_SECRET]"',
      ].join('\n'),
      records: [
        {
          guardrail: 'secrets',
          kind: 'input',
          status: 'modified',
          info: {
            types: ['GENERIC_SECRET'],
            spans: [
              { type: 'GENERIC_SECRET', start: 9, end: 20 },
              { type: 'GENERIC_SECRET', start: 30, end: 47 },
              { type: 'GENERIC_SECRET', start: 57, end: 68 },
              { type: 'GENERIC_SECRET', start: 78, end: 90 },
              { type: 'GENERIC_SECRET', start: 100, end: 115 },
              { type: 'GENERIC_SECRET', start: 125, end: 138 },
              { type: 'GENERIC_SECRET', start: 145, end: 164 },
              { type: 'GENERIC_SECRET', start: 173, end: 199 },
              { type: 'GENERIC_SECRET', start: 213, end: 227 },
            ],
          },
        },
      ],
    });
  });

  it('stays a reference when its parts are names: a member, an address, a host, a file', async () => {
    const references = [
      'password=config.db.password',
      'password: user@example.com',
      'password=db.example.com',
      'secret: settings.json',
      'password_file=/run/secrets/db_password',
      'password: ~/.pgpass',
      'token=self.github_token',
      'api_key=settings.oauth2Token',
      'token: /var/run/secrets/kubernetes.io/serviceaccount/token',
      'private_key=~/.ssh/id_ed25519',
      'secret=ctx.secrets.AWS_S3_KEY',
      'token=noreply@github.com',
    ].join('\n');
    expect(await sent(references)).toBe(references);
    expect(findSecrets(references)).toEqual([]);
  });
});
