import { thrownKind } from '../core/caller-values';
import type { GuardrailConfigIssue } from '../core/errors';
import {
  anyOf,
  childPath,
  functionOption,
  type OptionRule,
  type OptionShape,
  objectOption,
  positiveInt,
  recordOf,
  storeOption,
} from '../core/options';
import { languageModelOption } from '../guards/llm-judge/llm-judge-options';
import { guardrailsOptionShape } from '../middleware/middleware-options';
import { isPlainObject, NOT_READ } from './config-source';

/**
 * `guardrails()` options the file itself (or the loader's own option) sets,
 * so the loader's `middleware` option cannot; each with where it goes.
 */
export const setByTheFile: Readonly<Record<string, string>> = {
  input: "the file's input list",
  output: "the file's output list",
  toolDefinitions: "the file's tool_definitions list",
  toolOutputs: "the file's prompt_tool_outputs list",
  toolCalls: "the file's tool_calls list",
  stream: "the file's stream_mode (and streamWindow here)",
  onTrip: "the file's on_trip",
  blockedMessage: "the file's blocked_message",
  onEvent: "the loader's own onEvent option",
  context: "the loader's own context option",
};

/** An issue for a value whose reading (`reading it`) or checking (`checking it`) threw. */
function unreadable(issues: GuardrailConfigIssue[], path: string, doing: string, error: unknown) {
  issues.push({
    path,
    value: NOT_READ,
    expected: `a value that can be read (${doing} threw ${thrownKind(error)})`,
  });
}

/**
 * `recordOf(item, expected)` with what throws placed at its entry: a getter
 * of an entry (`reading it`), or of the model or store the item's check reads
 * (`checking it`), what was thrown named by its class only. It was one issue
 * at `options` (round 37). A record is read as given, not copied: a Proxy
 * may answer any name.
 */
function placedRecordOf(item: OptionRule, expected: string): OptionRule {
  const record = recordOf(item, expected);
  const check: OptionRule = (value, path, issues) => {
    let keys: string[] | undefined;
    try {
      // Any other value (a Map, an array, a string) is recordOf's to report.
      if (isPlainObject(value)) {
        const prototype = Object.getPrototypeOf(value);
        if (prototype === Object.prototype || prototype === null) keys = Object.keys(value);
      }
    } catch (error) {
      unreadable(issues, path, 'reading it', error);
      return;
    }
    if (keys === undefined) {
      record(value, path, issues);
      return;
    }
    for (const key of keys) {
      const at = childPath(path, key);
      let entry: unknown;
      try {
        entry = (value as Record<string, unknown>)[key];
      } catch (error) {
        unreadable(issues, at, 'reading it', error);
        continue;
      }
      try {
        record({ [key]: entry }, path, issues);
      } catch (error) {
        unreadable(issues, at, 'checking it', error);
      }
    }
  };
  return Object.assign(check, { parts: record.parts });
}

/** The rules of `loadGuardrailsConfig`'s / `buildGuardrailsConfig`'s options. */
export const loaderOptionShape = {
  models: anyOf(
    [
      placedRecordOf(languageModelOption, 'an object of language models by name'),
      functionOption('a function resolving a model reference'),
    ],
    'an object of language models by name, or a function ({ provider?, model }) => model',
  ),
  guardrails: placedRecordOf(
    functionOption('a factory (params) => Guardrail'),
    'an object of guardrail factories by type name',
  ),
  stores: placedRecordOf(storeOption, 'an object of stores by name'),
  onEvent: functionOption('a function receiving each guardrail event'),
  context: functionOption('a function of the call options returning metadata'),
  specificationVersion: guardrailsOptionShape.specificationVersion,
  middleware: objectOption(
    {
      ...Object.fromEntries(
        Object.entries(guardrailsOptionShape).filter(([key]) => !Object.hasOwn(setByTheFile, key)),
      ),
      streamWindow: positiveInt,
    },
    'an object of further guardrails() options',
  ),
} satisfies OptionShape;
