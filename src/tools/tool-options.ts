import type { GuardrailConfigIssue } from '../core/errors';
import {
  anyOf,
  booleanOption,
  functionOption,
  guardrailList,
  nonEmptyListOf,
  nonEmptyString,
  type OptionShape,
  oneOf,
  stringOption,
} from '../core/options';
import { toolWrapperOutputSideIssues } from '../core/output-side';
import { PARALLEL_DOES_NOT_APPLY, parallelIssues } from '../core/parallel-issues';

/** The rules of the options `guardTool` and `guardTools` share. */
const sharedShape = {
  input: guardrailList,
  output: guardrailList,
  onTrip: oneOf(['return', 'throw']),
  blockedMessage: anyOf([stringOption, functionOption()], 'a string or a function of the record'),
  onEvent: functionOption('a function receiving each guardrail event'),
  context: functionOption('a function of the tool call'),
  stopOnTrip: booleanOption,
  serverId: nonEmptyString,
  serverGroup: nonEmptyString,
  unreadableFiles: oneOf(['pass', 'block']),
  historyApprovals: oneOf(['verify', 'trust']),
} satisfies OptionShape;

/**
 * The rules of `guardTool`'s options: every option it accepts and nothing
 * else. A new option of `GuardToolOptions` needs its rule here.
 */
export const guardToolOptionShape = {
  ...sharedShape,
  name: nonEmptyString,
} satisfies OptionShape;

/** The rules of `guardTools`'s options (each `only` name is checked against the set by `guardTools`). */
export const guardToolsOptionShape = {
  ...sharedShape,
  only: nonEmptyListOf(
    nonEmptyString,
    'an array of strings',
    'at least one tool name (with none, guardTools guards no tool)',
  ),
} satisfies OptionShape;

/**
 * `parallel: true` only applies to `guardrails({ input })` (alongside the
 * model call); a tool wrapper ran such a guardrail in order and said nothing.
 * Now an issue per entry of `input` and `output`. Also the issues of a
 * pseudonymising guardrail there (`toolWrapperOutputSideIssues`).
 */
export function parallelToolIssues(
  options: Record<string, unknown>,
  issues: GuardrailConfigIssue[],
): void {
  const { input, output } = options;
  const onlyIn = 'input guardrails of guardrails()';
  issues.push(
    ...parallelIssues(input, 'input', PARALLEL_DOES_NOT_APPLY.toolInput, onlyIn),
    ...parallelIssues(output, 'output', PARALLEL_DOES_NOT_APPLY.toolOutput, onlyIn),
  );
  toolWrapperOutputSideIssues(options, issues);
}
