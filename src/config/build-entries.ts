import { readCallerGuardrail, thrownKind } from '../core/caller-values';
import { GuardrailConfigError, type GuardrailConfigIssue } from '../core/errors';
import type { Guardrail } from '../core/types';
import type { Store } from '../store/store';
import { builtinFactories, type ConfigReferences } from './build-guardrail';
import { configIssuesFromZod, formatPath } from './config-issues';
import { type ModelResolver, referenceResolver } from './config-references';
import { isPlainObject } from './config-source';
import {
  camelCaseOptions,
  LISTS,
  type ListName,
  TYPE_ALIASES,
  translateSeedOptions,
} from './dialect';
import { type BuiltinGuardrailType, builtinGuardrailTypes, guardrailTypeSchemas } from './schemas';

/** Builds a guardrail of a caller-registered type from the entry's parameters (all but `type`, `id`). */
export type GuardrailFactory = (params: Record<string, unknown>) => Guardrail;

/** The guardrail lists a config file declares, built. */
export interface ConfiguredGuardrails {
  input: Guardrail[];
  output: Guardrail[];
  tool_input: Guardrail[];
  tool_output: Guardrail[];
  /** Guardrails over tool definitions (`guardrails({ toolDefinitions })`). */
  tool_definitions: Guardrail[];
  /** Guardrails over every tool result in the prompt (`guardrails({ toolOutputs })`). */
  prompt_tool_outputs: Guardrail[];
  /** Guardrails over each tool call of the model's response (`guardrails({ toolCalls })`). */
  tool_calls: Guardrail[];
}

/** An entry `{ type, ...options }`, checked for shape and ready to build. */
interface TypedEntry {
  list: ListName;
  /** The list's key as written (`tool_args` or `tool_input`). */
  key: string;
  index: number;
  path: string;
  /** The canonical type (aliases resolved). */
  type: string;
  id?: string;
  params: Record<string, unknown>;
}

/** An entry `{ use: id }`. */
interface UseEntry {
  list: ListName;
  index: number;
  id: string;
  path: string;
}

/** The entries of a file, sorted by what they are. */
export interface Declarations {
  typed: TypedEntry[];
  uses: UseEntry[];
  /** Ids of entries with `enabled: false`: their uses are skipped too. */
  disabledIds: Set<string>;
}

/** What building needs besides the entries. */
export interface BuildSettings {
  models: ModelResolver;
  stores: Record<string, Store>;
  customTypes: Record<string, GuardrailFactory>;
}

/** Where each list comes from in the file: `tool_input` may be written `tool_args`, etc. */
export type ListKeys = Record<ListName, string | undefined>;

/** Checks the caller's custom type names and factories. */
export function customTypeIssues(
  customTypes: Record<string, GuardrailFactory>,
): GuardrailConfigIssue[] {
  const issues: GuardrailConfigIssue[] = [];
  for (const name of Object.keys(customTypes)) {
    if ((builtinGuardrailTypes as string[]).includes(name) || Object.hasOwn(TYPE_ALIASES, name)) {
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
  return issues;
}

/**
 * Phase 1: reads each list's entries into typed entries and `use` entries,
 * skipping `enabled: false` ones; checks the entry shape, type name and id.
 */
export function declareEntries(
  config: Record<string, unknown>,
  listKeys: ListKeys,
  customTypes: Record<string, GuardrailFactory>,
  issues: GuardrailConfigIssue[],
): Declarations {
  const typeNames = [
    ...builtinGuardrailTypes,
    ...Object.keys(TYPE_ALIASES),
    ...Object.keys(customTypes),
  ];
  const declarations: Declarations = { typed: [], uses: [], disabledIds: new Set() };
  const idPaths = new Map<string, string>();
  for (const list of LISTS) {
    const key = listKeys[list];
    const entries = key === undefined ? undefined : config[key];
    if (!Array.isArray(entries)) continue;
    entries.forEach((entry, index) => {
      const path = formatPath([key!, index]);
      if (!isPlainObject(entry)) {
        issues.push({
          path,
          value: entry,
          expected: 'an entry { type, ...options } or { use: id }',
        });
        return;
      }
      if ('use' in entry) {
        declareUse(entry, { list, index, path }, declarations, issues);
        return;
      }
      const { type, id, enabled, ...params } = entry;
      if (enabled !== undefined && typeof enabled !== 'boolean') {
        issues.push({ path: `${path}.enabled`, value: enabled, expected: 'true or false' });
        return;
      }
      if (enabled === false) {
        // An explicit opt-out (seed 003): nothing is built or checked, its uses are skipped.
        if (typeof id === 'string') declarations.disabledIds.add(id);
        return;
      }
      if (typeof type !== 'string' || !typeNames.includes(type)) {
        issues.push({
          path: `${path}.type`,
          value: type,
          expected: `one of ${typeNames.join(', ')}`,
        });
        return;
      }
      if (id !== undefined && (typeof id !== 'string' || id === '')) {
        issues.push({ path: `${path}.id`, value: id, expected: 'a non-empty string' });
        return;
      }
      if (typeof id === 'string' && idPaths.has(id)) {
        issues.push({
          path: `${path}.id`,
          value: id,
          expected: `an id not used before (already at ${idPaths.get(id)})`,
        });
        return;
      }
      if (typeof id === 'string') idPaths.set(id, path);
      const canonical = Object.hasOwn(customTypes, type) ? type : (TYPE_ALIASES[type] ?? type);
      declarations.typed.push({
        list,
        key: key!,
        index,
        path,
        type: canonical,
        id: id as string,
        params,
      });
    });
  }
  return declarations;
}

function declareUse(
  entry: Record<string, unknown>,
  place: { list: ListName; index: number; path: string },
  declarations: Declarations,
  issues: GuardrailConfigIssue[],
): void {
  for (const key of Object.keys(entry).filter(key => key !== 'use')) {
    issues.push({
      path: `${place.path}.${key}`,
      value: entry[key],
      expected: 'nothing else in a `use` entry (options belong to the entry with the id)',
    });
  }
  if (typeof entry.use !== 'string' || entry.use === '') {
    issues.push({
      path: `${place.path}.use`,
      value: entry.use,
      expected: 'the id of another entry',
    });
    return;
  }
  declarations.uses.push({ ...place, id: entry.use, path: `${place.path}.use` });
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

/** Shows an issue under the option key as written (`max_length`), not its canonical name. */
function asWritten(
  issues: GuardrailConfigIssue[],
  entryPath: string,
  written: Map<string, string>,
): GuardrailConfigIssue[] {
  if (written.size === 0) return issues;
  return issues.map(issue => {
    if (!issue.path.startsWith(`${entryPath}.`)) return issue;
    const rest = issue.path.slice(entryPath.length + 1);
    const key = /^[^.[]+/.exec(rest)?.[0] ?? '';
    const original = written.get(key);
    return original === undefined
      ? issue
      : { ...issue, path: `${entryPath}.${original}${rest.slice(key.length)}` };
  });
}

/** Builds a built-in type from its (canonical) options; problems go to `issues`. */
function buildBuiltin(
  entry: TypedEntry,
  params: Record<string, unknown>,
  refs: ConfigReferences,
  issues: GuardrailConfigIssue[],
): Guardrail | undefined {
  const type = entry.type as BuiltinGuardrailType;
  const schema = guardrailTypeSchemas[type];
  const parsed = schema.safeParse(params);
  if (!parsed.success) {
    issues.push(
      ...configIssuesFromZod(
        parsed.error.issues,
        params,
        [],
        path => (path.length === 0 ? Object.keys(schema.shape) : undefined),
        [entry.key, entry.index],
      ),
    );
    // Still report missing names, so one run shows every problem.
    if (typeof params.model === 'string' || isPlainObject(params.model)) {
      refs.model(params.model as never, 'model');
    }
    if (typeof params.store === 'string') refs.store(params.store, 'store');
    const cache = params.cache as { store?: unknown } | undefined;
    if (typeof cache?.store === 'string') refs.store(cache.store, 'cache.store');
    return undefined;
  }
  const factory = builtinFactories[type] as (params: unknown, refs: ConfigReferences) => Guardrail;
  return factory(parsed.data, refs);
}

/**
 * What a custom type's factory returned, an object read once into the
 * frozen copy `guardrails()` makes (`readCallerGuardrail`): the loader's
 * checks (`streamSafe`, `parallel`, the output side) and the middleware read
 * the copy, so a getter or a Proxy trap that throws is an issue at the entry,
 * never its message. Anything else is left for `guardrails()` to report.
 */
function customGuardrail(
  value: Guardrail,
  path: string,
  issues: GuardrailConfigIssue[],
): Guardrail | undefined {
  if (value === null || typeof value !== 'object') return value;
  return readCallerGuardrail(value, path, issues) as Guardrail | undefined;
}

/**
 * Phase 2, one entry: translates the seed's spellings, validates the options
 * against the type's schema, resolves model and store names and calls the
 * factory. Returns the guardrail, or undefined with its problems in `issues`.
 */
export function buildEntry(
  entry: TypedEntry,
  settings: BuildSettings,
  issues: GuardrailConfigIssue[],
): Guardrail | undefined {
  const found: GuardrailConfigIssue[] = [];
  const refs = referenceResolver(settings, entry.path, found);
  const custom = settings.customTypes[entry.type];
  let written = new Map<string, string>();
  try {
    // Read once, as guardrails() reads each guardrail: the loader's own checks read the copy.
    if (custom) return customGuardrail(custom(entry.params), entry.path, found);
    const camel = camelCaseOptions(entry.params, [entry.key, entry.index], found);
    written = camel.written;
    const params = translateSeedOptions(entry.type, entry.list, camel.params, written);
    if (found.length > 0) return undefined;
    const guardrail = buildBuiltin(entry, params, refs, found);
    // A reference problem was recorded by refs; do not keep a guardrail without its model or store.
    return found.length === 0 ? guardrail : undefined;
  } catch (error) {
    // A missing model or store, already reported, is why the factory failed.
    if (found.length > 0) return undefined;
    if (GuardrailConfigError.isInstance(error)) {
      const name = typeof entry.params.name === 'string' ? entry.params.name : entry.type;
      found.push(...remapFactoryIssues(error, entry.path, [name, entry.type]));
      return undefined;
    }
    found.push({
      path: entry.path,
      value: entry.type,
      expected: `options the ${entry.type} factory accepts (it threw ${thrownKind(error)})`,
    });
    return undefined;
  } finally {
    issues.push(...asWritten(found, entry.path, written));
  }
}

/** Phase 2: builds every typed entry, by list and index; returns the built lists and the guardrails by id. */
export function buildDeclared(
  declarations: Declarations,
  settings: BuildSettings,
  issues: GuardrailConfigIssue[],
): { built: ConfiguredGuardrails; byId: Map<string, Guardrail | undefined> } {
  const built: ConfiguredGuardrails = {
    input: [],
    output: [],
    tool_input: [],
    tool_output: [],
    tool_definitions: [],
    prompt_tool_outputs: [],
    tool_calls: [],
  };
  const byId = new Map<string, Guardrail | undefined>();
  for (const entry of declarations.typed) {
    const guardrail = buildEntry(entry, settings, issues);
    if (guardrail) built[entry.list][entry.index] = guardrail;
    if (entry.id !== undefined) byId.set(entry.id, guardrail);
  }
  return { built, byId };
}

/** Phase 3: puts the shared instance of each `use` entry in place; a `use` of a disabled entry is skipped. */
export function resolveUses(
  declarations: Declarations,
  built: ConfiguredGuardrails,
  byId: Map<string, Guardrail | undefined>,
  issues: GuardrailConfigIssue[],
): void {
  for (const use of declarations.uses) {
    if (declarations.disabledIds.has(use.id)) continue;
    if (!byId.has(use.id)) {
      issues.push({
        path: use.path,
        value: use.id,
        expected: byId.size
          ? `the id of another entry (${[...byId.keys()].join(', ')})`
          : 'the id of another entry (no entry has an id)',
      });
      continue;
    }
    const guardrail = byId.get(use.id);
    if (guardrail) built[use.list][use.index] = guardrail;
  }
}

/** The built lists without the places of skipped entries. */
export function compactLists(built: ConfiguredGuardrails): ConfiguredGuardrails {
  const dense = (list: Guardrail[]) => list.filter(guardrail => guardrail !== undefined);
  return {
    input: dense(built.input),
    output: dense(built.output),
    tool_input: dense(built.tool_input),
    tool_output: dense(built.tool_output),
    tool_definitions: dense(built.tool_definitions),
    prompt_tool_outputs: dense(built.prompt_tool_outputs),
    tool_calls: dense(built.tool_calls),
  };
}
