import type { ToolSet } from 'ai';
import { z } from 'zod/v4';
import { isPlainCallerObject, thrownKind } from '../core/caller-values';
import { GuardrailConfigError, type GuardrailConfigIssue } from '../core/errors';
import { noSuchOption, optionIssues } from '../core/options';
import { outputSideIssues, toolWrapperOutputSideIssues } from '../core/output-side';
import { PARALLEL_DOES_NOT_APPLY, parallelIssues } from '../core/parallel-issues';
import { NotShown } from '../core/redact-secrets';
import type { StreamWatchingGuardrail } from '../core/stream-watch';
import type { GuardrailEventListener, GuardrailRecord } from '../core/types';
import {
  type GuardrailsMiddleware,
  type GuardrailsOptions,
  guardrails,
  type MiddlewareSpecificationVersion,
} from '../middleware/guardrails-middleware';
import type { Store } from '../store/store';
import { type GuardedToolSet, type GuardToolsOptions, guardTools } from '../tools/guard-tool';
import {
  buildDeclared,
  type ConfiguredGuardrails,
  compactLists,
  customTypeIssues,
  type Declarations,
  declareEntries,
  type GuardrailFactory,
  type ListKeys,
  resolveUses,
} from './build-entries';
import { configIssuesFromZod, formatPath, withValuesHidden } from './config-issues';
import type { ModelResolver } from './config-references';
import {
  isFilePath,
  isPlainObject,
  NOT_READ,
  readConfigSource,
  readPlainData,
} from './config-source';
import { CHARACTERS_PER_TOKEN, LIST_NAMES, LISTS, TYPE_ALIASES } from './dialect';
import { loaderOptionShape, setByTheFile } from './loader-options';
import { builtinGuardrailTypes, configShape, type GuardrailsConfig } from './schemas';

export type { ConfiguredGuardrails, GuardrailFactory } from './build-entries';
export type { ModelResolver } from './config-references';

/** Options of `loadGuardrailsConfig`. */
export interface LoadGuardrailsConfigOptions<
  VERSION extends MiddlewareSpecificationVersion = 'v4',
> {
  /**
   * The middleware specification of the `wrapLanguageModel` it is given to,
   * as `guardrails({ specificationVersion })`: `'v4'` (default) for AI SDK 7,
   * `'v3'` for AI SDK 6 (the returned middleware is then typed for it).
   */
  specificationVersion?: VERSION;
  /**
   * The models entries refer to: by name (`model: judge` in an `llm-judge`
   * entry), or a function resolving a name or the seed's
   * `{ provider, model }` (`(ref) => openai(ref.model)`).
   */
  models?: ModelResolver;
  /** Extra guardrail types, by the name used as `type` in the file. */
  guardrails?: Record<string, GuardrailFactory>;
  /** The stores entries refer to by name (`store: redis`), e.g. a Redis store shared by servers. */
  stores?: Record<string, Store>;
  /** Receives one event per guardrail decision, from the middleware and the tool wrapper. */
  onEvent?: GuardrailEventListener;
  /** Per-call metadata for the middleware (session id, user id...), as `guardrails({ context })`. */
  context?: GuardrailsOptions['context'];
  /** Further `guardrails()` options not expressed in the file (`inputScope`, `checkReasoning`, ...). */
  middleware?: Omit<
    GuardrailsOptions,
    | 'input'
    | 'output'
    | 'toolOutputs'
    | 'toolCalls'
    | 'stream'
    | 'onTrip'
    | 'blockedMessage'
    | 'onEvent'
    | 'context'
  > & { streamWindow?: number };
}

/** What `loadGuardrailsConfig` returns. */
export interface LoadedGuardrailsConfig<VERSION extends MiddlewareSpecificationVersion = 'v4'> {
  /**
   * The middleware for `wrapLanguageModel`, with the file's input, output,
   * tool-definition and prompt tool-output guardrails (and its pin settings).
   */
  middleware: GuardrailsMiddleware<VERSION>;
  /**
   * Applies the file's `tool_input` / `tool_output` guardrails to a tool set
   * (as `guardTools`); `options` may add `only`, `context` or `blockedMessage`.
   */
  guardTools<TOOLS extends ToolSet>(
    tools: TOOLS,
    options?: Omit<GuardToolsOptions, 'input' | 'output'>,
  ): GuardedToolSet<TOOLS>;
  /** The built guardrails, by list. */
  guardrails: ConfiguredGuardrails;
}

/** A config given to the loader: an object, YAML or JSON text, or (Node only) a file path. */
export type GuardrailsConfigSource = GuardrailsConfig | Record<string, unknown> | string;

/** Which key of the file holds each list (`tool_args` for `tool_input`, ...); two spellings of one list is an issue. */
function listKeysOf(config: Record<string, unknown>, issues: GuardrailConfigIssue[]): ListKeys {
  const keys = {} as ListKeys;
  for (const list of LISTS) {
    const present = LIST_NAMES[list].filter(key => config[key] !== undefined);
    keys[list] = present[0];
    for (const extra of present.slice(1)) {
      issues.push({
        path: extra,
        value: config[extra],
        expected: `one list of ${present.join(' / ')} (the same list, written twice)`,
      });
    }
  }
  return keys;
}

/**
 * `guardrails()` options a file written from the code examples may carry,
 * and the file's name for each. The nearest spelling would mislead here:
 * `toolOutputs` is closest to `tool_output`, which is `guardTools`' result
 * list, not the middleware's judging of every tool result in the prompt.
 */
const CODE_OPTION_KEYS: Readonly<Record<string, string>> = {
  stream: 'stream_mode',
  toolOutputs: 'prompt_tool_outputs',
  tool_outputs: 'prompt_tool_outputs',
};

/** The file's top-level keys, checked against the known ones. */
function topLevelIssues(config: Record<string, unknown>): GuardrailConfigIssue[] {
  const topLevel = z.strictObject(configShape).safeParse(config);
  if (topLevel.success) return [];
  const known = Object.keys(configShape).filter(key => key !== '$schema');
  return configIssuesFromZod(topLevel.error.issues, config, [], path =>
    path.length === 0 ? known : undefined,
  ).map(issue =>
    Object.hasOwn(CODE_OPTION_KEYS, issue.path)
      ? { ...issue, expected: noSuchOption(issue.path, known, CODE_OPTION_KEYS[issue.path]) }
      : issue,
  );
}

/** The stream settings a file gives: `synthesize` is `hold`, `stream_buffer_tokens` becomes characters. */
/** The value of a key the file may spell in snake_case or camelCase; both is an issue. */
function oneSpelling(
  config: Record<string, unknown>,
  snake: string,
  camel: string,
  issues: GuardrailConfigIssue[],
): unknown {
  if (config[snake] !== undefined && config[camel] !== undefined) {
    issues.push({
      path: camel,
      value: config[camel],
      expected: `one spelling of the key (${snake} is given too)`,
    });
  }
  return config[snake] ?? config[camel];
}

type PinSettings = Exclude<GuardrailsOptions['pinToolDefinitions'], boolean | undefined>;

/** `pin_tool_definitions` and `on_tool_definition_trip` as `guardrails()` options. */
function toolDefinitionSettings(
  config: Record<string, unknown>,
  issues: GuardrailConfigIssue[],
): Pick<GuardrailsOptions, 'pinToolDefinitions' | 'onToolDefinitionTrip'> {
  const trip = oneSpelling(config, 'on_tool_definition_trip', 'onToolDefinitionTrip', issues);
  const pin = oneSpelling(config, 'pin_tool_definitions', 'pinToolDefinitions', issues) as
    | boolean
    | {
        scope?: string;
        ttl_ms?: number;
        ttlMs?: number;
        new_tools?: 'hold' | 'pin';
        newTools?: 'hold' | 'pin';
        approved?: Array<{ name: string; hash: string; server_id?: string; serverId?: string }>;
      }
    | undefined;
  const settings: Pick<GuardrailsOptions, 'pinToolDefinitions' | 'onToolDefinitionTrip'> = {};
  if (trip !== undefined) settings.onToolDefinitionTrip = trip as 'remove' | 'block';
  if (typeof pin === 'boolean') settings.pinToolDefinitions = pin;
  else if (isPlainObject(pin)) {
    const pinned: PinSettings = {};
    if (pin.scope !== undefined) pinned.scope = pin.scope;
    const ttlMs = pin.ttl_ms ?? pin.ttlMs;
    if (ttlMs !== undefined) pinned.ttlMs = ttlMs;
    const newTools = pin.new_tools ?? pin.newTools;
    if (newTools !== undefined) pinned.newTools = newTools;
    // Wrong shapes are issues already (the error is thrown below): only read what can be read.
    if (Array.isArray(pin.approved)) {
      pinned.approved = pin.approved
        .filter(isPlainObject)
        .map(({ name, hash, server_id, serverId }) => {
          const server = server_id ?? serverId;
          return server === undefined ? { name, hash } : { name, hash, serverId: server };
        });
    }
    settings.pinToolDefinitions = pinned;
  }
  return settings;
}

function streamSettings(
  config: Record<string, unknown>,
  loaderWindow: number | undefined,
): { mode: 'hold' | 'window' | 'passthrough'; window?: number } {
  const written = config.stream_mode as string | undefined;
  const mode = written === undefined || written === 'synthesize' ? 'hold' : written;
  const tokens = config.stream_buffer_tokens as number | undefined;
  const window = loaderWindow ?? (tokens === undefined ? undefined : tokens * CHARACTERS_PER_TOKEN);
  return {
    mode: mode as 'hold' | 'window' | 'passthrough',
    ...(window !== undefined && { window }),
  };
}

/** In window mode every output guardrail must be stream-safe: named by its place in the file. */
function windowModeIssues(
  mode: string,
  built: ConfiguredGuardrails,
  listKeys: ListKeys,
): GuardrailConfigIssue[] {
  if (mode !== 'window' || listKeys.output === undefined) return [];
  const issues: GuardrailConfigIssue[] = [];
  built.output.forEach((guardrail, index) => {
    if (guardrail && !guardrail.streamSafe) {
      // A guardrail may say why (outputSchema's JSON rules, an unbounded pattern).
      const because = (guardrail as StreamWatchingGuardrail).notStreamSafeBecause;
      issues.push({
        path: formatPath(['output', index]),
        value: guardrail.name,
        expected:
          typeof because === 'string'
            ? `a stream-safe guardrail in stream_mode window ("${guardrail.name}": ${because}; use stream_mode hold)`
            : `a stream-safe guardrail in stream_mode window ("${guardrail.name}" needs the whole answer: use stream_mode hold)`,
      });
    }
  });
  return issues;
}

/**
 * A per-call guardrail (`rate-limit`, `token-budget`) judges the call, not a
 * text: in `prompt_tool_outputs` it would count every tool result of the
 * history as a call, in `tool_calls` every tool call. Named by its place in
 * the file.
 */
function promptToolOutputIssues(
  built: ConfiguredGuardrails,
  listKeys: ListKeys,
): GuardrailConfigIssue[] {
  const issues: GuardrailConfigIssue[] = [];
  for (const [list, place] of [
    ['prompt_tool_outputs', 'input'],
    ['tool_calls', 'input or output'],
  ] as const) {
    const key = listKeys[list];
    if (key === undefined) continue;
    built[list].forEach((guardrail, index) => {
      if (!guardrail?.perCall) return;
      issues.push({
        path: formatPath([key, index]),
        value: guardrail.name,
        expected: `a guardrail that judges a text ("${guardrail.name}" judges the call, once per model call: put it in ${place})`,
      });
    });
  }
  return issues;
}

/**
 * A pseudonymising `pii` in `tool_calls` restores its placeholders at kind
 * `tool_input`: it would write the originals into the response's tool
 * calls, which the next model call of the run reads back. Named by its place
 * in the file (the middleware's own check names `toolCalls[i]`).
 */
function toolCallPseudonymIssues(
  built: ConfiguredGuardrails,
  listKeys: ListKeys,
): GuardrailConfigIssue[] {
  const key = listKeys.tool_calls;
  if (key === undefined) return [];
  const issues: GuardrailConfigIssue[] = [];
  built.tool_calls.forEach((guardrail, index) => {
    const restores = (guardrail as { undoneInOutputOnlyByItself?: unknown } | undefined)
      ?.undoneInOutputOnlyByItself;
    if (typeof restores !== 'string') return;
    issues.push({
      path: formatPath([key, index]),
      value: guardrail!.name,
      expected: `a guardrail that keeps the model's placeholders in its tool calls ("${guardrail!.name}" restores them at kind tool_input, and the next model call reads the call back); use action: redact in tool_calls`,
    });
  });
  return issues;
}

/** Why `parallel: true` cannot apply in each list but `input`. */
const PARALLEL_IN_LIST = {
  output: PARALLEL_DOES_NOT_APPLY.output,
  tool_input: PARALLEL_DOES_NOT_APPLY.toolInput,
  tool_output: PARALLEL_DOES_NOT_APPLY.toolOutput,
  tool_definitions: PARALLEL_DOES_NOT_APPLY.toolDefinitions,
  prompt_tool_outputs: PARALLEL_DOES_NOT_APPLY.toolOutputs,
  tool_calls: PARALLEL_DOES_NOT_APPLY.toolCalls,
} as const;

/**
 * `parallel: true` (an `llm-judge` option, or a custom type's) outside
 * `input`: named by its place in the file, at load, also for the tool lists
 * (`guardTools` is only called later) and for entries after a disabled one.
 */
function parallelListIssues(built: ConfiguredGuardrails, listKeys: ListKeys) {
  return Object.entries(PARALLEL_IN_LIST).flatMap(([list, because]) => {
    const key = listKeys[list as keyof typeof PARALLEL_IN_LIST];
    return key === undefined
      ? []
      : parallelIssues(built[list as keyof typeof PARALLEL_IN_LIST], key, because);
  });
}

/**
 * A pseudonymising `pii` in `input` or `prompt_tool_outputs` whose instance
 * is not in `output` too (with `use`): the user would read placeholders.
 */
function outputSideListIssues(
  built: ConfiguredGuardrails,
  listKeys: ListKeys,
  declarations: Declarations,
): GuardrailConfigIssue[] {
  // In the tool results a tool wrapper judges, nothing restores the answer (`guardTools` would throw later).
  const toolOutputKey = listKeys.tool_output;
  const inToolOutput =
    toolOutputKey === undefined
      ? []
      : built.tool_output.flatMap((guardrail, index) => {
          const found: GuardrailConfigIssue[] = [];
          toolWrapperOutputSideIssues({ output: [guardrail], context: true }, found);
          return found.map(issue => ({
            ...issue,
            path: formatPath([toolOutputKey, index]),
            expected: issue.expected.replace(
              'guardrails({ toolOutputs: [p], output: [p] })',
              'prompt_tool_outputs and { use: <id> } in output',
            ),
          }));
        });
  return inToolOutput.concat(
    (['input', 'prompt_tool_outputs'] as const).flatMap(list => {
      const key = listKeys[list];
      if (key === undefined) return [];
      return built[list].flatMap((guardrail, index) => {
        const id = declarations.typed.find(
          entry => entry.list === list && entry.index === index,
        )?.id;
        const todo = `add { use: ${typeof id === 'string' ? id : '<id>'} } to output (give the entry an id if it has none), or use action: redact if the user may see placeholders`;
        return outputSideIssues([guardrail], key, built.output, todo).map(issue => ({
          ...issue,
          path: formatPath([key, index]),
        }));
      });
    }),
  );
}

/**
 * The entries' own messages, by guardrail name: a block whose record carries
 * one of them shows it, even when the file sets `blocked_message` (seed 003:
 * a guardrail's own message is the user-facing text).
 */
function ownMessages(declarations: Declarations, built: ConfiguredGuardrails) {
  const messages = new Map<string, Set<string>>();
  for (const entry of declarations.typed) {
    const guardrail = built[entry.list][entry.index];
    const message = entry.params.message;
    if (!guardrail || typeof message !== 'string') continue;
    const set = messages.get(guardrail.name) ?? new Set<string>();
    set.add(message);
    messages.set(guardrail.name, set);
  }
  return messages;
}

/** A global blocked message that gives way to a guardrail's own. */
function withOwnMessages(
  global: string | ((record: GuardrailRecord) => string) | undefined,
  messages: Map<string, Set<string>>,
): string | ((record: GuardrailRecord) => string) | undefined {
  if (global === undefined || messages.size === 0) return global;
  return record => {
    if (record.message !== undefined && messages.get(record.guardrail)?.has(record.message)) {
      return record.message;
    }
    return typeof global === 'function' ? global(record) : global;
  };
}

/** Issues sorted by the place of their entry in the file (others first, in the order found). */
function inFileOrder(issues: GuardrailConfigIssue[], listKeys: ListKeys): GuardrailConfigIssue[] {
  const rank = new Map(LISTS.map((list, position) => [listKeys[list], position]));
  const placeOf = (path: string): [number, number] => {
    const match = /^([A-Za-z_]+)\[(\d+)\]/.exec(path);
    const list = match ? rank.get(match[1]!) : undefined;
    return list === undefined ? [-1, 0] : [list, Number(match![2])];
  };
  return issues
    .map((issue, order) => ({ issue, order, place: placeOf(issue.path) }))
    .sort((a, b) => a.place[0] - b.place[0] || a.place[1] - b.place[1] || a.order - b.order)
    .map(({ issue }) => issue);
}

/**
 * The loader's options read once (their `middleware` too: a getter there that
 * throws is an issue at its path), and their issues. The records of `models`,
 * `stores` and `guardrails` are not copied (a Proxy may answer any name, as
 * `check-config`'s does): a getter of one of their entries, or of a model or
 * store the check reads, is an issue at its entry (`options.stores.redis`,
 * round 38; it was one issue at `options`). A throw the checks do not place
 * is one issue at `options`.
 */
function readLoaderOptions(given: unknown): { options: unknown; issues: GuardrailConfigIssue[] } {
  const issues: GuardrailConfigIssue[] = [];
  const options = readPlainData(given, ['options'], issues, 1);
  // Asked through the caller-values rule: a Proxy whose prototype trap threw was taken for options, and read raw.
  if (isPlainCallerObject(options, 'options', issues) === true) {
    const read = options as Record<string, unknown>;
    if (read.middleware !== undefined) {
      read.middleware = readPlainData(read.middleware, ['options', 'middleware'], issues, 1);
    }
  }
  if (issues.length > 0) return { options, issues };
  try {
    issues.push(
      ...optionIssues(options, { prefix: 'options', root: 'options', shape: loaderOptionShape }),
    );
  } catch (error) {
    issues.push({
      path: 'options',
      value: NOT_READ,
      expected: `options that can be read (checking them threw ${thrownKind(error)})`,
    });
  }
  return { options, issues };
}

/**
 * The error of a file's (or the options') problems, each value hidden but
 * for the words the loader checks values against: the guardrail types
 * (built-in, aliases, the caller's), and `(not read)`.
 */
function configError(issues: GuardrailConfigIssue[], customTypes: object = {}) {
  const known = new Set<string>([
    ...builtinGuardrailTypes,
    ...Object.keys(TYPE_ALIASES),
    ...Object.keys(customTypes),
    NOT_READ,
  ]);
  return new GuardrailConfigError(withValuesHidden(issues, known), known);
}

/**
 * Validates a configuration and builds its guardrails, collecting every
 * problem; throws one `GuardrailConfigError` listing them all, or returns
 * the middleware and the tool wrapper. Never returns a partial set.
 *
 * Phases: read the source; check the options, custom types and top-level
 * keys; declare the entries (skipping `enabled: false`); build each; resolve
 * `use` references; check stream mode; assemble the middleware.
 */
export function buildGuardrailsConfig<VERSION extends MiddlewareSpecificationVersion = 'v4'>(
  source: GuardrailsConfig | Record<string, unknown> | string,
  loaderOptions?: LoadGuardrailsConfigOptions<VERSION>,
): LoadedGuardrailsConfig<VERSION> {
  const read = readLoaderOptions(loaderOptions);
  const optionProblems = read.issues.map(issue => {
    // A guardrails() option the file sets: say where it goes, not only that it is unknown here.
    const key = issue.path.startsWith('options.middleware.') ? issue.path.slice(19) : '';
    return Object.hasOwn(setByTheFile, key)
      ? { ...issue, expected: `no such option here: it is set by ${setByTheFile[key]}` }
      : issue;
  });
  if (optionProblems.length > 0) throw configError(optionProblems);
  const options = (read.options ?? {}) as LoadGuardrailsConfigOptions<VERSION>;
  const { models = {}, guardrails: customTypes = {}, stores = {} } = options;
  const config = readConfigSource(source);

  const issues = [...customTypeIssues(customTypes), ...topLevelIssues(config)];
  const listKeys = listKeysOf(config, issues);
  const declarations = declareEntries(config, listKeys, customTypes, issues);
  const { built, byId } = buildDeclared(declarations, { models, stores, customTypes }, issues);
  resolveUses(declarations, built, byId, issues);
  const { streamWindow, ...middlewareRest } = options.middleware ?? {};
  const stream = streamSettings(config, streamWindow);
  issues.push(...windowModeIssues(stream.mode, built, listKeys));
  issues.push(...promptToolOutputIssues(built, listKeys));
  issues.push(...toolCallPseudonymIssues(built, listKeys));
  issues.push(...parallelListIssues(built, listKeys));
  issues.push(...outputSideListIssues(built, listKeys, declarations));
  const definitionSettings = toolDefinitionSettings(config, issues);
  if (issues.length > 0) throw configError(inFileOrder(issues, listKeys), customTypes);

  const lists = compactLists(built);
  const messages = ownMessages(declarations, built);
  const onTrip = (config.on_trip as 'return' | 'throw' | undefined) ?? 'return';
  let middleware: GuardrailsMiddleware<VERSION>;
  try {
    middleware = guardrails<VERSION>({
      ...middlewareRest,
      specificationVersion: (options.specificationVersion ?? middlewareRest.specificationVersion) as
        | VERSION
        | undefined,
      input: lists.input,
      output: lists.output,
      toolDefinitions: lists.tool_definitions,
      toolOutputs: lists.prompt_tool_outputs,
      toolCalls: lists.tool_calls,
      ...definitionSettings,
      stream,
      onTrip,
      ...(config.output_scope !== undefined && {
        outputScope: config.output_scope as 'every-step' | 'final',
      }),
      blockedMessage: withOwnMessages(config.blocked_message as string | undefined, messages),
      onEvent: options.onEvent,
      context: options.context,
      // The file sets how many attempts; a `feedback` function can only come from code.
      ...(config.retry !== undefined && {
        retry: {
          ...middlewareRest.retry,
          maxAttempts: (config.retry as { max_attempts: number }).max_attempts,
        },
      }),
    });
  } catch (error) {
    if (GuardrailConfigError.isInstance(error)) throw configError(error.issues, customTypes);
    throw error;
  }

  return {
    middleware,
    guardrails: lists,
    guardTools: (tools, toolOptions = {}) =>
      guardTools(tools, {
        onEvent: options.onEvent,
        onTrip,
        ...toolOptions,
        blockedMessage: withOwnMessages(toolOptions.blockedMessage, messages),
        input: lists.tool_input,
        output: lists.tool_output,
      }) as GuardedToolSet<typeof tools>,
  };
}

/**
 * Builds guardrails from a declarative configuration: an object, YAML or
 * JSON text, or a file path (`.yaml`, `.yml`, `.json`; Node only). Returns
 * `{ middleware, guardTools }` (and the built lists). Strict: an unknown
 * type or option, an invalid value, a missing model or store reference, a
 * non-stream-safe output guardrail in window mode are all reported at once
 * in one `GuardrailConfigError` whose issues name the path in the file
 * (`output[2].threshold`), the value found and what was expected.
 *
 * @example
 * const { middleware, guardTools } = await loadGuardrailsConfig('guardrails.yaml', {
 *   models: { judge: openai('gpt-4.1-mini') },
 * });
 * const model = wrapLanguageModel({ model: openai('gpt-4.1'), middleware });
 */
export function loadGuardrailsConfig<VERSION extends MiddlewareSpecificationVersion = 'v4'>(
  source: GuardrailsConfigSource,
  options: LoadGuardrailsConfigOptions<VERSION> = {},
): Promise<LoadedGuardrailsConfig<VERSION>> {
  const loading = loadConfig(source, options);
  // `const { middleware } = loadGuardrailsConfig(...)` without `await` reads
  // undefined from the promise in JavaScript, and wrapLanguageModel takes an
  // undefined middleware as none: the model would run unguarded.
  for (const key of ['middleware', 'guardrails', 'guardTools'] as const) {
    Object.defineProperty(loading, key, {
      get() {
        throw new GuardrailConfigError({
          path: key,
          value: new NotShown('a Promise'),
          expected: `the result of await loadGuardrailsConfig(...): it returns a Promise, read ${key} from what it resolves to`,
        });
      },
    });
  }
  return loading;
}

async function loadConfig<VERSION extends MiddlewareSpecificationVersion>(
  source: GuardrailsConfigSource,
  options: LoadGuardrailsConfigOptions<VERSION>,
): Promise<LoadedGuardrailsConfig<VERSION>> {
  if (typeof source === 'string' && isFilePath(source)) {
    const { readConfigFile } = await import('./node/read-config-file');
    return buildGuardrailsConfig(await readConfigFile(source), options);
  }
  return buildGuardrailsConfig(source, options);
}
