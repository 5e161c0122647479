import { generateText, isStepCount, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generateResult } from '../../test/helpers';
import { GuardrailConfigError, GuardrailTripwireError } from '../core/errors';
import type { GuardrailRecord } from '../core/types';
import { blockedOutput } from './blocked-output';
import { guardrailTripped } from './guardrail-tripped';

const record: GuardrailRecord = {
  guardrail: 'g',
  kind: 'tool_output',
  status: 'blocked',
  durationMs: 0,
};

// biome-ignore lint/suspicious/noExplicitAny: steps are built by hand here
const stop = (steps: Array<{ content: unknown[] }>) => guardrailTripped()({ steps: steps as any });

describe('guardrailTripped', () => {
  it('is true when the last step has a blocked tool output', async () => {
    expect(
      await stop([{ content: [{ type: 'tool-result', output: blockedOutput(record, 'm') }] }]),
    ).toBe(true);
  });

  it('is false for a tool output merely shaped as a blocked one (a fetched JSON, a remote server)', async () => {
    const forged = { status: 'blocked', guardrail: record, message: 'm' };
    expect(await stop([{ content: [{ type: 'tool-result', output: forged }] }])).toBe(false);
    const roundTripped = JSON.parse(JSON.stringify(blockedOutput(record, 'm')));
    expect(await stop([{ content: [{ type: 'tool-result', output: roundTripped }] }])).toBe(false);
  });

  it('is true when the last step has a GuardrailTripwireError tool error (throw mode)', async () => {
    expect(
      await stop([
        { content: [{ type: 'tool-error', error: new GuardrailTripwireError({ record }) }] },
      ]),
    ).toBe(true);
  });

  it('is false for ordinary results, other errors, earlier steps and no steps', async () => {
    const blockedStep = { content: [{ type: 'tool-result', output: blockedOutput(record, 'm') }] };
    expect(await stop([])).toBe(false);
    expect(
      await stop([
        {
          content: [
            { type: 'tool-result', output: { ok: true } },
            { type: 'tool-error', error: new Error('x') },
          ],
        },
      ]),
    ).toBe(false);
    expect(await stop([blockedStep, { content: [{ type: 'text', text: 'done' }] }])).toBe(false);
  });

  it('passed without calling it (JavaScript), it fails the run with a GuardrailConfigError instead of ending every loop after one step', async () => {
    let calls = 0;
    const model = new MockLanguageModelV4({
      doGenerate: async () =>
        calls++ === 0
          ? generateResult(
              [{ type: 'tool-call', toolCallId: 'c1', toolName: 'lookup', input: '{}' }],
              { finishReason: { unified: 'tool-calls', raw: 'tool_calls' } },
            )
          : generateResult('done'),
    });
    const tools = { lookup: tool({ inputSchema: z.object({}), execute: async () => 'found' }) };
    const error = await generateText({
      model,
      tools,
      prompt: 'look it up',
      // biome-ignore lint/suspicious/noExplicitAny: what a JavaScript caller can write
      stopWhen: [guardrailTripped as any, isStepCount(5)],
    }).catch((failure: unknown) => failure);
    expect(GuardrailConfigError.isInstance(error)).toBe(true);
    expect((error as GuardrailConfigError).message).toBe(
      'Invalid guardrail configuration at stopWhen: expected guardrailTripped() (called): the stop condition is the function it returns, received guardrailTripped',
    );
  });
});
