import type { LanguageModelV4Middleware } from '@ai-sdk/provider';
import type { LanguageModel, ToolSet } from 'ai';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod/v4';
import { GuardrailConfigError, type GuardrailConfigIssue } from '../core/errors';
import { validateOptions } from '../core/options';
import type { Guardrail, GuardrailEventListener } from '../core/types';
import { type GuardrailsOptions, guardrails } from '../middleware/guardrails-middleware';
import type { Store } from '../store/store';
import { type GuardedToolSet, type GuardToolsOptions, guardTools } from '../tools/guard-tool';
import { builtinFactories, type ConfigReferences } from './build-guardrail';
import { configIssuesFromZod, formatPath } from './config-issues';
import { loaderOptionShape } from './loader-options';
import {
  type BuiltinGuardrailType,
  builtinGuardrailTypes,
  configShape,
  type GuardrailsConfig,
  guardrailTypeSchemas,
} from './schemas';

/** Builds a guardrail of a caller-registered type from the entry's parameters (all but `type`, `id`). */
export type GuardrailFactory = (params: Record<string, unknown>) => Guardrail;

/** Options of `loadGuardrailsConfig`. */
export interface LoadGuardrailsConfigOptions {
  /** The models entries refer to by name (`model: judge` in an `llm-judge` entry). */
  models?: Record<string, LanguageModel>;
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
    'input' | 'output' | 'stream' | 'onTrip' | 'blockedMessage' | 'onEvent' | 'context'
  > & { streamWindow?: number };
}

/** The guardrail lists a config file declares, built. */
export interface ConfiguredGuardrails {
  input: Guardrail[];
  output: Guardrail[];
  tool_input: Guardrail[];
  tool_output: Guardrail[];
}

/** What `loadGuardrailsConfig` returns. */
export interface LoadedGuardrailsConfig {
  /** The middleware for `wrapLanguageModel`, with the file's input and output guardrails. */
  middleware: LanguageModelV4Middleware;
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

const LISTS = ['input', 'output', 'tool_input', 'tool_output'] as const;
type ListName = (typeof LISTS)[number];

function isFilePath(source: string): boolean {
  return !source.includes('\n') && /\.(ya?ml|json)$/i.test(source.trim());
}

function parseText(text: string): { value?: unknown; issue?: GuardrailConfigIssue } {
  try {
    return { value: parseYaml(text, { prettyErrors: true }) };
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return {
      issue: {
        path: '(source)',
        value: text.slice(0, 40),
        expected: `valid YAML or JSON (${message})`,
      },
    };
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Remaps a factory's own issue paths (`llm-judge.threshold`) under the entry (`output[2].threshold`). */
function remapFactoryIssues(
  error: GuardrailConfigError,
  entryPath: string,
  names: readonly string[],
): GuardrailConfigIssue[] {
  return error.issues.map(issue => {
    const prefix = names.find(name => issue.path === name || issue.path.startsWith(`${name}.`));
    const rest = prefix === undefined ? issue.path : issue.path.slice(prefix.length + 1);
    return { ...issue, path: rest === '' ? entryPath : `${entryPath}.${rest}` };
  });
}

/**
 * Validates a configuration and builds its guardrails, collecting every
 * problem; throws one `GuardrailConfigError` listing them all, or returns
 * the middleware and the tool wrapper. Never returns a partial set.
 */
export function buildGuardrailsConfig(
  source: GuardrailsConfig | Record<string, unknown> | string,
  loaderOptions?: LoadGuardrailsConfigOptions,
): LoadedGuardrailsConfig {
  const options = validateOptions(loaderOptions, {
    prefix: 'options',
    root: 'options',
    shape: loaderOptionShape,
  });
  const { models = {}, guardrails: customTypes = {}, stores = {} } = options;
  const issues: GuardrailConfigIssue[] = [];
  let config: unknown = source;
  if (typeof source === 'string') {
    const parsed = parseText(source);
    if (parsed.issue) throw new GuardrailConfigError(parsed.issue);
    config = parsed.value ?? {};
  }
  if (!isPlainObject(config)) {
    throw new GuardrailConfigError({
      path: '(root)',
      value: config,
      expected: 'an object with input, output, tool_input and tool_output lists',
    });
  }

  for (const name of Object.keys(customTypes)) {
    if ((builtinGuardrailTypes as string[]).includes(name)) {
      issues.push({
        path: `options.guardrails.${name}`,
        value: name,
        expected: 'a name that is not a built-in type',
      });
    } else if (typeof customTypes[name] !== 'function') {
      issues.push({
        path: `options.guardrails.${name}`,
        value: customTypes[name],
        expected: 'a factory function (params) => Guardrail',
      });
    }
  }

  const topLevel = z.strictObject(configShape).safeParse(config);
  if (!topLevel.success) {
    issues.push(
      ...configIssuesFromZod(topLevel.error.issues, config, [], path =>
        path.length === 0 ? Object.keys(configShape).filter(key => key !== '$schema') : undefined,
      ),
    );
  }

  const typeNames = [...builtinGuardrailTypes, ...Object.keys(customTypes)];
  const built: ConfiguredGuardrails = { input: [], output: [], tool_input: [], tool_output: [] };
  const byId = new Map<string, { guardrail?: Guardrail; path: string }>();
  const uses: Array<{ list: ListName; index: number; id: string; path: string }> = [];

  for (const list of LISTS) {
    const entries = config[list];
    if (!Array.isArray(entries)) continue;
    entries.forEach((entry, index) => {
      const entryPath = formatPath([list, index]);
      if (!isPlainObject(entry)) {
        issues.push({
          path: entryPath,
          value: entry,
          expected: 'an entry { type, ...options } or { use: id }',
        });
        return;
      }
      if ('use' in entry) {
        const extra = Object.keys(entry).filter(key => key !== 'use');
        for (const key of extra) {
          issues.push({
            path: `${entryPath}.${key}`,
            value: entry[key],
            expected: 'nothing else in a `use` entry (options belong to the entry with the id)',
          });
        }
        if (typeof entry.use !== 'string' || entry.use === '') {
          issues.push({
            path: `${entryPath}.use`,
            value: entry.use,
            expected: 'the id of another entry',
          });
        } else {
          uses.push({ list, index, id: entry.use, path: `${entryPath}.use` });
        }
        return;
      }
      const { type, id, ...params } = entry;
      if (typeof type !== 'string' || !typeNames.includes(type)) {
        issues.push({
          path: `${entryPath}.type`,
          value: type,
          expected: `one of ${typeNames.join(', ')}`,
        });
        return;
      }
      if (id !== undefined && (typeof id !== 'string' || id === '')) {
        issues.push({ path: `${entryPath}.id`, value: id, expected: 'a non-empty string' });
        return;
      }
      if (typeof id === 'string' && byId.has(id)) {
        issues.push({
          path: `${entryPath}.id`,
          value: id,
          expected: `an id not used before (already at ${byId.get(id)?.path})`,
        });
        return;
      }
      const guardrail = buildEntry(type, params, entryPath, list, index);
      if (guardrail) built[list][index] = guardrail;
      if (typeof id === 'string') byId.set(id, { guardrail, path: entryPath });
    });
  }

  function buildEntry(
    type: string,
    params: Record<string, unknown>,
    entryPath: string,
    list: ListName,
    index: number,
  ): Guardrail | undefined {
    const before = issues.length;
    const refs: ConfigReferences = {
      model(name, key) {
        const model = Object.hasOwn(models, name) || name in models ? models[name] : undefined;
        if (model === undefined) {
          const known = Object.keys(models);
          issues.push({
            path: `${entryPath}.${key}`,
            value: name,
            expected: known.length
              ? `a model name given in options.models (${known.join(', ')})`
              : 'a model name given in options.models (none were given)',
          });
        }
        return model as LanguageModel;
      },
      store(name, key) {
        if (name === undefined) return undefined;
        const store = Object.hasOwn(stores, name) || name in stores ? stores[name] : undefined;
        if (store === undefined) {
          const known = Object.keys(stores);
          issues.push({
            path: `${entryPath}.${key}`,
            value: name,
            expected: known.length
              ? `a store name given in options.stores (${known.join(', ')})`
              : 'a store name given in options.stores (none were given)',
          });
        }
        return store;
      },
    };
    const custom = customTypes[type];
    try {
      if (custom && !(builtinGuardrailTypes as string[]).includes(type)) {
        return custom(params);
      }
      const builtin = type as BuiltinGuardrailType;
      const schema = guardrailTypeSchemas[builtin];
      const parsed = schema.safeParse(params);
      if (!parsed.success) {
        issues.push(
          ...configIssuesFromZod(
            parsed.error.issues,
            params,
            [],
            path => (path.length === 0 ? Object.keys(schema.shape) : undefined),
            [list, index],
          ),
        );
        // Still report missing names, so one run shows every problem.
        if (typeof params.model === 'string') refs.model(params.model, 'model');
        if (typeof params.store === 'string') refs.store(params.store, 'store');
        const cache = params.cache as { store?: unknown } | undefined;
        if (typeof cache?.store === 'string') refs.store(cache.store, 'cache.store');
        return undefined;
      }
      const factory = builtinFactories[builtin] as (
        params: unknown,
        refs: ConfigReferences,
      ) => Guardrail;
      // Reference problems were recorded by refs; do not build with a missing model or store.
      const guardrail = factory(parsed.data, refs);
      return issues.length === before ? guardrail : undefined;
    } catch (error) {
      // A missing model or store, already reported, is why the factory failed.
      if (issues.length > before) return undefined;
      if (GuardrailConfigError.isInstance(error)) {
        const name = typeof params.name === 'string' ? params.name : type;
        issues.push(...remapFactoryIssues(error, entryPath, [name, type]));
        return undefined;
      }
      issues.push({
        path: entryPath,
        value: type,
        expected: `options the ${type} factory accepts (${error instanceof Error ? error.message : String(error)})`,
      });
      return undefined;
    }
  }

  for (const use of uses) {
    const target = byId.get(use.id);
    if (!target) {
      issues.push({
        path: use.path,
        value: use.id,
        expected: byId.size
          ? `the id of another entry (${[...byId.keys()].join(', ')})`
          : 'the id of another entry (no entry has an id)',
      });
    } else if (target.guardrail) {
      built[use.list][use.index] = target.guardrail;
    }
  }

  const mode = config.stream_mode;
  if (mode === 'window' && Array.isArray(config.output)) {
    built.output.forEach((guardrail, index) => {
      if (guardrail && !guardrail.streamSafe) {
        issues.push({
          path: formatPath(['output', index]),
          value: guardrail.name,
          expected: `a stream-safe guardrail in stream_mode window ("${guardrail.name}" needs the whole answer: use stream_mode hold)`,
        });
      }
    });
  }

  if (issues.length > 0) throw new GuardrailConfigError(issues);

  const { streamWindow, ...middlewareRest } = options.middleware ?? {};
  let middleware: LanguageModelV4Middleware;
  try {
    middleware = guardrails({
      ...middlewareRest,
      input: built.input,
      output: built.output,
      stream: {
        mode: (mode as 'hold' | 'window' | 'passthrough' | undefined) ?? 'hold',
        window: streamWindow,
      },
      onTrip: (config.on_trip as 'return' | 'throw' | undefined) ?? 'return',
      blockedMessage: config.blocked_message as string | undefined,
      onEvent: options.onEvent,
      context: options.context,
    });
  } catch (error) {
    if (GuardrailConfigError.isInstance(error)) throw new GuardrailConfigError(error.issues);
    throw error;
  }

  return {
    middleware,
    guardrails: built,
    guardTools: (tools, toolOptions = {}) =>
      guardTools(tools, {
        onEvent: options.onEvent,
        onTrip: (config.on_trip as 'return' | 'throw' | undefined) ?? 'return',
        ...toolOptions,
        input: built.tool_input,
        output: built.tool_output,
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
export async function loadGuardrailsConfig(
  source: GuardrailsConfigSource,
  options: LoadGuardrailsConfigOptions = {},
): Promise<LoadedGuardrailsConfig> {
  if (typeof source === 'string' && isFilePath(source)) {
    const { readConfigFile } = await import('./node/read-config-file');
    return buildGuardrailsConfig(await readConfigFile(source), options);
  }
  return buildGuardrailsConfig(source, options);
}
