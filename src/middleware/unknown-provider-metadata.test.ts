import type { SharedV4ProviderMetadata } from '@ai-sdk/provider';
import { generateText, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { generateResult, readAll, streamOf, textParts } from '../../test/helpers';
import { pii } from '../guards/pii/pii';
import { type GuardrailsOptions, guardrails } from './guardrails-middleware';
import { METADATA_MAX_DEPTH, METADATA_MAX_NODES, withoutAnswerQuotes } from './quoting-metadata';

const EMAIL = 'jane.doe@example.com';
const ANSWER = `Write to ${EMAIL} for help.`;

/**
 * Response-level metadata of a provider the library knows nothing about:
 * the answer as written, the e-mail nested in arrays and objects and inside
 * a longer string, beside values that hold no string; and `@ai-sdk/openai`'s
 * ids.
 */
function metadataOf(answer: string): SharedV4ProviderMetadata {
  return {
    acme: {
      text: answer,
      segments: [{ spans: [{ quote: `the model said: ${EMAIL} (verbatim)` }] }],
      tokens: 17,
      scores: [{ safety: 0.1, flagged: false, extra: null }],
    },
    openai: { responseId: 'resp_1', serviceTier: 'default', cachedPromptTokens: 3 },
  };
}

/** What stays of {@link metadataOf} once a guardrail changed or blocked the answer. */
const KEPT = {
  acme: { tokens: 17, scores: [{ safety: 0.1, flagged: false, extra: null }] },
  openai: { serviceTier: 'default', cachedPromptTokens: 3 },
};

/** The provider metadata of a generate call, without the guardrails' own outcome. */
async function generated(options: GuardrailsOptions, answer = ANSWER) {
  const model = new MockLanguageModelV4({
    doGenerate: async () => generateResult(answer, { providerMetadata: metadataOf(answer) }),
  });
  const result = await generateText({
    model: wrapLanguageModel({ model, middleware: guardrails(options) }),
    prompt: 'who do I write to?',
  });
  const { guardrails: outcome, ...rest } = result.providerMetadata ?? {};
  return { text: result.text, metadata: rest, status: outcome?.status };
}

/** The provider metadata of a stream's finish, without the guardrails' own outcome. */
async function streamed(options: GuardrailsOptions, answer = ANSWER) {
  const model = new MockLanguageModelV4({
    doStream: async () =>
      streamOf(textParts([answer.slice(0, 12), answer.slice(12)]), {
        providerMetadata: metadataOf(answer),
      }),
  });
  const result = streamText({
    model: wrapLanguageModel({ model, middleware: guardrails(options) }),
    prompt: 'who do I write to?',
  });
  const parts = await readAll(result.fullStream);
  const text = parts.flatMap(part => (part.type === 'text-delta' ? [part.text] : [])).join('');
  const { guardrails: outcome, ...rest } = (await result.providerMetadata) ?? {};
  return { text, metadata: rest, status: outcome?.status };
}

describe('a changed or blocked answer quoted under an unknown provider key', () => {
  it('generate, redact: the keys holding strings go (the response id too), string-free values and the service tier stay', async () => {
    const out = await generated({ output: [pii({ action: 'redact' })] });
    expect(out.text).toBe('Write to [EMAIL_ADDRESS] for help.');
    expect(out.status).toBe('modified');
    expect(out.metadata).toEqual(KEPT);
  });

  it('generate, block: the same keys go', async () => {
    const out = await generated({ output: [pii({ action: 'block' })] });
    expect(out.text).toBe('The text contains personal data (EMAIL_ADDRESS).');
    expect(out.status).toBe('blocked');
    expect(out.metadata).toEqual(KEPT);
  });

  it('generate, passing answer: the metadata is kept untouched', async () => {
    const answer = 'Write to the help desk.';
    const out = await generated({ output: [pii({ action: 'redact' })] }, answer);
    expect(out.text).toBe(answer);
    expect(out.status).toBe('passed');
    expect(out.metadata).toEqual(metadataOf(answer));
  });

  for (const mode of ['hold', 'window'] as const) {
    it(`${mode} stream, redact: the finish part's metadata loses the keys holding strings`, async () => {
      const out = await streamed({ output: [pii({ action: 'redact' })], stream: { mode } });
      expect(out.text).toBe('Write to [EMAIL_ADDRESS] for help.');
      expect(out.status).toBe('modified');
      expect(out.metadata).toEqual(KEPT);
    });

    it(`${mode} stream, passing answer: the finish part's metadata is kept untouched`, async () => {
      const answer = 'Write to the help desk.';
      const out = await streamed({ output: [pii({ action: 'redact' })], stream: { mode } }, answer);
      expect(out.text).toBe(answer);
      expect(out.status).toBe('passed');
      expect(out.metadata).toEqual(metadataOf(answer));
    });
  }

  it('hold stream, block: the finish part carries the same kept keys', async () => {
    const out = await streamed({ output: [pii({ action: 'block' })], stream: { mode: 'hold' } });
    expect(out.text).toBe('The text contains personal data (EMAIL_ADDRESS).');
    expect(out.status).toBe('blocked');
    expect(out.metadata).toEqual(KEPT);
  });
});

describe('withoutAnswerQuotes', () => {
  it('drops logprobs and grounding metadata whatever they hold', () => {
    expect(
      withoutAnswerQuotes({
        openai: { responseId: 'r', logprobs: [1, 2] },
        google: { groundingMetadata: null, groundingMetadataPerRequest: [], modelVersion: 2 },
      }),
    ).toEqual({ openai: {}, google: { modelVersion: 2 } });
  });

  it('keeps a known-safe key only as a short string', () => {
    const long = 'r'.repeat(257);
    expect(
      withoutAnswerQuotes({
        a: { serviceTier: 'r'.repeat(256), responseId: 'resp_1' },
        b: { serviceTier: long },
        c: { serviceTier: { text: EMAIL } },
      }),
    ).toEqual({ a: { serviceTier: 'r'.repeat(256) }, b: {}, c: {} });
  });

  it('drops a string-free value nested deeper than the depth bound, keeps one at it', () => {
    const nest = (depth: number): unknown => (depth === 0 ? 1 : [nest(depth - 1)]);
    expect(
      withoutAnswerQuotes({
        acme: { at: nest(METADATA_MAX_DEPTH), past: nest(METADATA_MAX_DEPTH + 1) },
      } as SharedV4ProviderMetadata),
    ).toEqual({ acme: { at: nest(METADATA_MAX_DEPTH) } });
  });

  it('past the node bound the keys left go, the known-safe ones stay', () => {
    const numbers = Array.from({ length: METADATA_MAX_NODES }, () => 0);
    expect(
      withoutAnswerQuotes({
        acme: { first: [1], many: numbers, after: 2, serviceTier: 'default' },
      }),
    ).toEqual({ acme: { first: [1], serviceTier: 'default' } });
  });

  it('a `__proto__` key (JSON from the wire) stays a key, judged as any other', () => {
    const metadata = JSON.parse(
      '{"__proto__":{"n":1},"acme":{"__proto__":{"n":2},"text":"x"}}',
    ) as SharedV4ProviderMetadata;
    expect(JSON.stringify(withoutAnswerQuotes(metadata))).toBe(
      '{"__proto__":{"n":1},"acme":{"__proto__":{"n":2}}}',
    );
  });

  it('a provider entry that is not an object stays only without strings', () => {
    expect(
      withoutAnswerQuotes({ a: 3, b: `x ${EMAIL}`, c: [1] } as unknown as SharedV4ProviderMetadata),
    ).toEqual({ a: 3, c: [1] });
  });
});
