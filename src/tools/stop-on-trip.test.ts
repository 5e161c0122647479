import { generateText, stepCountIs, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { noDropTable, withoutTiming } from '../../test/helpers';
import { defineGuardrail } from '../core/define-guardrail';
import { getGuardrailOutcome } from '../middleware/get-guardrail-outcome';
import { scriptedModel } from '../testing/scripted-model';
import { guardTools } from './guard-tool';

function sqlTools(ran: string[], extra: { needsApproval?: boolean } = {}) {
  return {
    runSql: tool({
      description: 'Run a SQL query',
      inputSchema: z.object({ query: z.string() }),
      ...extra,
      execute: async ({ query }) => {
        ran.push(query);
        return `ok: ${query}`;
      },
    }),
  };
}

/** One step with the given queries as parallel calls (ids q0, q1, ...), then a closing answer. */
function callsThenText(queries: string[]) {
  return scriptedModel({
    respond: ({ afterToolResult }) =>
      afterToolResult
        ? 'Finished.'
        : {
            toolCalls: queries.map((query, index) => ({
              toolName: 'runSql',
              toolCallId: `q${index}`,
              input: { query },
            })),
          },
  });
}

describe('guardTools stopOnTrip', () => {
  it('returns a blocked output for the other calls of the step, which never run', async () => {
    const ran: string[] = [];
    const result = await generateText({
      model: callsThenText(['select 1', 'DROP TABLE users', 'select 2']),
      tools: guardTools(sqlTools(ran), { input: [noDropTable], stopOnTrip: true }),
      stopWhen: stepCountIs(3),
      prompt: 'Tidy up.',
    });
    expect(ran).toEqual([]);
    const outputs = result.steps[0]!.toolResults.map(r => [r.toolCallId, r.output]);
    const stopped = (id: string) => ({
      status: 'blocked',
      message: 'The "runSql" tool call was blocked by a guardrail and did not run.',
      guardrail: {
        guardrail: 'no-drop-table',
        kind: 'tool_input',
        status: 'blocked',
        reason:
          'not run: the arguments of another call of this step (q1) were blocked (stopOnTrip)',
        toolName: 'runSql',
        toolCallId: id,
        durationMs: 0,
      },
    });
    expect(outputs).toEqual([
      ['q0', stopped('q0')],
      [
        'q1',
        {
          status: 'blocked',
          message: 'Dropping tables is not allowed.',
          guardrail: expect.objectContaining({ toolCallId: 'q1', reason: 'DDL statement' }),
        },
      ],
      ['q2', stopped('q2')],
    ]);
  });

  it('leaves the other calls running without stopOnTrip', async () => {
    const ran: string[] = [];
    await generateText({
      model: callsThenText(['select 1', 'DROP TABLE users', 'select 2']),
      tools: guardTools(sqlTools(ran), { input: [noDropTable] }),
      stopWhen: stepCountIs(3),
      prompt: 'Tidy up.',
    });
    expect(ran.sort()).toEqual(['select 1', 'select 2']);
  });

  it('stops only the step that tripped: the next step runs its calls', async () => {
    const ran: string[] = [];
    let step = 0;
    const model = scriptedModel({
      respond: () => {
        step++;
        if (step === 1) {
          return { toolCalls: [{ toolName: 'runSql', input: { query: 'drop table t' } }] };
        }
        if (step === 2)
          return { toolCalls: [{ toolName: 'runSql', input: { query: 'select 3' } }] };
        return 'Finished.';
      },
    });
    await generateText({
      model,
      tools: guardTools(sqlTools(ran), { input: [noDropTable], stopOnTrip: true }),
      stopWhen: stepCountIs(4),
      prompt: 'Tidy up.',
    });
    expect(ran).toEqual(['select 3']);
  });
});

describe('guardTools with needsApproval', () => {
  it('checks arguments before approval is asked, and never offers a blocked call', async () => {
    const ran: string[] = [];
    const result = await generateText({
      model: callsThenText(['DROP TABLE users', 'select 1']),
      tools: guardTools(sqlTools(ran, { needsApproval: true }), { input: [noDropTable] }),
      stopWhen: stepCountIs(3),
      prompt: 'Tidy up.',
    });
    const parts = result.steps[0]!.content.map(part =>
      part.type === 'tool-approval-request'
        ? ['approval', part.toolCall.toolCallId]
        : part.type === 'tool-result'
          ? ['result', part.toolCallId, (part.output as { status?: string }).status]
          : [part.type],
    );
    // The blocked call got its blocked output at once; only the clean one waits for a human.
    expect(parts).toEqual([
      ['tool-call'],
      ['tool-call'],
      ['result', 'q0', 'blocked'],
      ['approval', 'q1'],
    ]);
    expect(ran).toEqual([]);
  });
});

describe('getGuardrailOutcome with guardTools only', () => {
  it('reports every tool record, passing and modifying ones too', async () => {
    const ran: string[] = [];
    const upper = defineGuardrail({
      name: 'upper',
      check: text => ({ action: 'modify', content: text.replace('select', 'SELECT') }),
    });
    const result = await generateText({
      model: callsThenText(['select 1']),
      tools: guardTools(sqlTools(ran), { input: [noDropTable, upper] }),
      stopWhen: stepCountIs(3),
      prompt: 'Count.',
    });
    expect(ran).toEqual(['SELECT 1']);
    const outcome = await getGuardrailOutcome(result);
    expect(outcome?.status).toBe('modified');
    expect(withoutTiming(outcome!.records)).toEqual([
      {
        guardrail: 'no-drop-table',
        kind: 'tool_input',
        status: 'passed',
        toolName: 'runSql',
        toolCallId: 'q0',
      },
      {
        guardrail: 'upper',
        kind: 'tool_input',
        status: 'modified',
        toolName: 'runSql',
        toolCallId: 'q0',
      },
    ]);
  });

  it('is blocked when a tool call tripped', async () => {
    const result = await generateText({
      model: callsThenText(['drop table x']),
      tools: guardTools(sqlTools([]), { input: [noDropTable] }),
      stopWhen: stepCountIs(3),
      prompt: 'Drop.',
    });
    const outcome = await getGuardrailOutcome(result);
    expect(outcome?.status).toBe('blocked');
    expect(outcome?.records.map(r => [r.guardrail, r.status])).toEqual([
      ['no-drop-table', 'blocked'],
    ]);
  });
});
