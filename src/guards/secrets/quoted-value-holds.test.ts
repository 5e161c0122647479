import { describe, expect, it } from 'vitest';
import { expectWindowAsGenerate } from '../../../test/helpers/redacted-input';
import { secretsPotentialStart, secretsPotentialStartFiltered } from './potential-start';
import { secrets } from './secrets';

/**
 * Round 34. The stream hook (`secretsPotentialStart`) did not know bash's
 * `$'…'` nor Python's triple quotes after a key, and held a quoted value
 * that may still be compared with a key (`if ("…" == password)`) for 200
 * characters only: past them it released the start of a value that
 * `generateText` redacts. A value of words (no digit, nothing the
 * trailing chain holds) shows it; the reversed comparison is judged only
 * once its `== password` comes, so window mode released it raw.
 */
const words = (length: number) =>
  `${'correct horse battery staple '.repeat(Math.ceil(length / 29)).slice(0, length)}end`;

const formats: Array<[string, string, string]> = [
  ["bash's $'…'", "Run:\nexport DB_PASSWORD=$'", "'\nDone."],
  ['a triple-quoted value', 'password = """', '"""\nDone.'],
  ["a triple-quoted value in '''", "api_key = '''", "'''\nDone."],
  ['a reversed comparison', 'if ("', '" == password) { ok(); }\nDone.'],
];

describe('window mode holds a quoted value as long as generateText may redact it', () => {
  it.each(formats)(
    'the hook holds %s from its key or quote, past 200 and past the window',
    (_name, before, after) => {
      for (const length of [250, 1500]) {
        const answer = `${before}${words(length)}${after}`;
        // The opening quote (and the key before it) is held with the value.
        const holdFrom = before.length - 1;
        const released: number[] = [];
        for (let end = before.length; end < before.length + length; end++) {
          const text = answer.slice(0, end);
          if (secretsPotentialStart(text) > holdFrom) released.push(end);
          if (secretsPotentialStartFiltered(text) > holdFrom) released.push(end);
        }
        expect(released).toEqual([]);
      }
    },
  );

  it.each(formats)('%s streams as generateText redacts it', async (_name, before, after) => {
    for (const length of [250, 1500]) {
      await expectWindowAsGenerate(
        () => secrets({ action: 'redact' }),
        `${before}${words(length)}${after}`,
        `${before}[GENERIC_SECRET]${after}`,
        [[1], [7], [64]],
      );
    }
  });

  it('a closed quoted value is no longer held', () => {
    const text = `if ("${words(250)}" != user) and more prose`;
    expect(secretsPotentialStart(text)).toBe(text.length - 'prose'.length);
    const assignment = `password = """${words(40)}""" and the rest`;
    expect(secretsPotentialStart(assignment)).toBe(assignment.length - 'rest'.length);
    // A quote followed by a blank opens no value a secret could be (it would start with a blank).
    const prose = `He said "stop." Then ${words(300)} walked`;
    expect(secretsPotentialStart(prose)).toBe(prose.length - 'walked'.length);
  });

  it('an apostrophe or a quote before a blank, with invisible characters around it, holds nothing', () => {
    const apostrophe = `you\u200b'\u200bd like ${words(300)} more`;
    expect(secretsPotentialStart(apostrophe)).toBe(apostrophe.length - 'more'.length);
    const closing = `He said "stop."\u200b\u200b Then ${words(300)} walked`;
    expect(secretsPotentialStart(closing)).toBe(closing.length - 'walked'.length);
  });

  it('a value behind U+FEFF (which the normaliser removes) is held and redacted', async () => {
    await expectWindowAsGenerate(
      () => secrets({ action: 'redact' }),
      `if ("\uFEFF${words(250)}" == password) {}`,
      'if ("\uFEFF[GENERIC_SECRET]" == password) {}',
      [[1], [7], [64]],
    );
  });
});
