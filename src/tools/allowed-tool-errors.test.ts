import { generateText, isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { turnsModel } from '../../test/helpers/turns-model';
import { pii } from '../guards/pii/pii';
import { guardTools } from './guard-tool';

/*
 * Round 21: an error whose text passed the output guardrails was handed to
 * the app as the tool threw it (`steps[].content`'s `tool-error`,
 * `onStepFinish`, `fullStream`), with text no guardrail read: a `stack`
 * formatted before the tool cut its message, a `cause`, a field. Such an
 * error is now replaced by one carrying the judged text alone (its name
 * kept); an error that carries nothing else is still the tool's own object.
 */

const CARD = '4111 1111 1111 1111';

async function run(thrown: unknown) {
  const model = turnsModel([{ toolCalls: [{ toolCallId: 'c1', toolName: 'lookup', input: {} }] }]);
  const lookup = tool({
    inputSchema: z.object({}),
    execute: async (): Promise<string> => {
      throw thrown;
    },
  });
  const result = await generateText({
    model,
    tools: guardTools({ lookup }, { output: [pii({ action: 'redact' })] }),
    prompt: 'Look it up',
    stopWhen: isStepCount(2),
  });
  const part = result.steps[0]!.content.find(p => p.type === 'tool-error');
  const error = (part as { error: Error }).error;
  const read = model.doGenerateCalls[1]!.prompt.find(m => m.role === 'tool')!.content;
  return {
    same: error === thrown,
    name: error.name,
    message: error.message,
    keys: Reflect.ownKeys(error).filter(k => k !== 'stack' && k !== 'message'),
    stackHasCard: String(error.stack).includes(CARD),
    read: (read[0] as { output: unknown }).output,
  };
}

describe('an allowed tool error reaches the app with the judged text alone', () => {
  it('a stack formatted before the tool cut its message', async () => {
    const thrown = new TypeError(`card ${CARD} was declined`);
    void thrown.stack; // a logger read it: the stack keeps the card
    thrown.message = 'the lookup failed';
    expect(await run(thrown)).toEqual({
      same: false,
      name: 'TypeError',
      message: 'the lookup failed',
      keys: ['name'],
      stackHasCard: false,
      read: { type: 'error-text', value: 'TypeError: the lookup failed' },
    });
  });

  it('a cause, an own field, an AggregateError of errors', async () => {
    const withCause = new Error('the lookup failed', { cause: new Error(`card ${CARD}`) });
    const withField = Object.assign(new Error('the lookup failed'), { responseBody: CARD });
    const aggregate = new AggregateError([new Error(`card ${CARD}`)], 'the lookup failed');
    for (const [thrown, name] of [
      [withCause, 'Error'],
      [withField, 'Error'],
      [aggregate, 'AggregateError'],
    ] as const) {
      const seen = await run(thrown);
      expect(seen).toEqual({
        same: false,
        name,
        message: 'the lookup failed',
        keys: name === 'Error' ? [] : ['name'],
        stackHasCard: false,
        read: { type: 'error-text', value: `${name}: the lookup failed` },
      });
    }
  });

  it('an error carrying nothing else is the object the tool threw (a class naming itself too)', async () => {
    class LookupError extends Error {
      constructor(message: string) {
        super(message);
        this.name = 'LookupError';
      }
    }
    const plain = new Error('the record was not found');
    void plain.stack;
    const named = new LookupError('the record was not found');
    void named.stack;
    expect((await run(plain)).same).toBe(true);
    expect(await run(named)).toEqual({
      same: true,
      name: 'LookupError',
      message: 'the record was not found',
      keys: ['name'],
      stackHasCard: false,
      read: { type: 'error-text', value: 'LookupError: the record was not found' },
    });
  });
});
