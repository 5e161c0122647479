import { generateText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { textModel, withoutTiming } from '../../test/helpers';
import { pii } from '../guards/pii/pii';
import { rateLimit } from '../guards/rate-limit/rate-limit';
import { secrets } from '../guards/secrets/secrets';
import { tokenBudget } from '../guards/token-budget/token-budget';
import { getGuardrailOutcome } from '../middleware/get-guardrail-outcome';
import { type GuardrailsOptions, guardrails } from '../middleware/guardrails-middleware';

// Each option below is typed as synchronous; a JavaScript caller (or a cast)
// can still hand over an async function, as users of `context` did.
const asAsync = <T>(value: string | number | undefined) => (async () => value) as unknown as T;

async function call(
  options: GuardrailsOptions,
  answer: string,
  { prompt = 'hi', sessionId }: { prompt?: string; sessionId?: string } = {},
) {
  const mock = textModel(answer);
  const result = await generateText({
    model: wrapLanguageModel({ model: mock, middleware: guardrails(options) }),
    prompt,
    providerOptions: sessionId ? { guardrails: { sessionId } } : undefined,
  });
  const outcome = await getGuardrailOutcome(result);
  return {
    text: result.text,
    modelCalls: mock.doGenerateCalls.length,
    status: outcome?.status,
    records: withoutTiming(outcome?.records),
  };
}

const errorRecord = (guardrail: string, kind: string, option: string, expected: string) => ({
  guardrail,
  kind,
  status: 'error',
  reason: `Invalid guardrail configuration at ${guardrail}.${option}: expected ${expected}, received "(a Promise: ${option} must be synchronous)"`,
});
const stringOrUndefined = 'a function returning a string or undefined, synchronously';

describe('a caller function that returns a Promise where a value is expected fails closed', () => {
  it('pii pseudonymize: an async conversationId no longer shares one vault between conversations', async () => {
    const vault = pii({
      action: 'pseudonymize',
      conversationId: asAsync<(ctx: unknown) => string>('same for everyone'),
    });
    const options = { input: [vault], output: [vault] };
    const first = await call(options, 'ok', { prompt: 'I am alice@a.io', sessionId: 'A' });
    // Before, conversation B's <EMAIL_ADDRESS_1> was turned back into alice@a.io.
    const second = await call(options, 'Your mail is <EMAIL_ADDRESS_1>', { sessionId: 'B' });
    for (const { text, modelCalls, status, records } of [first, second]) {
      expect({ text, modelCalls, status, records }).toEqual({
        text: "Sorry, I can't help with that.",
        modelCalls: 0,
        status: 'blocked',
        records: [errorRecord('pii', 'input', 'conversationId', stringOrUndefined)],
      });
    }
  });

  it('pii redact: an async placeholder no longer writes "[object Promise]" into the answer', async () => {
    const placeholder = asAsync<(type: string) => string>('<hidden>');
    expect(
      await call({ output: [pii({ action: 'redact', placeholder })] }, 'Mail jane@corp.io'),
    ).toEqual({
      text: "Sorry, I can't help with that.",
      modelCalls: 1,
      status: 'blocked',
      records: [
        errorRecord('pii', 'output', 'placeholder', 'a function (type) => string, synchronous'),
      ],
    });
  });

  it('secrets redact: an async placeholder no longer writes "[object Promise]" into the answer', async () => {
    const placeholder = asAsync<(type: string) => string>('<hidden>');
    const answer = 'Use ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';
    expect(await call({ output: [secrets({ action: 'redact', placeholder })] }, answer)).toEqual({
      text: "Sorry, I can't help with that.",
      modelCalls: 1,
      status: 'blocked',
      records: [
        errorRecord('secrets', 'output', 'placeholder', 'a function (type) => string, synchronous'),
      ],
    });
  });

  it('a placeholder returning undefined is an error record, not "undefined" in the text', async () => {
    const placeholder = (() => undefined) as unknown as (type: string) => string;
    const { text, records } = await call(
      { output: [pii({ action: 'redact', placeholder })] },
      'Mail jane@corp.io',
    );
    expect({ text, records }).toEqual({
      text: "Sorry, I can't help with that.",
      records: [
        {
          guardrail: 'pii',
          kind: 'output',
          status: 'error',
          reason:
            'Invalid guardrail configuration at pii.placeholder: expected a function (type) => string, synchronous, received "(undefined)"',
        },
      ],
    });
  });

  it('rateLimit: an async key no longer puts every caller under one count', async () => {
    const key = asAsync<(ctx: unknown) => string>('user-1');
    const limiter = rateLimit({ limit: 1, windowMs: 60_000, key });
    expect(await call({ input: [limiter] }, 'ok')).toEqual({
      text: "Sorry, I can't help with that.",
      modelCalls: 0,
      status: 'blocked',
      records: [errorRecord('rate-limit', 'input', 'key', stringOrUndefined)],
    });
  });

  it('rateLimit: a numeric key counts as its decimal text, as a numeric user id does', async () => {
    const limiter = rateLimit({ limit: 1, windowMs: 60_000, key: () => 42 as unknown as string });
    expect((await call({ input: [limiter] }, 'ok')).records).toEqual([
      {
        guardrail: 'rate-limit',
        kind: 'input',
        status: 'passed',
        info: { limit: 1, count: 1, remaining: 0 },
      },
    ]);
    const second = await call({ input: [limiter] }, 'ok');
    expect(second.status).toBe('blocked');
  });

  it('tokenBudget: an async sessionId no longer puts every session under one budget', async () => {
    const sessionId = asAsync<(ctx: unknown) => string>('s1');
    const budget = tokenBudget({ perSession: { maxTokens: 10_000 }, sessionId });
    expect(await call({ input: [budget] }, 'ok')).toEqual({
      text: "Sorry, I can't help with that.",
      modelCalls: 0,
      status: 'blocked',
      records: [errorRecord('token-budget', 'input', 'sessionId', stringOrUndefined)],
    });
  });

  it('tokenBudget: an async countTokens no longer lets a prompt of any size pass', async () => {
    // A Promise compared with the cap is over no cap: the prompt passed before.
    const countTokens = asAsync<(text: string) => number>(1_000_000);
    const budget = tokenBudget({ maxInputTokens: 10, countTokens });
    expect(await call({ input: [budget] }, 'ok', { prompt: 'word '.repeat(100) })).toEqual({
      text: "Sorry, I can't help with that.",
      modelCalls: 0,
      status: 'blocked',
      records: [
        errorRecord(
          'token-budget',
          'input',
          'countTokens',
          'a function returning a count of tokens (a finite number >= 0), synchronously',
        ),
      ],
    });
  });

  it('an async blockedMessage is named as a Promise, not as {}, in its error record (the block stands)', async () => {
    expect(
      await call(
        { output: [pii({ action: 'block' })], blockedMessage: asAsync<() => string>('no') },
        'Mail jane@corp.io',
      ),
    ).toMatchObject({
      text: 'The text contains personal data (EMAIL_ADDRESS).',
      status: 'blocked',
      records: [
        { guardrail: 'pii', status: 'blocked' },
        {
          guardrail: 'blocked-message',
          kind: 'output',
          status: 'error',
          reason:
            'blockedMessage returned no string (a Promise: blockedMessage must be synchronous): the default message was shown',
        },
      ],
    });
  });
});
