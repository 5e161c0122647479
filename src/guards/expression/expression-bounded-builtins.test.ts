import { generateText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { textModel } from '../../../test/helpers';
import { getGuardrailOutcome } from '../../middleware/get-guardrail-outcome';
import { guardrails } from '../../middleware/guardrails-middleware';
import { expression } from './expression';

/*
 * Round 27: cel-js's `duration(string)` finds each number and unit with an
 * unanchored `(\d*\.?\d*)(ns|us|µs|ms|s|m|h)`, which costs cubic time on a
 * run of digits (500 digits took 0.9 s, 2,000 took 9 s, with the event
 * loop blocked), and its error wrote the whole string unquoted into the
 * record's reason: `duration(content)` put the user's text in the record.
 * `duration` now parses strings of a duration's shape, at most 64
 * characters, and fails without the value otherwise. A `matches` pattern
 * from the input that is not RE2 was quoted (between backticks) in the
 * reason too; it is not now. `lastIndexOf` (V8's compares from each start
 * in turn) took 20 s for a 125,000-character search in 250,000 characters;
 * a long search is now found in linear time.
 */

async function outcomeOf(expr: string, prompt: string, metadata?: Record<string, string>) {
  const model = wrapLanguageModel({
    model: textModel('ok'),
    middleware: guardrails({
      input: [expression({ expr, name: 'rule' })],
      ...(metadata && { context: () => metadata }),
    }),
  });
  const result = await generateText({ model, prompt });
  const records = (await getGuardrailOutcome(result))?.records ?? [];
  return { text: result.text, records: records.map(r => [r.guardrail, r.status, r.reason]) };
}

describe('expression: duration() and matches() of the input are bounded and keep the input out of records', () => {
  it('a duration of its shape is parsed', async () => {
    expect(await outcomeOf('duration(content) < duration("1h")', '2m30.5s')).toEqual({
      text: 'ok',
      records: [['rule', 'passed', undefined]],
    });
  });

  it('a run of 200,000 digits fails closed at once, its reason without the text', async () => {
    const { text, records } = await outcomeOf(
      'duration(content) < duration("1h")',
      '1'.repeat(200_000),
    );
    expect(text).toBe("Sorry, I can't help with that.");
    expect(records).toEqual([
      [
        'rule',
        'error',
        'expression evaluation failed: duration() of a string that is no duration of at most 64 characters',
      ],
    ]);
  });

  it('a password given to duration() is not written into the record', async () => {
    const { records } = await outcomeOf(
      'duration(content) < duration("1h")',
      'hunter2 is my password',
    );
    expect(records).toEqual([
      [
        'rule',
        'error',
        'expression evaluation failed: duration() of a string that is no duration of at most 64 characters',
      ],
    ]);
  });

  it('a pattern from the metadata that is not RE2 is not written into the record', async () => {
    const { records } = await outcomeOf('content.matches(metadata.p)', 'hello', {
      p: '(sk-live-4f9a',
    });
    expect(records).toEqual([
      [
        'rule',
        'error',
        'expression evaluation failed: matches() of a pattern from the input that is not valid RE2',
      ],
    ]);
  });

  it('lastIndexOf of a long search from the metadata runs in linear time, with the answer V8 gives', async () => {
    const content = 'a'.repeat(200_000);
    const search = `${'a'.repeat(100_000)}b`;
    expect(
      await outcomeOf('content.lastIndexOf(metadata.p) == -1', content, { p: search }),
    ).toEqual({ text: 'ok', records: [['rule', 'passed', undefined]] });
    const found = `${'b'.repeat(1_000)}${search}${'a'.repeat(100)}${search}c`;
    expect(found.lastIndexOf(search, 100_000)).toBe(1_000);
    expect(
      await outcomeOf(
        'content.lastIndexOf(metadata.p) == 101101 && content.lastIndexOf(metadata.p, 100000) == 1000',
        found,
        { p: search },
      ),
    ).toEqual({ text: 'ok', records: [['rule', 'passed', undefined]] });
  });
});
