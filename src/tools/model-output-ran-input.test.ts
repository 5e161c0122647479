import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { generateText, isStepCount, tool, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { turnsModel } from '../../test/helpers/turns-model';
import type { Guardrail } from '../core/types';
import { pii } from '../guards/pii/pii';
import { secrets } from '../guards/secrets/secrets';
import { guardrails } from '../middleware/guardrails-middleware';
import { collectToolRecords } from './collect-tool-records';
import { guardTools } from './guard-tool';

/*
 * Round 28: a tool's own `toModelOutput` was given the model's arguments,
 * not the ones the input guardrails let the tool run with: a
 * `toModelOutput` that says what was looked up (`looked up ${input.q}`)
 * put a key the input guardrails had redacted back into the result the
 * model reads, where an output guardrail of another kind does not look
 * for it. It is now given the arguments the call ran with.
 */

const TOKEN = 'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';

async function lookedUp(output: Guardrail[], generator = false) {
  const seen: Array<[string, unknown]> = [];
  const execute = async (input: { q: string }) => {
    seen.push(['execute', input]);
    return 'found';
  };
  const lookup = tool({
    inputSchema: z.object({ q: z.string() }),
    execute: generator
      ? async function* (input: { q: string }) {
          yield await execute(input);
        }
      : execute,
    toModelOutput: ({ input, output }) => {
      seen.push(['toModelOutput', input]);
      return { type: 'text', value: `looked up ${input.q}: ${output}` };
    },
  });
  const model = turnsModel([
    { toolCalls: [{ toolCallId: 'c1', toolName: 'lookup', input: { q: `key ${TOKEN}` } }] },
  ]);
  const result = await generateText({
    model,
    tools: guardTools({ lookup }, { input: [secrets({ action: 'redact' })], output }),
    prompt: 'Look the key up.',
    stopWhen: isStepCount(2),
  });
  const prompt = model.doGenerateCalls[1]!.prompt as LanguageModelV4Prompt;
  const toolMessage = prompt.find(message => message.role === 'tool')!;
  return {
    seen,
    modelRead: (toolMessage.content[0] as { output: unknown }).output,
    records: collectToolRecords(result.steps).map(({ guardrail, kind, status, info }) => ({
      guardrail,
      kind,
      status,
      info,
    })),
  };
}

const redactedInput = {
  guardrail: 'secrets',
  kind: 'tool_input',
  status: 'modified',
  info: { types: ['GITHUB_TOKEN'], spans: [{ type: 'GITHUB_TOKEN', start: 10, end: 50 }] },
};

describe("a tool's own toModelOutput is given the arguments the call ran with", () => {
  it('guardTools without output guardrails: the redacted key, not the model one', async () => {
    for (const generator of [false, true]) {
      expect(await lookedUp([], generator)).toEqual({
        seen: [
          ['execute', { q: 'key [GITHUB_TOKEN]' }],
          ['toModelOutput', { q: 'key [GITHUB_TOKEN]' }],
        ],
        modelRead: { type: 'text', value: 'looked up key [GITHUB_TOKEN]: found' },
        records: [redactedInput],
      });
    }
  });

  it('guardTools with an output guardrail of another kind (pii): the redacted key', async () => {
    expect(await lookedUp([pii({ action: 'redact' })])).toEqual({
      seen: [
        ['execute', { q: 'key [GITHUB_TOKEN]' }],
        ['toModelOutput', { q: 'key [GITHUB_TOKEN]' }],
      ],
      modelRead: { type: 'text', value: 'looked up key [GITHUB_TOKEN]: found' },
      // pii judged the result, then the text toModelOutput made of it.
      records: [
        redactedInput,
        { guardrail: 'pii', kind: 'tool_output', status: 'passed' },
        { guardrail: 'pii', kind: 'tool_output', status: 'passed' },
      ],
    });
  });
});

/*
 * Round 29: a pseudonymising pii in guardTools' input restores the
 * placeholders the model writes, so the arguments a call runs with hold
 * values the model was only shown placeholders for. Handed to
 * toModelOutput since round 28, `sent to ${input.to}` gave the model the
 * address (the step's next prompt held `sent to jane.doe@example.com`).
 * Such a call's toModelOutput gets the model's own arguments.
 */
describe("a tool's own toModelOutput after a pseudonymising pii restored the arguments", () => {
  async function sentTo(inputOf: (p: Guardrail) => Guardrail[], generator = false) {
    const p = pii({ action: 'pseudonymize' });
    const seen: Array<[string, unknown]> = [];
    const execute = async (args: { to: string; note: string }) => {
      seen.push(['execute', args]);
      return 'sent';
    };
    const sendEmail = tool({
      inputSchema: z.object({ to: z.string(), note: z.string() }),
      execute: generator
        ? async function* (args: { to: string; note: string }) {
            yield await execute(args);
          }
        : execute,
      toModelOutput: ({ input: args, output }) => {
        seen.push(['toModelOutput', args]);
        return { type: 'text', value: `${output} to ${args.to} (${args.note})` };
      },
    });
    const model = turnsModel([
      {
        toolCalls: [
          {
            toolCallId: 'c1',
            toolName: 'sendEmail',
            input: { to: '<EMAIL_ADDRESS_1>', note: `key ${TOKEN}` },
          },
        ],
      },
    ]);
    const result = await generateText({
      model: wrapLanguageModel({ model, middleware: guardrails({ input: [p], output: [p] }) }),
      tools: guardTools(
        { sendEmail },
        {
          input: inputOf(p),
          context: () => ({ sessionId: 'conversation-1' }),
        },
      ),
      prompt: 'Write to jane.doe@example.com',
      providerOptions: { guardrails: { sessionId: 'conversation-1' } },
      stopWhen: isStepCount(2),
    });
    const prompts = model.doGenerateCalls.map(call => JSON.stringify(call.prompt));
    const prompt = model.doGenerateCalls[1]!.prompt as LanguageModelV4Prompt;
    const toolMessage = prompt.find(message => message.role === 'tool')!;
    return {
      seen,
      modelRead: (toolMessage.content[0] as { output: unknown }).output,
      addressReachedModel: prompts.some(text => text.includes('jane.doe@example.com')),
      records: collectToolRecords(result.steps).map(({ guardrail, kind, status }) => ({
        guardrail,
        kind,
        status,
      })),
    };
  }
  const written = { to: '<EMAIL_ADDRESS_1>', note: `key ${TOKEN}` };

  it('gets the arguments the model wrote: the model reads its placeholder, never the address', async () => {
    for (const generator of [false, true]) {
      expect(await sentTo(p => [p], generator)).toEqual({
        seen: [
          ['execute', { to: 'jane.doe@example.com', note: `key ${TOKEN}` }],
          ['toModelOutput', written],
        ],
        modelRead: { type: 'text', value: `sent to <EMAIL_ADDRESS_1> (key ${TOKEN})` },
        addressReachedModel: false,
        records: [{ guardrail: 'pii', kind: 'tool_input', status: 'modified' }],
      });
    }
  });

  it('with a redaction beside it, before or after the restoring pii: still the model arguments (what it wrote, nothing it was not shown)', async () => {
    for (const inputOf of [
      (p: Guardrail) => [secrets({ action: 'redact' }), p],
      (p: Guardrail) => [p, secrets({ action: 'redact' })],
    ]) {
      const { seen, modelRead, addressReachedModel } = await sentTo(inputOf);
      expect(seen).toEqual([
        ['execute', { to: 'jane.doe@example.com', note: 'key [GITHUB_TOKEN]' }],
        ['toModelOutput', written],
      ]);
      expect(modelRead).toEqual({
        type: 'text',
        value: `sent to <EMAIL_ADDRESS_1> (key ${TOKEN})`,
      });
      expect(addressReachedModel).toBe(false);
    }
  });
});
