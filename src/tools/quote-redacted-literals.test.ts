import { describe, expect, it } from 'vitest';
import { quoteRedactedLiterals } from './quote-redacted-literals';

describe('quoteRedactedLiterals', () => {
  it('writes a redacted bare number as a JSON string', () => {
    expect(quoteRedactedLiterals('{"phone":4155552671}', '{"phone":[PHONE_NUMBER]}')).toBe(
      '{"phone":"[PHONE_NUMBER]"}',
    );
  });

  it('quotes each changed literal and leaves the unchanged ones and the strings as they are', () => {
    expect(
      quoteRedactedLiterals(
        '{"a":[4155552671,7,4155552672],"b":true,"c":"call 415-555-2673","d":null}',
        '{"a":[[PHONE_NUMBER],7,[PHONE_NUMBER]],"b":true,"c":"call [PHONE_NUMBER]","d":null}',
      ),
    ).toBe(
      '{"a":["[PHONE_NUMBER]",7,"[PHONE_NUMBER]"],"b":true,"c":"call [PHONE_NUMBER]","d":null}',
    );
  });

  it('quotes a literal redacted in part, and a top-level one', () => {
    expect(quoteRedactedLiterals('{"n":-4155552671}', '{"n":-[PHONE_NUMBER]}')).toBe(
      '{"n":"-[PHONE_NUMBER]"}',
    );
    expect(quoteRedactedLiterals('4155552671', '[PHONE_NUMBER]')).toBe('"[PHONE_NUMBER]"');
    expect(quoteRedactedLiterals('[true]', '[]')).toBe('[""]');
    expect(quoteRedactedLiterals('[true]', '[<bool>]')).toBe('["<bool>"]');
  });

  it('keeps the whitespace of a non-canonical text outside the new string', () => {
    expect(
      quoteRedactedLiterals('{\n  "phone": 4155552671\n}', '{\n  "phone": [PHONE_NUMBER]\n}'),
    ).toBe('{\n  "phone": "[PHONE_NUMBER]"\n}');
  });

  it('escapes quotes and backslashes of the new text', () => {
    expect(quoteRedactedLiterals('{"a":1}', '{"a":x"\\y}')).toBe('{"a":"x\\"\\\\y"}');
  });

  it('gives undefined for a modification that cut through JSON syntax', () => {
    // Across a comma and the next key.
    expect(quoteRedactedLiterals('{"a":1,"b":2}', '{"a":[X]}')).toBeUndefined();
    // Over a key.
    expect(quoteRedactedLiterals('{"a":1,"b":2}', '{[X],"b":2}')).toBeUndefined();
    // Into a string's closing quote.
    expect(quoteRedactedLiterals('{"a":"x","b":1}', '{"a":"[X]}')).toBeUndefined();
    // A new text with brackets it does not close, or closes too often.
    expect(quoteRedactedLiterals('[1]', '[[X]')).toBeUndefined();
    expect(quoteRedactedLiterals('{"a":1}', '{"a":X]}')).toBeUndefined();
    // Text added after the end.
    expect(quoteRedactedLiterals('{"a":1}', '{"a":1}x')).toBeUndefined();
    // No literal changed: nothing to quote (the text is broken elsewhere).
    expect(quoteRedactedLiterals('{"a":"x"}', '{"a":"\\q"}')).toBeUndefined();
  });
});
