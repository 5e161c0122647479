import { generateText, stepCountIs, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readAll } from '../../test/helpers';
import { scriptedModel } from './scripted-model';

describe('scriptedModel', () => {
  it('answers from the script and streams in chunkSize pieces', async () => {
    const model = scriptedModel({
      chunkSize: 4,
      respond: ({ lastUserText }) => `echo: ${lastUserText}`,
    });
    expect((await generateText({ model, prompt: 'hi there' })).text).toBe('echo: hi there');
    const result = streamText({ model, prompt: 'hi' });
    expect(await readAll(result.textStream)).toEqual(['echo', ': hi']);
  });

  it('plays tool calls and sees the tool result on the next step', async () => {
    const model = scriptedModel({
      respond: ({ afterToolResult }) =>
        afterToolResult
          ? 'The weather is sunny.'
          : { toolCalls: [{ toolName: 'weather', input: { city: 'Oslo' } }] },
    });
    const result = await generateText({
      model,
      prompt: 'weather?',
      tools: {
        weather: tool({
          inputSchema: z.object({ city: z.string() }),
          execute: async ({ city }) => `sunny in ${city}`,
        }),
      },
      stopWhen: stepCountIs(3),
    });
    expect(result.steps.map(s => s.finishReason)).toEqual(['tool-calls', 'stop']);
    expect(result.steps[0]!.toolCalls[0]!.input).toEqual({ city: 'Oslo' });
    expect(result.text).toBe('The weather is sunny.');
  });

  it('honours the abort signal while it streams', async () => {
    const model = scriptedModel({ chunkSize: 1, delayMs: 50, respond: () => 'slow answer' });
    const controller = new AbortController();
    const { stream } = await model.doStream({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }],
      abortSignal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error('stop')), 10);
    await expect(readAll(stream)).rejects.toThrow('stop');
  });
});
