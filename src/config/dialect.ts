import type { GuardrailConfigIssue } from '../core/errors';
import { formatPath } from './config-issues';

/*
 * The configuration dialect of seed 002's `pkg/agent/guardrails` YAML,
 * accepted as documented aliases (docs/configuration.md, "Aliases"):
 * `tool_args` / `tool_result` lists, `stream_mode: synthesize`,
 * `stream_buffer_tokens`, snake_case option names, the `starlang` and
 * `output-validator` types and their keys. Everything is translated to the
 * canonical form before validation; issues keep the names as written.
 */

/** The canonical list names, and the spellings the loader also accepts. */
export const LIST_NAMES = {
  input: ['input'],
  output: ['output'],
  tool_input: ['tool_input', 'tool_args'],
  tool_output: ['tool_output', 'tool_result'],
  tool_definitions: ['tool_definitions', 'toolDefinitions'],
  prompt_tool_outputs: ['prompt_tool_outputs', 'promptToolOutputs'],
  tool_calls: ['tool_calls', 'toolCalls'],
} as const;

/** A canonical list name. */
export type ListName = keyof typeof LIST_NAMES;

/** The canonical list names, in file order. */
export const LISTS = Object.keys(LIST_NAMES) as ListName[];

/** Guardrail type names accepted for a built-in type. */
export const TYPE_ALIASES: Readonly<Record<string, string>> = {
  starlang: 'expression',
  'output-validator': 'output-schema',
};

/** Characters per token when `stream_buffer_tokens` is turned into a window (the seed's len/4). */
export const CHARACTERS_PER_TOKEN = 4;

/** Option objects whose own keys are options too (snake_case accepted inside). */
const NESTED_OPTIONS = new Set(['perSession', 'cache', 'breaker', 'custom']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `max_length` → `maxLength`; other spellings unchanged. */
export function camelCase(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/** An entry's options with snake_case keys renamed, and which key each came from. */
export interface CamelCasedOptions {
  params: Record<string, unknown>;
  /** Canonical key → the key as written, for the keys that were renamed. */
  written: Map<string, string>;
}

function camelCaseObject(
  value: Record<string, unknown>,
  path: readonly PropertyKey[],
  issues: GuardrailConfigIssue[],
  written?: Map<string, string>,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const canonical = camelCase(key);
    if (canonical !== key && Object.hasOwn(value, canonical)) {
      issues.push({
        path: formatPath([...path, key]),
        value: inner,
        expected: `one spelling of the option (${canonical} is given too)`,
      });
      continue;
    }
    if (canonical !== key) written?.set(canonical, key);
    result[canonical] = NESTED_OPTIONS.has(canonical)
      ? camelCaseNested(inner, [...path, key], issues)
      : inner;
  }
  return result;
}

function camelCaseNested(
  value: unknown,
  path: readonly PropertyKey[],
  issues: GuardrailConfigIssue[],
): unknown {
  if (isPlainObject(value)) return camelCaseObject(value, path, issues);
  if (Array.isArray(value)) {
    return value.map((item, index) =>
      isPlainObject(item) ? camelCaseObject(item, [...path, index], issues) : item,
    );
  }
  return value;
}

/**
 * Renames snake_case option keys (`max_length`, `cache_size`) to the
 * canonical camelCase, at the top of the entry and inside option objects
 * (`per_session.max_tokens`); never inside data such as a JSON Schema or
 * category names. Giving both spellings is an issue.
 */
export function camelCaseOptions(
  params: Record<string, unknown>,
  entryPath: readonly PropertyKey[],
  issues: GuardrailConfigIssue[],
): CamelCasedOptions {
  const written = new Map<string, string>();
  return { params: camelCaseObject(params, entryPath, issues, written), written };
}

/** A duration: milliseconds as a number, or a string such as `"10s"`, `"500ms"`, `"2m"`. */
export function durationMs(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)\s*$/.exec(value);
  if (!match) return undefined;
  const scale = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[match[2] as 'ms' | 's' | 'm' | 'h'];
  return Number(match[1]) * scale;
}

/**
 * The seed's option names for a type, turned into ours (after camelCase):
 * `llm-judge` `cacheSize` / `timeout` / `onError: pass`, `token-budget`
 * `maxTokens` (per request: input or output by list), `content-filter`
 * category names. Returns the translated options.
 */
export function translateSeedOptions(
  type: string,
  list: ListName,
  params: Record<string, unknown>,
  written: Map<string, string>,
): Record<string, unknown> {
  const result = { ...params };
  const rename = (from: string, to: string, value: unknown = result[from]) => {
    if (!(from in result) || to in params) return;
    delete result[from];
    result[to] = value;
    written.set(to, written.get(from) ?? from);
  };
  if (type === 'llm-judge') {
    if ('cacheSize' in result && !('cache' in params && isPlainObject(params.cache))) {
      const size = result.cacheSize;
      delete result.cacheSize;
      // `cache: false` with a size stays off; otherwise the size bounds the cache.
      if (result.cache !== false) result.cache = { maxEntries: size };
      written.set('cache', written.get('cacheSize') ?? 'cache_size');
    }
    if ('timeout' in result) {
      const ms = durationMs(result.timeout);
      rename('timeout', 'timeoutMs', ms ?? result.timeout);
    }
    if (result.onError === 'pass') result.onError = 'allow';
  }
  if (type === 'token-budget' && 'maxTokens' in result) {
    rename('maxTokens', list === 'output' ? 'maxOutputTokens' : 'maxInputTokens');
  }
  return result;
}
