import { generateText, tool, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { textModel, withoutTiming } from '../../test/helpers';
import { configErrorJson, notReadIssueJson } from '../../test/helpers/unread-values';
import {
  allow,
  block,
  defineGuardrail,
  GuardrailConfigError,
  getGuardrailOutcome,
  guardrails,
  guardTool,
  guardTools,
} from '../index';

/*
 * Round 39 left two ways for a caller's own error to leave the library
 * whole: `guardTools` read the tool set (and each tool) and `block()` spread
 * its details, so a getter or a Proxy trap that threw went out raw, its
 * message and all (a message may quote anything the getter held). Both now
 * read the value once and report a getter that throws as an issue of a
 * GuardrailConfigError, naming its error by class only.
 */

const SECRET = 'hunter2';
const aTool = tool({ inputSchema: z.object({}), execute: async () => 'ok' });

/** Runs a wrapped tool once, as the AI SDK calls it. */
function runTool(wrapped: unknown): Promise<unknown> {
  const { execute } = wrapped as {
    execute: (input: unknown, options: unknown) => Promise<unknown>;
  };
  return execute({}, { toolCallId: 'c1', messages: [] });
}

/** An object whose enumerable `key` throws an error that quotes the secret. */
function throwingAt<T extends object>(key: string, object = {} as T): T {
  return Object.defineProperty(object, key, {
    enumerable: true,
    get() {
      throw new Error(`token ${SECRET}`);
    },
  });
}

const unkeyable = new Proxy(
  {},
  {
    ownKeys() {
      throw new TypeError(`token ${SECRET}`);
    },
  },
);

const unreadable = notReadIssueJson;

/** The error `run` throws as JSON, after checking it quotes no secret. */
const issuesOf = (run: () => unknown) => configErrorJson(run, SECRET);

describe('guardTools: a getter of the tool set or of a tool that throws', () => {
  it('a tool of the set whose getter throws is an issue at its name', () => {
    expect(issuesOf(() => guardTools(throwingAt('search') as never))).toEqual({
      message:
        'Invalid guardrail configuration at tools.search: expected a value that can be read (reading it threw an Error, its message not shown), received (not read)',
      issues: [unreadable('tools.search')],
    });
  });

  it('a tool set whose keys cannot be listed (a Proxy) is an issue at tools', () => {
    expect(issuesOf(() => guardTools(unkeyable as never))).toEqual({
      message:
        'Invalid guardrail configuration at tools: expected an object whose keys can be listed (listing threw a TypeError, its message not shown), received (not read)',
      issues: [
        {
          path: 'tools',
          value: '(not read)',
          expected:
            'an object whose keys can be listed (listing threw a TypeError, its message not shown)',
        },
      ],
    });
  });

  it("a tool's own field or inherited execute whose getter throws is an issue at that field", () => {
    expect(
      issuesOf(() => guardTools({ ok: aTool, odd: throwingAt('description', { ...aTool }) })),
    ).toEqual({
      message:
        'Invalid guardrail configuration at tools.odd.description: expected a value that can be read (reading it threw an Error, its message not shown), received (not read)',
      issues: [unreadable('tools.odd.description')],
    });
    class LazyTool {
      inputSchema = undefined;
      get execute(): never {
        throw new Error(`token ${SECRET}`);
      }
    }
    expect(issuesOf(() => guardTool(new LazyTool() as never)).issues).toEqual([
      unreadable('tool.execute'),
    ]);
  });

  it('an `only` getter that throws is one issue, read once', () => {
    let reads = 0;
    const options = Object.defineProperty({}, 'only', {
      enumerable: true,
      get() {
        reads++;
        throw new Error(`token ${SECRET}`);
      },
    });
    expect(issuesOf(() => guardTools({ t: aTool }, options as never)).issues).toEqual([
      unreadable('guardTools.only'),
    ]);
    expect(reads).toBe(1);
  });

  it('each tool is read once, and a set that reads fine is wrapped as before', async () => {
    let reads = 0;
    const set = Object.defineProperty({}, 'search', {
      enumerable: true,
      get() {
        reads++;
        return aTool;
      },
    });
    const guarded = guardTools(set as { search: typeof aTool });
    expect(reads).toBe(1);
    expect(await runTool(guarded.search)).toBe('ok');
  });
});

describe('block(): details whose getter throws', () => {
  it.each([
    ['message', 'block.message'],
    ['info', 'block.info'],
  ])('a %s getter that throws is a GuardrailConfigError at %s', (key, path) => {
    expect(issuesOf(() => block(throwingAt(key) as never))).toEqual({
      message: `Invalid guardrail configuration at ${path}: expected a value that can be read (reading it threw an Error, its message not shown), received (not read)`,
      issues: [unreadable(path)],
    });
  });

  it('details whose keys cannot be listed are an issue at block', () => {
    expect(issuesOf(() => block(unkeyable as never)).issues).toEqual([
      {
        path: 'block',
        value: '(not read)',
        expected:
          'an object whose keys can be listed (listing threw a TypeError, its message not shown)',
      },
    ]);
  });

  it('details that read fine make the same verdict as before', () => {
    expect(block({ message: 'm', reason: 'r', severity: 'info', info: { a: 1 } })).toEqual({
      action: 'block',
      message: 'm',
      reason: 'r',
      severity: 'info',
      info: { a: 1 },
    });
    expect(block('m')).toEqual({ action: 'block', message: 'm' });
    expect(block()).toEqual({ action: 'block' });
  });

  it('inside a check it blocks the call as an error record, even with onError: allow', async () => {
    const gate = defineGuardrail({
      name: 'gate',
      onError: 'allow',
      check: () => block(throwingAt('message') as never),
    });
    const model = textModel('answer');
    const result = await generateText({
      model: wrapLanguageModel({ model, middleware: guardrails({ input: [gate] }) }),
      prompt: 'hello',
    });
    expect(model.doGenerateCalls).toHaveLength(0);
    const records = withoutTiming((await getGuardrailOutcome(result))?.records);
    expect(records).toEqual([
      {
        guardrail: 'gate',
        kind: 'input',
        status: 'error',
        reason:
          'Invalid guardrail configuration at block.message: expected a value that can be read (reading it threw an Error, its message not shown), received (not read)',
      },
    ]);
    expect(JSON.stringify(result.providerMetadata)).not.toContain(SECRET);
    expect(result.text).toBe("Sorry, I can't help with that.");
  });
});

describe("a `context` hook's metadata whose getter throws", () => {
  const ok = defineGuardrail({ name: 'ok', check: () => allow() });
  const unreadableContext = (path: string) =>
    `Invalid guardrail configuration at ${path}: expected a value that can be read (reading it threw an Error, its message not shown), received (not read)`;

  it.each(['userId', 'then'])('guardrails(): a %s getter is a GuardrailConfigError', async key => {
    const model = textModel('answer');
    const call = generateText({
      model: wrapLanguageModel({
        model,
        middleware: guardrails({ input: [ok], context: () => throwingAt(key) as never }),
      }),
      prompt: 'hello',
    });
    const error = await call.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(GuardrailConfigError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(unreadableContext(`context.${key}`));
    expect(JSON.stringify(error)).not.toContain(SECRET);
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('guardTools: a getter of what `context` returned is a GuardrailConfigError', async () => {
    const tools = guardTools(
      { t: aTool },
      { input: [ok], context: () => throwingAt('userId') as never },
    );
    const error = await runTool(tools.t).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(GuardrailConfigError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(unreadableContext('context.userId'));
  });

  it('metadata that reads fine reaches the guardrails as before', async () => {
    const seen: unknown[] = [];
    const spy = defineGuardrail({
      name: 'spy',
      check: (_text, ctx) => {
        seen.push(ctx.metadata);
        return allow();
      },
    });
    await generateText({
      model: wrapLanguageModel({
        model: textModel('answer'),
        middleware: guardrails({ input: [spy], context: () => ({ userId: 'u1' }) }),
      }),
      prompt: 'hello',
    });
    expect(seen).toEqual([{ userId: 'u1' }]);
  });
});

it("metadata read once keeps a `__proto__` key a key, as the middleware's spread kept it", async () => {
  const seen: Array<{ keys: string[]; userId: unknown }> = [];
  const spy = defineGuardrail({
    name: 'spy',
    check: (_text, ctx) => {
      seen.push({ keys: Object.keys(ctx.metadata), userId: ctx.metadata.userId });
      return allow();
    },
  });
  const tools = guardTools(
    { t: aTool },
    { input: [spy], context: () => JSON.parse('{"__proto__": {"userId": "u1"}}') },
  );
  await runTool(tools.t);
  expect(seen).toEqual([{ keys: ['__proto__'], userId: undefined }]);
});
