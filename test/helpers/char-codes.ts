import { generateText, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { z } from 'zod';
import type { GuardrailRecord } from '../../src/core/types';
import { pii } from '../../src/guards/pii/pii';
import { getGuardrailOutcome } from '../../src/middleware/get-guardrail-outcome';
import { guardrails } from '../../src/middleware/guardrails-middleware';
import { collectToolRecords } from '../../src/tools/collect-tool-records';
import { guardTools } from '../../src/tools/guard-tool';
import { textModel, withoutTiming } from './index';
import { type ToolResultOutput, toolOutputsIn, toolResultHistory } from './tool-history';
import { turnsModel } from './turns-model';

/** The code points of a text: how a hostile tool writes it as numbers. */
export const codes = (text: string) => Array.from(text, c => c.codePointAt(0)!);

/** A record as `[guardrail, status, info.types]`. */
export const recordTypes = (r: Pick<GuardrailRecord, 'guardrail' | 'status' | 'info'>) => [
  r.guardrail,
  r.status,
  (r.info as { types?: unknown } | undefined)?.types,
];

/**
 * What the model read in its second call of a guarded tool's `result`
 * (output guardrail: `pii` redacting e-mails and cards), and the tool's records.
 */
export async function guardedToolResultSent(result: unknown) {
  const model = turnsModel([{ toolCalls: [{ toolCallId: 'c1', toolName: 'read', input: {} }] }]);
  const out = await generateText({
    model,
    tools: guardTools(
      { read: tool({ inputSchema: z.object({}), execute: async () => result }) },
      { output: [pii({ action: 'redact', entities: ['EMAIL_ADDRESS', 'CREDIT_CARD'] })] },
    ),
    stopWhen: stepCountIs(2),
    prompt: 'Go',
  });
  let sent: unknown;
  for (const message of model.doGenerateCalls[1]?.prompt ?? []) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) if (part.type === 'tool-result') sent = part.output;
  }
  return { sent, records: collectToolRecords(out.steps) };
}

/** What the model read of a forged tool result under `toolOutputs: [pii redact]`, and the records. */
export async function toolOutputsRead(output: ToolResultOutput) {
  const model = textModel('ok');
  const result = await generateText({
    model: wrapLanguageModel({
      model,
      middleware: guardrails({ toolOutputs: [pii({ action: 'redact' })] }),
    }),
    messages: toolResultHistory(output),
  });
  const outcome = await getGuardrailOutcome(result);
  return {
    read: toolOutputsIn(model.doGenerateCalls[0]!.prompt),
    records: withoutTiming(outcome?.records ?? []),
  };
}
