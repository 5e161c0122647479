import { generateText, streamText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { guardContext, notShownString, withoutTiming } from '../../../test/helpers';
import { buildGuardrailsConfig } from '../../config/load-guardrails-config';
import { GuardrailConfigError } from '../../core/errors';
import type { Guardrail } from '../../core/types';
import { getGuardrailOutcome } from '../../middleware/get-guardrail-outcome';
import { guardrails } from '../../middleware/guardrails-middleware';
import { scriptedModel } from '../../testing/scripted-model';
import { outputSchema } from './output-schema';

const BLOCKED = 'The answer did not have the expected format.';

/** Streams `answer` in `chunkSize`-character deltas through window mode: the text parts and records. */
async function streamed(guard: Guardrail, answer: string, chunkSize: number) {
  const result = streamText({
    model: wrapLanguageModel({
      model: scriptedModel({ respond: () => answer, chunkSize }),
      middleware: guardrails({ output: [guard], stream: { mode: 'window' } }),
    }),
    prompt: 'Answer.',
  });
  const deltas: string[] = [];
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') deltas.push(part.text);
  }
  const outcome = await getGuardrailOutcome(result);
  return {
    deltas,
    text: await result.text,
    finishReason: await result.finishReason,
    records: withoutTiming(outcome?.records ?? []),
  };
}

async function generated(guard: Guardrail, answer: string) {
  const result = await generateText({
    model: wrapLanguageModel({
      model: scriptedModel({ respond: () => answer }),
      middleware: guardrails({ output: [guard] }),
    }),
    prompt: 'Answer.',
  });
  return {
    text: result.text,
    records: withoutTiming((await getGuardrailOutcome(result))!.records),
  };
}

const LONG = 'The plan has three steps. First we measure, then we cut, then we measure again. ';

describe('outputSchema with text rules in window streams', () => {
  it('is stream-safe with text rules, and holds back the longest match of its patterns', () => {
    const guard = outputSchema({
      mustNotMatch: [/as an ai language model/i, /x{2,5}/],
      maxLength: 10,
    });
    expect(guard.streamSafe).toBe(true);
    expect(guard.maxMatchLength).toBe(23);
    expect(outputSchema({ minLength: 3 }).streamSafe).toBe(true);
  });

  it('trips on maxLength as soon as the streamed text passes it', async () => {
    const result = await streamed(outputSchema({ maxLength: 300 }), LONG.repeat(5), 8);
    // The 38th delta took the part to 304 characters: what the window had
    // released of the first 296, then the message; nothing after.
    const released = `${LONG.repeat(3)}The plan has three steps. First we measure, then`;
    expect(result.text).toBe(`${released}${BLOCKED}`);
    expect(result.finishReason).toBe('content-filter');
    expect(result.records).toEqual([
      {
        guardrail: 'output-schema',
        kind: 'output',
        status: 'blocked',
        message: BLOCKED,
        reason: 'answer passed maxLength 300 while streaming (304 characters so far)',
        severity: 'warning',
        info: { rule: 'maxLength' },
      },
    ]);
  });

  it('judges mustNotMatch on the window like a blocklist: the phrase is never released', async () => {
    const answer = `${LONG}Well, as an AI language model I cannot do that. ${LONG}`;
    for (const chunkSize of [1, 3, 7, answer.length]) {
      const result = await streamed(
        outputSchema({ mustNotMatch: [/as an ai language model/i] }),
        answer,
        chunkSize,
      );
      // What was released before the trip depends on the chunking; never the phrase.
      const released = result.text.slice(0, -BLOCKED.length);
      expect(result.text).toBe(`${released}${BLOCKED}`);
      expect(answer.startsWith(released)).toBe(true);
      expect(released.length).toBeLessThan(answer.indexOf('as an AI'));
      expect(result.finishReason).toBe('content-filter');
      expect(result.records).toEqual([
        {
          guardrail: 'output-schema',
          kind: 'output',
          status: 'blocked',
          message: BLOCKED,
          reason: 'answer matches mustNotMatch[0]',
          severity: 'warning',
          info: { rule: 'mustNotMatch', index: 0 },
        },
      ]);
    }
    expect(
      (await generated(outputSchema({ mustNotMatch: [/as an ai language model/i] }), answer)).text,
    ).toBe(BLOCKED);
  });

  it('checks minLength and mustMatch when the part ends, before its last text is released', async () => {
    const guard = () => outputSchema({ mustMatch: [/^Answer:/], minLength: 7 });
    const mustMatchRecord = {
      guardrail: 'output-schema',
      kind: 'output',
      status: 'blocked',
      message: BLOCKED,
      reason: 'answer does not match /^Answer:/',
      severity: 'warning',
      info: { rule: 'mustMatch' },
    };
    // Text streams as it comes; the rule fails at the end, and the held tail is not released.
    const failing = await streamed(guard(), LONG.repeat(3), 4);
    expect(failing.deltas.at(-1)).toBe(BLOCKED);
    expect(failing.text).toBe(
      `${LONG.repeat(2)}The plan has three steps. First we measure, then we cut, then we${BLOCKED}`,
    );
    expect(failing.records).toEqual([mustMatchRecord]);

    for (const chunkSize of [1, 4, 33]) {
      const answer = `Answer: ${LONG.repeat(3)}`;
      const passing = await streamed(guard(), answer, chunkSize);
      expect(passing.deltas.length).toBeGreaterThan(1);
      expect(passing.text).toBe(answer);
      expect(passing.finishReason).toBe('stop');
      expect(passing.records).toEqual([
        { guardrail: 'output-schema', kind: 'output', status: 'passed' },
      ]);
      expect(await generated(guard(), answer)).toEqual({ text: answer, records: passing.records });
    }

    const short = await streamed(guard(), 'Answer', 2);
    expect(short.text).toBe(BLOCKED);
    expect(short.records).toEqual([
      {
        ...mustMatchRecord,
        reason: 'answer is 6 characters, fewer than minLength 7',
        info: { rule: 'minLength' },
      },
    ]);
  });
});

describe('outputSchema: when text rules are not stream-safe', () => {
  const windowIssues = (guard: Guardrail) => {
    try {
      guardrails({ output: [guard], stream: { mode: 'window' } });
    } catch (error) {
      if (error instanceof GuardrailConfigError) return error.issues;
      throw error;
    }
    throw new Error('expected a GuardrailConfigError');
  };

  it('needs a declared maxMatchLength for a pattern that repeats without bound', () => {
    expect(windowIssues(outputSchema({ mustNotMatch: [/sorry.*cannot/i] }))).toEqual([
      {
        path: 'output[0]',
        value: notShownString('output-schema'),
        expected:
          'a stream-safe guardrail in window mode ("output-schema": mustNotMatch[0] /sorry.*cannot/i has no longest match (*, +, {n,}): give outputSchema a maxMatchLength; use stream mode \'hold\')',
      },
    ]);
    const declared = outputSchema({
      mustNotMatch: [/sorry.*cannot/i, /x{2,5}/],
      maxMatchLength: 80,
    });
    expect([declared.streamSafe, declared.maxMatchLength]).toEqual([true, 80]);
  });

  it('finds a declared-bound match in the window, for any chunking', async () => {
    const answer = `${LONG}I am sorry, but I cannot help. ${LONG}`;
    for (const chunkSize of [1, 5, answer.length]) {
      const guard = outputSchema({ mustNotMatch: [/sorry.*cannot/i], maxMatchLength: 40 });
      const result = await streamed(guard, answer, chunkSize);
      const released = result.text.slice(0, -BLOCKED.length);
      expect(result.text).toBe(`${released}${BLOCKED}`);
      expect(released.length).toBeLessThan(answer.indexOf('sorry'));
      expect(result.records[0]).toMatchObject({ reason: 'answer matches mustNotMatch[0]' });
    }
  });

  it('needs hold mode for a pattern anchored at a start or end', () => {
    expect(windowIssues(outputSchema({ mustNotMatch: [/^Sure!/] }))[0]?.expected).toBe(
      'a stream-safe guardrail in window mode ("output-schema": mustNotMatch[0] /^Sure!/ asserts a start or end (^, $), which only the whole answer has; use stream mode \'hold\')',
    );
    // mustMatch is judged on the whole part at its end: anchors are fine there.
    expect(outputSchema({ mustMatch: [/^Sure!$/m] }).streamSafe).toBe(true);
  });

  it('rejects a pattern RE2 cannot run in linear time, naming it', () => {
    try {
      outputSchema({ mustNotMatch: [/ok/, /(a)\1/], mustMatch: [/a(?=b)/] });
      throw new Error('expected a GuardrailConfigError');
    } catch (error) {
      expect((error as GuardrailConfigError).issues).toEqual([
        {
          path: 'output-schema.mustMatch[0]',
          value: notShownString('/a(?=b)/'),
          expected:
            'a pattern RE2 can run in linear time (no lookaround, no backreferences): error parsing regexp: invalid or unsupported Perl syntax: `(?=`',
        },
        {
          path: 'output-schema.mustNotMatch[1]',
          value: notShownString('/(a)\\1/'),
          expected:
            'a pattern RE2 can run in linear time (no lookaround, no backreferences): error parsing regexp: invalid escape sequence: `\\1`',
        },
      ]);
    }
  });

  it('runs a pattern that backtracks catastrophically in JavaScript in linear time', async () => {
    // /(a+)+$/ on "aaa…ab" takes exponential time in a backtracking engine.
    const guard = outputSchema({ mustNotMatch: [/(a+)+$/] });
    const verdict = await guard.check(`${'a'.repeat(50_000)}b`, guardContext('output'));
    expect(verdict).toEqual({ action: 'allow' });
    expect(await guard.check('a'.repeat(50_000), guardContext('output'))).toMatchObject({
      action: 'block',
      reason: 'answer matches mustNotMatch[0]',
    });
  });
});

describe("the seed's output-validator in a window stream", () => {
  it('loads with stream_mode window and trips on max_length as the text streams', async () => {
    const { middleware } = buildGuardrailsConfig({
      stream_mode: 'window',
      output: [{ type: 'output-validator', max_length: 120, must_not_match: ['as an ai'] }],
    });
    const result = streamText({
      model: wrapLanguageModel({
        model: scriptedModel({ respond: () => LONG.repeat(3), chunkSize: 6 }),
        middleware,
      }),
      prompt: 'Plan.',
    });
    const text = await result.text;
    expect(text.endsWith(BLOCKED)).toBe(true);
    expect(LONG.repeat(3).startsWith(text.slice(0, -BLOCKED.length))).toBe(true);
    expect(withoutTiming((await getGuardrailOutcome(result))!.records)).toEqual([
      {
        guardrail: 'output-schema',
        kind: 'output',
        status: 'blocked',
        message: BLOCKED,
        reason: 'answer passed maxLength 120 while streaming (126 characters so far)',
        severity: 'warning',
        info: { rule: 'maxLength' },
      },
    ]);
  });

  it('takes max_match_length for an unbounded must_not_match pattern, and says when it is missing', () => {
    const config = (extra: Record<string, unknown>) => ({
      stream_mode: 'window',
      output: [{ type: 'output-validator', must_not_match: ['/sorry.*cannot/i'], ...extra }],
    });
    const { guardrails: built } = buildGuardrailsConfig(config({ max_match_length: 40 }));
    expect(built.output.map(guard => [guard.streamSafe, guard.maxMatchLength])).toEqual([
      [true, 40],
    ]);
    expect(() => buildGuardrailsConfig(config({}))).toThrow(GuardrailConfigError);
  });
});
