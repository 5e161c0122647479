import { generateText, streamText, tool, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { textModel, withoutTiming } from '../../test/helpers';
import { configErrorJson, notReadIssueJson } from '../../test/helpers/unread-values';
import {
  allow,
  block,
  type Guardrail,
  type GuardrailContext,
  getGuardrailOutcome,
  guardrails,
  guardTools,
  runChain,
} from '../index';
import type { ChainContext } from './chain';

/*
 * Round 39 left guardrail objects read again and again: by the option
 * checks of `guardrails()` and `guardTools`, then by the chain on every
 * call. A `check` or `name` getter (or a Proxy trap) that threw went out
 * raw, its message and all, and one that answered differently later
 * swapped the check. Now each guardrail is read once, at construction,
 * into a frozen copy: a throw is a GuardrailConfigError naming its error by
 * class only, and every call uses the copy.
 */

const SECRET = 'hunter2';
const aTool = tool({ inputSchema: z.object({}), execute: async () => 'ok' });
const BLOCKED = "Sorry, I can't help with that.";

function throwSecret(): never {
  throw new Error(`token ${SECRET}`);
}

/**
 * A guardrail named `gate` with `key` a getter calling `get` (counting its
 * reads), judging every call again (no remembered verdicts).
 */
function withGetter(key: 'name' | 'check', get: (read: number) => unknown) {
  const reads = { count: 0 };
  const fields: Record<string, unknown> = {
    name: 'gate',
    check: () => block('stop'),
    cache: 'none',
  };
  delete fields[key];
  const guardrail = Object.defineProperty(fields, key, {
    enumerable: true,
    get: () => get(++reads.count),
  }) as unknown as Guardrail;
  return { guardrail, reads };
}

/** A Proxy of a blocking guardrail whose `trap` throws (counting its calls). */
function withTrap(trap: keyof ProxyHandler<object>) {
  const calls = { count: 0 };
  const guardrail = new Proxy(
    { name: 'gate', check: () => block('stop') },
    {
      [trap]: () => {
        calls.count++;
        throwSecret();
      },
    },
  ) as Guardrail;
  return { guardrail, calls };
}

/** Where a guardrail list is taken: the middleware's and the tool wrapper's lists. */
const builders = [
  ['guardrails', 'input', (list: Guardrail[]) => guardrails({ input: list })],
  ['guardrails', 'output', (list: Guardrail[]) => guardrails({ output: list })],
  ['guardTools', 'input', (list: Guardrail[]) => guardTools({ t: aTool }, { input: list })],
  ['guardTools', 'output', (list: Guardrail[]) => guardTools({ t: aTool }, { output: list })],
] as const;

/** The error `build` throws as JSON, after checking it quotes no secret. */
const errorOf = (build: () => unknown) => configErrorJson(build, SECRET);

describe.each(builders)('%s: a %s guardrail that cannot be read', (_surface, list, build) => {
  it('a `check` getter that throws is a GuardrailConfigError at its path', () => {
    const { guardrail, reads } = withGetter('check', throwSecret);
    expect(errorOf(() => build([guardrail]))).toEqual({
      message: `Invalid guardrail configuration at ${list}[0].check: expected a value that can be read (reading it threw an Error, its message not shown), received (not read)`,
      issues: [notReadIssueJson(`${list}[0].check`)],
    });
    expect(reads.count).toBe(1);
  });

  it('a `name` getter that throws is a GuardrailConfigError at its path', () => {
    const { guardrail, reads } = withGetter('name', throwSecret);
    expect(errorOf(() => build([allowAll, guardrail]))).toEqual({
      message: `Invalid guardrail configuration at ${list}[1].name: expected a value that can be read (reading it threw an Error, its message not shown), received (not read)`,
      issues: [notReadIssueJson(`${list}[1].name`)],
    });
    expect(reads.count).toBe(1);
  });

  it("a Proxy whose `get` throws: an issue per field, and the list's other issues too", () => {
    const { guardrail } = withTrap('get');
    expect(errorOf(() => build([guardrail, { name: '' } as Guardrail])).issues).toEqual([
      notReadIssueJson(`${list}[0].name`),
      notReadIssueJson(`${list}[0].check`),
      {
        path: `${list}[1]`,
        value: 'an object (not shown)',
        expected: 'a guardrail (an object with a `name` and a `check` function)',
      },
    ]);
  });

  it.each(['ownKeys', 'getOwnPropertyDescriptor'] as const)(
    'a Proxy whose `%s` throws: its keys cannot be listed',
    trap => {
      const { guardrail } = withTrap(trap);
      expect(errorOf(() => build([guardrail]))).toEqual({
        message: `Invalid guardrail configuration at ${list}[0]: expected an object whose keys can be listed (listing threw an Error, its message not shown), received (not read)`,
        issues: [
          {
            path: `${list}[0]`,
            value: '(not read)',
            expected:
              'an object whose keys can be listed (listing threw an Error, its message not shown)',
          },
        ],
      });
    },
  );

  it('a Proxy whose `getPrototypeOf` throws is an issue at the guardrail', () => {
    const { guardrail } = withTrap('getPrototypeOf');
    expect(errorOf(() => build([guardrail])).issues).toEqual([notReadIssueJson(`${list}[0]`)]);
  });

  it('a list whose item getter throws is an issue at that item', () => {
    const items = Object.defineProperty([allowAll, allowAll], 1, { get: throwSecret });
    expect(errorOf(() => build(items)).issues).toEqual([notReadIssueJson(`${list}[1]`)]);
  });
});

const allowAll: Guardrail = { name: 'allow-all', check: () => allow() };

/**
 * The ways a call runs a guardrail: the model's input (generate, stream)
 * and a tool's input. Each builds its middleware or wrapper once and
 * returns a call, which gives the answer and the records.
 */
const runs = [
  [
    'generateText',
    (guardrail: Guardrail) => {
      const middleware = guardrails({ input: [guardrail] });
      return async () => {
        const result = await generateText({
          model: wrapLanguageModel({ model: textModel('answer'), middleware }),
          prompt: 'hello',
        });
        const records = withoutTiming((await getGuardrailOutcome(result))?.records);
        return { text: result.text, records };
      };
    },
  ],
  [
    'streamText',
    (guardrail: Guardrail) => {
      const middleware = guardrails({ input: [guardrail] });
      return async () => {
        const result = streamText({
          model: wrapLanguageModel({ model: textModel(['ans', 'wer']), middleware }),
          prompt: 'hello',
        });
        const text = await result.text;
        return { text, records: withoutTiming((await getGuardrailOutcome(result))?.records) };
      };
    },
  ],
  [
    'guardTools',
    (guardrail: Guardrail) => {
      const tools = guardTools({ t: aTool }, { input: [guardrail] });
      const { execute } = tools.t as unknown as {
        execute: (input: unknown, options: unknown) => Promise<unknown>;
      };
      return async () => {
        const output = (await execute({}, { toolCallId: 'c1', messages: [] })) as {
          message?: string;
          guardrail?: { durationMs: number };
        };
        return { text: output.message, records: withoutTiming([output.guardrail ?? {}]) };
      };
    },
  ],
] as const;

/** What each run gives when `gate` blocked with 'stop': its message is the answer. */
const blocked = {
  generateText: {
    text: 'stop',
    records: [{ guardrail: 'gate', kind: 'input', status: 'blocked', message: 'stop' }],
  },
  streamText: {
    text: 'stop',
    records: [{ guardrail: 'gate', kind: 'input', status: 'blocked', message: 'stop' }],
  },
  guardTools: {
    text: 'stop',
    records: [
      {
        guardrail: 'gate',
        kind: 'tool_input',
        status: 'blocked',
        message: 'stop',
        toolName: 't',
        toolCallId: 'c1',
      },
    ],
  },
} as const;

describe.each(runs)('%s: every call uses the copy read at construction', (surface, build) => {
  it('a `check` getter that throws after its first read: the first check runs, read once', async () => {
    const { guardrail, reads } = withGetter('check', read =>
      read === 1 ? () => block('stop') : throwSecret(),
    );
    expect(await build(guardrail)()).toEqual(blocked[surface]);
    expect(reads.count).toBe(1);
  });

  it('a `check` getter that answers another function later cannot swap the check', async () => {
    const { guardrail, reads } = withGetter('check', read =>
      read === 1 ? () => block('stop') : () => allow(),
    );
    const call = build(guardrail);
    expect(await call()).toEqual(blocked[surface]);
    expect(await call()).toEqual(blocked[surface]);
    expect(reads.count).toBe(1);
  });

  it('a `name` getter that throws after its first read: records keep the first name', async () => {
    const { guardrail, reads } = withGetter('name', read => (read === 1 ? 'gate' : throwSecret()));
    expect(await build(guardrail)()).toEqual(blocked[surface]);
    expect(reads.count).toBe(1);
  });

  it('a Proxy whose `has` throws judges as its target: nothing asks it', async () => {
    const { guardrail, calls } = withTrap('has');
    expect(await build(guardrail)()).toEqual(blocked[surface]);
    expect(calls.count).toBe(0);
  });

  it("a class instance's check runs on the instance (`this`, private fields)", async () => {
    class Gate implements Guardrail {
      readonly name = 'gate';
      #message = 'stop';
      checked = 0;
      check(_content: string, _ctx: GuardrailContext) {
        this.checked++;
        return block(this.#message);
      }
    }
    const gate = new Gate();
    expect(await build(gate)()).toEqual(blocked[surface]);
    expect(gate.checked).toBe(1);
  });
});

it('the copy is frozen: a check that changes `this` of a plain object fails closed', async () => {
  const counting = {
    name: 'counting',
    count: 0,
    check(this: { count: number }) {
      this.count++;
      return allow();
    },
  };
  const model = textModel('answer');
  const result = await generateText({
    model: wrapLanguageModel({ model, middleware: guardrails({ input: [counting] }) }),
    prompt: 'hello',
  });
  expect(model.doGenerateCalls).toHaveLength(0);
  expect(result.text).toBe(BLOCKED);
  expect(withoutTiming((await getGuardrailOutcome(result))?.records)).toEqual([
    {
      guardrail: 'counting',
      kind: 'input',
      status: 'error',
      reason: "Cannot assign to read only property 'count' of object '#<Object>'",
    },
  ]);
});

describe("the package's runChain: the guardrails it is given, read once", () => {
  const context: ChainContext = { kind: 'input', messages: [], metadata: {}, state: new Map() };

  it('a `check` getter that throws rejects with a GuardrailConfigError at guardrails[i].check', async () => {
    const { guardrail, reads } = withGetter('check', throwSecret);
    const error = await runChain([allowAll, guardrail], 'hello', context).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(
      errorOf(() => {
        throw error;
      }),
    ).toEqual({
      message:
        'Invalid guardrail configuration at guardrails[1].check: expected a value that can be read (reading it threw an Error, its message not shown), received (not read)',
      issues: [notReadIssueJson('guardrails[1].check')],
    });
    expect(reads.count).toBe(1);
  });

  it('a list that is not one of guardrails rejects, saying what was expected', async () => {
    await expect(runChain(undefined as never, 'hello', context)).rejects.toThrow(
      'Invalid guardrail configuration at guardrails: expected an array of guardrails, received undefined',
    );
    await expect(runChain([{ name: 'x' } as never], 'hello', context)).rejects.toThrow(
      'Invalid guardrail configuration at guardrails[0]: expected a guardrail (an object with a `name` and a `check` function), received an object (not shown)',
    );
  });

  it('a getter that answers another check later: the chain runs the one read first', async () => {
    const { guardrail, reads } = withGetter('check', read =>
      read === 1 ? () => block('stop') : () => allow(),
    );
    const result = await runChain([guardrail], 'hello', context);
    expect({ content: result.content, trip: withoutTiming([result.trip ?? {}]) }).toEqual({
      content: 'hello',
      trip: [{ guardrail: 'gate', kind: 'input', status: 'blocked', message: 'stop' }],
    });
    expect(reads.count).toBe(1);
  });
});
