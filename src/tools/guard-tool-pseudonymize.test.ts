import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { generateText, isStepCount, streamText, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  configIssuesOf,
  generateResult,
  notShownString,
  streamOf,
  textParts,
} from '../../test/helpers';
import { buildGuardrailsConfig } from '../config/load-guardrails-config';
import { pii } from '../guards/pii/pii';
import { guardrails } from '../middleware/guardrails-middleware';
import { guardTool, guardTools } from './guard-tool';

const toolCallFinish = { unified: 'tool-calls', raw: 'tool_calls' } as const;

/** The texts of every message of a prompt (user texts, tool results), joined. */
function promptTexts(prompt: LanguageModelV4Prompt): string {
  return JSON.stringify(prompt);
}

describe('pii pseudonymize in guardTools', () => {
  it('in output (tool results only) is a GuardrailConfigError: no tool wrapper restores the answer', () => {
    const p = pii({ action: 'pseudonymize' });
    const lookup = tool({
      inputSchema: z.object({}),
      execute: async () => 'jane.doe@example.com',
    });
    const expected =
      'a guardrail whose placeholders a tool wrapper can restore ("pii" pseudonymises: the model answers with its placeholders, such as <EMAIL_ADDRESS_1>, and only this instance turns them back into the values, as an output guardrail of guardrails(), which a tool wrapper does not see); pseudonymise tool results with guardrails({ toolOutputs: [p], output: [p] }), or use action \'redact\' if the user may see placeholders';
    expect(configIssuesOf(() => guardTools({ lookup }, { output: [p] }))).toEqual([
      { path: 'output[0]', value: notShownString('pii'), expected },
    ]);
    expect(configIssuesOf(() => guardTool(lookup, { output: [pii(), p] }))).toEqual([
      { path: 'output[1]', value: notShownString('pii'), expected },
    ]);
    // Redacting tool results needs nothing restored.
    expect(Object.keys(guardTools({ lookup }, { output: [pii({ action: 'redact' })] }))).toEqual([
      'lookup',
    ]);
  });

  it('in input without a conversation id is a GuardrailConfigError: a tool call has state of its own', () => {
    const p = pii({ action: 'pseudonymize' });
    const sendEmail = tool({
      inputSchema: z.object({ to: z.string() }),
      execute: async () => 'sent',
    });
    expect(configIssuesOf(() => guardTools({ sendEmail }, { input: [p] }))).toEqual([
      {
        path: 'input[0]',
        value: notShownString('pii'),
        expected:
          "a conversation id for \"pii\" (in a tool's arguments it restores the placeholders the same instance gave the model, from the mapping kept under the conversation id of the call's metadata, and a tool call's metadata comes only from the context option); add context: () => ({ sessionId }) with the id the model calls carry, or give it a conversationId",
      },
    ]);
    // With `context`, or a conversationId of its own, it can find the mapping.
    expect(
      Object.keys(guardTools({ sendEmail }, { input: [p], context: () => ({ sessionId: 's' }) })),
    ).toEqual(['sendEmail']);
    const own = pii({ action: 'pseudonymize', conversationId: () => 'conversation-1' });
    expect(Object.keys(guardTools({ sendEmail }, { input: [own] }))).toEqual(['sendEmail']);
  });

  it('in input restores the placeholders the same instance gave the model, with a conversation id', async () => {
    const p = pii({ action: 'pseudonymize' });
    const sent: string[] = [];
    const sendEmail = tool({
      inputSchema: z.object({ to: z.string(), body: z.string() }),
      execute: async ({ to }) => {
        sent.push(to);
        return 'sent';
      },
    });
    const prompts: string[] = [];
    const model = new MockLanguageModelV4({
      doGenerate: async ({ prompt }) => {
        prompts.push(promptTexts(prompt));
        // The model only saw the placeholder, so it writes it into the call.
        return prompts.length === 1
          ? generateResult(
              [
                {
                  type: 'tool-call',
                  toolCallId: 'c1',
                  toolName: 'sendEmail',
                  input: '{"to":"<EMAIL_ADDRESS_1>","body":"Hi"}',
                },
              ],
              { finishReason: toolCallFinish },
            )
          : generateResult('Sent to <EMAIL_ADDRESS_1>.');
      },
    });
    const result = await generateText({
      model: wrapLanguageModel({ model, middleware: guardrails({ input: [p], output: [p] }) }),
      tools: guardTools(
        { sendEmail },
        { input: [p], context: () => ({ sessionId: 'conversation-1' }) },
      ),
      prompt: 'Write to jane.doe@example.com',
      providerOptions: { guardrails: { sessionId: 'conversation-1' } },
      stopWhen: isStepCount(3),
    });
    expect(prompts.every(text => !text.includes('jane.doe@example.com'))).toBe(true);
    expect(prompts[0]).toContain('Write to <EMAIL_ADDRESS_1>');
    expect(sent).toEqual(['jane.doe@example.com']);
    expect(result.text).toBe('Sent to jane.doe@example.com.');
  });
});

/**
 * Two turns of one conversation: the first carries jane's address (the vault
 * gives it <EMAIL_ADDRESS_1>); the second is `secondPrompt`, after which the
 * model calls sendEmail with `<EMAIL_ADDRESS_1>`. Returns what the tool got.
 */
async function toolArgumentsOfSecondTurn(
  p: ReturnType<typeof pii>,
  secondPrompt: string,
  streamed = false,
): Promise<string[]> {
  const sent: string[] = [];
  const sendEmail = tool({
    inputSchema: z.object({ to: z.string() }),
    execute: async ({ to }) => {
      sent.push(to);
      return 'sent';
    },
  });
  const callsTool = (prompt: LanguageModelV4Prompt) =>
    promptTexts(prompt).includes('Write to') && !promptTexts(prompt).includes('"tool"');
  const call = {
    type: 'tool-call',
    toolCallId: 'c1',
    toolName: 'sendEmail',
    input: '{"to":"<EMAIL_ADDRESS_1>"}',
  } as const;
  const model = new MockLanguageModelV4({
    doGenerate: async ({ prompt }) =>
      callsTool(prompt)
        ? generateResult([call], { finishReason: toolCallFinish })
        : generateResult('Done.'),
    doStream: async ({ prompt }) =>
      callsTool(prompt)
        ? streamOf([call], { finishReason: toolCallFinish })
        : streamOf(textParts(['Done.'])),
  });
  const options = (prompt: string) => ({
    model: wrapLanguageModel({ model, middleware: guardrails({ input: [p], output: [p] }) }),
    tools: guardTools({ sendEmail }, { input: [p], context: () => ({ sessionId: 'chat-1' }) }),
    prompt,
    providerOptions: { guardrails: { sessionId: 'chat-1' } },
    stopWhen: isStepCount(3),
  });
  const run = async (prompt: string) => {
    if (streamed) await streamText(options(prompt)).consumeStream();
    else await generateText(options(prompt));
  };
  await run('My address is jane.doe@example.com, remember it.');
  await run(secondPrompt);
  return sent;
}

describe('pii pseudonymize in guardTools: what a tool call may restore', () => {
  it("a placeholder whose value the call's messages do not carry stays as written", async () => {
    // The client wrote the placeholder (a history that dropped the value):
    // the vault would hand the tool the address of the first turn.
    const sent = await toolArgumentsOfSecondTurn(
      pii({ action: 'pseudonymize' }),
      'Write to <EMAIL_ADDRESS_1>',
    );
    expect(sent).toEqual(['<EMAIL_ADDRESS_1>']);
  });

  it('a placeholder whose value the messages carry is restored', async () => {
    const sent = await toolArgumentsOfSecondTurn(
      pii({ action: 'pseudonymize' }),
      'Write to jane.doe@example.com',
    );
    expect(sent).toEqual(['jane.doe@example.com']);
  });

  it('streamText: the same, a client-written placeholder stays and a value in the messages is restored', async () => {
    const p = pii({ action: 'pseudonymize' });
    expect(await toolArgumentsOfSecondTurn(p, 'Write to <EMAIL_ADDRESS_1>', true)).toEqual([
      '<EMAIL_ADDRESS_1>',
    ]);
    const q = pii({ action: 'pseudonymize' });
    expect(await toolArgumentsOfSecondTurn(q, 'Write to jane.doe@example.com', true)).toEqual([
      'jane.doe@example.com',
    ]);
  });

  it("toolRestore: 'vault' restores any placeholder of the conversation's vault (the app opts in)", async () => {
    const sent = await toolArgumentsOfSecondTurn(
      pii({ action: 'pseudonymize', toolRestore: 'vault' }),
      'Write to <EMAIL_ADDRESS_1>',
    );
    expect(sent).toEqual(['jane.doe@example.com']);
  });
});

describe('pii pseudonymize in a config file', () => {
  it('in tool_result is an error naming the entry, at load', () => {
    const issues = configIssuesOf(() =>
      buildGuardrailsConfig({
        tool_result: [{ type: 'pii', action: 'pseudonymize' }],
      }),
    );
    expect(issues).toEqual([
      {
        path: 'tool_result[0]',
        value: 'pii',
        expected:
          'a guardrail whose placeholders a tool wrapper can restore ("pii" pseudonymises: the model answers with its placeholders, such as <EMAIL_ADDRESS_1>, and only this instance turns them back into the values, as an output guardrail of guardrails(), which a tool wrapper does not see); pseudonymise tool results with prompt_tool_outputs and { use: <id> } in output, or use action \'redact\' if the user may see placeholders',
      },
    ]);
  });
});
