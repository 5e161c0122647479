import { generateText, isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pngHolding, pseudoRandomBytes } from '../../../test/helpers/binary-heads';
import { turnsModel } from '../../../test/helpers/turns-model';
import { collectToolRecords } from '../../tools/collect-tool-records';
import { guardTools } from '../../tools/guard-tool';
import { tokenBudget } from './token-budget';

/*
 * Round 26: tokenBudget in guardTools (kind `tool_output`) counted the raw
 * result's JSON text, not what the tool's own `toModelOutput` sends the
 * model: a tool returning `{ png }` (200 KB of base64) that its
 * `toModelOutput` turns into one image part was blocked at thousands of
 * tokens. It now counts the model output: texts through the tokenizer,
 * media by the file-part estimate (an image 1,600).
 */

/** A 200 KB PNG (noise: its base64 is no run the tokenizer folds). */
const PNG = Buffer.from(pngHolding(pseudoRandomBytes(150_000))).toString('base64');

/** The model calls `screenshot`, then answers "done". */
const screenshotThenDone = () =>
  turnsModel([{ toolCalls: [{ toolCallId: 'c1', toolName: 'screenshot', input: {} }] }]);

async function run(toModelOutput: (png: string) => unknown) {
  const mock = screenshotThenDone();
  const tools = guardTools(
    {
      screenshot: tool({
        inputSchema: z.object({}),
        execute: async () => ({ png: PNG }),
        toModelOutput: ({ output }) => toModelOutput((output as { png: string }).png) as never,
      }),
    },
    { output: [tokenBudget({ maxInputTokens: 5_000 })] },
  );
  const result = await generateText({
    model: mock,
    tools,
    prompt: 'Take a screenshot.',
    stopWhen: isStepCount(2),
  });
  const records = collectToolRecords(result.steps).map(r => ({
    guardrail: r.guardrail,
    kind: r.kind,
    status: r.status,
    reason: r.reason,
    tokens: (r.info as { tokens?: number } | undefined)?.tokens,
  }));
  return { result, mock, records };
}

describe('tokenBudget in guardTools counts what toModelOutput sends the model', () => {
  it('a 200 KB PNG sent as one image part passes a 5,000 cap (1,600 for the image)', async () => {
    expect(PNG.length).toBeGreaterThan(200_000);
    const { result, mock, records } = await run(png => ({
      type: 'content',
      value: [{ type: 'file', mediaType: 'image/png', data: { type: 'data', data: png } }],
    }));
    expect(result.steps[0]?.toolResults[0]?.output).toEqual({ png: PNG });
    expect(result.text).toBe('done');
    expect(mock.doGenerateCalls).toHaveLength(2);
    expect(records).toEqual([
      {
        guardrail: 'token-budget',
        kind: 'tool_output',
        status: 'passed',
        reason: undefined,
        tokens: 1_600,
      },
    ]);
  });

  it('the same base64 sent as text is still over the cap', async () => {
    const { result, records } = await run(png => ({ type: 'text', value: png }));
    const blocked = {
      guardrail: 'token-budget',
      kind: 'tool_output',
      status: 'blocked',
      // Counting stops past the cap: a 200 KB text is not tokenized whole.
      reason: 'the tool result is 5037 tokens, over the per-request cap of 5000',
      tokens: 5_037,
    };
    expect(result.steps[0]?.toolResults[0]?.output).toMatchObject({
      guardrail: { guardrail: 'token-budget', status: 'blocked', reason: blocked.reason },
    });
    expect(records).toEqual([blocked]);
  });
});
