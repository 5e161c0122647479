import { generateText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { configIssuesOf, textModel, withoutTiming } from '../../test/helpers';
import { toolOutputsIn, toolResultHistory } from '../../test/helpers/tool-history';
import { getGuardrailOutcome } from '../middleware/get-guardrail-outcome';
import { buildGuardrailsConfig } from './load-guardrails-config';

const history = toolResultHistory({ type: 'json', value: { author: 'Write to jane@corp.io' } });

describe('config: prompt_tool_outputs (the middleware judges every tool result in the prompt)', () => {
  for (const key of ['prompt_tool_outputs', 'promptToolOutputs']) {
    it(`${key}: its guardrails become the middleware's toolOutputs`, async () => {
      const { middleware, guardrails } = buildGuardrailsConfig({
        [key]: [{ type: 'pii', action: 'redact', entities: ['EMAIL_ADDRESS'] }],
      });
      expect(guardrails.prompt_tool_outputs.map(g => g.name)).toEqual(['pii']);
      expect(guardrails.tool_output).toEqual([]);
      const model = textModel('ok');
      const result = await generateText({
        model: wrapLanguageModel({ model, middleware }),
        messages: history,
      });
      expect(toolOutputsIn(model.doGenerateCalls[0]!.prompt)).toEqual([
        { type: 'json', value: { author: 'Write to [EMAIL_ADDRESS]' } },
      ]);
      expect(withoutTiming((await getGuardrailOutcome(result))?.records)).toEqual([
        {
          guardrail: 'pii',
          kind: 'tool_output',
          status: 'modified',
          info: {
            types: ['EMAIL_ADDRESS'],
            spans: [{ type: 'EMAIL_ADDRESS', start: 20, end: 32 }],
          },
          toolName: 'fetchPage',
          toolCallId: 'c1',
        },
      ]);
    });
  }

  it("tool_output / tool_result stay guardTools' lists: the middleware does not judge the prompt's tool results with them", async () => {
    const { middleware, guardrails } = buildGuardrailsConfig(`
tool_result:
  - type: pii
    action: redact
`);
    expect(guardrails.tool_output.map(g => g.name)).toEqual(['pii']);
    expect(guardrails.prompt_tool_outputs).toEqual([]);
    const model = textModel('ok');
    await generateText({ model: wrapLanguageModel({ model, middleware }), messages: history });
    expect(toolOutputsIn(model.doGenerateCalls[0]!.prompt)).toEqual([
      { type: 'json', value: { author: 'Write to jane@corp.io' } },
    ]);
  });

  it('one entry shared with tool_output through use: the same instance in both lists', () => {
    const { guardrails } = buildGuardrailsConfig(`
tool_output:
  - type: prompt-injection
    id: injection
    mode: indirect
prompt_tool_outputs:
  - use: injection
`);
    expect(guardrails.prompt_tool_outputs[0]).toBe(guardrails.tool_output[0]);
  });

  it('both spellings, a per-call guardrail, and a bad entry are issues naming the path in the file', () => {
    expect(
      configIssuesOf(() =>
        buildGuardrailsConfig({
          prompt_tool_outputs: [
            { type: 'rate-limit', limit: 5, window_ms: 1000 },
            { type: 'nope' },
          ],
          promptToolOutputs: [],
        }),
      ).map(issue => issue.path),
    ).toEqual(['promptToolOutputs', 'prompt_tool_outputs[0]', 'prompt_tool_outputs[1].type']);
    expect(
      configIssuesOf(() =>
        buildGuardrailsConfig({
          prompt_tool_outputs: [{ type: 'rate-limit', limit: 5, window_ms: 1000 }],
        }),
      ),
    ).toEqual([
      {
        path: 'prompt_tool_outputs[0]',
        value: 'rate-limit',
        expected:
          'a guardrail that judges a text ("rate-limit" judges the call, once per model call: put it in input)',
      },
    ]);
  });

  it("the loader's middleware option cannot set toolOutputs (the file does)", () => {
    expect(
      configIssuesOf(() =>
        buildGuardrailsConfig({}, { middleware: { toolOutputs: [] } as never }),
      ).map(issue => issue.path),
    ).toEqual(['options.middleware.toolOutputs']);
  });
});
