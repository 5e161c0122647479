import { isStepCount, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readAll } from '../../test/helpers';
import { turnsModel } from '../../test/helpers/turns-model';
import { pii } from '../guards/pii/pii';
import { guardTools } from './guard-tool';

/*
 * Where the AI SDK puts the error a guarded tool throws, and what of it
 * each place carries once the output guardrails redacted its text: the
 * `tool-error` part of `fullStream` (the Error object itself), the step's
 * `content`, the response messages (the model's `error-text`) and the UI
 * stream (`tool-output-error`'s `errorText`).
 */

const CARD = '4111 1111 1111 1111';

/** An error holding the card in its message, its (already formatted) stack, its cause and an own field. */
function cardError() {
  const error = new TypeError(`card ${CARD} was declined`, { cause: { card: CARD } });
  void error.stack; // a logger read it: the stack text is fixed with the card in it
  return Object.assign(error, { card: CARD });
}

async function run() {
  const thrown = cardError();
  const model = turnsModel([{ toolCalls: [{ toolCallId: 'c1', toolName: 'lookup', input: {} }] }]);
  const lookup = tool({
    inputSchema: z.object({}),
    execute: async (): Promise<string> => {
      throw thrown;
    },
  });
  const result = streamText({
    model,
    tools: guardTools({ lookup }, { output: [pii({ action: 'redact' })] }),
    prompt: 'Look it up',
    stopWhen: isStepCount(2),
  });
  const ui = await readAll(result.toUIMessageStream());
  const steps = await result.steps;
  const response = await result.response;
  const toolError = steps[0]!.content.find(part => part.type === 'tool-error');
  return { thrown, model, ui, steps, response, toolError };
}

describe('the tool-error part of a redacted tool error (streamText)', () => {
  it('carries the redacted text alone: no message, stack, cause or field of the original', async () => {
    const { thrown, toolError } = await run();
    expect(toolError?.type).toBe('tool-error');
    const error = (toolError as { error: unknown }).error as Error;
    expect(error).not.toBe(thrown);
    expect(error.name).toBe('TypeError');
    expect(error.message).toBe('card [CREDIT_CARD] was declined');
    expect(error.cause).toBeUndefined();
    expect(Object.keys(error)).toEqual([]);
    expect(String(error.stack)).not.toContain(CARD);
  });

  it('the model, the response messages, the steps and the UI stream read the redacted text only', async () => {
    const { model, ui, steps, response } = await run();
    const toolMessage = model.doStreamCalls[1]!.prompt.find(message => message.role === 'tool')!;
    expect(toolMessage.content).toEqual([
      {
        type: 'tool-result',
        toolCallId: 'c1',
        toolName: 'lookup',
        output: { type: 'error-text', value: 'TypeError: card [CREDIT_CARD] was declined' },
      },
    ]);
    expect(ui.filter(part => part.type === 'tool-output-error')).toEqual([
      {
        type: 'tool-output-error',
        toolCallId: 'c1',
        errorText: 'TypeError: card [CREDIT_CARD] was declined',
      },
    ]);
    const errors = steps.flatMap(step =>
      step.content.flatMap(part => (part.type === 'tool-error' ? [part.error as Error] : [])),
    );
    const everything = JSON.stringify([
      ui,
      steps,
      response.messages,
      model.doStreamCalls[1]!.prompt,
    ]);
    expect(everything).not.toContain(CARD);
    expect(errors.map(error => [error.message, String(error.stack).includes(CARD)])).toEqual([
      ['card [CREDIT_CARD] was declined', false],
    ]);
  });
});
