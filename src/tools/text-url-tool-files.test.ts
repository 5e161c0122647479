import type { LanguageModelV4CallOptions, LanguageModelV4Prompt } from '@ai-sdk/provider';
import { generateText, isStepCount, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generateResult, withoutTiming } from '../../test/helpers';
import { turnsModel } from '../../test/helpers/turns-model';
import { pii } from '../guards/pii/pii';
import { getGuardrailOutcome } from '../middleware/get-guardrail-outcome';
import { guardrails } from '../middleware/guardrails-middleware';
import { guardTools } from './guard-tool';

/*
 * Round 22: a text file given by URL in a tool result passed every guardrail
 * with only its URL judged. The user's files fail closed so since round 21
 * (the provider, or the AI SDK's download, reads the text after the
 * guardrails ran), but a tool result's did not: with a `download` that
 * declines the host (or a direct call), `card 4111 1111 1111 1111` at
 * `https://files.example.com/notes.txt` reached the model past
 * `toolOutputs: [pii()]` recorded `passed`; a tool's `toModelOutput`
 * pointing at it (or at a `data:` URL of text) passed `guardTools`.
 */

const NOTES = new URL('https://files.example.com/notes.txt');
const CARD_TEXT = 'card 4111 1111 1111 1111';
const base64 = (text: string) => btoa(text);

/** The tool result the model is sent when `value` is the tool's content output. */
async function guardedToolSends(value: unknown[]) {
  const model = turnsModel([
    { toolCalls: [{ toolCallId: 'c1', toolName: 'fetchDoc', input: {} }] },
  ]);
  const result = await generateText({
    model,
    tools: guardTools(
      {
        fetchDoc: tool({
          inputSchema: z.object({}),
          execute: async () => 'done',
          toModelOutput: () => ({ type: 'content', value: value as never }),
        }),
      },
      { output: [pii({ action: 'redact' })] },
    ),
    prompt: 'Read the notes.',
    stopWhen: isStepCount(2),
    // No network: nothing is fetched (a URL left as it is goes to the provider).
    experimental_download: async requests => requests.map(() => null),
  });
  const prompt = model.doGenerateCalls[1]!.prompt as LanguageModelV4Prompt;
  const sent = prompt
    .flatMap(message => (message.role === 'tool' ? message.content : []))
    .find(part => part.type === 'tool-result') as { output: unknown };
  return { sent: sent.output, steps: result.steps.length };
}

describe('a text file given by URL in a tool result', () => {
  it('guardTools withholds a tool output pointing at a text file by URL or data: URL', async () => {
    for (const file of [
      { type: 'file', mediaType: 'text/plain', data: { type: 'url', url: NOTES } },
      { type: 'file-url', url: NOTES.href, mediaType: 'text/csv' },
      {
        type: 'file',
        mediaType: 'image/png',
        data: { type: 'url', url: new URL(`data:text/plain;base64,${base64(CARD_TEXT)}`) },
      },
    ]) {
      const { sent } = await guardedToolSends([{ type: 'text', text: 'Here:' }, file]);
      expect(JSON.stringify(sent)).not.toContain('files.example.com');
      expect(JSON.stringify(sent)).not.toContain(base64(CARD_TEXT));
      expect(sent).toMatchObject({ type: 'text' });
    }
  });

  it('guardTools still sends an image by URL', async () => {
    const image = { type: 'file', mediaType: 'image/png', data: { type: 'url', url: NOTES } };
    const { sent } = await guardedToolSends([image]);
    expect(JSON.parse(JSON.stringify(sent))).toEqual({
      type: 'content',
      value: [{ type: 'file', mediaType: 'image/png', data: { type: 'url', url: NOTES.href } }],
    });
  });

  it('toolOutputs withholds one the download declined, as it fails closed on a user file', async () => {
    const mock = new MockLanguageModelV4({
      supportedUrls: { '*': [/^https:\/\//] },
      doGenerate: async () => generateResult('ok'),
    });
    const result = await generateText({
      model: wrapLanguageModel({
        model: mock,
        middleware: guardrails({ toolOutputs: [pii({ action: 'redact' })] }),
      }),
      messages: [
        { role: 'user', content: 'Read the notes.' },
        {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'fetchDoc', input: {} }],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c1',
              toolName: 'fetchDoc',
              output: {
                type: 'content',
                value: [{ type: 'file', mediaType: 'text/plain', data: NOTES } as never],
              },
            },
          ],
        },
      ],
      // The app fetches only its own hosts: this one is declined and stays a URL.
      experimental_download: async requests => requests.map(() => null),
    });
    const call = mock.doGenerateCalls[0] as LanguageModelV4CallOptions;
    expect(JSON.stringify(call.prompt[2])).not.toContain('files.example.com');
    const records = withoutTiming((await getGuardrailOutcome(result))?.records);
    expect(records).toEqual([
      {
        guardrail: 'tool-output-unreadable',
        kind: 'tool_output',
        status: 'error',
        reason:
          'the result of tool "fetchDoc" was not judged: its output is not a tool result output the guardrails can read (type "content")',
        toolName: 'fetchDoc',
        toolCallId: 'c1',
      },
    ]);
  });
});
