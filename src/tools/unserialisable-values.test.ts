import { generateText, isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serialisedWithoutTiming } from '../../test/helpers';
import { turnsModel } from '../../test/helpers/turns-model';
import { pii } from '../guards/pii/pii';
import { collectToolRecords } from './collect-tool-records';
import { guardTools } from './guard-tool';

/**
 * Round 38: a result (or arguments) that cannot be serialised fails closed
 * with an error record, whose reason quoted what was thrown: a getter's,
 * `toJSON`'s or a Proxy trap's message (`card 4111 1111 1111 1111
 * declined`) reached the record, the step's tool result and the app's UI,
 * though the card is what `pii` hides. And an error whose `message` getter
 * throws made the quoting throw: that second error (the card as its message)
 * escaped the wrapper as the tool's error and was sent to the model,
 * unjudged. Now the reason names what was thrown by its class only.
 */
const card = '4111 1111 1111 1111';

async function run(execute: () => Promise<unknown>) {
  const tools = guardTools(
    { report: tool({ inputSchema: z.object({}), execute }) },
    { output: [pii({ action: 'block' })] },
  );
  const call = { toolCallId: 'c1', toolName: 'report', input: {} };
  const model = turnsModel([{ toolCalls: [call] }, { text: 'done' }]);
  const result = await generateText({ model, tools, prompt: 'Report', stopWhen: isStepCount(2) });
  return {
    records: collectToolRecords(result.steps).map(({ guardrail, status, reason }) => [
      guardrail,
      status,
      reason,
    ]),
    // Without durationMs: a measured float may hold a hidden value's digits by chance.
    everything: serialisedWithoutTiming([
      result.steps.map(step => step.content),
      model.doGenerateCalls,
    ]),
  };
}

const notSerialised = (what: string) => [
  ['pii', 'error', `could not serialise the result as JSON (it threw ${what})`],
];

describe('guardTools: a result that cannot be serialised', () => {
  it.each<[string, () => Promise<unknown>, string]>([
    [
      'a getter that throws',
      async () => ({
        get rows(): unknown {
          throw new Error(`card ${card} declined`);
        },
      }),
      'an Error, its message not shown',
    ],
    [
      'a toJSON that throws',
      async () => ({
        toJSON() {
          throw new TypeError(`card ${card}`);
        },
      }),
      'a TypeError, its message not shown',
    ],
    [
      'a Proxy whose ownKeys trap throws',
      async () =>
        new Proxy(
          { card },
          {
            ownKeys() {
              throw new RangeError(`keys of ${card}`);
            },
          },
        ),
      'a RangeError, its message not shown',
    ],
    [
      'an error whose message getter throws',
      async () => ({
        toJSON() {
          throw Object.defineProperty(new Error(), 'message', {
            get() {
              throw new Error(card);
            },
          });
        },
      }),
      'an Error, its message not shown',
    ],
    [
      'a thrown string',
      async () => ({
        toJSON() {
          throw `card ${card}`;
        },
      }),
      'a string, not shown',
    ],
  ])('%s: an error record naming the class, the card nowhere', async (_, execute, what) => {
    const { records, everything } = await run(execute);
    expect(records).toEqual(notSerialised(what));
    expect(everything).not.toContain('4111');
  });

  it("a cycle and a BigInt too (the engine's errors, told apart by class alone)", async () => {
    const cyclic: Record<string, unknown> = { card };
    cyclic.self = cyclic;
    expect((await run(async () => cyclic)).records).toEqual(
      notSerialised('a TypeError, its message not shown'),
    );
    expect((await run(async () => ({ n: 1n }))).records).toEqual(
      notSerialised('a TypeError, its message not shown'),
    );
  });
});
