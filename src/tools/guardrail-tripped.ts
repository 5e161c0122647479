import type { StopCondition } from 'ai';
import { GuardrailConfigError, GuardrailTripwireError } from '../core/errors';
import { NotShown } from '../core/redact-secrets';
import { isGuardrailBlocked } from './blocked-output';

/**
 * A stop condition for `stopWhen` (of `generateText`, `streamText` or
 * `ToolLoopAgent`) that ends the tool loop after a step in which a tool
 * guardrail tripped: a tool returned a `GuardrailBlockedOutput`, or (with
 * `onTrip: 'throw'`) failed with a `GuardrailTripwireError`.
 *
 * Without it a blocked tool call does not end the loop: the model sees the
 * blocked message and may adapt. Combine it with other conditions in an array.
 *
 * @example
 * await generateText({ model, tools, prompt, stopWhen: [guardrailTripped(), isStepCount(10)] });
 */
// biome-ignore lint/suspicious/noExplicitAny: a condition usable with every tool set, like the SDK's own `isStepCount`
export function guardrailTripped(): StopCondition<any, any> {
  // `stopWhen: guardrailTripped` (not called) type-checks nowhere but in
  // JavaScript, where the SDK would call the factory as the condition and
  // take the function it returns as "stop": every loop would end after its
  // first step, silently.
  // biome-ignore lint/complexity/noArguments: a factory taking no parameters, called with some
  if (arguments.length > 0) {
    throw new GuardrailConfigError({
      path: 'stopWhen',
      value: new NotShown('guardrailTripped'),
      expected: 'guardrailTripped() (called): the stop condition is the function it returns',
    });
  }
  return ({ steps }: { steps: ReadonlyArray<{ content: ReadonlyArray<unknown> }> }) => {
    const last = steps[steps.length - 1];
    if (!last) return false;
    return last.content.some(part => {
      const { type, output, error } = part as { type?: string; output?: unknown; error?: unknown };
      return (
        (type === 'tool-result' && isGuardrailBlocked(output)) ||
        (type === 'tool-error' && GuardrailTripwireError.isInstance(error))
      );
    });
  };
}
