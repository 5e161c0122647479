import { tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import * as main from '../src';
import * as config from '../src/config';
import { loaderOptionShape } from '../src/config/loader-options';
import { defineGuardrailOptionShape } from '../src/core/define-guardrail-options';
import type { OptionShape } from '../src/core/options';
import { NotShown } from '../src/core/redact-secrets';
import { contentFilterOptionShape } from '../src/guards/content-filter/content-filter-options';
import { expressionOptionShape } from '../src/guards/expression/expression-options';
import { harmfulContentOptionShape } from '../src/guards/harmful-content/harmful-content-options';
import { invisibleTextOptionShape } from '../src/guards/invisible-text/invisible-text-options';
import { llmJudgeOptionShape } from '../src/guards/llm-judge/llm-judge-options';
import { outputSchemaOptionShape } from '../src/guards/output-schema/output-schema-options';
import { findPiiOptionShape, piiOptionShape } from '../src/guards/pii/pii-options';
import { promptInjectionOptionShape } from '../src/guards/prompt-injection/prompt-injection-options';
import { rateLimitOptionShape } from '../src/guards/rate-limit/rate-limit-options';
import { findSecretsOptionShape, secretsOptionShape } from '../src/guards/secrets/secrets-options';
import { tokenBudgetOptionShape } from '../src/guards/token-budget/token-budget-options';
import { toolPoisoningOptionShape } from '../src/guards/tool-poisoning/tool-poisoning';
import { toolPolicyOptionShape } from '../src/guards/tool-policy/tool-policy-options';
import { urlFilterOptionShape } from '../src/guards/url-filter/url-filter-options';
import { guardrailsOptionShape } from '../src/middleware/middleware-options';
import * as redis from '../src/redis';
import { redisStoreOptionShape } from '../src/redis/redis-store-options';
import { memoryStoreOptionShape } from '../src/store/memory-store-options';
import * as testing from '../src/testing';
import { scriptedModelOptionShape } from '../src/testing/scripted-model-options';
import { guardToolOptionShape, guardToolsOptionShape } from '../src/tools/tool-options';
import { notShownString } from './helpers';

/*
 * Every exported factory, every option, a row of wrong values. The rows are
 * typed by the factory's options interface (`Rows<PiiOptions>` needs a row
 * for each key, and no other), and at run time the row keys must equal the
 * keys of the factory's option rules: a new option without a rule, or a
 * rule without a row, fails here.
 */

/** Wrong values per option; `null` is added to every row. */
type Rows<OPTIONS> = { [KEY in keyof Required<OPTIONS>]: readonly unknown[] };

const notAString = [5, {}, true];
const name = ['', '   ', ...notAString];
const message = notAString;
const fn = ['x', 5, {}];
const bool = ['yes', 1, 0];
const positiveInt = [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '5'];
const nonNegativeInt = [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '0'];
const ms = [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '1000'];
const stringList = ['x', 5, [5], [''], [null], {}];
// `[/x/y]`: a sticky pattern only matches where a search starts.
const regexList = ['x', ['x'], [5], /x/, [/x/y]];
const guardrailList = [
  'x',
  [{ name: 'n' }],
  [null],
  [5],
  {},
  // A hand-written guardrail object with a field of the wrong type.
  [{ name: 'n', check: () => main.allow(), timeoutMs: -1 }],
];
const store = ['redis://localhost', {}, { get: () => undefined }, 5];
const ratio = [-0.1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '0.5'];
const blockedMessage = [5, {}, true];

interface FactoryCase {
  /** The factory's name, as exported. */
  factory: string;
  build: (options: unknown) => unknown;
  /** The factory's option rules (their keys are the options it accepts). */
  shape: OptionShape;
  rows: Record<string, readonly unknown[]>;
  /** Options that make a valid call, each row's value replacing one of them. */
  valid?: Record<string, unknown>;
  /** The path an option's issue has: `pii.ttlMs`, `stream.mode`... */
  pathOf: (key: string) => string;
  /** Path of an issue with the options argument itself (`null`). */
  root: string;
  /** Whether calling it with no options at all is fine. */
  noOptionsOk: boolean;
  /** Options for which `null` is a valid value. */
  nullOk?: readonly string[];
}

const judge = new MockLanguageModelV4({
  doGenerate: async () => ({
    content: [{ type: 'text', text: '{"flagged":false,"confidence":1,"reason":"ok"}' }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: {
      inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 1, text: 1, reasoning: undefined },
    },
    warnings: [],
  }),
});
const search = tool({
  inputSchema: z.object({ q: z.string() }),
  execute: async ({ q }) => `results for ${q}`,
});
const fakeRedisClient = { eval: async () => null, evalSha: async () => null };

const prefixed = (prefix: string) => (key: string) => `${prefix}.${key}`;

const cases: FactoryCase[] = [
  {
    factory: 'pii',
    build: options => main.pii(options as never),
    shape: piiOptionShape,
    rows: {
      action: ['mask', 5],
      // `[]` without custom patterns would find nothing.
      entities: ['EMAIL_ADDRESS', ['NAME'], 'ALL', 5, ['EMAIL_ADDRESS', 5], []],
      custom: [
        { type: 'X', pattern: /x/ },
        [{ type: 'X', pattern: 'x' }],
        [{ type: '', pattern: /x/ }],
        [{ type: 'X', pattern: /x/, extra: 1 }],
        [{ type: 'X', pattern: /x/, maxLength: 0 }],
        [{ type: 'X', pattern: /x/y }],
      ],
      defaultRegion: ['us', 'USA', 'ZZ', 5],
      phoneRegions: ['GB', ['gb'], ['ZZ'], [5]],
      obfuscatedEmails: bool,
      placeholder: ['[x]', 5],
      store,
      conversationId: fn,
      ttlMs: ms,
      toolRestore: ['all', 'Vault', 5],
      message,
      name,
    } satisfies Rows<main.PiiOptions>,
    pathOf: prefixed('pii'),
    root: 'pii',
    noOptionsOk: true,
  },
  {
    factory: 'secrets',
    build: options => main.secrets(options as never),
    shape: secretsOptionShape,
    rows: {
      action: ['mask', 5],
      assignments: bool,
      entropy: bool,
      // 6.5: past log2(66), no token reaches it; 201: no token is that long.
      entropyThreshold: [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '4', 6.5],
      entropyMinLength: [...positiveInt, 201],
      reportPlaceholders: bool,
      placeholder: ['[x]', 5],
      message,
      name,
    } satisfies Rows<main.SecretsOptions>,
    pathOf: prefixed('secrets'),
    root: 'secrets',
    noOptionsOk: true,
  },
  {
    factory: 'promptInjection',
    build: options => main.promptInjection(options as never),
    shape: promptInjectionOptionShape,
    rows: {
      threshold: [0, -1, 2, Number.NaN, Number.POSITIVE_INFINITY, '0.5'],
      mode: ['both', 5],
      message,
      name,
    } satisfies Rows<main.PromptInjectionOptions>,
    pathOf: prefixed('prompt-injection'),
    root: 'prompt-injection',
    noOptionsOk: true,
  },
  {
    factory: 'toolPoisoning',
    build: options => main.toolPoisoning(options as never),
    shape: toolPoisoningOptionShape,
    rows: {
      threshold: [0, -1, 2, Number.NaN, Number.POSITIVE_INFINITY, '0.5'],
      maxLength: positiveInt,
      message,
      name,
    } satisfies Rows<main.ToolPoisoningOptions>,
    pathOf: prefixed('tool-poisoning'),
    root: 'tool-poisoning',
    noOptionsOk: true,
  },
  {
    factory: 'harmfulContent',
    build: options => main.harmfulContent(options as never),
    shape: harmfulContentOptionShape,
    rows: {
      threshold: [0, -1, 2, Number.NaN, Number.POSITIVE_INFINITY, '0.5'],
      categories: ['weapons', ['bombs'], [5], 5, []],
      maxLength: positiveInt,
      message,
      name,
    } satisfies Rows<main.HarmfulContentOptions>,
    pathOf: prefixed('harmful-content'),
    root: 'harmful-content',
    noOptionsOk: true,
  },
  {
    factory: 'invisibleText',
    build: options => main.invisibleText(options as never),
    shape: invisibleTextOptionShape,
    rows: {
      action: ['remove', 5],
      privateUse: bool,
      message,
      name,
    } satisfies Rows<main.InvisibleTextOptions>,
    pathOf: prefixed('invisible-text'),
    root: 'invisible-text',
    noOptionsOk: true,
  },
  {
    factory: 'contentFilter',
    build: options => main.contentFilter(options as never),
    shape: contentFilterOptionShape,
    rows: {
      blocklist: stringList,
      categories: [
        5,
        'profanity',
        ['darn'],
        { profanity: 'darn' },
        { profanity: [''] },
        { x: [5] },
      ],
      maxLength: positiveInt,
      message,
      name,
    } satisfies Rows<main.ContentFilterOptions>,
    pathOf: prefixed('content-filter'),
    root: 'content-filter',
    noOptionsOk: true,
  },
  {
    factory: 'urlFilter',
    build: options => main.urlFilter(options as never),
    shape: urlFilterOptionShape,
    rows: {
      allow: ['x.com', [''], [5], ['a b'], {}],
      deny: ['x.com', [''], [5], {}, [/x/y]],
      schemes: ['https', ['https:'], [''], [5]],
      blockUserinfo: bool,
      allowSubdomains: bool,
      blockPrivate: bool,
      resolveHost: fn,
      blockHomographs: bool,
      action: ['strip', 5],
      replacement: notAString,
      message,
      name,
    } satisfies Rows<main.UrlFilterOptions>,
    pathOf: prefixed('url-filter'),
    root: 'url-filter',
    noOptionsOk: true,
  },
  {
    factory: 'toolPolicy',
    build: options => main.toolPolicy(options as never),
    shape: toolPolicyOptionShape,
    rows: {
      allow: ['search', [''], [5], {}],
      deny: ['drop', [''], [5], {}, [/drop/y]],
      args: [5, 'x', { search: 'x' }, { search: {} }, [() => true]],
      rules: ['sql', ['rm'], [5]],
      dialect: ['oracle', 'MySQL', 5, ['mysql']],
      roots: ['/srv', ['data'], [5]],
      maxDepth: positiveInt,
      maxValues: positiveInt,
      message,
      name,
    } satisfies Rows<main.ToolPolicyOptions>,
    pathOf: prefixed('tool-policy'),
    root: 'tool-policy',
    noOptionsOk: true,
  },
  {
    factory: 'outputSchema',
    build: options => main.outputSchema(options as never),
    shape: outputSchemaOptionShape,
    // With no rule that can fail it checks nothing: a config error.
    valid: { maxLength: 2000 },
    rows: {
      schema: [5, 'object', [], { type: 'nope' }],
      mode: ['yaml', 5],
      requiredFields: stringList,
      mustMatch: regexList,
      mustNotMatch: regexList,
      minLength: nonNegativeInt,
      maxLength: nonNegativeInt,
      maxMatchLength: positiveInt,
      message,
      name,
    } satisfies Rows<main.OutputSchemaOptions>,
    pathOf: prefixed('output-schema'),
    root: 'output-schema',
    noOptionsOk: false,
  },
  {
    factory: 'expression',
    build: options => main.expression(options as never),
    shape: expressionOptionShape,
    valid: { expr: '!content.contains("drop table")' },
    rows: {
      expr: ['', '   ', 5, 'content +', 'size(content)', 'content + 1'],
      reason: notAString,
      message,
      severity: ['fatal', 5],
      name,
      streamSafe: bool,
      maxMatchLength: positiveInt,
      maxInputLength: positiveInt,
      maxNodes: positiveInt,
      timeoutMs: ms,
      onError: ['ignore', 5],
    } satisfies Rows<main.ExpressionOptions>,
    pathOf: prefixed('expression'),
    root: 'expression',
    noOptionsOk: false,
  },
  {
    factory: 'tokenBudget',
    build: options => main.tokenBudget(options as never),
    shape: tokenBudgetOptionShape,
    valid: { maxOutputTokens: 100 },
    rows: {
      maxInputTokens: positiveInt,
      maxOutputTokens: positiveInt,
      perSession: [
        5,
        {},
        { maxTokens: 0 },
        { maxTokens: 10, windowMs: -1 },
        { maxTokens: 10, window: 5 },
      ],
      sessionId: fn,
      store,
      countTokens: fn,
      reserveOutputTokens: positiveInt,
      imageTokens: positiveInt,
      bytesPerToken: positiveInt,
      referencedFileTokens: positiveInt,
      message,
      name,
    } satisfies Rows<main.TokenBudgetOptions>,
    pathOf: prefixed('token-budget'),
    root: 'token-budget',
    noOptionsOk: false,
  },
  {
    factory: 'rateLimit',
    build: options => main.rateLimit(options as never),
    shape: rateLimitOptionShape,
    valid: { limit: 5, windowMs: 60_000 },
    rows: {
      limit: positiveInt,
      windowMs: [...positiveInt, 0.5],
      key: fn,
      store,
      onError: ['ignore', 5],
      timeoutMs: ms,
      message,
      name,
    } satisfies Rows<main.RateLimitOptions>,
    pathOf: prefixed('rate-limit'),
    root: 'rate-limit',
    noOptionsOk: false,
  },
  {
    factory: 'llmJudge',
    build: options => main.llmJudge(options as never),
    shape: llmJudgeOptionShape,
    valid: { model: judge, policy: 'Only questions about cooking.' },
    rows: {
      model: ['', 5, {}],
      policy: ['', '  ', 5],
      threshold: ratio,
      parallel: bool,
      cache: [
        'yes',
        5,
        { maxEntries: 0 },
        { ttlMs: -1 },
        { ttlMs: 1e21 },
        { store: {} },
        { size: 5 },
      ],
      timeoutMs: ms,
      onError: ['ignore', 5],
      breaker: [
        true,
        5,
        { failures: 0, resetMs: 10 },
        { failures: 1 },
        { failures: 1, resetMs: Number.NaN },
      ],
      contextMessages: nonNegativeInt,
      contextMaxChars: positiveInt,
      // No {{content}}: the judge would never see the text.
      template: ['', 5, 'Judge against {{policy}}', 'Judge {{contents}}'],
      maxRetries: nonNegativeInt,
      maxOutputTokens: positiveInt,
      message,
      severity: ['high', 5],
      name,
    } satisfies Rows<main.LlmJudgeOptions>,
    pathOf: prefixed('llm-judge'),
    root: 'llm-judge',
    noOptionsOk: false,
  },
  {
    factory: 'guardrails',
    build: options => main.guardrails(options as never),
    shape: guardrailsOptionShape,
    rows: {
      input: guardrailList,
      output: guardrailList,
      stream: ['hold', 5, { mode: 'fast' }, { window: 0 }, { mode: 'window', size: 5 }],
      onTrip: ['explode', 5],
      blockedMessage,
      onEvent: fn,
      inputScope: ['system', 5],
      unreadableFiles: ['drop', 5],
      outputScope: ['last', 5],
      checkReasoning: bool,
      context: fn,
      memoSize: positiveInt,
      store,
      verdictTtlMs: positiveInt,
      defaultTimeoutMs: ms,
      specificationVersion: ['v2', 4],
      retry: [3, { maxAttempts: 0 }, { maxAttempts: 1, feedback: 'x' }, { tries: 1 }],
      toolDefinitions: guardrailList,
      toolOutputs: guardrailList,
      toolCalls: guardrailList,
      onToolDefinitionTrip: ['drop', 5],
      pinToolDefinitions: [
        'yes',
        5,
        { scope: '' },
        { approved: [{ name: 'x', hash: 'abc' }] },
        { ttl: 1 },
      ],
    } satisfies Rows<main.GuardrailsOptions>,
    pathOf: key => key,
    root: 'guardrails',
    noOptionsOk: true,
  },
  {
    factory: 'guardTools',
    build: options => main.guardTools({ search }, options as never),
    shape: guardToolsOptionShape,
    rows: {
      input: guardrailList,
      output: guardrailList,
      onTrip: ['explode', 5],
      blockedMessage,
      onEvent: fn,
      context: fn,
      stopOnTrip: bool,
      serverId: name,
      serverGroup: name,
      unreadableFiles: ['drop', 5],
      historyApprovals: ['always', 5],
      only: ['search', [5], ['nope'], {}, []],
    } satisfies Rows<main.GuardToolsOptions>,
    pathOf: key => key,
    root: 'guardTools',
    noOptionsOk: true,
  },
  {
    factory: 'guardTool',
    build: options => main.guardTool(search, options as never),
    shape: guardToolOptionShape,
    rows: {
      input: guardrailList,
      output: guardrailList,
      onTrip: ['explode', 5],
      blockedMessage,
      onEvent: fn,
      context: fn,
      stopOnTrip: bool,
      serverId: name,
      serverGroup: name,
      unreadableFiles: ['drop', 5],
      historyApprovals: ['always', 5],
      name,
    } satisfies Rows<main.GuardSingleToolOptions>,
    pathOf: key => key,
    root: 'guardTool',
    noOptionsOk: true,
  },
  {
    factory: 'defineGuardrail',
    build: options => main.defineGuardrail(options as never),
    shape: defineGuardrailOptionShape,
    valid: { name: 'custom', check: () => main.allow() },
    rows: {
      name,
      check: fn,
      streamSafe: bool,
      maxMatchLength: positiveInt,
      potentialMatchStart: fn,
      mayMatch: fn,
      mayMatchReach: positiveInt,
      timeoutMs: ms,
      onError: ['ignore', 5],
      parallel: bool,
      cache: ['always', 5, { metadata: 'userId' }, { metadata: [5] }, { keys: ['a'] }],
      // Any value is a fingerprint (it is only turned into text).
      fingerprint: [],
      perCall: bool,
      retryable: bool,
    } satisfies Rows<main.DefineGuardrailOptions>,
    // A bad name cannot prefix the others' paths.
    pathOf: key => (key === 'name' ? 'name' : `custom.${key}`),
    root: 'defineGuardrail',
    noOptionsOk: false,
    nullOk: ['fingerprint'],
  },
  {
    factory: 'memoryStore',
    build: options => main.memoryStore(options as never),
    shape: memoryStoreOptionShape,
    rows: {
      maxEntries: positiveInt,
      maxBytes: positiveInt,
      now: fn,
    } satisfies Rows<main.MemoryStoreOptions>,
    pathOf: prefixed('memoryStore'),
    root: 'memoryStore',
    noOptionsOk: true,
  },
  {
    factory: 'redisStore',
    build: options => redis.redisStore(fakeRedisClient as never, options as never),
    shape: redisStoreOptionShape,
    rows: {
      prefix: [5, {}],
      timeoutMs: ms,
      evictionCheck: ['maybe', true, 5],
    } satisfies Rows<redis.RedisStoreOptions>,
    pathOf: prefixed('redisStore'),
    root: 'redisStore.options',
    noOptionsOk: true,
  },
  {
    factory: 'scriptedModel',
    build: options => testing.scriptedModel(options as never),
    shape: scriptedModelOptionShape,
    valid: { respond: () => 'ok' },
    rows: {
      respond: ['ok', 5],
      chunkSize: positiveInt,
      delayMs: [-1, Number.NaN, Number.POSITIVE_INFINITY, '5'],
      modelId: name,
    } satisfies Rows<testing.ScriptedModelOptions>,
    pathOf: prefixed('scriptedModel'),
    root: 'scriptedModel',
    noOptionsOk: false,
  },
  {
    factory: 'buildGuardrailsConfig',
    build: options => config.buildGuardrailsConfig({}, options as never),
    shape: loaderOptionShape,
    rows: {
      models: [5, 'judge', { judge: 5 }, { judge: {} }, { judge: '' }],
      guardrails: [5, { custom: 'x' }],
      stores: [5, 'redis://localhost', { redis: {} }, { redis: 'redis://localhost' }],
      onEvent: fn,
      context: fn,
      specificationVersion: ['v2', 4],
      // `input` is the file's to set; the rest are checked as guardrails() checks them.
      middleware: [5, { input: [] }, { memoSize: -1 }, { streamWindow: 0 }, { inputScope: 'x' }],
    } satisfies Rows<config.LoadGuardrailsConfigOptions>,
    pathOf: prefixed('options'),
    root: 'options',
    noOptionsOk: true,
  },
  {
    factory: 'findPii',
    build: options => main.findPii('Mail jane@example.com', options as never),
    shape: findPiiOptionShape,
    rows: {
      entities: ['EMAIL_ADDRESS', ['NAME'], 5],
      custom: [{ type: 'X', pattern: /x/ }, [{ type: 'X', pattern: 'x' }]],
      defaultRegion: ['us', 5],
      phoneRegions: ['GB', ['ZZ']],
      obfuscatedEmails: bool,
    } satisfies Rows<main.FindPiiOptions>,
    pathOf: prefixed('findPii'),
    root: 'findPii.options',
    noOptionsOk: true,
  },
  {
    factory: 'findSecrets',
    build: options => main.findSecrets('token=abc', options as never),
    shape: findSecretsOptionShape,
    rows: {
      assignments: bool,
      entropy: bool,
      entropyThreshold: [0, -1, Number.NaN, '4', 7],
      entropyMinLength: [...positiveInt, 1_000],
      reportPlaceholders: bool,
    } satisfies Rows<main.FindSecretsOptions>,
    pathOf: prefixed('findSecrets'),
    root: 'findSecrets.options',
    noOptionsOk: true,
  },
];

/** Exported functions that are not option-taking factories, and why. */
const notFactories: Record<string, string> = {
  GuardrailConfigError: 'an error class',
  GuardrailTripwireError: 'an error class',
  StoreTimeoutError: 'an error class',
  StoreListError: 'an error class',
  JudgeRefusedError: 'an error class',
  NerModelLoadError: 'an error class',
  HarmfulModelLoadError: 'an error class',
  allow: 'a verdict builder',
  block: 'a verdict builder (any message or details object)',
  modify: 'a verdict builder',
  defaultJudgeTemplate: 'a template function',
  defaultRetryFeedback: 'builds the default retry feedback from a record',
  getGuardrailOutcome: 'reads a result',
  guardrailOutcomeOf: 'reads provider metadata',
  mergeGuardrailOutcomes: 'combines outcomes',
  optionsFingerprint: 'turns any value into text',
  runChain: 'takes a list of guardrails, checked and read once as the middleware reads its lists',
  findInvisibleText: 'a detector: text plus the options of invisibleText',
  scorePromptInjection: 'a detector: text plus a mode',
  scoreHarmful: 'a detector: text only',
  scoreToolPoisoning: 'a detector: text only',
  isInvisibleCodePoint: 'a predicate',
  isPlaceholderValue: 'a predicate',
  normalizeText: 'a text transform',
  piiMaxMatchLength: 'a computation over pii options',
  collectToolRecords: 'reads steps',
  guardrailTripped: 'a stop condition without options',
  isGuardrailBlocked: 'a predicate',
  hasGuardrailBlockedShape: 'a predicate',
  loadGuardrailsConfig: 'async form of buildGuardrailsConfig: the same options, checked there',
  formatPath: 'formats a path',
  approveToolDefinition: 'writes an approval to a store (its arguments are checked there)',
  forgetToolDefinitionPin: 'deletes a pin from a store',
  toolDefinitionHash: 'hashes a definition',
  toolDefinitionText: 'a text transform of a definition',
};

function configError(run: () => unknown): InstanceType<typeof main.GuardrailConfigError> {
  try {
    run();
  } catch (error) {
    if (main.GuardrailConfigError.isInstance(error)) return error;
    throw new Error(`expected a GuardrailConfigError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected a GuardrailConfigError, but the call succeeded');
}

function namesPath(issues: readonly { path: string }[], path: string): boolean {
  return issues.some(
    issue =>
      issue.path === path || issue.path.startsWith(`${path}.`) || issue.path.startsWith(`${path}[`),
  );
}

describe('every exported factory is in the options table', () => {
  it('names every exported function either as a factory with a table or as something else', () => {
    const exported = [main, config, redis, testing].flatMap(entry =>
      Object.entries(entry)
        .filter(([, value]) => typeof value === 'function')
        .map(([key]) => key),
    );
    const covered = new Set([...cases.map(entry => entry.factory), ...Object.keys(notFactories)]);
    expect([...new Set(exported)].filter(key => !covered.has(key))).toEqual([]);
  });
});

describe.each(cases)('$factory options', entry => {
  const base = entry.valid ?? {};

  it('has a table row for every option it accepts, and accepts no option without one', () => {
    expect(Object.keys(entry.rows).sort()).toEqual(Object.keys(entry.shape).sort());
  });

  it('builds with valid options', () => {
    expect(() => entry.build(entry.noOptionsOk && !entry.valid ? undefined : base)).not.toThrow();
  });

  it(entry.noOptionsOk ? 'takes no options as the defaults' : 'needs its required options', () => {
    if (entry.noOptionsOk) expect(() => entry.build(undefined)).not.toThrow();
    else expect(configError(() => entry.build(undefined)).issues[0]!.path).toBe(entry.root);
  });

  it('rejects null, an array and a string as the options, at the root path', () => {
    for (const options of [null, [], 'options', 5]) {
      const error = configError(() => entry.build(options));
      expect(error.issues).toHaveLength(1);
      expect(error.issues[0]!.path).toBe(entry.root);
    }
  });

  it('rejects an unknown key (a typo) naming it, the option it misspells and the known options', () => {
    const known = Object.keys(entry.shape);
    const typo = `${known[0]}X`;
    const error = configError(() => entry.build({ ...base, [typo]: 1 }));
    const issue = error.issues.find(found => found.path === entry.pathOf(typo));
    expect(issue?.expected).toBe(
      `no such option (did you mean '${known[0]}'? known: ${known.join(', ')})`,
    );
  });

  for (const [key, values] of Object.entries(entry.rows)) {
    it(`rejects each wrong ${key} with a GuardrailConfigError at its path`, () => {
      for (const value of [...(entry.nullOk?.includes(key) ? [] : [null]), ...values]) {
        let error: ReturnType<typeof configError>;
        try {
          error = configError(() => entry.build({ ...base, [key]: value }));
        } catch (failure) {
          throw new Error(`${entry.factory}({ ${key}: ${String(value)} }): ${String(failure)}`);
        }
        expect(
          namesPath(error.issues, entry.pathOf(key)),
          `${entry.factory}({ ${key}: ${JSON.stringify(value)} }) reported ${JSON.stringify(error.issues)}`,
        ).toBe(true);
      }
    });
  }
});

describe('the malformed options of issue 14', () => {
  // Each threw a TypeError (or nothing) before; each is now a config error naming the option.
  const typeErrors: Array<[string, () => unknown, string]> = [
    ['guardrails(null)', () => main.guardrails(null as never), 'guardrails'],
    ['guardrails({ stream: null })', () => main.guardrails({ stream: null as never }), 'stream'],
    ['pii(null)', () => main.pii(null as never), 'pii'],
    [
      "urlFilter({ allow: 'x.com' })",
      () => main.urlFilter({ allow: 'x.com' as never }),
      'url-filter.allow',
    ],
    [
      "toolPolicy({ deny: 'drop' })",
      () => main.toolPolicy({ deny: 'drop' as never }),
      'tool-policy.deny',
    ],
    [
      "outputSchema({ mustMatch: 'x' })",
      () => main.outputSchema({ mustMatch: 'x' as never }),
      'output-schema.mustMatch',
    ],
    ['rateLimit()', () => (main.rateLimit as (options?: unknown) => unknown)(), 'rate-limit'],
    ['llmJudge()', () => (main.llmJudge as (options?: unknown) => unknown)(), 'llm-judge'],
    ['guardTools(null)', () => main.guardTools(null as never), 'tools'],
    ['guardTools(tools, null)', () => main.guardTools({ search }, null as never), 'guardTools'],
    ['guardTool(tool, null)', () => main.guardTool(search, null as never), 'guardTool'],
    [
      'scriptedModel()',
      () => (testing.scriptedModel as (options?: unknown) => unknown)(),
      'scriptedModel',
    ],
    [
      'buildGuardrailsConfig(file, null)',
      () => config.buildGuardrailsConfig({}, null as never),
      'options',
    ],
  ];
  it.each(typeErrors)('%s is a GuardrailConfigError naming %s', (_label, run, path) => {
    expect(configError(run).issues.map(issue => issue.path)).toContain(path);
  });

  const weakening: Array<[string, () => unknown, string]> = [
    // Used to switch the default categories off.
    [
      'contentFilter({ categories: 5 })',
      () => main.contentFilter({ categories: 5 as never }),
      'content-filter.categories',
    ],
    // Used to make pseudonyms expire at once, so answers were never restored.
    ['pii({ ttlMs: -1 })', () => main.pii({ ttlMs: -1 }), 'pii.ttlMs'],
    // Used to pass to the store: Redis refused every write (`PX 1e+21`), memory kept it (round 27).
    ['pii({ ttlMs: 1e21 })', () => main.pii({ ttlMs: 1e21 }), 'pii.ttlMs'],
    // Used to allow the tools "s", "e", "a", "r", "c", "h".
    [
      "toolPolicy({ allow: 'search' })",
      () => main.toolPolicy({ allow: 'search' as never }),
      'tool-policy.allow',
    ],
    [
      'contentFilter({ categores: {...} }) (typo)',
      () => main.contentFilter({ categores: {} } as never),
      'content-filter.categores',
    ],
    [
      'guardrails({ blockedMessage: 5 })',
      () => main.guardrails({ blockedMessage: 5 as never }),
      'blockedMessage',
    ],
    ['guardrails({ context: 5 })', () => main.guardrails({ context: 5 as never }), 'context'],
    ['guardrails({ memoSize: -1 })', () => main.guardrails({ memoSize: -1 }), 'memoSize'],
    ["guardrails({ onEvent: 'x' })", () => main.guardrails({ onEvent: 'x' as never }), 'onEvent'],
    [
      'guardTools(tools, { blockedMessage: 5 })',
      () => main.guardTools({ search }, { blockedMessage: 5 as never }),
      'blockedMessage',
    ],
    [
      "guardTools(tools, { onEvent: 'x' })",
      () => main.guardTools({ search }, { onEvent: 'x' as never }),
      'onEvent',
    ],
    [
      'guardTools(tools, { context: 5 })',
      () => main.guardTools({ search }, { context: 5 as never }),
      'context',
    ],
    [
      'secrets({ entropyMinLength: NaN })',
      () => main.secrets({ entropyMinLength: Number.NaN }),
      'secrets.entropyMinLength',
    ],
    [
      'invisibleText({ privateUse: "no" })',
      () => main.invisibleText({ privateUse: 'no' as never }),
      'invisible-text.privateUse',
    ],
    [
      'urlFilter({ blockPrivate: "false" })',
      () => main.urlFilter({ blockPrivate: 'false' as never }),
      'url-filter.blockPrivate',
    ],
    [
      'rateLimit({ limit: 5, windowMs: Infinity })',
      () => main.rateLimit({ limit: 5, windowMs: Number.POSITIVE_INFINITY }),
      'rate-limit.windowMs',
    ],
    [
      'tokenBudget({ maxInputTokens: NaN })',
      () => main.tokenBudget({ maxInputTokens: Number.NaN }),
      'token-budget.maxInputTokens',
    ],
    [
      'llmJudge({ threshold: NaN })',
      () => main.llmJudge({ model: judge, policy: 'p', threshold: Number.NaN }),
      'llm-judge.threshold',
    ],
    [
      'defineGuardrail({ timeoutMS: 5 }) (typo)',
      () => main.defineGuardrail({ name: 'g', check: () => main.allow(), timeoutMS: 5 } as never),
      'g.timeoutMS',
    ],
  ];
  it.each(weakening)('%s is rejected at construction, naming %s', (_label, run, path) => {
    expect(configError(run).issues.map(issue => issue.path)).toContain(path);
  });

  it('reports every problem at once, with what was expected', () => {
    const error = configError(() =>
      main.guardrails({
        stream: { mode: 'fast' as never },
        memoSize: -1,
        onEvnt: () => {},
      } as never),
    );
    expect(error.issues).toEqual([
      {
        path: 'onEvnt',
        value: error.issues[0]!.value,
        expected: expect.stringMatching(
          /^no such option \(did you mean 'onEvent'\? known: input, output, stream, /,
        ),
      },
      // Round 39: a value given in code is shown as its type and length, a number out of range as such.
      {
        path: 'stream.mode',
        value: notShownString('fast'),
        expected: "'hold', 'window' or 'passthrough'",
      },
      { path: 'memoSize', value: new NotShown('-1'), expected: 'a positive integer' },
    ]);
  });
});
