import { generateText, stepCountIs, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { turnsModel } from '../../test/helpers/turns-model';
import { defineGuardrail } from '../core/define-guardrail';
import type { GuardrailEvent } from '../core/types';
import { guardTools } from './guard-tool';

// Round 26: a module-level `guardTools` wrapper remembered the step of each
// call by its tool call id alone, for `toModelOutput` to number hidden ids
// as the call's step did. Two requests at once whose calls share an id
// (ids the model or the client writes; here two that are no id's shape)
// shared the entry: the last request's step numbered the other's, so a
// call shown `#hidden-id-1` at execution was `#hidden-id-2` in its model
// output's record (and the other request's numbering moved). Each call is
// now found by its id and its input, and shows the stand-in its own
// execution showed.

/** Passes every text, with the text as `info`: tells the two requests' records apart. */
const echo = defineGuardrail({
  name: 'echo',
  check: content => ({ action: 'allow', info: { content } }),
});

/** Runs two requests at once through one wrapper (both execute before either builds its model outputs). */
async function runBoth(first: Array<[string, string]>, second: Array<[string, string]>) {
  const events: GuardrailEvent[] = [];
  let arrived = 0;
  let release!: () => void;
  const bothExecuting = new Promise<void>(resolve => {
    release = resolve;
  });
  const calls = first.length + second.length;
  // One wrapper for the whole process, as an app defines its tools once.
  const tools = guardTools(
    {
      lookup: tool({
        inputSchema: z.string(),
        execute: async (name: string) => {
          if (++arrived === calls) release();
          await bothExecuting;
          return `found ${name}`;
        },
      }),
    },
    { output: [echo], onEvent: event => events.push(event) },
  );
  const run = (toolCalls: Array<[string, string]>) =>
    generateText({
      model: turnsModel([
        {
          toolCalls: toolCalls.map(([toolCallId, input]) => ({
            toolCallId,
            toolName: 'lookup',
            input,
          })),
        },
        { text: 'done' },
      ]),
      tools,
      stopWhen: stepCountIs(2),
      prompt: 'Look it up.',
    });
  await Promise.all([run(first), run(second)]);
  return events;
}

describe('two requests at once through one guardTools wrapper number their own hidden ids', () => {
  it('each call shows the same stand-in at execution and in its model output', async () => {
    const events = await runBoth(
      [['call one', 'jane']],
      [
        ['call zero', 'joan'],
        ['call one', 'june'],
      ],
    );
    const shown = (text: string) =>
      events
        .filter(e => (e.record.info as { content?: string }).content === text)
        .map(e => [e.type, e.record.toolCallId]);
    // Judged at execution, then its model output judged again (a string input is no key).
    expect([shown('found jane'), shown('found joan'), shown('found june')]).toEqual([
      [
        ['guardrail.passed', '#hidden-id-1'],
        ['guardrail.passed', '#hidden-id-1'],
      ],
      [
        ['guardrail.passed', '#hidden-id-1'],
        ['guardrail.passed', '#hidden-id-1'],
      ],
      [
        ['guardrail.passed', '#hidden-id-2'],
        ['guardrail.passed', '#hidden-id-2'],
      ],
    ]);
  });

  // Round 27: the same id and the same input in both requests, shown apart
  // at execution (#1 in one, #2 in the other): its model output cannot be
  // told to be either's. It numbered its own, #hidden-id-1, which in the
  // second request is another call's (call zero's) stand-in.
  it("the same id and input in both, shown apart: #hidden-id-? in the model output, never another call's number", async () => {
    const events = await runBoth(
      [['call one', 'jane']],
      [
        ['call zero', 'joan'],
        ['call one', 'jane'],
      ],
    );
    const shown = (text: string) =>
      events
        .filter(e => (e.record.info as { content?: string }).content === text)
        .map(e => e.record.toolCallId);
    expect([shown('found joan'), shown('found jane')]).toEqual([
      ['#hidden-id-1', '#hidden-id-1'],
      ['#hidden-id-1', '#hidden-id-2', '#hidden-id-?', '#hidden-id-?'],
    ]);
  });
});
