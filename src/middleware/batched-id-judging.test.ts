import { generateText, type ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { idJudgingModel, lookupHistory } from '../../test/helpers/tool-history';
import type { GuardrailEvent } from '../core/types';

/*
 * Round 26: the prompt's new tool-call ids are judged in one text per
 * detector (joined by a blank line, spans mapped back), not one scan per
 * id. Same stand-ins as one by one: values only the detectors find
 * (a Shopify, Slack, Twilio or Square token, a UK NINO) at the first, last
 * and adjacent places, generated ids around them shown as written.
 */

const VALUES = [
  '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',
  'xoxe-1-aB3dE5fG7hJ9kL1mN3pQ',
  'SK1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d',
  'sq0atp-aB3dE5fG7hJ9kL1mN3pQ5r',
  'AB123456C',
] as const;

function ids(): string[] {
  const all = Array.from(
    { length: 300 },
    (_, i) => `call_${(i * 7919).toString(36)}Qx${(i * 104729).toString(36)}`,
  );
  // First, adjacent (1, 2), the middle, the last seeded (255) and one past the seeded 256.
  for (const [at, value] of [
    [0, VALUES[0]],
    [1, VALUES[1]],
    [2, VALUES[4]],
    [150, VALUES[2]],
    [255, VALUES[3]],
    [280, VALUES[4]],
  ] as const) {
    all[at] = value;
  }
  return all;
}

function prompt(toolCallIds: readonly string[]): ModelMessage[] {
  return lookupHistory(toolCallIds, i => `jane${i}@corp.io`);
}

describe("a prompt's tool-call ids judged in one text", () => {
  it('hides exactly the ids holding a value, numbered in the prompt order', async () => {
    const events: GuardrailEvent[] = [];
    const model = idJudgingModel(events);
    const toolCallIds = ids();
    await generateText({ model, messages: prompt(toolCallIds) });
    const shown = events.map(e => e.record.toolCallId).filter(id => id !== undefined);
    let hidden = 0;
    const expected = toolCallIds.map((id, i) =>
      [0, 1, 2, 150, 255].includes(i) ? `#hidden-id-${++hidden}` : id,
    );
    // The second NINO is the third's id again: the same stand-in.
    expected[280] = '#hidden-id-3';
    expect(shown).toEqual(expected);
    expect(JSON.stringify(events)).not.toMatch(/shpat_|xoxe-|SK1a2b|sq0atp|AB123456C/);
  });
});
