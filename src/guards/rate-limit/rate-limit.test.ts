import { generateText, isStepCount, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { generateResult, guardContext, notShownString } from '../../../test/helpers';
import { expectOwnCounts } from '../../../test/helpers/key-variants';
import { turnsModel } from '../../../test/helpers/turns-model';
import { GuardrailConfigError } from '../../core/errors';
import { NotShown } from '../../core/redact-secrets';
import type { GuardrailContext } from '../../core/types';
import { getGuardrailOutcome } from '../../middleware/get-guardrail-outcome';
import { guardrails } from '../../middleware/guardrails-middleware';
import { memoryStore } from '../../store/memory-store';
import type { Store } from '../../store/store';
import { guardTools } from '../../tools/guard-tool';
import { rateLimit } from './rate-limit';

const context = (metadata: GuardrailContext['metadata'] = {}) =>
  guardContext('input', { metadata });

function clockedStore() {
  let time = 0;
  return { store: memoryStore({ now: () => time }), advance: (ms: number) => (time += ms) };
}

describe('rateLimit', () => {
  it('passes `limit` checks per key and window, then blocks with the time to wait', async () => {
    const { store, advance } = clockedStore();
    const limiter = rateLimit({ limit: 2, windowMs: 60_000, store });
    const alice = context({ userId: 'alice' });
    expect(await limiter.check('hi', alice)).toEqual({
      action: 'allow',
      info: { limit: 2, count: 1, remaining: 1 },
    });
    advance(10_000);
    expect(await limiter.check('hi', alice)).toEqual({
      action: 'allow',
      info: { limit: 2, count: 2, remaining: 0 },
    });
    advance(5_000);
    expect(await limiter.check('hi', alice)).toEqual({
      action: 'block',
      message: 'Too many requests: try again in 45 s.',
      reason: 'more than 2 checks in 60000 ms for this key; retry in 45000 ms',
      severity: 'warning',
      info: { limit: 2, count: 2, retryAfterMs: 45_000 },
    });
    // Another key has its own count.
    expect(await limiter.check('hi', context({ userId: 'bob' }))).toMatchObject({
      action: 'allow',
      info: { count: 1 },
    });
    // The window is fixed from the first check: after it, alice starts again.
    advance(45_000);
    expect(await limiter.check('hi', alice)).toMatchObject({ action: 'allow', info: { count: 1 } });
  });

  it('does not count refused checks', async () => {
    const { store } = clockedStore();
    const limiter = rateLimit({ limit: 1, windowMs: 1_000, store });
    const ctx = context({ userId: 'u' });
    await limiter.check('hi', ctx);
    await limiter.check('hi', ctx);
    await limiter.check('hi', ctx);
    expect(await store.get('rate-limit:u')).toBe('1');
  });

  it('keys on userId, else sessionId, by default; without either it does not limit', async () => {
    const { store } = clockedStore();
    const limiter = rateLimit({ limit: 1, windowMs: 1_000, store });
    await limiter.check('hi', context({ sessionId: 's1' }));
    await limiter.check('hi', context({ userId: 7, sessionId: 's1' }));
    expect(await store.get('rate-limit:session:s1')).toBe('1');
    expect(await store.get('rate-limit:7')).toBe('1');
    expect(await limiter.check('hi', context())).toEqual({
      action: 'allow',
      info: { limited: false },
    });
  });

  // Round 35: a user's count and a session's were one key (`rate-limit:<id>`):
  // an anonymous client, whose session id is its own to choose, sent
  // another user's id as its session id and used up that user's limit.
  it("counts a session apart from the user whose id it names (no client can use up another's limit)", async () => {
    const { store } = clockedStore();
    const limiter = rateLimit({ limit: 1, windowMs: 60_000, store });
    expect(await limiter.check('hi', context({ sessionId: 'alice' }))).toEqual({
      action: 'allow',
      info: { limit: 1, count: 1, remaining: 0 },
    });
    expect(await limiter.check('hi', context({ userId: 'alice' }))).toEqual({
      action: 'allow',
      info: { limit: 1, count: 1, remaining: 0 },
    });
    expect(await limiter.check('hi', context({ userId: 'alice', sessionId: 'x' }))).toMatchObject({
      action: 'block',
      info: { limit: 1, count: 1 },
    });
    expect([
      await store.get('rate-limit:alice'),
      await store.get('rate-limit:session:alice'),
    ]).toEqual(['1', '1']);
  });

  // Round 36: a user id that starts with `session:` was counted under the
  // session key of the rest (`rate-limit:session:alice` for the user
  // `session:alice` and for the session `alice`): where user ids are chosen
  // by their users (sign-up names), one used up a session's limit.
  it("counts a user id that reads as a session key apart from that session (and from every other user's)", async () => {
    const { store } = clockedStore();
    const limiter = rateLimit({ limit: 1, windowMs: 60_000, store });
    const calls = [
      { sessionId: 'alice' },
      { userId: 'session:alice' },
      { userId: 'user:session:alice' },
      { userId: 'user:bob' },
      { userId: 'bob' },
    ];
    for (const metadata of calls) {
      expect(await limiter.check('hi', context(metadata))).toEqual({
        action: 'allow',
        info: { limit: 1, count: 1, remaining: 0 },
      });
    }
    // Each a key of its own; a user id without either prefix keeps the key it had.
    expect(
      await Promise.all(
        [
          'session:alice',
          'user:session:alice',
          'user:user:session:alice',
          'user:user:bob',
          'bob',
        ].map(key => store.get(`rate-limit:${key}`)),
      ),
    ).toEqual(['1', '1', '1', '1', '1']);
  });

  // Round 36: a key function returning '' (an id header that was absent, a
  // `user?.id ?? ''`) or only blanks put every such caller under one count
  // (`rate-limit:`): one of them used up the limit of all. No caller is
  // named by a blank key: the check fails closed with a typed error.
  describe('a blank key (empty or only white space) is an error record, never a shared count', () => {
    const expected = 'a function returning a non-blank string or undefined, synchronously';
    for (const [label, blank, received] of [
      ['empty', '', '(an empty string)'],
      ['spaces', '   ', '(a blank string)'],
      ['tab and newline', '\t\n', '(a blank string)'],
      ['ideographic space and no-break space', '\u3000\u00a0', '(a blank string)'],
    ] as const) {
      it(`${label}: blocked before the model runs, the store untouched`, async () => {
        const { store } = clockedStore();
        const model = new MockLanguageModelV4({ doGenerate: async () => generateResult('Hello!') });
        const limiter = rateLimit({ limit: 5, windowMs: 60_000, store, key: () => blank });
        const result = await generateText({
          model: wrapLanguageModel({ model, middleware: guardrails({ input: [limiter] }) }),
          prompt: 'Hi',
        });
        expect(model.doGenerateCalls).toHaveLength(0);
        expect(result.finishReason).toBe('content-filter');
        const records = (await getGuardrailOutcome(result))?.records ?? [];
        expect(records.map(({ durationMs: _, ...record }) => record)).toEqual([
          {
            guardrail: 'rate-limit',
            kind: 'input',
            status: 'error',
            reason: `Invalid guardrail configuration at rate-limit.key: expected ${expected}, received "${received}"`,
          },
        ]);
        expect(await store.get(`rate-limit:${blank}`)).toBeUndefined();
      });
    }

    it('the default key: a blank user or session id is the same error (not the count of every blank id)', async () => {
      const { store } = clockedStore();
      const limiter = rateLimit({ limit: 5, windowMs: 60_000, store });
      await expect(limiter.check('hi', context({ userId: ' ' }))).rejects.toThrow(
        `Invalid guardrail configuration at rate-limit.key: expected ${expected}, received "(a blank string)"`,
      );
      // Not `session:`, the count every client sending no session id would share.
      await expect(limiter.check('hi', context({ sessionId: '' }))).rejects.toThrow(
        `Invalid guardrail configuration at rate-limit.key: expected ${expected}, received "(an empty string)"`,
      );
      expect([await store.get('rate-limit: '), await store.get('rate-limit:session:')]).toEqual([
        undefined,
        undefined,
      ]);
    });

    it("with onError: 'allow' the call goes on, the error recorded", async () => {
      const model = new MockLanguageModelV4({ doGenerate: async () => generateResult('Hello!') });
      const limiter = rateLimit({ limit: 5, windowMs: 60_000, key: () => '', onError: 'allow' });
      const result = await generateText({
        model: wrapLanguageModel({ model, middleware: guardrails({ input: [limiter] }) }),
        prompt: 'Hi',
      });
      expect(result.text).toBe('Hello!');
      expect((await getGuardrailOutcome(result))?.records[0]).toMatchObject({
        guardrail: 'rate-limit',
        status: 'error',
        reason: `Invalid guardrail configuration at rate-limit.key: expected ${expected}, received "(an empty string)"`,
      });
    });
  });

  it('counts every key as written: case, Unicode forms, blanks around it, separators, glob and hash-tag characters each have their own count', async () => {
    const { store } = clockedStore();
    const key = (ctx: GuardrailContext) => ctx.metadata.k as string;
    await expectOwnCounts(rateLimit({ limit: 1, windowMs: 60_000, store, key }), context);
    expect(await store.get('rate-limit:a:b')).toBe('1');
    expect(await store.get('rate-limit:{alice}')).toBe('1');
  });

  it('warns once when calls carry no user or session id (a limit that never limits), not with a key of your own', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const model = new MockLanguageModelV4({ doGenerate: async () => generateResult('Hello!') });
      const limited = (limiter: ReturnType<typeof rateLimit>) =>
        wrapLanguageModel({ model, middleware: guardrails({ input: [limiter] }) });
      const perUser = limited(rateLimit({ limit: 1, windowMs: 60_000, name: 'per-user' }));
      // A misspelt providerOptions key: the middleware reads `guardrails`, so no call has an id.
      const misspelt = { guardrail: { userId: 'u1' } };
      for (let call = 0; call < 3; call++) {
        const result = await generateText({
          model: perUser,
          prompt: 'hi',
          providerOptions: misspelt,
        });
        expect(result.text).toBe('Hello!');
        expect((await getGuardrailOutcome(result))?.records.map(record => record.info)).toEqual([
          { limited: false },
        ]);
      }
      expect(warn.mock.calls).toEqual([
        [
          "[ai-guardrails] per-user: a call without metadata.userId or metadata.sessionId is not limited; pass one in the call's providerOptions.guardrails or with guardrails({ context }), or give rateLimit a key.",
        ],
      ]);

      warn.mockClear();
      const keyed = { guardrails: { userId: 'u1' } };
      const ownKey = limited(rateLimit({ limit: 1, windowMs: 60_000, key: () => undefined }));
      await generateText({ model: ownKey, prompt: 'hi' });
      await generateText({
        model: limited(rateLimit({ limit: 1, windowMs: 60_000 })),
        prompt: 'hi',
        providerOptions: keyed,
      });
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it('uses the key function and the name as the store key prefix', async () => {
    const { store } = clockedStore();
    const limiter = rateLimit({
      limit: 5,
      windowMs: 1_000,
      store,
      name: 'per-ip',
      key: ctx => ctx.metadata.ip as string | undefined,
    });
    expect(limiter.name).toBe('per-ip');
    await limiter.check('hi', context({ ip: '203.0.113.9', userId: 'ignored' }));
    expect(await store.get('per-ip:203.0.113.9')).toBe('1');
  });

  it('blocks the call before the model runs once the limit is reached, through generateText', async () => {
    const model = new MockLanguageModelV4({ doGenerate: async () => generateResult('Hello!') });
    const guarded = wrapLanguageModel({
      model,
      middleware: guardrails({ input: [rateLimit({ limit: 2, windowMs: 60_000 })] }),
    });
    const ask = () =>
      generateText({
        model: guarded,
        prompt: 'Hi',
        providerOptions: { guardrails: { userId: 'user-1' } },
      });
    expect((await ask()).text).toBe('Hello!');
    expect((await ask()).text).toBe('Hello!');
    const third = await ask();
    expect(third.finishReason).toBe('content-filter');
    // The raw reason says which guardrail ended the call: a rate limit, not a content block.
    expect(third.rawFinishReason).toBe('guardrail:rate-limit');
    expect(third.text).toMatch(/^Too many requests: try again in (59|60) s\.$/);
    expect(model.doGenerateCalls).toHaveLength(2);
    const outcome = await getGuardrailOutcome(third);
    expect(outcome?.status).toBe('blocked');
    expect(outcome?.records[0]).toMatchObject({
      guardrail: 'rate-limit',
      kind: 'input',
      status: 'blocked',
      message: expect.stringMatching(/^Too many requests: try again in (59|60) s\.$/),
      info: { limit: 2, count: 2 },
    });
  });

  it('gives a user id with a lone surrogate a count apart from the same id with U+FFFD, through generateText', async () => {
    // A long id went into the store under the SHA-256 of its UTF-8, which writes a
    // lone surrogate as U+FFFD: mallory's calls used up the victim's limit.
    const store = memoryStore();
    const model = new MockLanguageModelV4({ doGenerate: async () => generateResult('Hello!') });
    const guarded = wrapLanguageModel({
      model,
      middleware: guardrails({ input: [rateLimit({ limit: 1, windowMs: 60_000, store })] }),
    });
    const victim = `${'v'.repeat(300)}\uFFFD`;
    const mallory = `${'v'.repeat(300)}\uD800`;
    const ask = (userId: string) =>
      generateText({ model: guarded, prompt: 'Hi', providerOptions: { guardrails: { userId } } });
    expect((await ask(mallory)).finishReason).toBe('stop');
    const victimCall = await ask(victim);
    expect(victimCall.finishReason).toBe('stop');
    expect(victimCall.text).toBe('Hello!');
    expect((await getGuardrailOutcome(victimCall))?.records).toEqual([
      expect.objectContaining({
        guardrail: 'rate-limit',
        status: 'passed',
        info: { limit: 1, count: 1, remaining: 0 },
      }),
    ]);
    expect((await ask(mallory)).finishReason).toBe('content-filter');
    expect(model.doGenerateCalls).toHaveLength(2);
  });

  it('as a tool input guardrail, counts tool calls and blocks the one over the limit', async () => {
    const execute = vi.fn(async ({ query }: { query: string }) => `results for ${query}`);
    const tools = guardTools(
      { search: tool({ inputSchema: z.object({ query: z.string() }), execute }) },
      { input: [rateLimit({ limit: 1, windowMs: 60_000, key: ctx => ctx.toolName })] },
    );
    const model = turnsModel([
      { toolCalls: [{ toolCallId: 'c1', toolName: 'search', input: { query: 'first' } }] },
      { toolCalls: [{ toolCallId: 'c2', toolName: 'search', input: { query: 'second' } }] },
      { text: 'Done.' },
    ]);
    const result = await generateText({
      model,
      tools,
      prompt: 'Search twice',
      stopWhen: isStepCount(5),
    });
    expect(execute).toHaveBeenCalledTimes(1);
    expect(result.steps[0]?.toolResults[0]?.output).toBe('results for first');
    expect(result.steps[1]?.toolResults[0]?.output).toMatchObject({
      status: 'blocked',
      message: expect.stringMatching(/^Too many requests: try again in (59|60) s\.$/),
      guardrail: {
        guardrail: 'rate-limit',
        kind: 'tool_input',
        status: 'blocked',
        toolName: 'search',
        toolCallId: 'c2',
        info: { limit: 1, count: 1 },
      },
    });
  });

  const failingStore: Store = {
    incrBy: () => Promise.reject(new Error('connection refused')),
    incrByCapped: () => Promise.reject(new Error('connection refused')),
    get: () => Promise.reject(new Error('connection refused')),
    set: () => Promise.reject(new Error('connection refused')),
    setIfAbsent: () => Promise.reject(new Error('connection refused')),
    touch: () => Promise.reject(new Error('connection refused')),
    delete: () => Promise.reject(new Error('connection refused')),
  };

  it('fails closed when the store fails, with an error record', async () => {
    const model = new MockLanguageModelV4({ doGenerate: async () => generateResult('Hello!') });
    const result = await generateText({
      model: wrapLanguageModel({
        model,
        middleware: guardrails({
          input: [rateLimit({ limit: 2, windowMs: 60_000, store: failingStore })],
        }),
      }),
      prompt: 'Hi',
      providerOptions: { guardrails: { userId: 'user-1' } },
    });
    expect(model.doGenerateCalls).toHaveLength(0);
    expect(result.finishReason).toBe('content-filter');
    expect((await getGuardrailOutcome(result))?.records[0]).toMatchObject({
      guardrail: 'rate-limit',
      status: 'error',
      reason: 'connection refused',
    });
  });

  it("allows with onError: 'allow' when the store fails, still recording the error", async () => {
    const model = new MockLanguageModelV4({ doGenerate: async () => generateResult('Hello!') });
    const result = await generateText({
      model: wrapLanguageModel({
        model,
        middleware: guardrails({
          input: [rateLimit({ limit: 2, windowMs: 60_000, store: failingStore, onError: 'allow' })],
        }),
      }),
      prompt: 'Hi',
      providerOptions: { guardrails: { userId: 'user-1' } },
    });
    expect(result.text).toBe('Hello!');
    expect((await getGuardrailOutcome(result))?.records[0]).toMatchObject({
      guardrail: 'rate-limit',
      status: 'error',
      reason: 'connection refused',
    });
  });

  it('rejects bad options with every path named', () => {
    let error: unknown;
    try {
      rateLimit({ limit: 0, windowMs: 1.5, key: 'userId' as never });
    } catch (caught) {
      error = caught;
    }
    expect(GuardrailConfigError.isInstance(error)).toBe(true);
    expect((error as GuardrailConfigError).issues).toEqual([
      { path: 'rate-limit.limit', value: new NotShown('0'), expected: 'a positive integer' },
      {
        path: 'rate-limit.windowMs',
        value: new NotShown('1.5'),
        expected: 'a positive integer number of milliseconds',
      },
      {
        path: 'rate-limit.key',
        value: notShownString('userId'),
        expected: 'a function of the call context',
      },
    ]);
  });
});
