import { generateText, streamText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { getGuardrailOutcome, guardrails, pii, secrets } from '../src';
import { heldChainTexts, inChain } from '../src/core/chain-memo';
import { allow, defineGuardrail } from '../src/core/define-guardrail';
import type { Guardrail } from '../src/core/types';
import { textModel, withoutTiming } from './helpers/index';
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

/**
 * Round 31: the sequential input guardrails run one chain per guardrail and
 * text, so a user message judged by `pii` then `secrets` shared no memo:
 * `secrets` searched it again for what normalising may change. `guardInput`
 * now gives all its runs one memo, dropped when the input is judged.
 */
describe('chain memo: one per call on the input side', () => {
  /** A guardrail reading the memo as chunked-scan does; `computed` counts the computations. */
  function probes(count: number) {
    let computed = 0;
    const guardrails = Array.from({ length: count }, (_, i) =>
      defineGuardrail({
        name: `probe-${i}`,
        check(content) {
          inChain('probe-fact', content, () => ++computed);
          return allow();
        },
      }),
    );
    return { guardrails, computed: () => computed };
  }

  it('input guardrails after one another compute a fact of the user message once, and keep nothing after', async () => {
    const { guardrails: input, computed } = probes(3);
    const mock = textModel('ok');
    const result = await generateText({
      model: wrapLanguageModel({ model: mock, middleware: guardrails({ input }) }),
      prompt: longText('user'),
    });
    expect(result.text).toBe('ok');
    // Before round 31: 3 (each guardrail's run had its own memo).
    expect(computed()).toBe(1);
    expect(held()).toEqual([]);
    expect(withoutTiming((await getGuardrailOutcome(result))?.records)).toEqual([
      { guardrail: 'probe-0', kind: 'input', status: 'passed' },
      { guardrail: 'probe-1', kind: 'input', status: 'passed' },
      { guardrail: 'probe-2', kind: 'input', status: 'passed' },
    ]);
  });

  it('a user message hit by pii and secrets at once: the exact prompt sent and records', async () => {
    const token = 'ghp_R8a7Qm2Lx9Vt4Kp1Zs6Wn3Yc5Hd0Jf8Gb2Ue';
    const prompt = `${longText('mail')} write to jane.doe@example.com with token ${token} now`;
    const mock = textModel('ok');
    const result = await generateText({
      model: wrapLanguageModel({
        model: mock,
        middleware: guardrails({
          input: [pii({ action: 'redact' }), secrets({ action: 'redact' })],
        }),
      }),
      prompt,
    });
    const sent = (mock.doGenerateCalls[0]!.prompt[0]!.content as Array<{ text: string }>)[0]!.text;
    expect(sent).toBe(
      prompt.replace('jane.doe@example.com', '[EMAIL_ADDRESS]').replace(token, '[GITHUB_TOKEN]'),
    );
    const email = prompt.indexOf('jane.doe@example.com');
    // secrets judges the text pii left: its span is where the token is after pii's placeholder.
    const key = prompt.replace('jane.doe@example.com', '[EMAIL_ADDRESS]').indexOf(token);
    expect(withoutTiming((await getGuardrailOutcome(result))?.records)).toEqual([
      {
        guardrail: 'pii',
        kind: 'input',
        status: 'modified',
        info: {
          spans: [{ type: 'EMAIL_ADDRESS', start: email, end: email + 20 }],
          types: ['EMAIL_ADDRESS'],
        },
      },
      {
        guardrail: 'secrets',
        kind: 'input',
        status: 'modified',
        info: {
          spans: [{ type: 'GITHUB_TOKEN', start: key, end: key + token.length }],
          types: ['GITHUB_TOKEN'],
        },
      },
    ]);
    expect(held()).toEqual([]);
  });
});
