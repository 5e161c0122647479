import { generateText, stepCountIs, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { turnsModel } from '../../test/helpers/turns-model';
import { pii } from '../guards/pii/pii';
import { guardTools } from './guard-tool';

/** What the model read of the tool result in its second call. */
function toolResultSent(model: ReturnType<typeof turnsModel>): unknown {
  const prompt = model.doGenerateCalls[1]?.prompt ?? [];
  for (const message of prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) if (part.type === 'tool-result') return part.output;
  }
  return undefined;
}

async function run(execute: () => Promise<unknown>) {
  const model = turnsModel([{ toolCalls: [{ toolCallId: 'c1', toolName: 'read', input: {} }] }]);
  const result = await generateText({
    model,
    tools: guardTools(
      { read: tool({ inputSchema: z.object({}), execute }) },
      { output: [pii({ action: 'redact', entities: ['EMAIL_ADDRESS'] })] },
    ),
    stopWhen: stepCountIs(2),
    prompt: 'Go',
  });
  return { model, result };
}

describe('a tool result holding bytes', () => {
  it('judges a Uint8Array or Buffer as its UTF-8 text: pii redacts the address the model would decode', async () => {
    const encoded = new TextEncoder().encode('jane.doe@corp.io');
    for (const bytes of [encoded, Buffer.from('jane.doe@corp.io')]) {
      const { model, result } = await run(async () => bytes);
      expect(result.steps[0]?.toolResults[0]?.output).toBe('[EMAIL_ADDRESS]');
      expect(toolResultSent(model)).toEqual({ type: 'text', value: '[EMAIL_ADDRESS]' });
    }
    const { model } = await run(async () => ({ note: 'ok', file: encoded.subarray(5) }));
    expect(toolResultSent(model)).toEqual({
      type: 'json',
      value: { note: 'ok', file: '[EMAIL_ADDRESS]' },
    });
  });

  it('fails closed on bytes that are not UTF-8 text', async () => {
    const { model, result } = await run(async () => ({ file: new Uint8Array([0x6a, 0xff, 0x40]) }));
    expect(result.steps[0]?.toolResults[0]?.output).toMatchObject({
      status: 'blocked',
      guardrail: {
        guardrail: 'pii',
        kind: 'tool_output',
        status: 'error',
        reason: 'could not serialise the result as JSON (a byte array that is not UTF-8 text)',
      },
    });
    expect(JSON.stringify(toolResultSent(model))).not.toContain('106');
  });
});
