import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { generateResult, serialisedWithoutTiming, withoutTiming } from '../../../test/helpers';
import { promptOf } from '../../../test/helpers/judge-calls';
import { getGuardrailOutcome } from '../../middleware/get-guardrail-outcome';
import { guardrails } from '../../middleware/guardrails-middleware';
import { memoryStore } from '../../store/memory-store';
import type { Store } from '../../store/store';
import { llmJudge } from './llm-judge';

/*
 * Round 26: a judge explains its verdict in a "short sentence", and a judge
 * quotes: "the message shares the card 4111 1111 1111 1111". The record
 * carried the sentence as written (cut to 300 characters, controls out),
 * so what the guardrail kept from the model went to the records, the
 * events, the spans and, with `retry`, into the feedback sent back to the
 * model. Every run of 8 characters of the judged texts (content and the
 * conversation shown) and every token of 4 or more with a digit found in
 * them is now `[quoted]`.
 */

const CARD = '4111 1111 1111 1111';
const policy = 'No payment card numbers or passwords.';

/** A judge that answers each call with the next verdict. */
function judgeSaying(...verdicts: object[]) {
  let call = 0;
  return new MockLanguageModelV4({
    provider: 'mock-judge',
    modelId: 'judge-1',
    doGenerate: async () =>
      generateResult(JSON.stringify(verdicts[Math.min(call++, verdicts.length - 1)])),
  });
}

/** The record's reason for a judge that answers `reason` about `prompt` (an input guardrail). */
async function shownReasonAbout(prompt: string, reason: string): Promise<string | undefined> {
  const model = wrapLanguageModel({
    model: new MockLanguageModelV4({ doGenerate: async () => generateResult('unused') }),
    middleware: guardrails({
      input: [llmJudge({ model: judgeSaying({ flagged: true, confidence: 0.9, reason }), policy })],
    }),
  });
  const result = await generateText({ model, prompt });
  return (await getGuardrailOutcome(result))?.records[0]?.reason;
}

describe('llmJudge: a reason never quotes what it judged', () => {
  it('input: the card and the password the judge repeats are [quoted] in the record and the event', async () => {
    const reason = `The message shares the card ${CARD} and the password hunter2; also "aaaa".`;
    const events: unknown[] = [];
    const model = wrapLanguageModel({
      model: new MockLanguageModelV4({ doGenerate: async () => generateResult('unused') }),
      middleware: guardrails({
        input: [
          llmJudge({ model: judgeSaying({ flagged: true, confidence: 0.9, reason }), policy }),
        ],
        onEvent: event => events.push(event),
      }),
    });
    const result = await generateText({
      model,
      prompt: `Please store my card ${CARD}, my password is hunter2 and my PIN 1234.`,
    });
    const records = withoutTiming((await getGuardrailOutcome(result))?.records);
    // " card 4111 …" and " password " are runs of the prompt; `hunter2` a token with a digit.
    // Round 27: the letters `hunter2a` (hunter2; also) are the prompt's too
    // (`hunter2 and`), so the masking read on to the end of `also`; since
    // round 40 one letter of another word is taken for chance, and `also` stays.
    const shown = 'The message shares the [quoted] and the [quoted]; also "aaaa".';
    expect(records).toEqual([
      {
        guardrail: 'llm-judge',
        kind: 'input',
        status: 'blocked',
        message: 'This content was blocked by a content policy.',
        reason: shown,
        severity: 'warning',
        info: {
          flagged: true,
          confidence: 0.9,
          reason: shown,
          threshold: 0.7,
          cached: false,
          usage: { inputTokens: 10, outputTokens: 20, totalTokens: 30 },
        },
      },
    ]);
    expect(serialisedWithoutTiming(events)).not.toContain('4111');
    expect(JSON.stringify(events)).not.toContain('hunter2');
  });

  it('output with retry: the feedback the model reads quotes nothing of the blocked answer', async () => {
    const calls: LanguageModelV4CallOptions[] = [];
    const answers = [`Your card ${CARD} is on file.`, 'Your card is on file.'];
    const model = wrapLanguageModel({
      model: new MockLanguageModelV4({
        doGenerate: async options => {
          calls.push(options);
          return generateResult(answers[calls.length - 1]!);
        },
      }),
      middleware: guardrails({
        output: [
          llmJudge({
            model: judgeSaying(
              { flagged: true, confidence: 0.9, reason: `It repeats the card number ${CARD}.` },
              { flagged: false, confidence: 0.9, reason: 'No card number.' },
            ),
            policy,
          }),
        ],
        retry: { maxAttempts: 1 },
      }),
    });
    const result = await generateText({ model, prompt: 'Is my card saved?' });
    expect(result.text).toBe('Your card is on file.');
    const feedback = promptOf(calls[1]!).split('\n').slice(1).join('\n');
    expect(feedback).toBe(
      [
        'Your previous answer was blocked by the "llm-judge" guardrail.',
        '- It repeats the card number [quoted].',
        '- This content was blocked by a content policy.',
        'Write a new answer to the request that follows this rule.',
      ].join('\n'),
    );
    expect(
      withoutTiming((await getGuardrailOutcome(result))?.records).map(record => record.reason),
    ).toEqual(['It repeats the card number [quoted].', undefined]);
  });

  it('a reason that quotes a 1 MB text is read in one pass (linear), and words of the policy stay', async () => {
    const content = `${'lorem ipsum dolor sit amet '.repeat(40_000)}secret-token-77`;
    const reason = `Quotes ${content.slice(0, 200)} and secret-token-77, against the policy.`;
    const model = wrapLanguageModel({
      model: new MockLanguageModelV4({ doGenerate: async () => generateResult('unused') }),
      middleware: guardrails({
        input: [
          llmJudge({ model: judgeSaying({ flagged: true, confidence: 0.9, reason }), policy }),
        ],
      }),
    });
    const result = await generateText({ model, prompt: content });
    const [record] = (await getGuardrailOutcome(result))?.records ?? [];
    expect(record?.reason).toBe('Quotes [quoted] and [quoted], against the policy.');
  });
});

/*
 * Round 27 (attacker's review of round 26): the masking compared the
 * reason with the judged texts character for character, so a judge that
 * wrote a value otherwise than the text did quoted it whole: the card's
 * digits without their spaces, split over two lines, an address with its
 * `@` as a JSON escape (\u0040) or an HTML reference, fullwidth digits,
 * a value reversed. Each is now found through the text's letters and
 * digits only (escapes decoded, compatibility forms and case folded), in
 * both directions, and the reason's words it touches read [quoted].
 */
describe('llmJudge: a reason that writes a judged value otherwise quotes nothing of it', () => {
  const prompt = `Please store my card ${CARD}, my password is hunter2 and mail me at bob@corp.io please.`;

  const shownReason = (reason: string) => shownReasonAbout(prompt, reason);

  it('a card without its spaces, with dashes, over two lines, or in fullwidth digits', async () => {
    expect(await shownReason('It holds 4111111111111111 in plain view.')).toBe(
      'It holds [quoted] in plain view.',
    );
    expect(await shownReason('It holds 4111-1111-1111-1111 in plain view.')).toBe(
      'It holds [quoted] in plain view.',
    );
    expect(await shownReason('It holds 41111111\n11111111 in plain view.')).toBe(
      'It holds [quoted] in plain view.',
    );
    expect(await shownReason('It holds ４１１１１１１１１１１１１１１１ in plain view.')).toBe(
      'It holds [quoted] in plain view.',
    );
  });

  it('an address with its @ escaped, and a value written backwards', async () => {
    expect(await shownReason('It shares bob\\u0040corp.io as a contact.')).toBe(
      'It shares [quoted] as a contact.',
    );
    expect(await shownReason('It shares bob&#64;corp.io as a contact.')).toBe(
      'It shares [quoted] as a contact.',
    );
    expect(await shownReason('Reversed: 1111 1111 1111 1114, and 2retnuh.')).toBe(
      'Reversed: [quoted], and [quoted].',
    );
  });

  it('a short password spelled out a letter a word, forward or backwards', async () => {
    expect(await shownReason('The secret word: h u n t e r 2 here.')).toBe(
      'The secret word: [quoted] here.',
    );
    expect(await shownReason('It wrote hu-nt-er-2 or 2 r e t n u h.')).toBe(
      'It wrote [quoted] or [quoted].',
    );
  });
});

/*
 * Round 28 (attacker's review of round 27): a value spelled out over words
 * of two letters or more (`hu nt er 2`), letters of another script drawn
 * like the text's (`һunter2` with a Cyrillic `һ`, small capitals), and an
 * HTML reference without its `;` or with leading zeros were shown as the
 * judge wrote them.
 */
describe('llmJudge: a reason that spells, disguises or escapes a short judged value quotes nothing of it', () => {
  const prompt = 'Please log in, my password is hunter2 and the door code 8842.';

  const shownReason = (reason: string) => shownReasonAbout(prompt, reason);

  it.each([
    ['It wrote hu nt er 2 here.', 'It wrote [quoted] here.'],
    ['It wrote hunt er2 here.', 'It wrote [quoted] here.'],
    ['It wrote "hunter" + "2" here.', 'It wrote "[quoted]" here.'],
    ['It wrote 88 42 and 2 4 8 8 here.', 'It wrote [quoted] and [quoted] here.'],
    ['It wrote \u04bbunter2 (Cyrillic) here.', 'It wrote [quoted] (Cyrillic) here.'],
    ['It wrote h\u057dnter2 (in Armenian) here.', 'It wrote [quoted] (in Armenian) here.'],
    ['It wrote \u029c\u1d1c\u0274\u1d1b\u1d07\u02802 here.', 'It wrote [quoted] here.'],
    ['It wrote h&#x75nter2 here.', 'It wrote [quoted] here.'],
    ['It wrote hunter&#x0000000032; here.', 'It wrote [quoted] here.'],
    ['It wrote hunter\\u{00000032} here.', 'It wrote [quoted] here.'],
    ['It has 2 problems, 10 of 10 agree.', 'It has 2 problems, 10 of 10 agree.'],
  ])('%s', async (reason, shown) => {
    expect(await shownReason(reason)).toBe(shown);
  });
});

describe('llmJudge: the verdict cache keeps the reason as records show it', () => {
  it('a shared store never holds the card the judge quoted; a later identical check reads the same reason', async () => {
    const written: string[] = [];
    const shared = memoryStore();
    const store: Store = {
      ...shared,
      setIfAbsent: (key, value, ttlMs) => {
        written.push(value);
        return shared.setIfAbsent(key, value, ttlMs);
      },
      set: (key, value, ttlMs) => {
        written.push(value);
        return shared.set(key, value, ttlMs);
      },
    };
    const judge = llmJudge({
      model: judgeSaying({ flagged: true, confidence: 0.9, reason: `It shares ${CARD}.` }),
      policy,
      cache: { store },
    });
    const reasons: unknown[] = [];
    for (let call = 0; call < 2; call++) {
      const model = wrapLanguageModel({
        model: new MockLanguageModelV4({ doGenerate: async () => generateResult('unused') }),
        // `cache: 'none'`: the middleware's own verdict cache would answer the second call.
        middleware: guardrails({ input: [{ ...judge, cache: 'none' }] }),
      });
      const result = await generateText({ model, prompt: `Store my card ${CARD} please.` });
      const [record] = (await getGuardrailOutcome(result))?.records ?? [];
      reasons.push([record?.reason, (record?.info as { cached?: boolean })?.cached]);
    }
    expect(reasons).toEqual([
      ['It shares [quoted].', false],
      ['It shares [quoted].', true],
    ]);
    expect(written).toEqual([
      JSON.stringify({ flagged: true, confidence: 0.9, reason: 'It shares [quoted].' }),
    ]);
  });
});
