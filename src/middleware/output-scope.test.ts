import { generateText, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { allow, defineGuardrail } from '../core/define-guardrail';
import type { GuardrailKind } from '../core/types';
import { scriptedModel } from '../testing/scripted-model';
import { guardTools } from '../tools/guard-tool';
import { getGuardrailOutcome } from './get-guardrail-outcome';
import { guardrails } from './guardrails-middleware';

/** A model that writes text beside a tool call, then answers. */
function toolLoopModel() {
  return scriptedModel({
    respond: ({ afterToolResult }) =>
      afterToolResult
        ? 'It is sunny in Paris.'
        : {
            text: 'Let me check the weather.',
            toolCalls: [{ toolName: 'weather', input: { city: 'Paris' } }],
          },
  });
}

const weather = tool({
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => `sunny in ${city}`,
});

/** An output guardrail that remembers what it judged, with the step it saw. */
function recorder(seen: Array<[GuardrailKind, number | undefined, string]>) {
  return defineGuardrail({
    name: 'recorder',
    check: (text, ctx) => {
      seen.push([ctx.kind, ctx.step, text]);
      return allow();
    },
  });
}

describe('guardrails({ outputScope })', () => {
  it("'every-step' (default) judges the text written beside a tool call too", async () => {
    const seen: Array<[GuardrailKind, number | undefined, string]> = [];
    await generateText({
      model: wrapLanguageModel({
        model: toolLoopModel(),
        middleware: guardrails({ output: [recorder(seen)] }),
      }),
      tools: { weather },
      stopWhen: stepCountIs(3),
      prompt: 'Weather in Paris?',
    });
    expect(seen).toEqual([
      ['output', 0, 'Let me check the weather.'],
      ['output', 1, 'It is sunny in Paris.'],
    ]);
  });

  it("'final' judges only the response without tool calls, in generate and hold streams", async () => {
    for (const run of ['generate', 'stream'] as const) {
      const seen: Array<[GuardrailKind, number | undefined, string]> = [];
      const model = wrapLanguageModel({
        model: toolLoopModel(),
        middleware: guardrails({ output: [recorder(seen)], outputScope: 'final' }),
      });
      const options = {
        model,
        tools: { weather },
        stopWhen: stepCountIs(3),
        prompt: 'Weather in Paris?',
      };
      const result = run === 'generate' ? await generateText(options) : streamText(options);
      expect(await result.text).toBe('It is sunny in Paris.');
      expect(seen).toEqual([['output', 1, 'It is sunny in Paris.']]);
      const outcome = await getGuardrailOutcome(result);
      expect(outcome?.records.map(r => [r.guardrail, r.status])).toEqual([['recorder', 'passed']]);
    }
  });

  it("'final' still judges every step in window streams, where text is released early", async () => {
    const seen: Array<[GuardrailKind, number | undefined, string]> = [];
    const result = streamText({
      model: wrapLanguageModel({
        model: toolLoopModel(),
        middleware: guardrails({
          output: [{ ...recorder(seen), streamSafe: true }],
          outputScope: 'final',
          stream: { mode: 'window' },
        }),
      }),
      tools: { weather },
      stopWhen: stepCountIs(3),
      prompt: 'Weather in Paris?',
    });
    await result.text;
    expect(seen.map(([kind, step]) => [kind, step])).toContainEqual(['output', 0]);
    expect(seen.map(([kind, step]) => [kind, step])).toContainEqual(['output', 1]);
  });

  it('rejects another value', () => {
    expect(() => guardrails({ outputScope: 'last' as never })).toThrow(
      "Invalid guardrail configuration at outputScope: expected 'every-step' or 'final', received a string of 4 characters (not shown)",
    );
  });
});

describe('ctx.step', () => {
  it('is the model call index for input, output, tool_input and tool_output', async () => {
    const seen: Array<[GuardrailKind, number | undefined, string]> = [];
    const result = await generateText({
      model: wrapLanguageModel({
        model: toolLoopModel(),
        middleware: guardrails({ input: [recorder(seen)], output: [recorder(seen)] }),
      }),
      tools: guardTools({ weather }, { input: [recorder(seen)], output: [recorder(seen)] }),
      stopWhen: stepCountIs(3),
      prompt: 'Weather in Paris?',
    });
    expect(result.text).toBe('It is sunny in Paris.');
    expect(seen).toEqual([
      ['input', 0, 'Weather in Paris?'],
      ['output', 0, 'Let me check the weather.'],
      ['tool_input', 0, '{"city":"Paris"}'],
      ['tool_output', 0, 'sunny in Paris'], // a string result, as the model reads it
      // The input of step 1 was judged at step 0 and is not judged again.
      ['output', 1, 'It is sunny in Paris.'],
    ]);
  });
});
