import { generateText, isStepCount, streamText, tool, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { withoutTiming } from '../../test/helpers';
import { turnsModel } from '../../test/helpers/turns-model';
import { allow, defineGuardrail } from '../core/define-guardrail';
import { guardTools } from '../tools/guard-tool';
import { getGuardrailOutcome } from './get-guardrail-outcome';
import { guardrails } from './guardrails-middleware';

/**
 * A run of two steps: the model answers with text and a tool call, the
 * guarded tool runs, the model answers again. Every kind of guardrail
 * passes, and the parallel input guardrail declared first finishes last: it
 * waits until the output guardrail has judged (a window stream judges while
 * parallel guardrails still run) or 100 ms have passed (generate and hold
 * streams judge the answer only after them).
 */
function run(mode: 'hold' | 'window' | 'passthrough') {
  let outputJudged: () => void = () => {};
  const judged = new Promise<void>(resolve => {
    outputJudged = resolve;
  });
  const passing = (name: string, options: { parallel?: boolean } = {}) =>
    defineGuardrail({ name, streamSafe: true, ...options, check: () => allow() });
  const middleware = guardrails({
    stream: { mode },
    toolDefinitions: [passing('definitions')],
    input: [
      passing('sequential-input'),
      defineGuardrail({
        name: 'parallel-slow',
        parallel: true,
        check: async () => {
          await Promise.race([judged, new Promise(resolve => setTimeout(resolve, 100))]);
          return allow();
        },
      }),
      passing('parallel-fast', { parallel: true }),
    ],
    toolOutputs: [passing('prompt-tool-outputs')],
    output: [
      defineGuardrail({
        name: 'output',
        streamSafe: true,
        check: () => {
          outputJudged();
          return allow();
        },
      }),
    ],
  });
  const tools = guardTools(
    {
      lookup: tool({
        inputSchema: z.object({ q: z.string() }),
        execute: async ({ q }) => `found ${q}`,
      }),
    },
    { input: [passing('tool-arguments')], output: [passing('tool-result')] },
  );
  const model = wrapLanguageModel({
    model: turnsModel([
      {
        text: 'Looking.',
        toolCalls: [{ toolCallId: 'c1', toolName: 'lookup', input: { q: 'x' } }],
      },
      { text: 'Here it is.' },
    ]),
    middleware,
  });
  return { model, tools, prompt: 'Find x.', stopWhen: isStepCount(3) };
}

const lookup = { toolName: 'lookup', toolCallId: 'c1' };

/** Phase order, step by step (docs/middleware.md, "Order of records"). */
const expectedRecords = [
  // Step 1, before the model call: definitions, sequential input, (tool results: none yet).
  { guardrail: 'definitions', kind: 'tool_definition', status: 'passed', toolName: 'lookup' },
  { guardrail: 'sequential-input', kind: 'input', status: 'passed' },
  // Parallel input, in declared order whichever finished first, before the answer's records.
  { guardrail: 'parallel-slow', kind: 'input', status: 'passed' },
  { guardrail: 'parallel-fast', kind: 'input', status: 'passed' },
  { guardrail: 'output', kind: 'output', status: 'passed' },
  // The tools step 1 called, which ran before step 2.
  { guardrail: 'tool-arguments', kind: 'tool_input', status: 'passed', ...lookup },
  { guardrail: 'tool-result', kind: 'tool_output', status: 'passed', ...lookup },
  // Step 2: the tool result in its prompt, then its answer (the input was judged in step 1).
  { guardrail: 'prompt-tool-outputs', kind: 'tool_output', status: 'passed', ...lookup },
  { guardrail: 'output', kind: 'output', status: 'passed' },
];

describe('order of records in an outcome', () => {
  it('generateText: phase order per step, each step followed by its tools', async () => {
    const result = await generateText(run('hold'));
    const outcome = await getGuardrailOutcome(result);
    expect(withoutTiming(outcome?.records)).toEqual(expectedRecords);
    // Each step's provider metadata holds its model call's records, in the same order.
    expect(result.steps.map(step => withoutTiming(getRecords(step.providerMetadata)))).toEqual([
      expectedRecords.slice(0, 5),
      expectedRecords.slice(7),
    ]);
  });

  it.each(['hold', 'window', 'passthrough'] as const)(
    'streamText (%s): the same records in the same order as generateText',
    async mode => {
      const result = streamText(run(mode));
      await result.consumeStream();
      const outcome = await getGuardrailOutcome(result);
      expect(withoutTiming(outcome?.records)).toEqual(expectedRecords);
    },
  );
});

function getRecords(providerMetadata: unknown) {
  return (providerMetadata as { guardrails?: { records?: Array<{ durationMs?: number }> } })
    ?.guardrails?.records;
}
