import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateText, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { configIssuesOf, generateResult, textModel, withoutTiming } from '../../test/helpers';
import { getGuardrailOutcome } from '../middleware/get-guardrail-outcome';
import { buildGuardrailsConfig, loadGuardrailsConfig } from './load-guardrails-config';

const CARD = '4111 1111 1111 1111';

function configFile(yaml: string) {
  const path = join(mkdtempSync(join(tmpdir(), 'ai-guardrails-tool-calls-')), 'guardrails.yaml');
  writeFileSync(path, yaml);
  return path;
}

/** A model that calls `save` with a card in its arguments, then answers 'Saved.'. */
function cardCallingModel() {
  let calls = 0;
  return new MockLanguageModelV4({
    doGenerate: async () =>
      calls++ === 0
        ? generateResult(
            [
              {
                type: 'tool-call',
                toolCallId: 'c1',
                toolName: 'save',
                input: JSON.stringify({ note: `card ${CARD}` }),
              },
            ],
            { finishReason: { unified: 'tool-calls', raw: 'tool_calls' } },
          )
        : generateResult('Saved.'),
  });
}

describe('config: tool_calls (the middleware judges the tool calls of the model’s response)', () => {
  for (const key of ['tool_calls', 'toolCalls']) {
    it(`${key} in a config file: a card in a model tool call is redacted before the tool runs`, async () => {
      const file = configFile(`${key}:\n  - type: pii\n    action: redact\n`);
      const { middleware, guardrails } = await loadGuardrailsConfig(file);
      expect(guardrails.tool_calls.map(g => g.name)).toEqual(['pii']);
      expect(guardrails.tool_input).toEqual([]);
      const received: unknown[] = [];
      const save = tool({
        inputSchema: z.object({ note: z.string() }),
        execute: async input => {
          received.push(input);
          return 'ok';
        },
      });
      const result = await generateText({
        model: wrapLanguageModel({ model: cardCallingModel(), middleware }),
        tools: { save },
        prompt: 'Save my card',
        stopWhen: ({ steps }) => steps.length >= 2,
      });
      expect(received).toEqual([{ note: 'card [CREDIT_CARD]' }]);
      expect(result.steps[0]!.toolCalls.map(call => call.input)).toEqual([
        { note: 'card [CREDIT_CARD]' },
      ]);
      expect(JSON.stringify(result.steps)).not.toContain(CARD);
      expect(
        withoutTiming((await getGuardrailOutcome(result.steps[0]!))?.records).map(r => [
          r.guardrail,
          r.kind,
          r.status,
          r.toolName,
        ]),
      ).toEqual([['pii', 'tool_input', 'modified', 'save']]);
    });
  }

  it("tool_input stays guardTools' list: the middleware does not judge the response's calls with it", async () => {
    const { middleware, guardrails } = buildGuardrailsConfig('tool_input:\n  - type: pii\n');
    expect(guardrails.tool_calls).toEqual([]);
    const model = textModel('ok');
    await generateText({ model: wrapLanguageModel({ model, middleware }), prompt: 'hi' });
    expect(guardrails.tool_input.map(g => g.name)).toEqual(['pii']);
  });

  it('a bad entry is a typed error naming it', () => {
    expect(
      configIssuesOf(() =>
        buildGuardrailsConfig('tool_calls:\n  - type: pii\n  - type: pii\n    action: hide\n'),
      ).map(issue => issue.path),
    ).toEqual(['tool_calls[1].action']);
  });

  it('a per-call guardrail, a parallel judge or a pseudonymising pii in tool_calls is an error naming the entry', () => {
    const issues = configIssuesOf(() =>
      buildGuardrailsConfig(
        {
          tool_calls: [
            { type: 'rate-limit', limit: 5, window_ms: 60_000 },
            { type: 'llm-judge', model: 'judge', policy: 'x', parallel: true },
            { type: 'pii', action: 'pseudonymize' },
          ],
        },
        { models: { judge: textModel('{"score":0}') } },
      ),
    );
    expect(issues.map(issue => [issue.path, issue.expected])).toEqual([
      [
        'tool_calls[0]',
        'a guardrail that judges a text ("rate-limit" judges the call, once per model call: put it in input or output)',
      ],
      ['tool_calls[1]', expect.stringContaining("a tool call is judged in the model's response")],
      ['tool_calls[2]', expect.stringContaining('use action: redact in tool_calls')],
    ]);
  });

  it('both spellings at once is an error', () => {
    expect(
      configIssuesOf(() =>
        buildGuardrailsConfig({ tool_calls: [{ type: 'pii' }], toolCalls: [{ type: 'pii' }] }),
      ).map(issue => issue.path),
    ).toEqual(['toolCalls']);
  });

  it("the loader's middleware option cannot set toolCalls: the file's tool_calls list does", () => {
    expect(
      configIssuesOf(() =>
        buildGuardrailsConfig(
          {},
          {
            middleware: { toolCalls: [] } as never,
          },
        ),
      ).map(issue => issue.path),
    ).toEqual(['options.middleware.toolCalls']);
  });
});
