import { generateText, streamText, tool, wrapLanguageModel } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import {
  findPii,
  findSecrets,
  type Guardrail,
  type GuardrailContext,
  type GuardrailsOptions,
  getGuardrailOutcome,
  guardrails,
  guardTools,
  harmfulContent,
  llmJudge,
  memoryStore,
  outputSchema,
  pii,
  rateLimit,
  secrets,
  tokenBudget,
  toolPolicy,
  urlFilter,
} from '../src';
import { buildGuardrailsConfig } from '../src/config';
import { NotShown } from '../src/core/redact-secrets';
import { scriptedModel } from '../src/testing';
import { configIssuesOf, notShownString, textModel } from './helpers';

/*
 * Wrong options the options table (test/options-table.test.ts) does not
 * reach: values of the right type that still make a guardrail judge wrongly
 * (a sticky RegExp, a RegExp's leftover lastIndex), and functions that
 * return or throw what the library did not expect.
 */

const context = (kind: GuardrailContext['kind'], toolName?: string) =>
  ({ kind, toolName, messages: [], metadata: {}, state: new Map() }) as unknown as GuardrailContext;

const STICKY =
  "flags without 'y' (a sticky pattern matches only where a search starts, so it misses a value later in the text; anchor it with ^ instead)";

describe('a sticky (y) RegExp is an options error, not a pattern that only matches at the start', () => {
  // Before: each was accepted, and each let through a value that was not at the start of the text.
  it.each([
    [
      'pii custom',
      () => pii({ custom: [{ type: 'EMP', pattern: /EMP-\d{4}/y }] }),
      'pii.custom[0].pattern.flags',
      'y',
    ],
    [
      'findPii custom',
      () => findPii('id EMP-1234', { custom: [{ type: 'EMP', pattern: /EMP-\d{4}/y }] }),
      'findPii.custom[0].pattern.flags',
      'y',
    ],
    [
      'toolPolicy deny',
      () => toolPolicy({ deny: ['x', /rm\s+-rf/iy] }),
      'tool-policy.deny[1].flags',
      'iy',
    ],
    ['urlFilter deny', () => urlFilter({ deny: [/evil/y] }), 'url-filter.deny[0].flags', 'y'],
    ['urlFilter allow', () => urlFilter({ allow: [/good/gy] }), 'url-filter.allow[0].flags', 'gy'],
    [
      'outputSchema mustNotMatch',
      () => outputSchema({ mustNotMatch: [/as an ai/iy] }),
      'output-schema.mustNotMatch[0].flags',
      'iy',
    ],
  ])('%s', (_name, build, path, flags) => {
    // Round 39: a factory quotes no string it was given, only its length.
    expect(configIssuesOf(build)).toEqual([
      { path, value: notShownString(flags), expected: STICKY },
    ]);
  });

  it('a config file\'s "/source/y" pattern is refused at its entry', () => {
    expect(
      configIssuesOf(() =>
        buildGuardrailsConfig({
          tool_input: [{ type: 'tool-policy', deny: ['/rm\\s+-rf/y'] }],
        }),
      ),
    ).toEqual([
      {
        path: 'tool_input[0].deny[0].flags',
        // The loader quotes no value of a file (round 39): its type and length.
        value: new NotShown('a string of 1 character (not shown)'),
        expected: STICKY,
      },
    ]);
  });

  it('the same patterns without y still find the value anywhere in the text', async () => {
    const check = (
      guardrail: Guardrail,
      text: string,
      kind: GuardrailContext['kind'],
      tool?: string,
    ) => guardrail.check(text, context(kind, tool));
    expect(findPii('id EMP-1234', { custom: [{ type: 'EMP', pattern: /EMP-\d{4}/ }] })).toEqual([
      { type: 'EMP', start: 3, end: 11 },
    ]);
    expect(
      (
        await check(
          toolPolicy({ deny: [/rm\s+-rf/i] }),
          '{"cmd":"ls; rm -rf /"}',
          'tool_input',
          'sh',
        )
      ).action,
    ).toBe('block');
    expect(
      (await check(urlFilter({ deny: [/evil/] }), 'see https://www.evil.com/', 'output')).action,
    ).toBe('block');
  });
});

describe("a global custom pattern's lastIndex does not hide a value", () => {
  it('findPii and pii find a value before the lastIndex the pattern was left at', async () => {
    const pattern = /EMP-\d{4}/g;
    // The caller's own use of the pattern left it here (as `pattern.test(other)` does).
    pattern.lastIndex = 50;
    expect(
      findPii('id EMP-1234 here', {
        entities: ['EMAIL_ADDRESS'],
        custom: [{ type: 'EMP', pattern }],
      }),
    ).toEqual([{ type: 'EMP', start: 3, end: 11 }]);
    const guardrail = pii({ entities: ['EMAIL_ADDRESS'], custom: [{ type: 'EMP', pattern }] });
    pattern.lastIndex = 50;
    expect(await guardrail.check('id EMP-1234 here', context('input'))).toMatchObject({
      action: 'modify',
      content: 'id [EMP] here',
    });
    // Searching does not move the caller's pattern either.
    expect(pattern.lastIndex).toBe(50);
  });
});

describe('an async function that rejects where a synchronous one is expected never crashes the process', () => {
  // Node ends the process on a rejection nobody handles. The library does not
  // await these functions (their Promise is an error, or ignored), so it must
  // handle the rejection itself: before, each of these left one unhandled.
  const rejecting = (what: string) =>
    (async () => {
      throw new Error(`${what} is down`);
    }) as never;
  const unhandled: unknown[] = [];
  const collect = (reason: unknown) => unhandled.push(reason);
  beforeAll(() => process.on('unhandledRejection', collect));
  afterAll(() => process.off('unhandledRejection', collect));

  async function outcomeOf(options: GuardrailsOptions, answer = 'ok') {
    unhandled.length = 0;
    let thrown: string | undefined;
    let status: string | undefined;
    let reasons: (string | undefined)[] = [];
    try {
      const result = await generateText({
        model: wrapLanguageModel({ model: textModel(answer), middleware: guardrails(options) }),
        prompt: 'Mail jane@example.com please',
        providerOptions: { guardrails: { sessionId: 'session-1' } },
      });
      const outcome = await getGuardrailOutcome(result);
      status = outcome?.status;
      reasons = (outcome?.records ?? []).map(record => record.reason);
    } catch (error) {
      thrown = (error as Error).message;
    }
    // A rejection is reported unhandled once the microtasks of its turn ran.
    await new Promise(resolve => setTimeout(resolve, 10));
    return { status, reasons, thrown, unhandled: unhandled.map(String) };
  }

  const promiseReason = (path: string, expected: string) =>
    `Invalid guardrail configuration at ${path}: expected ${expected}, received "(a Promise: ${path.slice(path.lastIndexOf('.') + 1)} must be synchronous)"`;

  it('onEvent: the call goes on as if the listener had returned', async () => {
    expect(await outcomeOf({ input: [pii()], onEvent: rejecting('onEvent') })).toEqual({
      status: 'modified',
      reasons: [undefined],
      thrown: undefined,
      unhandled: [],
    });
  });

  it('context: the call fails with the GuardrailConfigError naming the Promise', async () => {
    expect(await outcomeOf({ input: [pii()], context: rejecting('context') })).toEqual({
      status: undefined,
      reasons: [],
      thrown:
        'Invalid guardrail configuration at context: expected a function returning the call\'s metadata (an object of JSON values), received "(a Promise: context must be synchronous)"',
      unhandled: [],
    });
  });

  it.each([
    [
      'pii placeholder',
      () => pii({ placeholder: rejecting('placeholder') }),
      promiseReason('pii.placeholder', 'a function (type) => string, synchronous'),
    ],
    [
      'rateLimit key',
      () => rateLimit({ limit: 5, windowMs: 60_000, key: rejecting('key') }),
      promiseReason('rate-limit.key', 'a function returning a string or undefined, synchronously'),
    ],
    [
      'tokenBudget sessionId',
      () => tokenBudget({ perSession: { maxTokens: 1_000 }, sessionId: rejecting('sessionId') }),
      promiseReason(
        'token-budget.sessionId',
        'a function returning a string or undefined, synchronously',
      ),
    ],
    [
      'tokenBudget countTokens',
      () => tokenBudget({ maxInputTokens: 1_000, countTokens: rejecting('countTokens') }),
      promiseReason(
        'token-budget.countTokens',
        'a function returning a count of tokens (a finite number >= 0), synchronously',
      ),
    ],
    [
      'pii custom validate',
      () =>
        pii({ custom: [{ type: 'NAME_ID', pattern: /jane/, validate: rejecting('validate') }] }),
      promiseReason('custom[0].validate', 'a function (match) => boolean, synchronously'),
    ],
  ])(
    '%s: that check is an error record, so the call fails closed',
    async (_name, build, reason) => {
      expect(await outcomeOf({ input: [build()] })).toEqual({
        status: 'blocked',
        reasons: [reason],
        thrown: undefined,
        unhandled: [],
      });
    },
  );

  it('retry feedback: the call fails with a GuardrailConfigError naming the Promise', async () => {
    const outcome = await outcomeOf(
      {
        output: [pii({ action: 'block' })],
        retry: { maxAttempts: 1, feedback: rejecting('feedback') },
      },
      'Write to jane@example.com',
    );
    expect(outcome).toEqual({
      status: undefined,
      reasons: [],
      thrown:
        'Invalid guardrail configuration at retry.feedback: expected a function of the record returning the feedback text (a string), received "(a Promise: feedback must be synchronous)"',
      unhandled: [],
    });
  });
});

describe('secrets: an entropy option no token can reach is an error, not entropy detection turned off', () => {
  // A token is 20 to 200 of the 66 characters [A-Za-z0-9+/_-] (longer is a data
  // payload): it reaches log2(66) ≈ 6.04 bits per character at most.
  const ALL_66 = 'uoUq-TaWLXgnpEmQw69R3ZyshCr5jOx8ADJzYfFVKivBc/MSH7b_d1kl4e20GP+ItN';
  const THRESHOLD =
    'a number of bits per character above 0 and at most 6 (4.5 by default; a token holds at most 66 different characters, log2(66) ≈ 6.04 bits, so a higher threshold finds nothing: set entropy: false to turn it off)';
  const MIN_LENGTH =
    'an integer from 1 to 200 (24 by default; a token longer than 200 characters is a data payload, never judged, so a higher minimum finds nothing: set entropy: false to turn it off)';

  it.each([
    [
      'secrets',
      'secrets.entropyThreshold',
      6.5,
      () => secrets({ entropyThreshold: 6.5 }),
      THRESHOLD,
    ],
    [
      'secrets',
      'secrets.entropyThreshold',
      100,
      () => secrets({ entropyThreshold: 100 }),
      THRESHOLD,
    ],
    [
      'findSecrets',
      'findSecrets.entropyThreshold',
      7,
      () => findSecrets('x', { entropyThreshold: 7 }),
      THRESHOLD,
    ],
    [
      'secrets',
      'secrets.entropyMinLength',
      201,
      () => secrets({ entropyMinLength: 201 }),
      MIN_LENGTH,
    ],
    [
      'findSecrets',
      'findSecrets.entropyMinLength',
      1_000,
      () => findSecrets('x', { entropyMinLength: 1_000 }),
      MIN_LENGTH,
    ],
    [
      'a config file',
      'input[0].entropy_threshold',
      // A number out of range is shown (round 39: no other value of a file is).
      new NotShown('8'),
      () => buildGuardrailsConfig({ input: [{ type: 'secrets', entropy_threshold: 8 }] }),
      // The file's schema says it its own way.
      'a number <= 6',
    ],
  ])('%s rejects %s = %s', (_name, path, value, build, expected) => {
    // A number out of its range is quoted, as the loader quotes it (round 39).
    const shown = typeof value === 'number' ? new NotShown(String(value)) : value;
    expect(configIssuesOf(build)).toEqual([{ path, value: shown, expected }]);
  });

  it('the bounds themselves still find a token', () => {
    const found = (text: string, options: Parameters<typeof findSecrets>[1]) =>
      findSecrets(text, options).map(({ type, start, end }) => ({
        type,
        length: end - start,
        start,
      }));
    expect(found(`value ${ALL_66} end`, { entropyThreshold: 6 })).toEqual([
      { type: 'HIGH_ENTROPY_STRING', length: 66, start: 6 },
    ]);
    const longest = (ALL_66 + ALL_66.slice(0, 34)).repeat(2);
    expect(longest.length).toBe(200);
    expect(found(`value ${longest} end`, { entropyMinLength: 200 })).toEqual([
      { type: 'HIGH_ENTROPY_STRING', length: 200, start: 6 },
    ]);
    // One character longer is no token at all, whatever the minimum.
    expect(found(`value ${longest}x end`, {})).toEqual([]);
  });
});

describe("memoryStore: a clock that returns no time is the store's error, not keys that never live", () => {
  const limitedTwice = async (now: () => unknown) => {
    const store = memoryStore({ now: now as () => number });
    const limit = rateLimit({ limit: 1, windowMs: 60_000, store, key: () => 'user-1' });
    const verdicts = [];
    for (let call = 0; call < 2; call++) {
      try {
        verdicts.push((await limit.check('hi', context('input'))).action);
      } catch (error) {
        verdicts.push(String(error));
      }
    }
    return verdicts;
  };
  const expected = (shown: string) =>
    `TypeError: memory store: now() must return a time in milliseconds (a finite number within ±8.64e15, as Date.now() returns), returned ${shown}`;

  it.each([
    // 1e300 + 60,000 is 1e300: every key expired as it was written, so no limit ever tripped.
    [() => 1e300, '1e+300'],
    [() => Number.NaN, 'NaN'],
    // '5' + 60,000 is '560000': expiries were strings.
    [() => '5', '(a string)'],
    [() => undefined, '(undefined)'],
  ])('%s', async (now, shown) => {
    expect(await limitedTwice(now)).toEqual([expected(shown), expected(shown)]);
  });

  it('a clock of its own that returns times still limits', async () => {
    let time = 1_000;
    expect(await limitedTwice(() => time++)).toEqual(['allow', 'block']);
  });
});

describe('an empty list that leaves a guardrail nothing to check is an error, not a silent pass', () => {
  const search = tool({
    inputSchema: z.object({ q: z.string() }),
    execute: async ({ q }) => `results for ${q}`,
  });

  it('harmfulContent({ categories: [] }) (before: allowed a 0.998 weapons score)', () => {
    expect(configIssuesOf(() => harmfulContent({ categories: [] }))).toEqual([
      {
        path: 'harmful-content.categories',
        value: [],
        expected: 'at least one harmful category (with none, harmfulContent checks nothing)',
      },
    ]);
    expect(
      configIssuesOf(() =>
        buildGuardrailsConfig({ output: [{ type: 'harmful-content', categories: [] }] }),
      ).map(issue => issue.path),
    ).toEqual(['output[0].categories']);
  });

  it('guardTools({ only: [] }) (before: its guardrails applied to no tool)', () => {
    expect(configIssuesOf(() => guardTools({ search }, { input: [pii()], only: [] }))).toEqual([
      {
        path: 'only',
        value: [],
        expected: 'at least one tool name (with none, guardTools guards no tool)',
      },
    ]);
  });
});

describe('toolPolicy: an args predicate that returns no verdict is an error, not an allow', () => {
  // `(args) => args.items.length` returned 0 for an empty list, and 0 allowed the call.
  it.each([
    [0, '(the number 0)'],
    [1, '(the number 1)'],
    [null, '(null)'],
    [{}, '(an object)'],
  ])('returning %s', async (returned, shown) => {
    const policy = toolPolicy({ args: { search: (() => returned) as never }, rules: [] });
    await expect(policy.check('{"q":"x"}', context('tool_input', 'search'))).rejects.toThrow(
      `Invalid guardrail configuration at tool-policy.args.search: expected a predicate returning true, false, a reason string or undefined, received "${shown}"`,
    );
  });

  it('true and undefined allow, false and a reason block, as documented', async () => {
    const verdictOf = async (returned: unknown) =>
      (
        await toolPolicy({ args: { '*': (() => returned) as never }, rules: [] }).check(
          '{"q":"x"}',
          context('tool_input', 'search'),
        )
      ).action;
    expect(await Promise.all([true, undefined, false, 'too many'].map(verdictOf))).toEqual([
      'allow',
      'allow',
      'block',
      'block',
    ]);
  });
});

describe('llmJudge: a template string the judged text cannot reach is an error', () => {
  const judge = () => {
    throw new Error('never called: built only');
  };
  const build = (template: string) =>
    llmJudge({ model: { doGenerate: judge } as never, policy: 'Only cooking.', template });

  it.each([
    // Before: accepted, and the judge was asked about the policy alone, so every text passed.
    [
      'Judge the text against {{policy}}. Answer in JSON.',
      'a template with a {{content}} placeholder (without one the judge never sees the text it judges)',
    ],
    // Before: `{{contents}}` stayed as written, and the text was left out.
    [
      'Judge {{contents}} against {{policy}}',
      'placeholders among {{policy}}, {{content}}, {{context}}, {{kind}}, {{toolName}} ({{contents}} is none: it would be sent as written)',
    ],
  ])('%s', (template, expected) => {
    expect(configIssuesOf(() => build(template))).toEqual([
      { path: 'llm-judge.template', value: notShownString(template), expected },
    ]);
  });

  it('takes {{content}} with white space inside, beside the other placeholders', () => {
    expect(() =>
      build('Policy: {{policy}} ({{ kind }}, {{toolName}})\n{{ content }}\n{{context}}'),
    ).not.toThrow();
  });

  it('in a config file, the entry names it', () => {
    expect(
      configIssuesOf(() =>
        buildGuardrailsConfig(
          { output: [{ type: 'llm-judge', model: 'judge', policy: 'p', template: 'Is it fine?' }] },
          { models: { judge: { doGenerate: judge } as never } },
        ),
      ).map(issue => issue.path),
    ).toEqual(['output[0].template']);
  });
});

describe('scriptedModel: a respond that returns no answer fails the call, not an empty answer', () => {
  // Before: 5, {} or an array answered "" (a test of the guarded app passed on
  // an empty answer), undefined threw a TypeError, and an async respond
  // answered "" and left its rejection unhandled.
  const expected = (shown: string) =>
    `Invalid guardrail configuration at scriptedModel.respond: expected a function returning a string or { text?, toolCalls? }, synchronously, received "${shown}"`;
  const unhandled: unknown[] = [];
  const collect = (reason: unknown) => unhandled.push(reason);
  beforeAll(() => process.on('unhandledRejection', collect));
  afterAll(() => process.off('unhandledRejection', collect));

  it.each([
    [() => 5, '(the number 5)'],
    [() => undefined, '(undefined)'],
    [() => ['a', 'b'], '(an array)'],
    [() => ({ text: 5 }), '(an object)'],
    [() => ({ toolCalls: [{ input: {} }] }), '(an object)'],
    [
      async () => {
        throw new Error('script is down');
      },
      '(a Promise: respond must be synchronous)',
    ],
  ])('%s', async (respond, shown) => {
    unhandled.length = 0;
    const model = scriptedModel({ respond: respond as never });
    await expect(generateText({ model, prompt: 'hi' })).rejects.toThrow(expected(shown));
    const parts: string[] = [];
    for await (const part of streamText({ model, prompt: 'hi', onError: () => {} }).fullStream) {
      if (part.type === 'error') parts.push((part.error as Error).message);
    }
    expect(parts).toEqual([expected(shown)]);
    await new Promise(resolve => setTimeout(resolve, 10));
    expect(unhandled).toEqual([]);
  });

  it('a string or { text, toolCalls } still answers', async () => {
    const text = async (respond: () => unknown) =>
      (await generateText({ model: scriptedModel({ respond: respond as never }), prompt: 'hi' }))
        .text;
    expect(await Promise.all([() => 'ok', () => ({ text: 'fine' }), () => ({})].map(text))).toEqual(
      ['ok', 'fine', ''],
    );
  });
});
