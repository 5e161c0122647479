import { generateText, isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { turnsModel } from '../../../test/helpers/turns-model';
import { allow, defineGuardrail } from '../../core/define-guardrail';
import type { Guardrail } from '../../core/types';
import { memoryStore } from '../../store/memory-store';
import { collectToolRecords } from '../../tools/collect-tool-records';
import { guardTools } from '../../tools/guard-tool';
import { tokenBudget } from './token-budget';

/*
 * Round 27: tokenBudget in guardTools' `output` (kind `tool_output`) with a
 * tool that has its own `toModelOutput` was charged twice per call: once
 * for the model output when the result was judged, then again for each
 * text of the model output when guardTools judged what the model is sent;
 * a streaming tool was charged for every value it yielded, though the
 * model reads the last one only. A per-call guardrail (tokenBudget,
 * rateLimit) now runs once per call. `ctx.modelOutput` (round 26, the
 * tool's `toModelOutput` called on demand) was on every guardrail's ctx:
 * only tokenBudget is given it now.
 */

/** Characters as tokens: the counts below are the lengths of the texts counted. */
const byLength = (text: string) => text.length;
const SUMMARY = 'three rows found';

async function run(
  toModelOutput: (() => unknown) | undefined,
  execute: () => unknown = async () => ({ rows: ['a', 'b', 'c'], raw: 'x'.repeat(500) }),
  also: Guardrail[] = [],
) {
  const store = memoryStore();
  const budget = tokenBudget({
    perSession: { maxTokens: 1_000 },
    store,
    countTokens: byLength,
  });
  const tools = guardTools(
    {
      query: tool({
        inputSchema: z.object({}),
        execute: execute as never,
        ...(toModelOutput && { toModelOutput: toModelOutput as never }),
      }),
    },
    { output: [...also, budget], context: () => ({ sessionId: 's1' }) },
  );
  const result = await generateText({
    model: turnsModel([{ toolCalls: [{ toolCallId: 'c1', toolName: 'query', input: {} }] }]),
    tools,
    prompt: 'Query.',
    stopWhen: isStepCount(2),
  });
  const records = collectToolRecords(result.steps).map(r => [r.guardrail, r.status, r.info]);
  return { result, records };
}

describe('tokenBudget in guardTools charges a call with its own toModelOutput once', () => {
  it('a text model output: one record, the session charged its length once', async () => {
    const { result, records } = await run(() => ({ type: 'text', value: SUMMARY }));
    expect(result.text).toBe('done');
    expect(records).toEqual([
      [
        'token-budget',
        'passed',
        { tokens: 16, reserved: 16, sessionTokens: 16, budget: 1_000, source: 'tokenizer' },
      ],
    ]);
  });

  it('a content model output of two texts: one record, charged once', async () => {
    const { records } = await run(() => ({
      type: 'content',
      value: [
        { type: 'text', text: SUMMARY },
        { type: 'text', text: 'rows: a b c' },
      ],
    }));
    // The two texts, joined by a line break as the model output is counted.
    expect(records).toEqual([
      [
        'token-budget',
        'passed',
        { tokens: 28, reserved: 28, sessionTokens: 28, budget: 1_000, source: 'tokenizer' },
      ],
    ]);
  });

  it('a streaming tool: charged once, for the last value (the one the model reads)', async () => {
    const { result, records } = await run(undefined, async function* () {
      yield 'searching the first table';
      yield 'searching the second table';
      yield SUMMARY;
    });
    expect(result.steps[0]?.toolResults[0]?.output).toBe(SUMMARY);
    expect(records).toEqual([
      [
        'token-budget',
        'passed',
        { tokens: 16, reserved: 16, sessionTokens: 16, budget: 1_000, source: 'tokenizer' },
      ],
    ]);
  });

  it('a custom guardrail is not given ctx.modelOutput; tokenBudget is', async () => {
    const peek = defineGuardrail({
      name: 'peek',
      check: (_content, ctx) =>
        allow({ modelOutput: typeof (ctx as { modelOutput?: unknown }).modelOutput }),
    });
    const { records } = await run(() => ({ type: 'text', value: SUMMARY }), undefined, [peek]);
    expect(records).toEqual([
      // The result (its JSON), then the text the model is sent.
      ['peek', 'passed', { modelOutput: 'undefined' }],
      [
        'token-budget',
        'passed',
        { tokens: 16, reserved: 16, sessionTokens: 16, budget: 1_000, source: 'tokenizer' },
      ],
      ['peek', 'passed', { modelOutput: 'undefined' }],
    ]);
  });
});
