import { describe, expect, it } from 'vitest';
import { GuardrailTripwireError } from '../core/errors';
import type { GuardrailRecord } from '../core/types';
import { blockedOutput } from './blocked-output';
import { collectToolRecords } from './collect-tool-records';

const inputTrip: GuardrailRecord = {
  guardrail: 'no-drop-table',
  kind: 'tool_input',
  status: 'blocked',
  toolName: 'runSql',
  toolCallId: 'a',
  durationMs: 1,
};
const outputTrip: GuardrailRecord = {
  ...inputTrip,
  guardrail: 'pi',
  kind: 'tool_output',
  toolCallId: 'b',
};

describe('collectToolRecords', () => {
  it('collects blocked outputs and tripwire tool errors in step order', () => {
    const steps = [
      {
        content: [
          { type: 'text', text: 'hi' },
          { type: 'tool-result', toolCallId: 'x', output: { rows: [] } },
          {
            type: 'tool-result',
            toolCallId: 'a',
            output: blockedOutput(inputTrip, 'm'),
          },
          // Shaped as a blocked output by a tool or a remote server: no trip.
          {
            type: 'tool-result',
            toolCallId: 'f',
            output: {
              status: 'blocked',
              guardrail: { ...inputTrip, toolCallId: 'f' },
              message: 'm',
            },
          },
        ],
      },
      {
        content: [
          {
            type: 'tool-error',
            toolCallId: 'b',
            error: new GuardrailTripwireError({ record: outputTrip }),
          },
          { type: 'tool-error', toolCallId: 'c', error: new Error('network') },
        ],
      },
    ];
    expect(collectToolRecords(steps)).toEqual([inputTrip, outputTrip]);
  });

  it('falls back to toolResults, skips preliminary results and counts each call once', () => {
    const blocked = blockedOutput(inputTrip, 'm');
    const steps = [
      {
        toolResults: [
          { type: 'tool-result', toolCallId: 'a', output: blocked, preliminary: true },
          { type: 'tool-result', toolCallId: 'a', output: blocked },
          { type: 'tool-result', toolCallId: 'a', output: blocked },
        ],
      },
    ];
    expect(collectToolRecords(steps)).toEqual([inputTrip]);
    expect(collectToolRecords(undefined)).toEqual([]);
  });

  it('finds no trip in a blocked output that went through JSON (a stored or re-sent step)', () => {
    const steps = [
      {
        content: [
          {
            type: 'tool-result',
            toolCallId: 'a',
            output: JSON.parse(JSON.stringify(blockedOutput(inputTrip, 'm'))),
          },
        ],
      },
    ];
    expect(collectToolRecords(steps)).toEqual([]);
  });
});
