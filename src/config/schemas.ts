import { z } from 'zod/v4';
import { MAX_TIMER_MS } from '../core/options';
import { BUILTIN_CONTENT_CATEGORIES } from '../guards/content-filter/content-filter';
import { expressionProblems } from '../guards/expression/compile-expression';
import { HARMFUL_CATEGORIES } from '../guards/harmful-content/categories';
import { allPiiEntities } from '../guards/pii/find-pii';
import { MAX_ENTROPY_MIN_LENGTH, MAX_ENTROPY_THRESHOLD } from '../guards/secrets/secrets-options';
import { Re2PatternError, Re2RegExp } from '../guards/shared/re2-regexp';
import { CHARACTERS_PER_TOKEN } from './dialect';

/*
 * The options of each built-in guardrail type as they can be written in a
 * configuration file (plain data: regular expressions are strings, models and
 * stores are names resolved from the loader's options). These schemas are the
 * source of the config types, of validation and of the JSON Schema shipped
 * for editor completion (`schema/guardrails-config.schema.json`).
 */

/** Why a config pattern cannot be used (not JavaScript, or not RE2: lookaround, backreferences), or undefined. */
function regExpProblem(source: string): string | undefined {
  try {
    toRegExp(source);
    return undefined;
  } catch (error) {
    if (error instanceof Re2PatternError) return error.message;
    return 'a valid JavaScript regular expression ("/source/flags", or a source; flags as a leading (?i), (?s) or (?m))';
  }
}

const regexLiteral = /^\/(.+)\/([dgimsuvy]*)$/s;

/** Flags set at the start of a pattern, `(?i)` / `(?is)`: the Go, RE2 and Python way. */
const leadingInlineFlags = /^\(\?([ims]+)\)/;

/**
 * `/source/flags` becomes that RegExp; any other string is taken as a
 * pattern source. A source that starts with inline flags (`(?i)password`,
 * as seed 002's Go YAML writes them) gets them as RegExp flags: JavaScript
 * has no such group and rejected the pattern. The RegExp searches on RE2
 * (`Re2RegExp`): a config pattern runs in time linear in the judged text
 * (`^(\w+\s?)*$` on JavaScript's engine doubled its time per character);
 * a pattern RE2 cannot run (lookaround, backreferences) throws.
 */
export function toRegExp(value: string): RegExp {
  const literal = regexLiteral.exec(value);
  if (literal) return new Re2RegExp(literal[1]!, literal[2]);
  const inline = leadingInlineFlags.exec(value);
  if (!inline) return new Re2RegExp(value);
  return new Re2RegExp(value.slice(inline[0].length), [...new Set(inline[1])].join(''));
}

/** A string that is `/source/flags` (a RegExp) or a plain string. */
export function isRegExpLiteral(value: string): boolean {
  return regexLiteral.test(value);
}

/** Names of the built-in content-filter lists, also with `_` for `-` (the seed's `self_harm`). */
const builtinCategoryNames = Object.keys(BUILTIN_CONTENT_CATEGORIES).flatMap(name =>
  name.includes('-') ? [name, name.replace(/-/g, '_')] : [name],
);

/** Reports a pattern `toRegExp` refuses, with why. */
function refusePattern(value: string, ctx: z.RefinementCtx) {
  const problem = regExpProblem(value);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
}

const regexString = z
  .string()
  .superRefine(refusePattern)
  .describe('A regular expression: "/source/flags" or just the source');

const nameOption = z
  .string()
  .regex(/\S/, 'a non-empty string')
  .describe('Guardrail name in records and events');
const messageOption = z.string().describe('User-facing message of a block');
const storeRef = z.string().min(1).describe('Name of a store given to the loader in `stores`');
const positiveInt = z.int().positive();
const milliseconds = z.number().positive();
/** A timeout: a timer waits at most 2^31 - 1 ms (a longer one fires at once). */
const timerMilliseconds = z.number().positive().max(MAX_TIMER_MS);
const placeholderTemplate = z
  .string()
  .describe('Replacement text; "{type}" is replaced by the detected type, e.g. "[{type}]"');
const metadataKey = z
  .string()
  .min(1)
  .describe('The call metadata field (providerOptions.guardrails / context) holding the key');
const onErrorOption = z
  .enum(['block', 'allow'])
  .describe('What an error or timeout does: block (fail closed) or allow');

/** Options of `pii` in a config file. */
export const piiConfigSchema = z
  .strictObject({
    action: z.enum(['redact', 'block', 'pseudonymize']).optional(),
    entities: z
      .union([z.literal('all'), z.array(z.enum(allPiiEntities as [string, ...string[]]))])
      .optional(),
    custom: z
      .array(
        z.strictObject({
          type: z.string().min(1),
          pattern: regexString,
          maxLength: positiveInt.optional(),
        }),
      )
      .optional(),
    defaultRegion: z
      .string()
      .regex(/^[A-Z]{2}$/, 'a two-letter region code')
      .optional(),
    phoneRegions: z.array(z.string().regex(/^[A-Z]{2}$/, 'a two-letter region code')).optional(),
    obfuscatedEmails: z.boolean().optional(),
    placeholder: placeholderTemplate.optional(),
    store: storeRef.optional(),
    ttlMs: milliseconds.optional(),
    toolRestore: z.enum(['messages', 'vault']).optional(),
    message: messageOption.optional(),
    name: nameOption.optional(),
  })
  .superRefine(({ entities, custom }, ctx) => {
    // No entity type and no custom pattern: a pii guardrail that can never find anything.
    if (Array.isArray(entities) && entities.length === 0 && !custom?.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['entities'],
        input: entities,
        message: 'at least one entity type, or custom patterns',
      });
    }
  });

/** Options of `secrets` in a config file. */
export const secretsConfigSchema = z.strictObject({
  action: z.enum(['block', 'redact']).optional(),
  assignments: z.boolean().optional(),
  entropy: z.boolean().optional(),
  entropyThreshold: z.number().positive().max(MAX_ENTROPY_THRESHOLD).optional(),
  entropyMinLength: positiveInt.max(MAX_ENTROPY_MIN_LENGTH).optional(),
  reportPlaceholders: z.boolean().optional(),
  placeholder: placeholderTemplate.optional(),
  message: messageOption.optional(),
  name: nameOption.optional(),
});

/** Options of `promptInjection` in a config file. */
export const promptInjectionConfigSchema = z.strictObject({
  threshold: z.number().gt(0).max(1).optional(),
  mode: z.enum(['direct', 'indirect']).optional(),
  message: messageOption.optional(),
  name: nameOption.optional(),
});

/** Options of `harmfulContent` in a config file. */
export const harmfulContentConfigSchema = z.strictObject({
  threshold: z.number().gt(0).max(1).optional(),
  categories: z
    .array(z.enum(HARMFUL_CATEGORIES))
    .min(1)
    .describe(`Block only these kinds of harm: ${HARMFUL_CATEGORIES.join(', ')}`)
    .optional(),
  maxLength: positiveInt.optional(),
  message: messageOption.optional(),
  name: nameOption.optional(),
});

/** Options of `invisibleText` in a config file. */
export const invisibleTextConfigSchema = z.strictObject({
  action: z.enum(['strip', 'block']).optional(),
  privateUse: z.boolean().optional(),
  message: messageOption.optional(),
  name: nameOption.optional(),
});

/** Options of `toolPoisoning` in a config file. */
export const toolPoisoningConfigSchema = z.strictObject({
  threshold: z
    .number()
    .gt(0)
    .lte(1)
    .describe('Block at or above this tool-poisoning score, in (0, 1]')
    .optional(),
  maxLength: positiveInt.optional(),
  message: messageOption.optional(),
  name: nameOption.optional(),
});

/** Options of `contentFilter` in a config file. */
export const contentFilterConfigSchema = z.strictObject({
  blocklist: z.array(z.string().min(1)).optional(),
  categories: z
    .union([
      z
        .array(z.enum(builtinCategoryNames as [string, ...string[]]))
        .describe(
          'Names of built-in lists: profanity, violence, self-harm (or self_harm), weapons, hate, sexual',
        ),
      z.record(z.string(), z.array(z.string().min(1))).describe('Word lists by category'),
    ])
    .optional(),
  maxLength: positiveInt.optional(),
  message: messageOption.optional(),
  name: nameOption.optional(),
});

const hostPattern = z
  .string()
  .min(1)
  .superRefine((value, ctx) => {
    if (isRegExpLiteral(value)) refusePattern(value, ctx);
  })
  .describe('A host ("example.com", "*.example.com"), an IP, or "/regex/flags" over the host');

/** Options of `urlFilter` in a config file. */
export const urlFilterConfigSchema = z.strictObject({
  allow: z.array(hostPattern).optional(),
  deny: z.array(hostPattern).optional(),
  schemes: z
    .array(z.string().regex(/^[a-z][a-z0-9+.-]*$/i, 'a scheme name without ":", such as "https"'))
    .optional(),
  blockUserinfo: z.boolean().optional(),
  allowSubdomains: z.boolean().optional(),
  blockPrivate: z.boolean().optional(),
  blockHomographs: z.boolean().optional(),
  action: z.enum(['block', 'redact']).optional(),
  replacement: z.string().optional(),
  message: messageOption.optional(),
  name: nameOption.optional(),
});

/** Options of `toolPolicy` in a config file. */
export const toolPolicyConfigSchema = z.strictObject({
  allow: z.array(z.string().min(1)).optional(),
  deny: z
    .array(
      z
        .string()
        .min(1)
        .superRefine((value, ctx) => {
          if (isRegExpLiteral(value)) refusePattern(value, ctx);
        }),
    )
    .describe('A tool name, or "/regex/flags" matched against every string argument value')
    .optional(),
  rules: z.array(z.enum(['sql', 'shell', 'path'])).optional(),
  dialect: z
    .enum(['postgres', 'mysql', 'sqlite', 'mssql', 'any'])
    .describe('The database the sql rule reads statements as (default any: every one)')
    .optional(),
  roots: z.array(z.string().regex(/^(?:\/|[a-zA-Z]:[\\/])/, 'an absolute path')).optional(),
  maxDepth: positiveInt.optional(),
  maxValues: positiveInt.optional(),
  message: messageOption.optional(),
  name: nameOption.optional(),
});

/** Options of `outputSchema` in a config file. */
export const outputSchemaConfigSchema = z.strictObject({
  schema: z
    .record(z.string(), z.unknown())
    .describe('A JSON Schema the answer (parsed as JSON) must match')
    .optional(),
  mode: z.enum(['json', 'text']).optional(),
  requiredFields: z
    .array(z.string().min(1))
    .describe('Top-level fields the answer, a JSON object, must have')
    .optional(),
  mustMatch: z.array(regexString).optional(),
  mustNotMatch: z.array(regexString).optional(),
  minLength: z.int().nonnegative().optional(),
  maxLength: z.int().nonnegative().optional(),
  maxMatchLength: positiveInt
    .describe(
      'Window streams: the longest match to find for a mustNotMatch pattern that repeats without bound',
    )
    .optional(),
  message: messageOption.optional(),
  name: nameOption.optional(),
});

/** Options of `tokenBudget` in a config file. */
export const tokenBudgetConfigSchema = z.strictObject({
  maxInputTokens: positiveInt.optional(),
  maxOutputTokens: positiveInt.optional(),
  perSession: z
    .strictObject({ maxTokens: positiveInt, windowMs: positiveInt.optional() })
    .optional(),
  sessionId: metadataKey.optional(),
  store: storeRef.optional(),
  reserveOutputTokens: positiveInt
    .describe('Output tokens reserved for a call that sets no maxOutputTokens')
    .optional(),
  imageTokens: positiveInt.describe('Tokens counted for each image part').optional(),
  bytesPerToken: positiveInt.describe('Bytes per token for inline file parts').optional(),
  referencedFileTokens: positiveInt
    .describe('Tokens counted for each non-image file sent by URL or reference')
    .optional(),
  message: messageOption.optional(),
  name: nameOption.optional(),
});

/** Options of `rateLimit` in a config file. */
export const rateLimitConfigSchema = z.strictObject({
  limit: positiveInt,
  windowMs: positiveInt.describe('Length of the window in milliseconds'),
  key: metadataKey.optional(),
  store: storeRef.optional(),
  onError: onErrorOption.optional(),
  timeoutMs: timerMilliseconds.optional(),
  message: messageOption.optional(),
  name: nameOption.optional(),
});

/** A model reference: a name, or the seed's `{ provider, model }` (resolved by the loader's `models`). */
const modelRef = z.union([
  z.string().min(1).describe('Name of a model given to the loader in `models`'),
  z
    .strictObject({ provider: z.string().min(1).optional(), model: z.string().min(1) })
    .describe('A provider and model id, resolved by the loader option `models`'),
]);

/** Options of `expression` in a config file. */
export const expressionConfigSchema = z
  .strictObject({
    expr: z
      .string()
      .regex(/\S/, 'a CEL expression')
      .describe(
        'A CEL expression over content, kind, metadata, tool, step, now(), today(): bool, string or map result',
      ),
    reason: z.string().describe('Reason of a block when the expression returns false').optional(),
    message: messageOption.optional(),
    severity: z.enum(['info', 'warning', 'critical']).optional(),
    name: nameOption.optional(),
    streamSafe: z
      .boolean()
      .describe('Declares that the expression may judge a bounded window of a stream')
      .optional(),
    maxMatchLength: positiveInt.optional(),
    maxInputLength: positiveInt
      .describe('Longer content is blocked without evaluating (default 1,000,000)')
      .optional(),
    maxNodes: positiveInt
      .describe('Largest expression in syntax-tree nodes (default 500)')
      .optional(),
    timeoutMs: timerMilliseconds.optional(),
    onError: onErrorOption.optional(),
  })
  .superRefine(
    ({ expr, maxNodes }, ctx) => {
      if (typeof expr !== 'string' || !/\S/.test(expr)) return;
      // Compiled with the entry's own node limit (it used to be the default
      // 500 whatever the entry said); an invalid maxNodes is reported by its
      // own rule, and the expression is then judged against the default.
      const limit = Number.isInteger(maxNodes) && maxNodes! > 0 ? maxNodes : undefined;
      for (const message of expressionProblems(expr, limit)) {
        ctx.addIssue({ code: 'custom', path: ['expr'], input: expr, message });
      }
    },
    // Also when another option failed, so one run reports every problem.
    { when: ({ value }) => typeof (value as { expr?: unknown } | null)?.expr === 'string' },
  );

/** Options of `llmJudge` in a config file. */
export const llmJudgeConfigSchema = z.strictObject({
  model: modelRef,
  policy: z.string().trim().min(1).describe('The policy, in natural language'),
  threshold: z.number().min(0).max(1).optional(),
  parallel: z.boolean().optional(),
  cache: z
    .union([
      z.boolean(),
      z.strictObject({
        store: storeRef.optional(),
        maxEntries: positiveInt.optional(),
        ttlMs: milliseconds.optional(),
      }),
    ])
    .optional(),
  timeoutMs: timerMilliseconds.optional(),
  onError: onErrorOption.optional(),
  breaker: z
    .union([z.literal(false), z.strictObject({ failures: positiveInt, resetMs: milliseconds })])
    .optional(),
  contextMessages: z.int().nonnegative().optional(),
  contextMaxChars: positiveInt.optional(),
  template: z
    .string()
    .min(1)
    .describe('Judge prompt with {{policy}}, {{content}}, {{context}}, {{kind}}, {{toolName}}')
    .optional(),
  maxRetries: z.int().nonnegative().optional(),
  maxOutputTokens: positiveInt.optional(),
  message: messageOption.optional(),
  severity: z.enum(['info', 'warning', 'critical']).optional(),
  name: nameOption.optional(),
});

/** The option schema of every built-in type, by its name in config files. */
export const guardrailTypeSchemas = {
  pii: piiConfigSchema,
  secrets: secretsConfigSchema,
  'prompt-injection': promptInjectionConfigSchema,
  'harmful-content': harmfulContentConfigSchema,
  'invisible-text': invisibleTextConfigSchema,
  'tool-poisoning': toolPoisoningConfigSchema,
  'content-filter': contentFilterConfigSchema,
  'url-filter': urlFilterConfigSchema,
  'tool-policy': toolPolicyConfigSchema,
  'output-schema': outputSchemaConfigSchema,
  'token-budget': tokenBudgetConfigSchema,
  'rate-limit': rateLimitConfigSchema,
  'llm-judge': llmJudgeConfigSchema,
  expression: expressionConfigSchema,
} as const;

/** A built-in guardrail type name. */
export type BuiltinGuardrailType = keyof typeof guardrailTypeSchemas;

/** The built-in type names, in documentation order. */
export const builtinGuardrailTypes = Object.keys(guardrailTypeSchemas) as BuiltinGuardrailType[];

/** Keys every entry may have besides its type's options. */
const entryKeys = {
  enabled: z
    .boolean()
    .describe('false skips the entry silently (and every `use` of its id)')
    .optional(),
  id: z
    .string()
    .min(1)
    .describe('Names this guardrail so another list can reuse the same instance with `use`')
    .optional(),
};

/** An entry that reuses a guardrail declared elsewhere with `id` (one instance, shared state). */
export const useEntrySchema = z.strictObject({
  use: z.string().min(1).describe('The `id` of a guardrail declared in another entry'),
});

/** Each built-in type's entry (`type`, `id` and the type's options), by type. */
export const typedEntrySchemas = Object.fromEntries(
  builtinGuardrailTypes.map(type => [
    type,
    guardrailTypeSchemas[type].extend({ type: z.literal(type), ...entryKeys }),
  ]),
) as unknown as Record<BuiltinGuardrailType, z.ZodObject>;

/** Entries of the type names seed 002 uses for a built-in type (`starlang`, `output-validator`). */
export const aliasEntrySchemas = {
  starlang: expressionConfigSchema
    .extend({ type: z.literal('starlang'), ...entryKeys })
    .describe('Alias of the expression type (seed 002)'),
  'output-validator': outputSchemaConfigSchema
    .extend({ type: z.literal('output-validator'), ...entryKeys })
    .describe('Alias of the output-schema type (seed 002)'),
} as const;

/** One guardrail entry of a list, as the JSON Schema describes it. */
export const guardrailEntrySchema = z.union([
  z.discriminatedUnion('type', [
    ...builtinGuardrailTypes.map(type => typedEntrySchemas[type]),
    ...Object.values(aliasEntrySchemas),
  ] as unknown as [z.ZodObject, ...z.ZodObject[]]),
  useEntrySchema,
]);

const streamMode = z.enum(['hold', 'window', 'passthrough', 'synthesize']);
/** Most tokens of `stream_buffer_tokens`: its window (4 characters a token) must be a safe integer. */
const MAX_STREAM_BUFFER_TOKENS = Math.floor(Number.MAX_SAFE_INTEGER / CHARACTERS_PER_TOKEN);
// An integer past 2^53 is z.int's own issue (abort: one issue, not two).
const streamBufferTokens = z
  .int({ abort: true })
  .positive()
  .refine(
    tokens => tokens <= MAX_STREAM_BUFFER_TOKENS,
    `at most ${MAX_STREAM_BUFFER_TOKENS} tokens (the window is ${CHARACTERS_PER_TOKEN} characters a token, and must be a safe integer)`,
  )
  .describe('Hold-back window of stream_mode window, in tokens (4 characters each)');
const outputScope = z
  .enum(['every-step', 'final'])
  .describe(
    'every-step (default): output guardrails judge every response; final: only responses without tool calls',
  );
const aliasNote = (canonical: string) => `Alias of ${canonical} (seed 002 dialect)`;
const onTrip = z.enum(['return', 'throw']);
const retry = z
  .strictObject({
    max_attempts: z
      .int()
      .min(1)
      .max(10)
      .describe('Extra model calls after an output trip, 1 to 10'),
  })
  .describe(
    "Re-ask after an output trip with the guardrail's feedback (generate and stream_mode hold only)",
  );

const onToolDefinitionTrip = z
  .enum(['remove', 'block'])
  .describe(
    'remove (default): a blocked tool definition is taken out of the call; block: the call trips',
  );
const approvedToolDefinition = z.strictObject({
  name: z.string().min(1).describe('The tool name'),
  hash: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .describe('Its definition hash (toolDefinitionHash, or info.definitionHash of the record)'),
  server_id: z.string().min(1).describe('The serverId its tools are guarded with').optional(),
  serverId: z.string().min(1).optional(),
});
const pinToolDefinitions = z
  .union([
    z.boolean(),
    z.strictObject({
      scope: z
        .string()
        .regex(/^[^:]+$/, "a non-empty string without ':'")
        .describe(
          "Pins are kept per scope and tool name (no ':': a server's pins live in <scope>:<serverId>)",
        )
        .optional(),
      ttl_ms: positiveInt.describe('How long an unseen pin lives (ms)').optional(),
      ttlMs: positiveInt.optional(),
      new_tools: z
        .enum(['hold', 'pin'])
        .describe(
          'A tool new on a server whose tools were pinned before: hold it until approved (default), or pin it on sight',
        )
        .optional(),
      newTools: z.enum(['hold', 'pin']).optional(),
      approved: z
        .array(approvedToolDefinition)
        .describe('Definitions approved ahead of time: pinned to these hashes from first sight')
        .optional(),
    }),
  ])
  .describe(
    'Pin each tool definition by hash at first sight (in the store); a changed one trips with tool-definition-changed until approved',
  );

/** The top-level keys of a config file (entries are checked one by one against their type). */
export const configShape = {
  $schema: z.string().optional(),
  input: z.array(z.unknown()).optional(),
  output: z.array(z.unknown()).optional(),
  tool_input: z.array(z.unknown()).optional(),
  tool_output: z.array(z.unknown()).optional(),
  tool_args: z.array(z.unknown()).optional(),
  tool_result: z.array(z.unknown()).optional(),
  tool_definitions: z.array(z.unknown()).optional(),
  toolDefinitions: z.array(z.unknown()).optional(),
  prompt_tool_outputs: z.array(z.unknown()).optional(),
  promptToolOutputs: z.array(z.unknown()).optional(),
  tool_calls: z.array(z.unknown()).optional(),
  toolCalls: z.array(z.unknown()).optional(),
  pin_tool_definitions: pinToolDefinitions.optional(),
  pinToolDefinitions: pinToolDefinitions.optional(),
  on_tool_definition_trip: onToolDefinitionTrip.optional(),
  onToolDefinitionTrip: onToolDefinitionTrip.optional(),
  stream_mode: streamMode.optional(),
  stream_buffer_tokens: streamBufferTokens.optional(),
  output_scope: outputScope.optional(),
  on_trip: onTrip.optional(),
  blocked_message: z.string().optional(),
  retry: retry.optional(),
};

/** The whole file, with typed entries: the source of the JSON Schema and of `GuardrailsConfig`. */
export const guardrailsConfigSchema = z
  .strictObject({
    $schema: z.string().optional(),
    input: z
      .array(guardrailEntrySchema)
      .describe('Guardrails over user input, in order')
      .optional(),
    output: z
      .array(guardrailEntrySchema)
      .describe('Guardrails over each model response, in order')
      .optional(),
    tool_input: z
      .array(guardrailEntrySchema)
      .describe("Guardrails over tool calls' arguments, before the tool runs")
      .optional(),
    tool_output: z
      .array(guardrailEntrySchema)
      .describe("Guardrails over tools' results, before the model sees them")
      .optional(),
    tool_args: z.array(guardrailEntrySchema).describe(aliasNote('tool_input')).optional(),
    tool_result: z.array(guardrailEntrySchema).describe(aliasNote('tool_output')).optional(),
    tool_definitions: z
      .array(guardrailEntrySchema)
      .describe(
        'Guardrails over each tool definition (name, description, schema text) before the model sees it',
      )
      .optional(),
    toolDefinitions: z
      .array(guardrailEntrySchema)
      .describe('Alias of tool_definitions (camelCase)')
      .optional(),
    prompt_tool_outputs: z
      .array(guardrailEntrySchema)
      .describe(
        "Guardrails over every tool result in the prompt (the middleware's toolOutputs): results in a client-sent history and of unguarded tools too, before the model reads them",
      )
      .optional(),
    promptToolOutputs: z
      .array(guardrailEntrySchema)
      .describe('Alias of prompt_tool_outputs (camelCase)')
      .optional(),
    tool_calls: z
      .array(guardrailEntrySchema)
      .describe(
        "Guardrails over each tool call of the model's response (the middleware's toolCalls): its arguments judged before the AI SDK, your code or the browser sees them; a modification rewrites the call, a block withholds it",
      )
      .optional(),
    toolCalls: z.array(guardrailEntrySchema).describe('Alias of tool_calls (camelCase)').optional(),
    pin_tool_definitions: pinToolDefinitions.optional(),
    pinToolDefinitions: pinToolDefinitions.describe('Alias of pin_tool_definitions').optional(),
    on_tool_definition_trip: onToolDefinitionTrip.optional(),
    onToolDefinitionTrip: onToolDefinitionTrip
      .describe('Alias of on_tool_definition_trip')
      .optional(),
    stream_mode: streamMode
      .describe(
        'hold (default; synthesize is an alias): nothing before the output passed; window: stream-safe only; passthrough',
      )
      .optional(),
    stream_buffer_tokens: streamBufferTokens.optional(),
    output_scope: outputScope.optional(),
    on_trip: onTrip.describe('return (default) the blocked message, or throw').optional(),
    blocked_message: z.string().describe('Text shown in place of a blocked response').optional(),
    retry: retry.optional(),
  })
  .describe('ai-guardrails configuration');

/** A configuration file's content (input form: what you write). */
export type GuardrailsConfig = z.input<typeof guardrailsConfigSchema>;
/** One entry of a guardrail list. */
export type GuardrailConfigEntry = z.input<typeof guardrailEntrySchema>;
