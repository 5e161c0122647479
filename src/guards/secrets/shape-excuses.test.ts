import { describe, expect, it } from 'vitest';
import {
  genericSecretsRedacted,
  promptSentWithRecords,
  promptTextSent,
} from '../../../test/helpers';
import { findSecrets } from './find-secrets';
import { secrets } from './secrets';

/** What the model got for `prompt` with secrets redacting input. */
const sent = (prompt: string) => promptTextSent(secrets({ action: 'redact' }), prompt);

/** What the model got for `prompt` with secrets redacting input, and the call's records. */
const sentWithRecords = (prompt: string) =>
  promptSentWithRecords(secrets({ action: 'redact' }), prompt);

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
        genericSecretsRedacted([
          [9, 20],
          [30, 47],
          [57, 68],
          [78, 90],
          [100, 115],
          [125, 138],
          [145, 164],
          [173, 199],
          [213, 227],
        ]),
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
