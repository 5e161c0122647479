import type { GuardrailConfigIssue } from '../../core/errors';
import {
  functionOption,
  nonEmptyString,
  type OptionShape,
  objectOption,
  positiveInt,
  required,
  storeOption,
  stringOption,
} from '../../core/options';

/** The rules of `tokenBudget`'s options. */
export const tokenBudgetOptionShape = {
  maxInputTokens: positiveInt,
  maxOutputTokens: positiveInt,
  perSession: objectOption(
    { maxTokens: required(positiveInt, 'a positive integer'), windowMs: positiveInt },
    '{ maxTokens, windowMs? }',
  ),
  sessionId: functionOption('a function of the call context returning a session id'),
  store: storeOption,
  countTokens: functionOption('a function (text) => number'),
  reserveOutputTokens: positiveInt,
  imageTokens: positiveInt,
  bytesPerToken: positiveInt,
  referencedFileTokens: positiveInt,
  message: stringOption,
  name: nonEmptyString,
} satisfies OptionShape;

/** `tokenBudget` needs something to cap: a per-request cap or a session budget. */
export function tokenBudgetNeedsALimit(
  { maxInputTokens, maxOutputTokens, perSession }: Record<string, unknown>,
  issues: GuardrailConfigIssue[],
  prefix: string,
): void {
  if (maxInputTokens === undefined && maxOutputTokens === undefined && perSession === undefined) {
    issues.push({
      path: prefix,
      value: {},
      expected: 'at least one of maxInputTokens, maxOutputTokens, perSession',
    });
  }
}
