import { generateText, isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { turnsModel } from '../../../test/helpers/turns-model';
import { collectToolRecords } from '../../tools/collect-tool-records';
import { guardTools } from '../../tools/guard-tool';
import { urlFilter } from './url-filter';

/**
 * Round 29: a tool result of a host list nearly 1 MB long (`hosts = [10.1,
 * 10.1, …]`, 199,001 items, or a YAML block sequence of 142,000) made
 * urlFilter spread every value found into one `push()` call: "Maximum call
 * stack size exceeded", recorded as the guardrail's error. Each value is
 * now pushed one by one, and found once per distinct text (a flood repeats
 * one): the record blocks and counts them all.
 */
async function resultRecords(result: string) {
  const model = turnsModel([
    { toolCalls: [{ toolCallId: 'c1', toolName: 'readConfig', input: {} }] },
    { text: 'done' },
  ]);
  const run = await generateText({
    model,
    tools: guardTools(
      { readConfig: tool({ inputSchema: z.object({}), execute: async () => result }) },
      { output: [urlFilter({ blockPrivate: true })] },
    ),
    prompt: 'Read the config.',
    stopWhen: isStepCount(2),
  });
  return collectToolRecords(run.steps).map(({ status, reason, info }) => ({
    status,
    reason,
    count: (info as { count?: number } | undefined)?.count,
  }));
}

describe('urlFilter: a tool result that floods host settings', () => {
  it.each([
    ['a TOML / flow list', `hosts = [${'10.1,'.repeat(199_000)}10.1]`, 199_001],
    ['a YAML block sequence', `hosts:\n${'- 10.1\n'.repeat(142_000)}`, 142_000],
  ])('%s of ~1 MB blocks with every value counted', async (_, result, count) => {
    expect(await resultRecords(result)).toEqual([
      { status: 'blocked', reason: 'http://10.0.0.1: host "10.0.0.1" is private or local', count },
    ]);
  });
});
