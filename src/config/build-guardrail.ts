import type { LanguageModel } from 'ai';
import type { z } from 'zod/v4';
import type { Guardrail, GuardrailContext } from '../core/types';
import { contentFilter } from '../guards/content-filter/content-filter';
import { expression } from '../guards/expression/expression';
import { harmfulContent } from '../guards/harmful-content/harmful-content';
import { invisibleText } from '../guards/invisible-text/invisible-text';
import { llmJudge } from '../guards/llm-judge/llm-judge';
import { outputSchema } from '../guards/output-schema/output-schema';
import type { PiiEntity } from '../guards/pii/find-pii';
import { pii } from '../guards/pii/pii';
import { promptInjection } from '../guards/prompt-injection/prompt-injection';
import { rateLimit } from '../guards/rate-limit/rate-limit';
import { secrets } from '../guards/secrets/secrets';
import { tokenBudget } from '../guards/token-budget/token-budget';
import { toolPoisoning } from '../guards/tool-poisoning/tool-poisoning';
import { toolPolicy } from '../guards/tool-policy/tool-policy';
import { urlFilter } from '../guards/url-filter/url-filter';
import type { Store } from '../store/store';
import {
  type BuiltinGuardrailType,
  type guardrailTypeSchemas,
  isRegExpLiteral,
  toRegExp,
} from './schemas';

/** A model as a config file names it: a name, or the seed's `{ provider, model }`. */
export type ModelReference = string | { provider?: string; model: string };

/** Resolves the names a config entry refers to; records a problem for each missing one. */
export interface ConfigReferences {
  model(ref: ModelReference, key: string): LanguageModel;
  store(name: string | undefined, key: string): Store | undefined;
}

type Params<TYPE extends BuiltinGuardrailType> = z.output<(typeof guardrailTypeSchemas)[TYPE]>;

function placeholderFn(template: string | undefined) {
  return template === undefined ? undefined : (type: string) => template.replaceAll('{type}', type);
}

function metadataReader(key: string | undefined) {
  if (key === undefined) return undefined;
  return (ctx: GuardrailContext) => {
    const value = ctx.metadata[key];
    return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
  };
}

function hostOrRegExp(value: string) {
  return isRegExpLiteral(value) ? toRegExp(value) : value;
}

/** Drops undefined options so each factory's own defaults apply. */
function defined<T extends object>(options: T): T {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as T;
}

/** Builds a built-in guardrail from validated config params. */
export const builtinFactories: {
  [TYPE in BuiltinGuardrailType]: (params: Params<TYPE>, refs: ConfigReferences) => Guardrail;
} = {
  pii: ({ placeholder, store, custom, entities, ...rest }, refs) =>
    pii(
      defined({
        ...rest,
        entities: entities as readonly PiiEntity[] | 'all' | undefined,
        custom: custom?.map(entry => ({ ...entry, pattern: toRegExp(entry.pattern) })),
        placeholder: placeholderFn(placeholder),
        store: refs.store(store, 'store'),
        defaultRegion: rest.defaultRegion as never,
        phoneRegions: rest.phoneRegions as never,
      }),
    ),
  secrets: ({ placeholder, ...rest }) =>
    secrets(defined({ ...rest, placeholder: placeholderFn(placeholder) })),
  'prompt-injection': params => promptInjection(defined(params)),
  'harmful-content': params => harmfulContent(defined(params)),
  'invisible-text': params => invisibleText(defined(params)),
  'tool-poisoning': params => toolPoisoning(defined(params)),
  'content-filter': params => contentFilter(defined(params)),
  'url-filter': ({ allow, deny, ...rest }) =>
    urlFilter(defined({ ...rest, allow: allow?.map(hostOrRegExp), deny: deny?.map(hostOrRegExp) })),
  'tool-policy': ({ deny, ...rest }) =>
    toolPolicy(defined({ ...rest, deny: deny?.map(hostOrRegExp) })),
  'output-schema': ({ mustMatch, mustNotMatch, ...rest }) =>
    outputSchema(
      defined({
        ...rest,
        mustMatch: mustMatch?.map(toRegExp),
        mustNotMatch: mustNotMatch?.map(toRegExp),
      }),
    ),
  'token-budget': ({ sessionId, store, ...rest }, refs) =>
    tokenBudget(
      defined({ ...rest, sessionId: metadataReader(sessionId), store: refs.store(store, 'store') }),
    ),
  'rate-limit': ({ key, store, ...rest }, refs) =>
    rateLimit(defined({ ...rest, key: metadataReader(key), store: refs.store(store, 'store') })),
  expression: params => expression(defined(params)),
  'llm-judge': ({ model, cache, ...rest }, refs) =>
    llmJudge(
      defined({
        ...rest,
        model: refs.model(model, 'model'),
        policy: rest.policy,
        cache:
          typeof cache === 'object'
            ? defined({ ...cache, store: refs.store(cache.store, 'cache.store') })
            : cache,
      }),
    ),
};
