import { describe, expect, it } from 'vitest';
import {
  genericSecretsRedacted,
  promptSentWithRecords,
  promptTextSent,
  windowAndGenerateTexts,
} from '../../../test/helpers';
import { secrets } from './secrets';

/** What the model got for `prompt` with secrets redacting input. */
const sent = (prompt: string) => promptTextSent(secrets({ action: 'redact' }), prompt);

/** What the model got for `prompt` with secrets redacting input, and the call's records. */
const sentWithRecords = (prompt: string) =>
  promptSentWithRecords(secrets({ action: 'redact' }), prompt);

describe('a password that starts like a template is still a password', () => {
  it('my…, your…, replace… followed by digits or symbols are redacted', async () => {
    // Each passed as a placeholder: the template patterns took anything after their first word.
    expect(
      await sent(
        'password=MyDogRex2024! pwd: yourM0ther1965 passwd=Replace2024! db_password=my$ecretPass',
      ),
    ).toBe(
      'password=[GENERIC_SECRET] pwd: [GENERIC_SECRET] passwd=[GENERIC_SECRET] db_password=[GENERIC_SECRET]',
    );
  });

  it('templates and references still pass: my_password, your-password-here, YOUR_API_KEY, insert_key_here, get_secret("db")', async () => {
    const text =
      'password=my_password pwd=your-password-here api_key=YOUR_API_KEY token=insert_key_here password=get_secret("db")';
    expect(await sent(text)).toBe(text);
  });
});

describe('a placeholder word beside a real value does not make it an example', () => {
  it('a password or key with -sample, _EXAMPLE, example, fake appended or inserted is redacted', async () => {
    // Each passed as a placeholder: a word anywhere in the value marked it an example.
    expect(
      await sent(
        'password=Tr0ub4dor&3x-sample api_key=q8Zr4Lm2Xw9Tb6Yp1Kd7_EXAMPLE token: exampleQ8zR4lm2xw9Tb6 ghp_fake1234TokenForTheDocsQ8Zr4Lm2Xw9Tb',
      ),
    ).toBe(
      'password=[GENERIC_SECRET] api_key=[GENERIC_SECRET] token: [GENERIC_SECRET] [GITHUB_TOKEN]',
    );
  });

  it('values made of placeholder words, plain words and short numbers still pass', async () => {
    const text =
      'password=sample_password_2024 api_key=your_api_key_here token=changeme123 secret=a-fake-api-key SLACK=xoxp-1-RANDOMSTRINGHERE pwd=EXAMPLE-EXAMPLE';
    expect(await sent(text)).toBe(text);
  });
});

describe('a password of words beside a placeholder word is a password', () => {
  it('Sunshine-sample, Summer_example, dummy-Dragon are redacted; the record has the spans, no value', async () => {
    // Each passed as a placeholder: any word beside a placeholder word
    // counted as no secret, and passwords are words.
    const prompt = 'password=Sunshine-sample pwd: Summer_example passwd=dummy-Dragon';
    expect(await sentWithRecords(prompt)).toEqual({
      sent: 'password=[GENERIC_SECRET] pwd: [GENERIC_SECRET] passwd=[GENERIC_SECRET]',
      records: [
        genericSecretsRedacted([
          [9, 24],
          [30, 44],
          [52, 64],
        ]),
      ],
    });
  });

  it('template phrases pass and are counted: Replace_Me_Later, your-password-here, sample_db_password_2024, a-fake-tooshort-key', async () => {
    const prompt =
      'passwd=Replace_Me_Later password=yourpasswordhere pwd=sample_db_password_2024 password=a-fake-tooshort-key secret=ExampleApiKeyHere password=Rex-sample';
    expect(await sentWithRecords(prompt)).toEqual({
      sent: prompt,
      records: [
        { guardrail: 'secrets', kind: 'input', status: 'passed', info: { placeholdersSkipped: 6 } },
      ],
    });
  });

  it('a key that is not a password keeps the 8-character rule: api_key=Sunshine-sample passes, api_key=Sunshine-Tr0ub4-sample does not', async () => {
    expect(await sent('api_key=Rainbow-sample api_key=Sunshine-Tr0ub4-sample')).toBe(
      'api_key=Rainbow-sample api_key=[GENERIC_SECRET]',
    );
  });
});

describe('where an unquoted value ends', () => {
  it('a value holding ], , or ) is redacted whole in .env, flags and YAML', async () => {
    // The value ended at the first ], , or ): the rest reached the model.
    expect(
      await sent(
        'password=[A]Tr0ub4dor&3x\ntoken=abc,def8Xq2Lm9Zr\n--password=Tr0ub4dor]3x --user=bob\ndb:\n  password: Tr0ub4dor,3xQ9',
      ),
    ).toBe(
      'password=[GENERIC_SECRET]\ntoken=[GENERIC_SECRET]\n--password=[GENERIC_SECRET] --user=bob\ndb:\n  password: [GENERIC_SECRET]',
    );
  });

  it('in a comma list without blanks (log lines, k=v,k2=v2) a value ends before the next key; the record has its span', async () => {
    // `password=a1b2c3,ip=1` read as one value `a1b2c3,ip=1`: the next
    // setting went into the redaction, and a list's own keys were lost.
    const prompt =
      'password=a1b2c3,ip=1 event=login,user=bob,password=Tr0ub4dor3x,retries=3 k=v,token=q8Zr4Lm2Xw9T,k2=v2';
    expect(await sentWithRecords(prompt)).toEqual({
      sent: 'password=[GENERIC_SECRET],ip=1 event=login,user=bob,password=[GENERIC_SECRET],retries=3 k=v,token=[GENERIC_SECRET],k2=v2',
      records: [
        genericSecretsRedacted([
          [9, 15],
          [51, 62],
          [83, 95],
        ]),
      ],
    });
  });

  it('window streaming ends a comma list value where generate does, in any chunking', async () => {
    const answer =
      'Log: event=login,user=bob,password=Tr0ub4dor3x,retries=3 and password=a1b2c3,ip=1.';
    const redacted =
      'Log: event=login,user=bob,password=[GENERIC_SECRET],retries=3 and password=[GENERIC_SECRET],ip=1.';
    const chunkings = [[1], [3], [5, 1, 17], [40]];
    expect(await windowAndGenerateTexts(secrets({ action: 'redact' }), answer, chunkings)).toEqual({
      generated: redacted,
      streamed: chunkings.map(() => redacted),
    });
  });

  it('a comma glued to more of the value is the value: password=Tr0ub,4dor&3x, token=abc,def8Xq2Lm9Zr, secret=q8Zr4,Lm2:Xw9', async () => {
    expect(
      await sent('password=Tr0ub,4dor&3x token=abc,def8Xq2Lm9Zr secret=q8Zr4,Lm2Xw9-Tb6Yp1'),
    ).toBe('password=[GENERIC_SECRET] token=[GENERIC_SECRET] secret=[GENERIC_SECRET]');
  });

  it('ends at a bracket opened before the key, a list comma, ; and a query &', async () => {
    expect(
      await sent(
        'connect(password=Tr0ub4dor&3x) {password: Tr0ub4dor&3x,user: bob} user=bob, password=hunter22, ip=1 Password=Tr0ub4dor&3x;Database=x https://x.io/cb?access_token=q8Zr4Lm2Xw9T&page=2',
      ),
    ).toBe(
      'connect(password=[GENERIC_SECRET]) {password: [GENERIC_SECRET],user: bob} user=bob, password=[GENERIC_SECRET], ip=1 Password=[GENERIC_SECRET];Database=x https://x.io/cb?access_token=[GENERIC_SECRET]&page=2',
    );
  });
});
