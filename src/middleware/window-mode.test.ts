import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  blockWord,
  cut,
  modelFor,
  readAll,
  redactEmails,
  streamOf,
  textParts,
  userPrompt,
  windowAndGenerateTexts,
} from '../../test/helpers';
import { allow, defineGuardrail, modify } from '../core/define-guardrail';
import { pii } from '../guards/pii/pii';
import { getGuardrailOutcome } from './get-guardrail-outcome';
import { guardrails } from './guardrails-middleware';

const CARD = /\b(?:\d[ -]?){15}\d\b/g;
const KEY = /\bsk-[A-Za-z0-9]{20,48}\b/g;

function redactor(name: string, pattern: RegExp, placeholder: string, maxMatchLength: number) {
  return defineGuardrail({
    name,
    streamSafe: true,
    maxMatchLength,
    check: text => {
      const next = text.replace(pattern, placeholder);
      return next === text ? allow() : modify(next);
    },
  });
}

const chain = () => [
  redactEmails(),
  redactor('redact-card', CARD, '[CARD]', 40),
  redactor('redact-key', KEY, '[KEY]', 60),
  blockWord('forbidden'),
];

const words = fc.constantFrom(
  'hello',
  'the',
  'order',
  'number',
  'is',
  'skill',
  'forbiddenness',
  'a',
  'b@',
  '.com',
  '4111',
  '\n',
);
const email = fc
  .tuple(
    fc.stringMatching(/^[a-z]{1,12}$/),
    fc.stringMatching(/^[a-z]{1,10}$/),
    fc.constantFrom('com', 'io', 'co.uk'),
  )
  .map(([user, host, tld]) => `${user}@${host}.${tld}`);
const card = fc.constantFrom('4111 1111 1111 1111', '5500-0000-0000-0004', '4012888888881881');
const key = fc.stringMatching(/^[A-Za-z0-9]{24,40}$/).map(s => `sk-${s}`);
const segment = fc.oneof(
  { weight: 8, arbitrary: words },
  { weight: 2, arbitrary: email },
  { weight: 1, arbitrary: card },
  { weight: 1, arbitrary: key },
  { weight: 1, arbitrary: fc.constant('forbidden') },
);
const text = fc.array(segment, { minLength: 0, maxLength: 60 }).map(parts => parts.join(' '));
const chunking = fc.oneof(
  fc.constant<number[]>([1]),
  fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 20 }),
  fc.array(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 5 }),
);

async function streamedTexts(parts: LanguageModelV4StreamPart[]) {
  return parts.flatMap(p => (p.type === 'text-delta' ? [p.delta] : []));
}

describe('window mode', () => {
  it('streams the same text as generate for any chunking, releasing nothing before it is checked', async () => {
    const middleware = guardrails({
      output: chain(),
      stream: { mode: 'window' },
      blockedMessage: 'BLOCKED',
    });
    await fc.assert(
      fc.asyncProperty(text, chunking, async (answer, sizes) => {
        const model = wrapLanguageModel({
          model: modelFor(answer, cut(answer, sizes)),
          middleware,
        });
        const generated = await model.doGenerate({ prompt: userPrompt('q') });
        const generatedText = generated.content
          .map(p => (p.type === 'text' ? p.text : ''))
          .join('');
        const { stream } = await model.doStream({ prompt: userPrompt('q') });
        const parts = await readAll(stream);
        const deltas = await streamedTexts(parts);
        const streamed = deltas.join('');
        const blocked = generated.finishReason.unified === 'content-filter';
        if (!blocked) {
          expect(streamed).toBe(generatedText);
        } else {
          // A blocked answer: what was released before the blocked message never holds the blocked word.
          expect(deltas.at(-1)).toBe('BLOCKED');
          expect(deltas.slice(0, -1).join('')).not.toMatch(/\bforbidden\b/);
        }
        const released = blocked ? deltas.slice(0, -1).join('') : streamed;
        // Nothing a guardrail would redact is ever released, even in part across deltas.
        expect(released).not.toMatch(/[a-z]+@[a-z]+\.[a-z]/);
        expect(released).not.toMatch(/sk-[A-Za-z0-9]{20}/);
        expect(released).not.toMatch(CARD);
        const finish = parts.at(-1) as Extract<LanguageModelV4StreamPart, { type: 'finish' }>;
        expect(finish.finishReason.unified).toBe(blocked ? 'content-filter' : 'stop');
      }),
      { numRuns: 1000, seed: 20261129 },
    );
  }, 120_000);

  it('releases text before the answer ends (it does not hold everything)', async () => {
    const answer = `${'lorem ipsum '.repeat(200)}end`;
    const middleware = guardrails({ output: [redactEmails()], stream: { mode: 'window' } });
    const model = wrapLanguageModel({ model: modelFor(answer, cut(answer, [10])), middleware });
    const { stream } = await model.doStream({ prompt: userPrompt('q') });
    const reader = stream.getReader();
    const seen: LanguageModelV4StreamPart[] = [];
    // Read until the first text delta: it must come long before the model's last delta.
    while (true) {
      const { value } = await reader.read();
      seen.push(value!);
      if (value!.type === 'text-delta') break;
    }
    await reader.cancel();
    const firstDelta = seen.at(-1) as { delta: string };
    expect(firstDelta.delta.length).toBeGreaterThan(0);
    expect(firstDelta.delta.length).toBeLessThan(answer.length);
  });

  it('keeps streaming a text with a redaction on every line (releases at line breaks)', async () => {
    const answer = Array.from(
      { length: 200 },
      (_, i) => `Ticket ${i} from user${i}@corp.io was resolved.`,
    ).join('\n');
    const model = wrapLanguageModel({
      model: modelFor(answer, cut(answer, [7])),
      middleware: guardrails({ output: [redactEmails()], stream: { mode: 'window' } }),
    });
    const { stream } = await model.doStream({ prompt: userPrompt('q') });
    const deltas = (await readAll(stream)).flatMap(p => (p.type === 'text-delta' ? [p.delta] : []));
    expect(deltas.join('')).toBe(answer.replace(/user\d+@corp\.io/g, '[EMAIL]'));
    // Released in window-sized steps, not held to the end.
    expect(deltas.length).toBeGreaterThan(answer.length / 256);
  });

  it('a block cancels the model stream, closes the released text and finishes with content-filter', async () => {
    let cancelled = false;
    let pulled = 0;
    const deltas = [
      'Here is a safe start. ',
      ...Array.from({ length: 50 }, () => 'padding text '),
      'forbidden ',
      ...Array.from({ length: 1000 }, () => 'more '),
    ];
    const source: LanguageModelV4StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      ...textParts(deltas),
      { type: 'tool-call', toolCallId: 'c1', toolName: 'late', input: '{}' },
    ];
    const mock = new MockLanguageModelV4({
      doStream: async () => ({
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          pull(controller) {
            if (pulled >= source.length) return controller.close();
            controller.enqueue(source[pulled++]!);
          },
          cancel() {
            cancelled = true;
          },
        }),
      }),
    });
    const model = wrapLanguageModel({
      model: mock,
      middleware: guardrails({
        output: [blockWord('forbidden')],
        stream: { mode: 'window' },
        blockedMessage: 'BLOCKED',
      }),
    });
    const result = streamText({ model, prompt: 'q' });
    const parts = await readAll(result.fullStream);
    expect(cancelled).toBe(true);
    expect(pulled).toBeLessThan(source.length / 2);
    const texts = parts.flatMap(p => (p.type === 'text-delta' ? [p.text] : []));
    expect(texts.at(-1)).toBe('BLOCKED');
    expect(texts.slice(0, -1).join('')).not.toContain('forbidden');
    expect(texts.slice(0, -1).join('').startsWith('Here is a safe start.')).toBe(true);
    expect(parts.some(p => p.type === 'tool-call')).toBe(false);
    // Every text part that was opened is closed.
    const starts = parts.filter(p => p.type === 'text-start').length;
    const ends = parts.filter(p => p.type === 'text-end').length;
    expect(starts).toBe(ends);
    expect(await result.finishReason).toBe('content-filter');
    const outcome = await getGuardrailOutcome(result);
    expect(outcome?.status).toBe('blocked');
    expect(outcome?.records.map(r => [r.guardrail, r.status])).toEqual([
      ['block-forbidden', 'blocked'],
    ]);
  });

  it('reports one record per guardrail per text part, however many checks ran', async () => {
    const answer = `${'word '.repeat(500)}mail a@b.io ${'word '.repeat(500)}`;
    const model = wrapLanguageModel({
      model: modelFor(answer, cut(answer, [3])),
      middleware: guardrails({
        output: [redactEmails(), blockWord('forbidden')],
        stream: { mode: 'window' },
      }),
    });
    const result = streamText({ model, prompt: 'q' });
    expect(await result.text).toBe(answer.replace('a@b.io', '[EMAIL]'));
    const outcome = await getGuardrailOutcome(result);
    expect(outcome?.records.map(r => [r.guardrail, r.status])).toEqual([
      ['redact-email', 'modified'],
      ['block-forbidden', 'passed'],
    ]);
  });

  it("the part's record names what every check found, not only the last check's finds", async () => {
    const answer = `Write to ann@example.com. ${'Some ordinary words here. '.repeat(40)}Or call +44 20 7946 0958 today.`;
    const model = wrapLanguageModel({
      model: modelFor(answer, cut(answer, [4])),
      middleware: guardrails({ output: [pii()], stream: { mode: 'window' } }),
    });
    const result = streamText({ model, prompt: 'q' });
    expect(await result.text).toBe(
      answer
        .replace('ann@example.com', '[EMAIL_ADDRESS]')
        .replace('+44 20 7946 0958', '[PHONE_NUMBER]'),
    );
    const outcome = await getGuardrailOutcome(result);
    const records = outcome?.records.map(r => [r.guardrail, r.status, r.info]);
    // Each check's span offsets are relative to the text it saw, so the part's
    // record keeps the types and leaves the offsets out.
    expect(records).toEqual([['pii', 'modified', { types: ['EMAIL_ADDRESS', 'PHONE_NUMBER'] }]]);
  });

  it('does not block on a word cut by the window edge ("forbidden" inside "forbiddenness")', async () => {
    const answer = `${'x '.repeat(300)}forbiddenness ${'y '.repeat(300)}`;
    for (const size of [1, 7, 64]) {
      const model = wrapLanguageModel({
        model: modelFor(answer, cut(answer, [size])),
        middleware: guardrails({
          output: [blockWord('forbidden')],
          stream: { mode: 'window', window: 16 },
        }),
      });
      const result = streamText({ model, prompt: 'q' });
      expect(await result.text).toBe(answer);
    }
  });

  it('checks reasoning with the same window rules when checkReasoning is set', async () => {
    const mock = new MockLanguageModelV4({
      doStream: async () =>
        streamOf([
          { type: 'reasoning-start', id: 'r1' },
          ...['the user ', 'is a@', 'b.io'].map(delta => ({
            type: 'reasoning-delta' as const,
            id: 'r1',
            delta,
          })),
          { type: 'reasoning-end', id: 'r1' },
          ...textParts(['ok']),
        ]),
    });
    const model = wrapLanguageModel({
      model: mock,
      middleware: guardrails({
        output: [redactEmails()],
        stream: { mode: 'window' },
        checkReasoning: true,
      }),
    });
    const result = streamText({ model, prompt: 'q' });
    expect(await result.reasoningText).toBe('the user is [EMAIL]');
    expect(await result.text).toBe('ok');
  });
});

describe('window mode: the left context holds what a detector reads before a match', () => {
  it('a phone number whose context word follows a number is redacted as generate does, wherever the answer is cut', async () => {
    // No word starts after a digit and a blank, so the context of the check
    // after "…901 call\nthe " began at "the ": the context word "call" was
    // cut off and the number went out raw, though generate redacts it.
    const answer = 'Ids: 2024-11, 7731 9902, 64611534753852901 call\nthe 802530732820600 today.';
    const redacted = 'Ids: 2024-11, 7731 9902, 64611534753852901 call\nthe [PHONE_NUMBER] today.';
    const cuts = Array.from({ length: answer.length - 1 }, (_, index) => index + 1);
    const { generated, streamed } = await windowAndGenerateTexts(
      pii(),
      answer,
      cuts.map(at => [at, answer.length]),
    );
    expect(generated).toBe(redacted);
    expect(streamed.flatMap((text, index) => (text === redacted ? [] : [cuts[index]]))).toEqual([]);
  });
});

describe('passthrough mode', () => {
  it('lets every part through as written and reports the records in the finish part', async () => {
    const model = wrapLanguageModel({
      model: modelFor('a forbidden thing', ['a forb', 'idden thing']),
      middleware: guardrails({ output: [blockWord('forbidden')], stream: { mode: 'passthrough' } }),
    });
    const result = streamText({ model, prompt: 'q' });
    expect(await readAll(result.textStream)).toEqual(['a forb', 'idden thing']);
    expect(await result.finishReason).toBe('content-filter');
    const outcome = await getGuardrailOutcome(result);
    expect(outcome?.status).toBe('blocked');
    expect(outcome?.records.map(r => [r.guardrail, r.status])).toEqual([
      ['block-forbidden', 'blocked'],
    ]);
  });
});
