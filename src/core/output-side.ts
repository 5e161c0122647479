import type { GuardrailConfigIssue } from './errors';
import type { Guardrail } from './types';

/**
 * A guardrail whose change to what the model reads only the same instance
 * can undo in the answer: `pii({ action: 'pseudonymize' })` hands the model
 * placeholders and restores them as an output guardrail, from its own vault.
 * Internal: the middleware reads it through this property only.
 */
export interface OutputSideGuardrail extends Guardrail {
  /** What it does to the model's input that only it undoes in output (a clause). */
  undoneInOutputOnlyByItself?: string;
}

/** The part of the message every surface shares: what the guardrail does and why. */
export function needsOutputSide(guardrail: OutputSideGuardrail): string | undefined {
  const because = guardrail.undoneInOutputOnlyByItself;
  return typeof because === 'string'
    ? `the same guardrail instance in output too ("${guardrail.name}" ${because}, as an output guardrail`
    : undefined;
}

/**
 * An issue per guardrail of `list` (at `<path>[index]`) that needs its own
 * instance in `output` and is not there: without it the user silently reads
 * the model's placeholders. `todo` says what to do, in the caller's terms.
 */
export function outputSideIssues(
  list: unknown,
  path: string,
  output: unknown,
  todo: string,
): GuardrailConfigIssue[] {
  if (!Array.isArray(list)) return [];
  const outputs = Array.isArray(output) ? output : [];
  const issues: GuardrailConfigIssue[] = [];
  list.forEach((guardrail: OutputSideGuardrail | null | undefined, index) => {
    if (typeof guardrail?.check !== 'function' || outputs.includes(guardrail)) return;
    const expected = needsOutputSide(guardrail);
    if (expected === undefined) return;
    issues.push({
      path: `${path}[${index}]`,
      value: guardrail.name,
      expected: `${expected}; ${todo})`,
    });
  });
  return issues;
}
