import { generateText, isStepCount, tool } from 'ai';
import { z } from 'zod';
import type { Guardrail } from '../../src';
import { collectToolRecords } from '../../src/tools/collect-tool-records';
import { guardTools } from '../../src/tools/guard-tool';
import { turnsModel } from './turns-model';

/**
 * Has a model call the tool `fetchPage` once with `input` through
 * `guardTools` with `guardrail` on input, then answer; `execute` sees the
 * input when the call runs. The tool records' status, reason and info.
 */
export async function fetchPageRecords(
  input: Record<string, unknown>,
  guardrail: Guardrail,
  execute: (input: Record<string, unknown>) => void,
) {
  const model = turnsModel([{ toolCalls: [{ toolCallId: 'c1', toolName: 'fetchPage', input }] }]);
  const result = await generateText({
    model,
    tools: guardTools(
      {
        fetchPage: tool({
          inputSchema: z.record(z.string(), z.unknown()),
          execute: async given => {
            execute(given);
            return 'page';
          },
        }),
      },
      { input: [guardrail] },
    ),
    prompt: 'Read it',
    stopWhen: isStepCount(2),
  });
  return collectToolRecords(result.steps).map(record => ({
    status: record.status,
    reason: record.reason,
    info: record.info,
  }));
}

/** The records `fetchPageRecords` gives for a URL to the private host `shown` (as records show it), blocked by `urlFilter()`. */
export function privateHostRecords(shown: string) {
  const rule = `host "${shown}" is private or local`;
  return [
    {
      status: 'blocked',
      reason: `http://${shown}: ${rule}`,
      info: { urls: [{ url: `http://${shown}`, rule }], count: 1 },
    },
  ];
}
