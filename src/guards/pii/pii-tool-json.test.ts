import { generateText, isStepCount, tool, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolOutputsIn, toolResultHistory } from '../../../test/helpers/tool-history';
import { turnsModel } from '../../../test/helpers/turns-model';
import { guardrails } from '../../middleware/guardrails-middleware';
import { guardTools } from '../../tools/guard-tool';
import { pii } from './pii';

/*
 * A tool's arguments and results are judged as canonical JSON, where a
 * line break in a string is the two characters `\n`: the `n` (or `t`, `r`)
 * glued to the value after it. A phone or card number on the line after a
 * line break was not found at all (the model read it), an e-mail address
 * after `\t` was redacted with the `t`, which left `\[EMAIL_ADDRESS]`: not
 * JSON, so the whole result was withheld, and `\u0040` hid an address's `@`.
 */
describe('pii at tool kinds reads the strings of the JSON decoded', () => {
  const notes = {
    notes: 'Call back on:\n4155552671\nCard:\n4111 1111 1111 1111\nMail:\tjane.doe@example.com',
  };
  const redacted = {
    notes: 'Call back on:\n[PHONE_NUMBER]\nCard:\n[CREDIT_CARD]\nMail:\t[EMAIL_ADDRESS]',
  };

  it('guardTools: redacts values after an escaped line break or tab in a tool result', async () => {
    const model = turnsModel([
      { toolCalls: [{ toolCallId: 'c1', toolName: 'crm', input: { id: '7' } }] },
      { text: 'Done.' },
    ]);
    const tools = guardTools(
      {
        crm: tool({
          description: 'Look up a customer',
          inputSchema: z.object({ id: z.string() }),
          execute: async () => notes,
        }),
      },
      { output: [pii()] },
    );
    const result = await generateText({
      model,
      tools,
      prompt: 'Look up 7',
      stopWhen: isStepCount(3),
    });
    expect(result.steps[0]!.toolResults.map(part => part.output)).toEqual([redacted]);
    expect(toolOutputsIn(model.doGenerateCalls[1]!.prompt)).toEqual([
      { type: 'json', value: redacted },
    ]);
  });

  it('toolOutputs: redacts them in a JSON result the client sent', async () => {
    const model = turnsModel([{ text: 'Done.' }]);
    await generateText({
      model: wrapLanguageModel({ model, middleware: guardrails({ toolOutputs: [pii()] }) }),
      messages: toolResultHistory({ type: 'json', value: notes }),
    });
    expect(toolOutputsIn(model.doGenerateCalls[0]!.prompt)).toEqual([
      { type: 'json', value: redacted },
    ]);
  });

  it('toolOutputs: finds a value spelled with \\u escapes in a text result that is JSON', async () => {
    const model = turnsModel([{ text: 'Done.' }]);
    await generateText({
      model: wrapLanguageModel({ model, middleware: guardrails({ toolOutputs: [pii()] }) }),
      messages: toolResultHistory({
        type: 'text',
        value: '{"owner":"jane.doe\\u0040example.com","ok":true}',
      }),
    });
    expect(toolOutputsIn(model.doGenerateCalls[0]!.prompt)).toEqual([
      { type: 'text', value: '{"owner":"[EMAIL_ADDRESS]","ok":true}' },
    ]);
  });

  it("inputScope 'all': redacts them in a tool call's input in the history", async () => {
    const model = turnsModel([{ text: 'Done.' }]);
    await generateText({
      model: wrapLanguageModel({
        model,
        middleware: guardrails({ input: [pii()], inputScope: 'all' }),
      }),
      messages: [
        { role: 'user', content: 'Save the note.' },
        {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'save', input: notes }],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c1',
              toolName: 'save',
              output: { type: 'text', value: 'saved' },
            },
          ],
        },
      ],
    });
    const [, assistant] = model.doGenerateCalls[0]!.prompt;
    expect(assistant).toMatchObject({
      role: 'assistant',
      content: [{ type: 'tool-call', input: redacted }],
    });
  });

  it('blocks with the types a decoded string holds', async () => {
    const verdict = await pii({ action: 'block' }).check(JSON.stringify({ n: 'x\n4155552671' }), {
      kind: 'tool_input',
      state: new Map(),
    } as never);
    expect(verdict).toMatchObject({ action: 'block', reason: 'pii: PHONE_NUMBER' });
  });

  it('reads answers and user texts as before: an answer is not JSON', async () => {
    const text = '{"n":"x\\n4155552671"}';
    expect(await pii().check(text, { kind: 'input', state: new Map() } as never)).toEqual({
      action: 'allow',
    });
  });
});
