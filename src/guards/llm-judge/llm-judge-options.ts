import {
  addIssue,
  anyOf,
  booleanOption,
  milliseconds,
  nonEmptyString,
  nonNegativeInt,
  numberInRange,
  type OptionRule,
  type OptionShape,
  objectOption,
  oneOf,
  positiveInt,
  required,
  rule,
  storeOption,
  storeTtl,
  stringOption,
  timerMilliseconds,
} from '../../core/options';
import { JUDGE_TEMPLATE_PLACEHOLDERS } from './judge-prompt';

/** An AI SDK language model: a model object (with `doGenerate`) or a gateway model id. */
export const languageModelOption = rule(
  value =>
    (typeof value === 'string' && value.trim() !== '') ||
    (value !== null &&
      typeof value === 'object' &&
      typeof (value as { doGenerate?: unknown }).doGenerate === 'function'),
  'an AI SDK language model',
);

const placeholders = JUDGE_TEMPLATE_PLACEHOLDERS.map(key => `{{${key}}}`);

/**
 * A judge template: a function, or a string that puts the judged text in
 * the prompt. A string without `{{content}}` (or with `{{contents}}`, which
 * is sent as written) asked the judge about the policy alone, so every text
 * passed (round 35).
 */
const judgeTemplate: OptionRule = (value, path, issues) => {
  if (value === undefined || typeof value === 'function') return;
  if (typeof value !== 'string' || value.trim() === '') {
    addIssue(issues, path, value, 'a template string or a function');
    return;
  }
  const keys = [...value.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map(match => match[1]!);
  const unknown = keys.find(key => !JUDGE_TEMPLATE_PLACEHOLDERS.includes(key));
  if (unknown !== undefined) {
    addIssue(
      issues,
      path,
      value,
      `placeholders among ${placeholders.join(', ')} ({{${unknown}}} is none: it would be sent as written)`,
    );
  } else if (!keys.includes('content')) {
    addIssue(
      issues,
      path,
      value,
      'a template with a {{content}} placeholder (without one the judge never sees the text it judges)',
    );
  }
};

/** The rules of `llmJudge`'s options. */
export const llmJudgeOptionShape = {
  model: required(languageModelOption, 'an AI SDK language model'),
  policy: required(
    rule(value => typeof value === 'string' && value.trim() !== '', 'a non-empty policy text'),
    'a non-empty policy text',
  ),
  threshold: numberInRange(0, 1),
  parallel: booleanOption,
  cache: anyOf(
    [booleanOption, objectOption({ store: storeOption, maxEntries: positiveInt, ttlMs: storeTtl })],
    'true, false or { store?, maxEntries?, ttlMs? }',
  ),
  timeoutMs: timerMilliseconds,
  onError: oneOf(['block', 'allow']),
  breaker: anyOf(
    [
      oneOf([false]),
      objectOption({
        failures: required(positiveInt, 'a positive integer'),
        resetMs: required(milliseconds, 'a positive number of milliseconds'),
      }),
    ],
    'false or { failures, resetMs }',
  ),
  contextMessages: nonNegativeInt,
  contextMaxChars: positiveInt,
  template: judgeTemplate,
  maxRetries: nonNegativeInt,
  maxOutputTokens: positiveInt,
  message: stringOption,
  severity: oneOf(['info', 'warning', 'critical']),
  name: nonEmptyString,
} satisfies OptionShape;
