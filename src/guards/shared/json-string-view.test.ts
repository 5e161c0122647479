import { generateText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { toolOutputsIn, toolResultHistory } from '../../../test/helpers/tool-history';
import { turnsModel } from '../../../test/helpers/turns-model';
import { guardrails } from '../../middleware/guardrails-middleware';
import { pii } from '../pii/pii';
import { secrets } from '../secrets/secrets';
import { jsonStringView } from './json-string-view';

/** The text tool result the model gets after `toolOutputs` judged `value`. */
async function sentToModel(value: string, guardrail = pii({ action: 'redact' })) {
  const model = turnsModel([{ text: 'Done.' }]);
  await generateText({
    model: wrapLanguageModel({ model, middleware: guardrails({ toolOutputs: [guardrail] }) }),
    messages: toolResultHistory({ type: 'text', value }),
  });
  return toolOutputsIn(model.doGenerateCalls[0]!.prompt);
}

/*
 * A tool's text output that looks like JSON is read with its strings'
 * escapes decoded (the model reads `\u0040` as `@`). Text that was JSON only
 * in part (cut short, a stray backslash, an escape JSON does not allow, a
 * leading blank or byte order mark) was read as written instead, so one
 * added character hid every escaped value.
 */
describe('JSON cut short or with a stray backslash is still read decoded', () => {
  it.each([
    [
      'cut short (a string that does not end)',
      '{"contact":"jane\\u0040corp.io',
      '{"contact":"[EMAIL_ADDRESS]',
    ],
    [
      'a trailing backslash',
      '{"contact":"jane\\u0040corp.io"}\\',
      '{"contact":"[EMAIL_ADDRESS]"}\\',
    ],
    [
      'an escape JSON does not allow',
      '{"contact":"jane\\u0040corp.io","path":"C:\\q"}',
      '{"contact":"[EMAIL_ADDRESS]","path":"C:\\q"}',
    ],
    ['a leading blank', ' {"contact":"jane\\u0040corp.io"}', ' {"contact":"[EMAIL_ADDRESS]"}'],
    [
      'a byte order mark',
      '\ufeff{"contact":"jane\\u0040corp.io"}',
      '\ufeff{"contact":"[EMAIL_ADDRESS]"}',
    ],
  ])('pii: an escaped e-mail in a text result %s is redacted', async (_, value, redacted) => {
    expect(await sentToModel(value)).toEqual([{ type: 'text', value: redacted }]);
  });

  it('secrets: an escaped quoted password in a text result cut short is redacted', async () => {
    const value = '{"file":"db_password: \\"Zx8#kLm2$pQ9vR4t\\"\\nhost: db1\\n';
    expect(await sentToModel(value, secrets({ action: 'redact' }))).toEqual([
      { type: 'text', value: '{"file":"db_password: \\"[GENERIC_SECRET]\\"\\nhost: db1\\n' },
    ]);
  });

  it('decodes what it can and keeps the rest as written, mapped back character by character', () => {
    const json = '["a\\u0040b\\q\\u12"]\\x';
    const view = jsonStringView(json)!;
    expect(view.text).toBe('["a@b\\q\\u12"]\\x');
    // The `@` comes from the six characters of its escape; the kept backslashes from one each.
    expect([view.sourceStart[3], view.sourceEnd[3]]).toEqual([3, 9]);
    expect([view.sourceStart[5], view.sourceEnd[5]]).toEqual([10, 11]);
    expect(jsonStringView('plain text with a \\n')).toBeUndefined();
  });
});

describe('jsonStringView maps every decoded character back to its escape', () => {
  it('across its 8,192-character chunks, to the end of the text', () => {
    // 10,000 escapes of two and six characters, then a string cut short.
    const json = `["${'\\n\\u0041'.repeat(5_000)}","x","y`;
    const view = jsonStringView(json)!;
    expect(view.text).toBe(`["${'\nA'.repeat(5_000)}","x","y`);
    const at = (index: number) => [
      view.sourceStart[index],
      view.sourceEnd[index],
      view.stringOf[index],
    ];
    expect(view.sourceStart.length).toBe(view.text.length);
    expect(view.sourceEnd.length).toBe(view.text.length);
    expect(at(0)).toEqual([0, 1, -1]);
    expect(at(1)).toEqual([1, 2, -1]);
    // The 8,192nd decoded character and the one after it (the chunk's seam).
    expect(at(8_191)).toEqual([2 + 4_094 * 8 + 2, 2 + 4_095 * 8, 1]);
    expect(at(8_192)).toEqual([2 + 4_095 * 8, 2 + 4_095 * 8 + 2, 1]);
    expect(at(view.text.length - 1)).toEqual([json.length - 1, json.length, 3]);
  });
});

describe('jsonStringView copies what is read as written unit for unit', () => {
  it('keeps lone surrogates, decodes escaped ones, across runs long enough to be sliced', () => {
    const long = 'x'.repeat(100);
    // A lone high surrogate written, then a low one escaped; an escaped lone
    // high one; a pair split by an escape; long runs before and after.
    const json = `{"a":"${long}\ud83d\\ude00\\ud800${long}\ud83d\\n\ude00","b":"\\u0041${long}"}`;
    const view = jsonStringView(json)!;
    expect(view.text).toBe(`{"a":"${long}\ud83d\ude00\ud800${long}\ud83d\n\ude00","b":"A${long}"}`);
    const at = (index: number) => [
      view.sourceStart[index],
      view.sourceEnd[index],
      view.stringOf[index],
    ];
    expect(view.text.length).toBe(view.sourceStart.length);
    // The value of "a" is the JSON text's second string.
    expect(at(6)).toEqual([6, 7, 2]);
    expect(at(106)).toEqual([106, 107, 2]);
    expect(at(107)).toEqual([107, 113, 2]);
    expect(at(108)).toEqual([113, 119, 2]);
    expect(at(209)).toEqual([219, 220, 2]);
    expect(at(210)).toEqual([220, 222, 2]);
    expect(at(211)).toEqual([222, 223, 2]);
    expect(at(212)).toEqual([223, 224, -1]);
    expect(at(219)).toEqual([230, 236, 4]);
    expect(at(view.text.length - 1)).toEqual([json.length - 1, json.length, -1]);
  });
});
