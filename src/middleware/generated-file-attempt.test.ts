import type { LanguageModelV4Content, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { generateText, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { generateResult, streamOf, withoutTiming } from '../../test/helpers';
import { contentFilter } from '../guards/content-filter/content-filter';
import { pii } from '../guards/pii/pii';
import { getGuardrailOutcome } from './get-guardrail-outcome';
import { guardrails } from './guardrails-middleware';

/**
 * Round 24. With `retry`, the records of an answer's generated files had no
 * `attempt` (round 23 tagged its text's, tool calls' and tool results'), so
 * a blocked answer's redacted file could not be told from the retry's. They
 * carry the attempt of the answer they came with now, the media type's
 * records and `output-unreadable` too, in generateText and hold streams.
 */
const file = (text: string, mediaType = 'text/plain'): LanguageModelV4Content => ({
  type: 'file',
  mediaType,
  data: { type: 'data', data: new TextEncoder().encode(text) },
});
const ANSWERS: LanguageModelV4Content[][] = [
  [
    { type: 'text', text: 'Here: acme plan.' },
    file('card 4111 1111 1111 1111', 'text/plain; name=4111111111111111'),
    file('\u0000\u0001 4111 1111 1111 1111', 'application/x-data'),
  ],
  [{ type: 'text', text: 'Here is the plan.' }, file('all fine')],
];
const streamParts = (content: LanguageModelV4Content[]): LanguageModelV4StreamPart[] =>
  content.flatMap(part =>
    part.type === 'text'
      ? [
          { type: 'text-start' as const, id: 't' },
          { type: 'text-delta' as const, id: 't', delta: part.text },
          { type: 'text-end' as const, id: 't' },
        ]
      : [part as LanguageModelV4StreamPart],
  );
const middleware = () =>
  guardrails({
    output: [pii({ action: 'redact' }), contentFilter({ blocklist: ['acme'] })],
    retry: { maxAttempts: 1 },
  });

const card = (start: number, end: number) => ({
  types: ['CREDIT_CARD'],
  spans: [{ type: 'CREDIT_CARD', start, end }],
});
const EXPECTED = [
  {
    guardrail: 'pii',
    kind: 'output',
    status: 'modified',
    info: card(17, 33),
    part: 'file',
    attempt: 1,
  },
  { guardrail: 'content-filter', kind: 'output', status: 'passed', part: 'file', attempt: 1 },
  {
    guardrail: 'pii',
    kind: 'output',
    status: 'modified',
    info: card(5, 24),
    part: 'file',
    attempt: 1,
  },
  { guardrail: 'content-filter', kind: 'output', status: 'passed', part: 'file', attempt: 1 },
  {
    guardrail: 'pii',
    kind: 'output',
    status: 'modified',
    info: card(3, 22),
    part: 'file',
    attempt: 1,
  },
  { guardrail: 'content-filter', kind: 'output', status: 'passed', part: 'file', attempt: 1 },
  {
    guardrail: 'output-unreadable',
    kind: 'output',
    status: 'error',
    reason:
      'file 1 of the response was withheld: a guardrail changed the text read from a file that is not text, whose bytes are never rewritten',
    part: 'file',
    attempt: 1,
  },
  { guardrail: 'pii', kind: 'output', status: 'passed', attempt: 1 },
  {
    guardrail: 'content-filter',
    kind: 'output',
    status: 'blocked',
    message: 'This content is not allowed.',
    reason: 'matched blocklist entry 0',
    severity: 'warning',
    info: { category: 'blocklist', entry: 0 },
    attempt: 1,
  },
  { guardrail: 'pii', kind: 'output', status: 'passed', part: 'file', attempt: 2 },
  { guardrail: 'content-filter', kind: 'output', status: 'passed', part: 'file', attempt: 2 },
  { guardrail: 'pii', kind: 'output', status: 'passed', attempt: 2 },
  { guardrail: 'content-filter', kind: 'output', status: 'passed', attempt: 2 },
];

describe("with retry, a generated file's records carry its answer's attempt", () => {
  it('generateText', async () => {
    let n = 0;
    const mock = new MockLanguageModelV4({ doGenerate: async () => generateResult(ANSWERS[n++]!) });
    const result = await generateText({
      model: wrapLanguageModel({ model: mock, middleware: middleware() }),
      prompt: 'go',
    });
    expect(result.text).toBe('Here is the plan.');
    expect(result.files.map(f => [f.mediaType, new TextDecoder().decode(f.uint8Array)])).toEqual([
      ['text/plain', 'all fine'],
    ]);
    expect(withoutTiming((await getGuardrailOutcome(result))?.records)).toEqual(EXPECTED);
  });

  it('streamText (hold)', async () => {
    let n = 0;
    const mock = new MockLanguageModelV4({
      doStream: async () => streamOf(streamParts(ANSWERS[n++]!)),
    });
    const result = streamText({
      model: wrapLanguageModel({ model: mock, middleware: middleware() }),
      prompt: 'go',
    });
    const seen: unknown[] = [];
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') seen.push(part.text);
      if (part.type === 'file') seen.push(part.file.mediaType);
    }
    expect(seen).toEqual(['Here is the plan.', 'text/plain']);
    expect(withoutTiming((await getGuardrailOutcome(result))?.records)).toEqual(EXPECTED);
  });
});
