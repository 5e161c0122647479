import {
  anyOf,
  functionOption,
  type OptionRule,
  type OptionShape,
  objectOption,
  positiveInt,
  recordOf,
  storeOption,
} from '../core/options';
import { thrownKind } from '../core/redact-secrets';
import { languageModelOption } from '../guards/llm-judge/llm-judge-options';
import { guardrailsOptionShape } from '../middleware/middleware-options';
import { NOT_READ } from './config-source';

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

/**
 * `rule`, with a throw while it runs (a getter of a model or a store it reads)
 * an issue at the value's path, what was thrown named by its class only: it
 * was one issue at `options` (round 37).
 */
function placingThrows(rule: OptionRule): OptionRule {
  const placed: OptionRule = (value, path, issues) => {
    try {
      rule(value, path, issues);
    } catch (error) {
      issues.push({
        path,
        value: NOT_READ,
        expected: `a value that can be read (checking it threw ${thrownKind(error)})`,
      });
    }
  };
  return Object.assign(placed, { parts: rule.parts });
}

/** The rules of `loadGuardrailsConfig`'s / `buildGuardrailsConfig`'s options. */
export const loaderOptionShape = {
  models: anyOf(
    [
      recordOf(placingThrows(languageModelOption), 'an object of language models by name'),
      functionOption('a function resolving a model reference'),
    ],
    'an object of language models by name, or a function ({ provider?, model }) => model',
  ),
  guardrails: recordOf(
    placingThrows(functionOption('a factory (params) => Guardrail')),
    'an object of guardrail factories by type name',
  ),
  stores: recordOf(placingThrows(storeOption), 'an object of stores by name'),
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
