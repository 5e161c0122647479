import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { notShownString, withoutTiming } from '../../test/helpers';
import { invisibleText } from '../guards/invisible-text/invisible-text';
import { pii } from '../guards/pii/pii';
import { secrets } from '../guards/secrets/secrets';
import { declareSignalFreeCheck, isSignalFreeCheck, runChain } from './chain';
import { allow, block, defineGuardrail, modify } from './define-guardrail';
import { GuardrailConfigError, GuardrailTripwireError } from './errors';
import type { Guardrail, GuardrailEvent } from './types';

const context = { kind: 'input' as const, messages: [], metadata: {}, state: new Map() };

describe('runChain', () => {
  it('runs in declared order and hands each modification to the next guardrail', async () => {
    const seen: string[] = [];
    const upper = defineGuardrail({
      name: 'upper',
      check: t => {
        seen.push(t);
        return modify(t.toUpperCase());
      },
    });
    const exclaim = defineGuardrail({
      name: 'exclaim',
      check: t => {
        seen.push(t);
        return modify(`${t}!`);
      },
    });
    const result = await runChain([upper, exclaim], 'hi', context);
    expect(seen).toEqual(['hi', 'HI']);
    expect(result.content).toBe('HI!');
    expect(result.trip).toBeUndefined();
    expect(withoutTiming(result.records)).toEqual([
      { guardrail: 'upper', kind: 'input', status: 'modified' },
      { guardrail: 'exclaim', kind: 'input', status: 'modified' },
    ]);
  });

  it('stops at the first block and runs nothing after it', async () => {
    let laterRan = false;
    const stopper = defineGuardrail({
      name: 'stopper',
      check: () =>
        block({ message: 'No.', reason: 'because', severity: 'warning', info: { rule: 7 } }),
    });
    const later = defineGuardrail({
      name: 'later',
      check: () => {
        laterRan = true;
        return allow();
      },
    });
    const result = await runChain([stopper, later], 'x', context);
    expect(laterRan).toBe(false);
    expect(withoutTiming([result.trip!])).toEqual([
      {
        guardrail: 'stopper',
        kind: 'input',
        status: 'blocked',
        message: 'No.',
        reason: 'because',
        severity: 'warning',
        info: { rule: 7 },
      },
    ]);
    expect(result.records).toHaveLength(1);
  });

  it('reports a modify that changes nothing as passed', async () => {
    const same = defineGuardrail({ name: 'same', check: t => modify(t) });
    const result = await runChain([same], 'x', context);
    expect(result.records[0]!.status).toBe('passed');
  });

  it('fails closed when a guardrail throws, rejects or returns no verdict', async () => {
    const throws = defineGuardrail({
      name: 'throws',
      check: () => {
        throw new Error('boom');
      },
    });
    const rejects = defineGuardrail({
      name: 'rejects',
      check: async () => Promise.reject(new Error('nope')),
    });
    const garbage = defineGuardrail({
      name: 'garbage',
      check: () => ({ action: 'maybe' }) as never,
    });
    for (const [guardrail, reason] of [
      [throws, 'boom'],
      [rejects, 'nope'],
      [garbage, 'returned an unknown action "maybe"'],
    ] as const) {
      const result = await runChain([guardrail], 'x', context);
      expect(withoutTiming([result.trip!])).toEqual([
        { guardrail: guardrail.name, kind: 'input', status: 'error', reason },
      ]);
    }
  });

  it('a block verdict with a message, reason or severity of the wrong type is an error that blocks, even with onError: allow', async () => {
    // `message: 42` became the answer "42" in generate and an empty answer in
    // streams, and the record carried the object as it was.
    for (const [verdict, reason] of [
      [{ action: 'block', message: 42 }, 'returned a block verdict whose message is not a string'],
      [
        { action: 'block', message: { toString: () => 'x' } },
        'returned a block verdict whose message is not a string',
      ],
      [
        { action: 'block', reason: { why: 'x' } },
        'returned a block verdict whose reason is not a string',
      ],
      [
        { action: 'block', severity: 'fatal' },
        "returned a block verdict whose severity is not 'info', 'warning' or 'critical'",
      ],
    ] as const) {
      for (const onError of ['block', 'allow'] as const) {
        const odd = defineGuardrail({ name: 'odd', onError, check: () => verdict as never });
        const result = await runChain([odd], 'x', context);
        expect(withoutTiming(result.records)).toEqual([
          { guardrail: 'odd', kind: 'input', status: 'error', reason },
        ]);
        expect(result.trip).toBe(result.records[0]);
      }
    }
    const fine = defineGuardrail({
      name: 'fine',
      check: () => ({ action: 'block', message: 'm', reason: 'r', severity: 'info' }),
    });
    expect((await runChain([fine], 'x', context)).trip?.status).toBe('blocked');
  });

  it("a verdict whose info is not a JSON object is an error record (a block's blocks even with onError: allow)", async () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    // Deep in plain data, past the depth the walk checks, and behind
    // a getter or a toJSON: what JSON.stringify rejects is rejected.
    let deep: Record<string, unknown> = { last: [1n] };
    for (let level = 0; level < 40; level++) deep = { level, deep };
    const getter = {
      spans: [
        { n: 1 },
        Object.defineProperty({}, 'n', {
          enumerable: true,
          get: () => {
            throw new Error('no');
          },
        }),
      ],
    };
    const bad = [
      { count: 1n },
      cycle,
      ['a'],
      'text',
      { spans: [{ start: 0 }, { start: 1n }] },
      { spans: [{ a: { b: cycle } }] },
      deep,
      getter,
      { when: { toJSON: () => 1n } },
      Object.create({ toJSON: () => ({ count: 1n }) }),
    ];
    for (const info of bad) {
      for (const [action, onError, status] of [
        ['allow', 'block', 'error'],
        ['allow', 'allow', 'error'],
        ['block', 'allow', 'error'],
      ] as const) {
        const odd = defineGuardrail({
          name: 'odd',
          onError,
          check: () => ({ action, info }) as never,
        });
        const result = await runChain([odd], 'x', context);
        expect(withoutTiming(result.records)).toEqual([
          {
            guardrail: 'odd',
            kind: 'input',
            status,
            reason: 'returned a verdict whose info is not a JSON object',
          },
        ]);
        expect(result.trip).toBe(
          onError === 'allow' && action === 'allow' ? undefined : result.records[0],
        );
      }
    }
    const fine = defineGuardrail({
      name: 'fine',
      check: () => ({ action: 'allow', info: { n: 1 } }),
    });
    expect(withoutTiming((await runChain([fine], 'x', context)).records)).toEqual([
      { guardrail: 'fine', kind: 'input', status: 'passed', info: { n: 1 } },
    ]);
    // JSON that is not plain data, or deeper than the walk goes, passes as before.
    const shared = { n: 1 };
    let nested: Record<string, unknown> = { n: 1 };
    for (let level = 0; level < 40; level++) nested = { nested };
    for (const info of [
      { twice: [shared, shared], when: new Date(0), nested },
      { big: { toJSON: () => 'written' } },
      Object.assign(Object.create(null), { n: 1 }),
      { holes: [1, undefined, 3], skipped: undefined, fn: () => 1 },
    ]) {
      const good = defineGuardrail({ name: 'good', check: () => ({ action: 'allow', info }) });
      const [record] = (await runChain([good], 'x', context)).records;
      expect(record?.status).toBe('passed');
      expect(record?.info).toBe(info);
    }
  });

  it('fails closed on timeout and aborts the guardrail signal', async () => {
    let signal: AbortSignal | undefined;
    const slow = defineGuardrail({
      name: 'slow',
      timeoutMs: 20,
      check: (_t, ctx) => {
        signal = ctx.abortSignal;
        return new Promise(() => {});
      },
    });
    const result = await runChain([slow], 'x', context);
    expect(result.trip?.status).toBe('error');
    expect(result.trip?.reason).toBe('timed out after 20 ms');
    expect(signal?.aborted).toBe(true);
  });

  it('times out and aborts a signal-free check that returned a promise, and the next one still runs', async () => {
    // A signal-free check gets no controller of its own on its synchronous
    // path (round 43); one that returns a promise still gets its timer and
    // the call's abort, failing closed, and the shared context stays unaborted.
    const shared: Array<{ abortSignal: AbortSignal }> = [];
    const check = (_t: string, ctx: { abortSignal: AbortSignal }) => {
      shared.push(ctx);
      return new Promise<never>(() => {});
    };
    const slow = defineGuardrail({ name: 'slow', timeoutMs: 20, onError: 'allow', check });
    const hangs = defineGuardrail({ name: 'hangs', onError: 'allow', check });
    declareSignalFreeCheck(slow.check);
    declareSignalFreeCheck(hangs.check);
    const timedOut = await runChain([slow, slow], 'x', context);
    expect(withoutTiming(timedOut.records)).toEqual([
      { guardrail: 'slow', kind: 'input', status: 'error', reason: 'timed out after 20 ms' },
      { guardrail: 'slow', kind: 'input', status: 'error', reason: 'timed out after 20 ms' },
    ]);
    expect(timedOut.trip).toBeUndefined();
    expect(shared[1]).toBe(shared[0]);
    expect(shared[0]!.abortSignal.aborted).toBe(false);
    const controller = new AbortController();
    const pending = runChain([hangs], 'x', context, { abortSignal: controller.signal });
    controller.abort();
    const aborted = await pending;
    expect(withoutTiming(aborted.records)).toEqual([
      {
        guardrail: 'hangs',
        kind: 'input',
        status: 'error',
        reason: 'aborted: the call was cancelled',
      },
    ]);
    expect(aborted.trip).toBe(aborted.records[0]);
  });

  it("goes on after an error when the guardrail was built with onError: 'allow'", async () => {
    const flaky = defineGuardrail({
      name: 'flaky',
      onError: 'allow',
      check: () => {
        throw new Error('down');
      },
    });
    const redact = defineGuardrail({
      name: 'redact',
      check: t => modify(t.replace('secret', '***')),
    });
    const result = await runChain([flaky, redact], 'a secret', context);
    expect(result.trip).toBeUndefined();
    expect(result.content).toBe('a ***');
    expect(result.records.map(r => r.status)).toEqual(['error', 'modified']);
  });

  it('aborts running guardrails when the call is cancelled', async () => {
    const controller = new AbortController();
    let signal: AbortSignal | undefined;
    const waits = defineGuardrail({
      name: 'waits',
      onError: 'allow',
      check: (_t, ctx) => {
        signal = ctx.abortSignal;
        return new Promise(() => {});
      },
    });
    const pending = runChain([waits], 'x', context, { abortSignal: controller.signal });
    controller.abort();
    const result = await pending;
    expect(signal?.aborted).toBe(true);
    // Cancellation fails closed even for onError: 'allow': the call is over.
    expect(result.trip?.reason).toBe('aborted: the call was cancelled');
  });

  it('gives each guardrail its own context: its own signal, and assignments stay with it', async () => {
    const seen: Array<{ kind: string; signal: AbortSignal }> = [];
    let kept: { abortSignal: AbortSignal } | undefined;
    const keeps = defineGuardrail({
      name: 'keeps',
      check: (_t, ctx) => {
        kept = ctx;
        (ctx as { kind: string }).kind = 'output';
        return allow();
      },
    });
    const slow = defineGuardrail({
      name: 'slow',
      timeoutMs: 20,
      onError: 'allow',
      check: (_t, ctx) => {
        seen.push({ kind: ctx.kind, signal: ctx.abortSignal });
        return new Promise(() => {});
      },
    });
    const last = defineGuardrail({
      name: 'last',
      check: (_t, ctx) => {
        seen.push({ kind: ctx.kind, signal: ctx.abortSignal });
        return allow();
      },
    });
    const result = await runChain([keeps, slow, last], 'x', context);
    expect(result.records.map(r => r.status)).toEqual(['passed', 'error', 'passed']);
    expect(seen.map(s => s.kind)).toEqual(['input', 'input']);
    expect(seen[0]!.signal.aborted).toBe(true);
    expect(seen[1]!.signal.aborted).toBe(false);
    expect(seen[1]!.signal).not.toBe(seen[0]!.signal);
    // Read after its check, the first guardrail's signal is its own, not the timed-out one's.
    expect(kept!.abortSignal).not.toBe(seen[0]!.signal);
    expect(kept!.abortSignal.aborted).toBe(false);
    // An own enumerable property: a spread of the context keeps it.
    expect({ ...kept }.abortSignal).toBe(kept!.abortSignal);
  });

  it('hands the signal-free checks of one run one context, and every other check its own', async () => {
    const contexts: object[] = [];
    const free = (name: string) => {
      const guardrail = defineGuardrail({
        name,
        check: (_t, ctx) => {
          contexts.push(ctx);
          return allow();
        },
      });
      declareSignalFreeCheck(guardrail.check);
      return guardrail;
    };
    const other = defineGuardrail({
      name: 'other',
      check: (_t, ctx) => {
        contexts.push(ctx);
        return allow();
      },
    });
    await runChain([free('a'), other, free('b')], 'x', context);
    await runChain([free('c')], 'x', context);
    expect(contexts[0]).toBe(contexts[2]);
    expect(contexts[1]).not.toBe(contexts[0]);
    expect(contexts[3]).not.toBe(contexts[0]);
    expect(contexts[0]).toMatchObject({ kind: 'input', metadata: {}, messages: [] });
    expect((contexts[0] as { state: unknown }).state).toBe(context.state);
    // Read after all, its signal is an AbortSignal that no timeout of another guardrail aborts.
    expect((contexts[0] as { abortSignal: AbortSignal }).abortSignal).toBeInstanceOf(AbortSignal);
    expect((contexts[0] as { abortSignal: AbortSignal }).abortSignal.aborted).toBe(false);
    // A copy of a declared guardrail with a check of its own is not declared.
    const copy = { ...free('d'), check: () => allow() };
    expect(isSignalFreeCheck(copy.check)).toBe(false);
  });

  it('declares the checks of pii (unless pseudonymising), secrets and invisibleText signal-free', () => {
    for (const guardrail of [
      pii(),
      pii({ action: 'block' }),
      secrets(),
      secrets({ action: 'redact' }),
      invisibleText(),
    ]) {
      expect(isSignalFreeCheck(guardrail.check)).toBe(true);
    }
    // Pseudonymising, pii hands its context to the user's conversationId.
    expect(isSignalFreeCheck(pii({ action: 'pseudonymize' }).check)).toBe(false);
  });

  it('gives the same content, records and trip whether the built-ins share a context or not', async () => {
    const pieces = [
      'call +44 20 7946 0958',
      'jane.doe@example.com',
      'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R',
      'password = "Tr0ub4dor&3xyz"',
      '\u00a0',
      '\u2013',
      '\u200b',
      '\udb40\udc41',
      '\uff14\uff11\uff11\uff11 1111 1111 1111',
      ' words ',
      '\n',
    ];
    // Copies with a check of their own are not declared: each gets its own context.
    const own = (guardrail: Guardrail): Guardrail => ({
      ...guardrail,
      check: (text, ctx) => guardrail.check(text, ctx),
    });
    const chains = (secretsAction: 'block' | 'redact') => [
      [pii(), secrets({ action: secretsAction }), invisibleText()],
      [own(pii()), own(secrets({ action: secretsAction })), own(invisibleText())],
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...pieces), { maxLength: 8 }),
        fc.constantFrom('block' as const, 'redact' as const),
        async (parts, secretsAction) => {
          const text = parts.join(' ');
          const [shared, separate] = chains(secretsAction);
          const fresh = () => ({ ...context, state: new Map() });
          const a = await runChain(shared!, text, fresh());
          const b = await runChain(separate!, text, fresh());
          expect(a.content).toBe(b.content);
          expect(withoutTiming(a.records)).toEqual(withoutTiming(b.records));
          expect(a.trip?.guardrail).toBe(b.trip?.guardrail);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('sends one event per decision and survives a listener that throws', async () => {
    const events: GuardrailEvent[] = [];
    const redact = defineGuardrail({ name: 'redact', check: () => modify('r') });
    const stop = defineGuardrail({ name: 'stop', check: () => block() });
    await runChain([redact, stop], 'x', context, {
      onEvent: event => {
        events.push(event);
        throw new Error('listener bug');
      },
    });
    expect(events.map(e => [e.type, e.record.guardrail])).toEqual([
      ['guardrail.modified', 'redact'],
      ['guardrail.blocked', 'stop'],
    ]);
  });
});

describe('defineGuardrail', () => {
  it('rejects bad options with a typed error naming the path', () => {
    expect(() => defineGuardrail({ name: 'x', check: () => allow(), timeoutMs: -1 })).toThrow(
      'Invalid guardrail configuration at x.timeoutMs: expected a positive number of milliseconds up to 2147483647 (the longest timer), received -1',
    );
    try {
      defineGuardrail({ name: '', check: () => allow() });
      expect.unreachable();
    } catch (error) {
      expect(GuardrailConfigError.isInstance(error)).toBe(true);
      expect((error as GuardrailConfigError).issues).toEqual([
        { path: 'name', value: notShownString(''), expected: 'a non-empty string' },
      ]);
    }
  });
});

describe('GuardrailTripwireError', () => {
  it('is recognised across package copies by its marker, and serialises its record', () => {
    const record = {
      guardrail: 'g',
      kind: 'output' as const,
      status: 'blocked' as const,
      durationMs: 1,
    };
    const error = new GuardrailTripwireError({ record });
    expect(GuardrailTripwireError.isInstance(error)).toBe(true);
    const fromAnotherCopy = { [Symbol.for('ai-guardrails.error.GuardrailTripwireError')]: true };
    expect(GuardrailTripwireError.isInstance(fromAnotherCopy)).toBe(true);
    expect(GuardrailTripwireError.isInstance(new Error('x'))).toBe(false);
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'AI_GuardrailTripwireError',
      message: 'Guardrail "g" tripped on output',
      record,
      records: [record],
    });
  });
});
