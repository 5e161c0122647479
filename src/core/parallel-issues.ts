import type { GuardrailConfigIssue } from './errors';
import type { Guardrail } from './types';

/** Why `parallel: true` cannot apply in each list that is not `guardrails({ input })`. */
export const PARALLEL_DOES_NOT_APPLY = {
  output:
    'an output guardrail judges the answer, so it cannot run alongside the call that writes it',
  toolDefinitions:
    'a tool definition is judged before the model call that reads it, so it cannot run alongside that call',
  toolOutputs:
    'a tool result in the prompt is judged before the model call that reads it, so it cannot run alongside that call',
  toolCalls:
    "a tool call is judged in the model's response, so it cannot run alongside the call that writes it",
  toolInput:
    "a tool's arguments are judged before the tool runs, and what a running tool does cannot be called back",
  toolOutput:
    "a tool's result is judged before the model reads it, so there is no call to run alongside",
} as const;

/**
 * `parallel: true` means "alongside the model call", which only an input
 * guardrail of `guardrails()` can be. Anywhere else it used to be ignored
 * (the check ran in order): one issue per parallel guardrail of `list`, at
 * `<path>[index]`, saying why it cannot apply there (`because`) and what to
 * do, so no one counts on a concurrency that does not happen. `onlyIn` names
 * where `parallel` does apply, as the reader of the message knows it.
 * Entries that are not guardrails are left to the list's own rule.
 */
export function parallelIssues(
  list: unknown,
  path: string,
  because: string,
  onlyIn = 'input guardrails',
): GuardrailConfigIssue[] {
  if (!Array.isArray(list)) return [];
  const issues: GuardrailConfigIssue[] = [];
  list.forEach((guardrail: Partial<Guardrail> | null | undefined, index) => {
    if (typeof guardrail?.check !== 'function' || guardrail.parallel !== true) return;
    issues.push({
      path: `${path}[${index}]`,
      value: guardrail.name,
      expected: `a guardrail without parallel: true ("${guardrail.name}" is parallel, which only ${onlyIn} can be: ${because}; use one without parallel here)`,
    });
  });
  return issues;
}
