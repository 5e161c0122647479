import type { LanguageModel } from 'ai';
import { thrownKind } from '../core/caller-values';
import type { GuardrailConfigIssue } from '../core/errors';
import type { Store } from '../store/store';
import type { ConfigReferences, ModelReference } from './build-guardrail';

/**
 * Resolves a model reference of a config file: by name, or the seed's
 * `{ provider, model }`. A record is looked up by name, or for an object
 * by `"provider/model"` then `model`; a function receives `{ provider?, model }`.
 */
export type ModelResolver =
  | Record<string, LanguageModel>
  | ((ref: { provider?: string; model: string }) => LanguageModel | undefined);

function describeRef(ref: ModelReference): string {
  return typeof ref === 'string' ? ref : [ref.provider, ref.model].filter(Boolean).join('/');
}

/**
 * `record[key]` when the record gives it: its own, or one `in` finds (a
 * proxy that knows every name); undefined for what every object inherits
 * (`constructor`, `toString`, `__proto__`), which is no model or store.
 */
function given<T>(record: Record<string, T>, key: string): T | undefined {
  if (Object.hasOwn(record, key)) return record[key];
  if (!(key in record)) return undefined;
  const value = record[key];
  return key in Object.prototype && value === Reflect.get(Object.prototype, key, record)
    ? undefined
    : value;
}

function lookup(models: ModelResolver, ref: ModelReference): LanguageModel | undefined {
  const asObject = typeof ref === 'string' ? { model: ref } : ref;
  if (typeof models === 'function') return models(asObject);
  const keys =
    typeof ref === 'string' ? [ref] : [describeRef(ref), ref.model].filter(key => key !== '');
  // `in` too: a caller may pass a proxy that knows every name (check-config does).
  for (const key of keys) {
    const model = given(models, key);
    if (model !== undefined) return model;
  }
  return undefined;
}

function knownNames(models: ModelResolver): string {
  if (typeof models === 'function') return 'a model the options.models function resolves';
  const known = Object.keys(models);
  return known.length
    ? `a model name given in options.models (${known.join(', ')})`
    : 'a model name given in options.models (none were given)';
}

/** The `ConfigReferences` of one entry: each missing name becomes an issue under the entry's path. */
export function referenceResolver(
  { models, stores }: { models: ModelResolver; stores: Record<string, Store> },
  entryPath: string,
  issues: GuardrailConfigIssue[],
): ConfigReferences {
  return {
    model(ref, key) {
      let model: LanguageModel | undefined;
      try {
        model = lookup(models, ref);
      } catch (error) {
        issues.push({
          path: `${entryPath}.${key}`,
          value: ref,
          expected: `a model options.models resolves (it threw ${thrownKind(error)})`,
        });
        return undefined as unknown as LanguageModel;
      }
      if (model === undefined) {
        issues.push({ path: `${entryPath}.${key}`, value: ref, expected: knownNames(models) });
      }
      return model as LanguageModel;
    },
    store(name, key) {
      if (name === undefined) return undefined;
      const store = given(stores, name);
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
}
