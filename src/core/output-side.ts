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
  /**
   * True when it finds its mapping again, in another call, only through a
   * conversation id in `ctx.metadata` (`pii`'s default `conversationId`):
   * a tool wrapper's calls have their own state and get metadata only from
   * its `context` option.
   */
  conversationFromMetadata?: boolean;
}

/**
 * Issues for a tool wrapper's lists (`guardTools` / `guardTool`): a
 * guardrail that needs its own instance in the model's output (a
 * pseudonymising `pii`) is an error in `output`, where it would hand the
 * model placeholders of tool results that no tool wrapper restores; in
 * `input` (where it restores the placeholders the model writes in
 * arguments) it needs a conversation id, so `context` when it reads the id
 * from metadata.
 */
export function toolWrapperOutputSideIssues(
  { input, output, context }: Record<string, unknown>,
  issues: GuardrailConfigIssue[],
): void {
  const each = (
    list: unknown,
    visit: (guardrail: OutputSideGuardrail, because: string, index: number) => void,
  ) => {
    if (!Array.isArray(list)) return;
    list.forEach((guardrail: OutputSideGuardrail | null | undefined, index) => {
      const because = guardrail?.undoneInOutputOnlyByItself;
      if (typeof guardrail?.check === 'function' && typeof because === 'string') {
        visit(guardrail, because, index);
      }
    });
  };
  each(output, (guardrail, because, index) =>
    issues.push({
      path: `output[${index}]`,
      value: guardrail.name,
      expected: `a guardrail whose placeholders a tool wrapper can restore ("${guardrail.name}" ${because}, as an output guardrail of guardrails(), which a tool wrapper does not see); pseudonymise tool results with guardrails({ toolOutputs: [p], output: [p] }), or use action 'redact' if the user may see placeholders`,
    }),
  );
  if (context !== undefined) return;
  each(input, (guardrail, _because, index) => {
    if (guardrail.conversationFromMetadata !== true) return;
    issues.push({
      path: `input[${index}]`,
      value: guardrail.name,
      expected: `a conversation id for "${guardrail.name}" (in a tool's arguments it restores the placeholders the same instance gave the model, from the mapping kept under the conversation id of the call's metadata, and a tool call's metadata comes only from the context option); add context: () => ({ sessionId }) with the id the model calls carry, or give it a conversationId`,
    });
  });
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
