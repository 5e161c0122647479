import {
  anyOf,
  functionOption,
  type OptionShape,
  objectOption,
  positiveInt,
  recordOf,
  storeOption,
} from '../core/options';
import { languageModelOption } from '../guards/llm-judge/llm-judge-options';
import { guardrailsOptionShape } from '../middleware/middleware-options';

/** `guardrails()` options the file itself sets, so the loader's `middleware` option cannot. */
const setByTheFile = [
  'input',
  'output',
  'toolDefinitions',
  'toolOutputs',
  'stream',
  'onTrip',
  'blockedMessage',
  'onEvent',
  'context',
];

/** The rules of `loadGuardrailsConfig`'s / `buildGuardrailsConfig`'s options. */
export const loaderOptionShape = {
  models: anyOf(
    [
      recordOf(languageModelOption, 'an object of language models by name'),
      functionOption('a function resolving a model reference'),
    ],
    'an object of language models by name, or a function ({ provider?, model }) => model',
  ),
  guardrails: recordOf(
    functionOption('a factory (params) => Guardrail'),
    'an object of guardrail factories by type name',
  ),
  stores: recordOf(storeOption, 'an object of stores by name'),
  onEvent: functionOption('a function receiving each guardrail event'),
  context: functionOption('a function of the call options returning metadata'),
  specificationVersion: guardrailsOptionShape.specificationVersion,
  middleware: objectOption(
    {
      ...Object.fromEntries(
        Object.entries(guardrailsOptionShape).filter(([key]) => !setByTheFile.includes(key)),
      ),
      streamWindow: positiveInt,
    },
    'an object of further guardrails() options',
  ),
} satisfies OptionShape;
