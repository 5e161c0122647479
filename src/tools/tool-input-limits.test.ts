import { generateText, stepCountIs, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { noDropTable, withoutTiming } from '../../test/helpers';
import { turnsModel } from '../../test/helpers/turns-model';
import { DEFAULT_MAX_TOOL_OUTPUT_LENGTH } from '../middleware/tool-outputs';
import { collectToolRecords } from './collect-tool-records';
import { guardTools } from './guard-tool';

function saveTools(saved: number[]) {
  return guardTools(
    {
      save: tool({
        description: 'Save notes',
        inputSchema: z.object({ notes: z.string() }),
        execute: async ({ notes }) => {
          saved.push(notes.length);
          return 'saved';
        },
      }),
    },
    { input: [noDropTable] },
  );
}

/** generateText where the model calls the guarded `save` tool once with `input`. */
function saveCall(saved: number[], input: { notes: string }) {
  return generateText({
    model: turnsModel([{ toolCalls: [{ toolCallId: 'c1', toolName: 'save', input }] }]),
    tools: saveTools(saved),
    prompt: 'Save it.',
    stopWhen: stepCountIs(2),
  });
}

/** Arguments whose canonical JSON, `{"notes":"…"}`, is `length` characters long. */
function notesOfJsonLength(length: number) {
  return { notes: 'x'.repeat(length - '{"notes":""}'.length) };
}

describe('guardTools: arguments have the length limit of a tool result', () => {
  it('does not run a call whose arguments are longer than 1,000,000 characters, with an error record', async () => {
    const saved: number[] = [];
    const result = await saveCall(saved, notesOfJsonLength(DEFAULT_MAX_TOOL_OUTPUT_LENGTH + 1));
    // Before: judged whole (10 MB in ~0.9 s with pii + secrets) and run.
    expect(saved).toEqual([]);
    expect(withoutTiming(collectToolRecords(result.steps))).toEqual([
      {
        guardrail: 'tool-input-unreadable',
        kind: 'tool_input',
        status: 'error',
        reason:
          'the arguments of tool "save" were not judged: the text is longer than 1000000 characters',
        toolName: 'save',
        toolCallId: 'c1',
      },
    ]);
    const toolResult = result.steps[0]!.content.find(part => part.type === 'tool-result');
    expect((toolResult?.output as { message?: string } | undefined)?.message).toBe(
      'The "save" tool call was blocked by a guardrail and did not run.',
    );
  });

  it('judges and runs arguments of exactly 1,000,000 characters', async () => {
    const saved: number[] = [];
    const result = await saveCall(saved, notesOfJsonLength(DEFAULT_MAX_TOOL_OUTPUT_LENGTH));
    expect(saved).toEqual([DEFAULT_MAX_TOOL_OUTPUT_LENGTH - 12]);
    expect(collectToolRecords(result.steps).map(r => [r.guardrail, r.status])).toEqual([
      ['no-drop-table', 'passed'],
    ]);
  });

  it('counts the arguments as written out: escapes that make them longer are refused', async () => {
    const saved: number[] = [];
    // 600,000 characters walked (under the limit); 1,200,012 written out (\n and \" are two each).
    const notes = '\n'.repeat(400_000) + '"'.repeat(200_000);
    const result = await saveCall(saved, { notes });
    expect(saved).toEqual([]);
    expect(collectToolRecords(result.steps).map(r => [r.guardrail, r.status])).toEqual([
      ['tool-input-unreadable', 'error'],
    ]);
  });
});
