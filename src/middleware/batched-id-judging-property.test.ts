import { generateText, type ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../bench/fixtures';
import { idJudgingModel, lookupHistory } from '../../test/helpers/tool-history';
import {
  HIDDEN_TOOL_CALL_ID_PREFIX,
  judgeToolCallIdsWith,
  mayShowToolCallId,
} from '../core/shown-tool-calls';
import type { GuardrailEvent } from '../core/types';

/*
 * Round 26: a prompt's new tool-call ids are judged in one text per
 * detector (joined by a blank line), where each was judged alone before.
 * The client writes its history's ids, so a neighbouring id is text an
 * attacker chooses: a placeholder word (`example`, `your_api_key_here`)
 * beside a key, or a context word beside a number, must not make the batch
 * hide LESS than one-by-one. Property, fixed seed: every id hidden judged
 * alone is hidden in the batch (the batch may hide more).
 */

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const HEX = '0123456789abcdef';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

function ids(seed: number): string[] {
  const next = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const chars = (alphabet: string, length: number) =>
    Array.from({ length }, () => pick([...alphabet])).join('');
  const digits = (length: number) => chars('0123456789', length);
  const makers: (() => string)[] = [
    // Ordinary ids.
    () => `call_${chars(ALNUM, 24)}`,
    () => `toolu_${chars(ALNUM, 22)}`,
    () => `${chars(HEX, 8)}-${chars(HEX, 4)}-4${chars(HEX, 3)}-a${chars(HEX, 3)}-${chars(HEX, 12)}`,
    () => chars(ALNUM, 9),
    // Values only a detector finds (no 9-digit run, no common key start).
    () => `shpat_${chars(HEX, 32)}`,
    () => `shpss_${chars(HEX, 32)}`,
    () => `xoxe-1-${chars(ALNUM, 20)}`,
    () => `SK${chars(HEX, 32)}`,
    () => `sq0atp-${chars(ALNUM, 22)}`,
    () => `${pick(['AB', 'CE', 'JK', 'PR'])}${digits(6)}${pick(['A', 'B', 'C', 'D'])}`,
    () => `dop_v1_${chars(HEX, 64)}`,
    () => `pypi-${chars(ALNUM, 50)}`,
    () => `${pick(['GB', 'DE', 'FR', 'NL'])}${digits(2)}${chars(UPPER, 4)}${digits(8)}`,
    () => `${digits(3)}-${digits(3)}-${digits(4)}`,
    // Values the shape check already hides (cards, IBANs, keys with a common start, e-mails, phones).
    () => `4${digits(15)}`,
    () => `GB${digits(2)}WEST${digits(14)}`,
    () => `ghp_${chars(ALNUM, 36)}`,
    () => `sk-proj-${chars(ALNUM, 40)}`,
    () => `AKIA${chars(UPPER, 16)}`,
    () => `sk_live_${chars(ALNUM, 24)}`,
    () => `jane.${chars(ALNUM, 5)}@corp.io`,
    () => `+44 20 ${digits(4)} ${digits(4)}`,
    // Placeholder-looking words, alone and beside values.
    () =>
      pick([
        'example',
        'your_api_key_here',
        'test',
        'fake',
        'xxxx',
        'XXXXXXXX',
        'placeholder',
        'sk-...',
        'dummy',
        'changeme',
        'sample',
        'redacted',
        'phone',
        'iban',
        'card',
        'ssn',
        'api_key',
        'token',
        'password',
      ]),
    () => `${pick(['example', 'test', 'fake', 'your', 'placeholder'])}_${chars(HEX, 16)}`,
    () => `shpat_${pick(['example', 'xxxxxxxx', 'test'])}${chars(HEX, 24)}`,
  ];
  const count = 2 + Math.floor(next() * 30);
  const list = Array.from({ length: count }, () => pick(makers)());
  // Now and then the same id twice (one stand-in).
  if (next() < 0.2) list.push(pick(list));
  return list;
}

/** An e-mail in each call's input, new each case (no verdict kept): one pii record per call. */
function prompt(toolCallIds: readonly string[], seed: number): ModelMessage[] {
  return lookupHistory(toolCallIds, i => `jane${seed}x${i}@corp.io`);
}

/** Empties the verdicts kept by id: a judge handed in clears them (this one finds nothing). */
function forgetVerdicts(): void {
  judgeToolCallIdsWith(() => []);
}

/** A first id the shape check hides unjudged: the first stand-in is needed at once, so every other id is judged in the batch. */
const FIRST = 'call_123456789';

describe("a prompt's tool-call ids judged in one text hide what one by one hides", () => {
  it('300 random histories: every id hidden alone is hidden in the batch (generateText records)', async () => {
    const events: GuardrailEvent[] = [];
    const model = idJudgingModel(events);
    const missed: string[] = [];
    let hiddenAlone = 0;
    let hiddenOnlyInBatch = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const toolCallIds = [FIRST, ...ids(seed)];
      forgetVerdicts();
      events.length = 0;
      await generateText({ model, messages: prompt(toolCallIds, seed) });
      const shown = events.map(e => e.record.toolCallId).filter(id => id !== undefined);
      expect(shown).toHaveLength(toolCallIds.length);
      // One by one, as before round 26: each id judged in a text of its own.
      forgetVerdicts();
      const alone = toolCallIds.map(id => !mayShowToolCallId(id));
      toolCallIds.forEach((id, i) => {
        const inBatch = shown[i]!.startsWith(HIDDEN_TOOL_CALL_ID_PREFIX);
        if (alone[i]) hiddenAlone++;
        if (alone[i] && !inBatch) missed.push(`seed ${seed}: ${id}`);
        if (!alone[i] && inBatch) hiddenOnlyInBatch++;
        // Shown, it is shown as written.
        if (!inBatch) expect(shown[i]).toBe(id);
      });
    }
    expect(missed).toEqual([]);
    // Over real values (many hidden alone), and today no id hidden only in the
    // batch either: a blank line is a hard boundary for every detector (with a
    // space between ids, 174 more hidden; with nothing, 1098 hidden alone shown).
    expect(hiddenAlone).toBeGreaterThan(1000);
    expect(hiddenOnlyInBatch).toBe(0);
  });
});
