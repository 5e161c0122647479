import { streamText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { getGuardrailOutcome, guardrails, pii, secrets } from '../src';
import { heldChainTexts, inChain } from '../src/core/chain-memo';
import { allow, defineGuardrail } from '../src/core/define-guardrail';
import type { Guardrail } from '../src/core/types';
import { turnsModel } from './helpers/turns-model';

/**
 * Round 30: the chain memo (`src/core/chain-memo.ts`) belongs to one run of
 * a chain. Until then one entry was shared by every running chain and kept
 * until none was running: with two streamed calls overlapping, the second
 * read the first's entry, and after it finished its text stayed held while
 * the first still ran.
 */

/** A guardrail whose check waits until `open()` is called, and says when it started. */
function gate(name: string) {
  let open!: () => void;
  const opened = new Promise<void>(resolve => {
    open = resolve;
  });
  let reached!: () => void;
  const started = new Promise<void>(resolve => {
    reached = resolve;
  });
  const guardrail = defineGuardrail({
    name,
    async check() {
      reached();
      await opened;
      return allow();
    },
  });
  return { guardrail, open, started };
}

/** A text long enough to be read in pieces (the memo's only user): 140,000+ characters. */
function longText(tag: string): string {
  return `${`${tag} ordinary line of text \u2013 with a dash and nothing to find\n`.repeat(2_600)}end`;
}

/** The held texts by their first word (a failure prints these, not 140 KB texts). */
const held = () => heldChainTexts().map(text => text.slice(0, text.indexOf(' ')));

/** A streamed call whose model answers `answer`, judged by `output` (one chain run, hold mode). */
function streamWith(output: Guardrail[], answer: string) {
  const model = wrapLanguageModel({
    model: turnsModel([{ text: answer }]),
    middleware: guardrails({ output }),
  });
  const result = streamText({ model, prompt: 'Write it out.' });
  return { result, text: result.text };
}

describe('chain memo: one per chain run', () => {
  it('two interleaved streamText calls: neither reads the other\u2019s entry, none outlives its run', async () => {
    const textA = longText('first');
    const textB = longText('second');
    const gateA = gate('gate-a');
    const gateB = gate('gate-b');
    const a = streamWith([pii(), secrets({ action: 'redact' }), gateA.guardrail], textA);
    await gateA.started;
    // A's run holds the fact pii and secrets shared about its text.
    expect(held()).toEqual(['first']);
    const b = streamWith([pii(), secrets({ action: 'redact' }), gateB.guardrail], textB);
    await gateB.started;
    // B has its own entry; A's is still A's (one slot for both replaced it).
    expect(held()).toEqual(['first', 'second']);
    gateB.open();
    expect(await b.text).toBe(textB);
    // B ended while A runs: B's text is no longer held, nor given to anyone.
    expect(held()).toEqual(['first']);
    let computed = 0;
    inChain('normalizationPoints', textB, () => computed++);
    expect(computed).toBe(1);
    gateA.open();
    expect(await a.text).toBe(textA);
    expect(held()).toEqual([]);
    for (const call of [a, b]) {
      const outcome = await getGuardrailOutcome(call.result);
      expect(
        outcome?.records.map(record => [record.guardrail, record.kind, record.status]),
      ).toEqual([
        ['pii', 'output', 'passed'],
        ['secrets', 'output', 'passed'],
        [call === a ? 'gate-a' : 'gate-b', 'output', 'passed'],
      ]);
    }
  });

  it('the same text in two overlapping calls: each run computes its own fact', async () => {
    const text = longText('same');
    let computed = 0;
    // Reads the memo as chunked-scan does (a fact of the text alone).
    const probe = defineGuardrail({
      name: 'probe',
      check(content) {
        inChain('probe-fact', content, () => ++computed);
        // Read twice within one run: computed once.
        inChain('probe-fact', content, () => ++computed);
        return allow();
      },
    });
    const gateA = gate('gate-a');
    const gateB = gate('gate-b');
    const a = streamWith([probe, gateA.guardrail], text);
    await gateA.started;
    expect(computed).toBe(1);
    const b = streamWith([probe, gateB.guardrail], text);
    await gateB.started;
    expect(computed).toBe(2);
    expect(held()).toEqual(['same', 'same']);
    gateA.open();
    gateB.open();
    expect([await a.text, await b.text]).toEqual([text, text]);
    expect(held()).toEqual([]);
  });
});
