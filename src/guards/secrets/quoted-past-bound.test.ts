import { describe, expect, it } from 'vitest';
import { expectInputRedacted, expectWindowAsGenerate } from '../../../test/helpers/redacted-input';
import {
  alphanumerics,
  oneSecretInputRecord,
  seededRun,
} from '../../../test/helpers/secrets-redacted';
import { anchoredScanMismatches } from './find-secrets';
import { secrets } from './secrets';

/**
 * Round 31. A quoted value under a secret-named key was read up to 200
 * characters: a longer one (`password = "<250 characters>"`, `"api_key":
 * "<300 characters>"`) did not match at all and reached the model whole.
 * It now matches cut at 200 and is redacted to its closing quote (or its
 * line's end), never leaving a tail.
 */

/** `length` letters and digits from a fixed seed (no placeholder, no repeats). */
const randomRun = (length: number, seed = 4242) => seededRun(length, alphanumerics, seed);

async function expectValueRedacted(before: string, value: string, after: string) {
  await expectInputRedacted(
    () => secrets({ action: 'redact' }),
    `${before}${value}${after}`,
    `${before}[GENERIC_SECRET]${after}`,
    oneSecretInputRecord('GENERIC_SECRET', before.length, value.length),
  );
}

describe('a quoted value past 200 characters under a secret-named key', () => {
  it('generateText: redacted to its closing quote in each format', async () => {
    for (const length of [201, 250, 2000]) {
      const value = randomRun(length);
      await expectValueRedacted('config: password = "', value, '" and more');
      await expectValueRedacted('{"api_key": "', value, '", "region": "eu"}');
      await expectValueRedacted("DB_PASSWORD='", value, "'\nPORT=5432");
      await expectValueRedacted('password: `', value, '` done');
      await expectValueRedacted('resource "x" {\n  client_secret = "', value, '"\n}');
      await expectValueRedacted('set token "', value, '" now');
      await expectValueRedacted('--password="', value, '" --user bob');
    }
  });

  it('generateText: a quote never closed is redacted to its line end', async () => {
    const value = randomRun(300);
    await expectValueRedacted('password = "', value, '\nnext line');
    await expectValueRedacted('password = "', value, '');
  });

  it('generateText: a value of 200 or less closed by another quote still does not match', async () => {
    const text = `password = "${'words of a note '.repeat(9)}' and on`;
    await expectInputRedacted(() => secrets({ action: 'redact' }), text, text, [
      { guardrail: 'secrets', kind: 'input', status: 'passed' },
    ]);
  });

  it('window mode ends as generateText', async () => {
    const value = randomRun(500);
    await expectWindowAsGenerate(
      () => secrets({ action: 'redact' }),
      `{"api_key": "${value}", "region": "eu"}`,
      '{"api_key": "[GENERIC_SECRET]", "region": "eu"}',
      [[7], [64], [1000]],
    );
  });
});

describe('an XML element naming a secret with a value past 200 characters', () => {
  it('generateText: redacted to its closing tag', async () => {
    for (const length of [201, 300, 3000]) {
      const value = randomRun(length);
      await expectValueRedacted('<settings><password>', value, '</password></settings>');
      await expectValueRedacted(
        '<packageSourceCredentials><Secret>',
        value,
        '</Secret>\n</packageSourceCredentials>',
      );
    }
  });

  it('generateText: prose after a <password> placeholder is not read', async () => {
    const text = `Type your <password>${' and press enter to go on'.repeat(10)}.`;
    await expectInputRedacted(() => secrets({ action: 'redact' }), text, text, [
      { guardrail: 'secrets', kind: 'input', status: 'passed' },
    ]);
  });
});

/** `length` hex digits: no entropy span finds them, only the key's rule does. */
const hexRun = (length: number, seed = 77) => seededRun(length, '0123456789abcdef', seed);

/**
 * Round 32. A value compared with a secret-named identifier (`if ("…" ==
 * password)`) and an XML setting's value (`<add key="ClearTextPassword"
 * value="…" />`) were read up to 200 characters: a longer one did not match
 * and reached the model whole. Both are read to their end now.
 */
describe('a reversed comparison or XML setting past 200 characters', () => {
  it('generateText: redacted to its closing quote', async () => {
    for (const length of [201, 250, 3000]) {
      const value = hexRun(length);
      await expectValueRedacted('if ("', value, '" == password) { ok(); }');
      await expectValueRedacted("check('", value, "' !== settings.apiToken)");
      await expectValueRedacted('<add key="ClearTextPassword" value="', value, '" />');
      await expectValueRedacted("<add key='api_key' value='", value, "'/>");
    }
  });

  it('generateText: an XML value past 200 closed by the other quote, or not at all, is redacted to its own quote or line end', async () => {
    const value = `${hexRun(230)}'${hexRun(40, 5)}`;
    await expectValueRedacted('<add key="ClearTextPassword" value="', value, '" />');
    await expectValueRedacted('<add key="ClearTextPassword" value="', hexRun(300), '\n</x>');
    await expectValueRedacted('<add key="ClearTextPassword" value="', value, '');
  });

  it('generateText: values of 200 or less are read as before', async () => {
    await expectValueRedacted('<add key="ClearTextPassword" value="', hexRun(150), "' />");
    const unclosed = `<add key="ClearTextPassword" value="${hexRun(150)}\n</x>`;
    await expectInputRedacted(() => secrets({ action: 'redact' }), unclosed, unclosed, [
      { guardrail: 'secrets', kind: 'input', status: 'passed' },
    ]);
  });
});

/**
 * Round 32. A quoted value under a secret-named key that runs into a quote
 * of another kind (`password = "<250 characters>'rest"`) was redacted only
 * up to that quote, and its rest reached the model; a shorter one without
 * blanks (`"Tr0ub'4dor…"`) did not match at all. A triple-quoted value
 * (`"""…"""`) and bash's `$'…'` did not match either.
 */
describe('a quoted value holding another kind of quote, or quoted otherwise', () => {
  it('generateText: redacted to its own quote, or its line end when it has none', async () => {
    for (const length of [201, 250, 3000]) {
      const value = `${hexRun(length)}'${hexRun(30, 5)}`;
      await expectValueRedacted('config: password = "', value, '" and more');
      await expectValueRedacted('{"api_key": "', value, '", "region": "eu"}');
      await expectValueRedacted('token "', `${hexRun(length)}\`${hexRun(30, 5)}`, '" now');
      await expectValueRedacted("DB_PASSWORD='", `${hexRun(length)}"${hexRun(30, 5)}`, "'\nPORT=1");
      await expectValueRedacted('password = "', `${value} and words'`, '\nnext line');
    }
  });

  it('generateText: a short value with another quote inside and no blank is redacted whole', async () => {
    await expectValueRedacted('password = "', "Tr0ub'4dor&3x", '" ok');
    await expectValueRedacted("secret: '", 'a8f5f1"67f44f4964', "' ok");
    const prose = `the token "isn't valid" and the password: "don't know" here`;
    await expectInputRedacted(() => secrets({ action: 'redact' }), prose, prose, [
      { guardrail: 'secrets', kind: 'input', status: 'passed' },
    ]);
  });

  // Round 33: fewer than four characters before the other quote did not match at all.
  it('generateText: zero to three characters before the other quote, redacted whole', async () => {
    await expectValueRedacted('password = "', "ab'Tr0ub4dor3x", '" ok');
    await expectValueRedacted('password = "', "a'Tr0ub4dor3x", '" ok');
    await expectValueRedacted('password = "', "'Tr0ub4dor3x", '" ok');
    await expectValueRedacted('{"api_key": "', "q8Z'r4Lm2Xw9T", '", "user": "bob"}');
    await expectValueRedacted("secret = '", 'ab"Tr0ub4dor3x', "' ok");
    await expectValueRedacted('token = """', "ab'Tr0ub4dor3x", '""" ok');
    expect(anchoredScanMismatches(`password = "ab'Tr0ub4dor3x" and token = "'q8Zr4Lm2"`)).toEqual(
      [],
    );
    // Blanks inside, no closing quote on the line, or nothing after the other quote: not read.
    for (const prose of [
      `the password: "a' b" here`,
      `password = "ab'Tr0ub4dor3x\nmore"`,
      `password = "abc'" and more`,
      'password = "" and token = \'\'',
    ]) {
      await expectInputRedacted(() => secrets({ action: 'redact' }), prose, prose, [
        { guardrail: 'secrets', kind: 'input', status: 'passed' },
      ]);
    }
  });

  it('generateText: triple-quoted and $-quoted values are redacted', async () => {
    for (const length of [40, 250, 3000]) {
      const value = hexRun(length);
      await expectValueRedacted('password = """', value, '""" ok');
      await expectValueRedacted("api_key = '''", value, "''' ok");
      await expectValueRedacted("export DB_PASSWORD=$'", value, "'\necho ok");
      await expectValueRedacted('TOKEN=$"', value, '"; run');
    }
  });
});
