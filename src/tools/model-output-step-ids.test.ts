import { generateText, stepCountIs, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { turnsModel } from '../../test/helpers/turns-model';
import type { GuardrailEvent } from '../core/types';
import { pii } from '../guards/pii/pii';
import { guardTools } from './guard-tool';

// Round 25: guardTools' `toModelOutput` judges an output it did not return
// as judged at execution (here: a call whose input is a string, which it
// cannot key its judged outputs by) outside any step, and numbered hidden
// ids on its own: the second hidden call of a step was `#hidden-id-2` in
// its execution's records and `#hidden-id-1` in those of its model output.
describe("toModelOutput's records number hidden ids as the call's step does", () => {
  it('the second hidden call of a step is #hidden-id-2 in every record', async () => {
    const events: GuardrailEvent[] = [];
    const tools = guardTools(
      {
        lookup: tool({
          inputSchema: z.string(),
          execute: async (name: string) => `found ${name}: jane@corp.io`,
        }),
      },
      { output: [pii({ action: 'redact' })], onEvent: event => events.push(event) },
    );
    const result = await generateText({
      model: turnsModel([
        {
          toolCalls: [
            { toolCallId: 'call one', toolName: 'lookup', input: 'jane' },
            { toolCallId: 'call two', toolName: 'lookup', input: 'joan' },
          ],
        },
        { text: 'done' },
      ]),
      tools,
      stopWhen: stepCountIs(2),
      prompt: 'Look them up.',
    });
    // At execution the email is redacted; the model output (the redacted
    // result) is judged again and passes.
    expect(events.map(e => [e.type, e.record.kind, e.record.toolCallId])).toEqual([
      ['guardrail.modified', 'tool_output', '#hidden-id-1'],
      ['guardrail.modified', 'tool_output', '#hidden-id-2'],
      ['guardrail.passed', 'tool_output', '#hidden-id-1'],
      ['guardrail.passed', 'tool_output', '#hidden-id-2'],
    ]);
    expect(result.steps[0]!.toolResults.map(r => r.output)).toEqual([
      'found jane: [EMAIL_ADDRESS]',
      'found joan: [EMAIL_ADDRESS]',
    ]);
  });
});
