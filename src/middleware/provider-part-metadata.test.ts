import type { LanguageModelV4Content, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { generateText, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { generateResult, readAll, streamOf } from '../../test/helpers';
import { pii } from '../guards/pii/pii';
import { type GuardrailsOptions, guardrails } from './guardrails-middleware';

const CARD = '4111 1111 1111 1111';
const ANSWER = `Your card is ${CARD}.`;

/** Per-part provider data that quotes the answer: an item's own text, a citation, a source snippet. */
const partMeta = (text: string) => ({ openai: { itemId: 'msg_1', annotationText: text } });
const citation = (text: string) => ({
  source: {
    type: 'source' as const,
    sourceType: 'url' as const,
    id: 'src_1',
    url: 'https://example.com/cards',
    title: `Cards like ${text}`,
  },
  citedText: text,
});
const SOURCE = {
  type: 'source' as const,
  sourceType: 'url' as const,
  id: 'src_2',
  url: 'https://example.com/page',
  title: `Page about ${CARD}`,
  providerMetadata: { google: { snippet: CARD } },
};

function generateModel(text: string) {
  const content: LanguageModelV4Content[] = [
    { type: 'reasoning', text: 'thinking', providerMetadata: partMeta(text) },
    { type: 'text', text, providerMetadata: partMeta(text), citations: [citation(text)] },
    { ...SOURCE, title: `Page about ${text}`, providerMetadata: { google: { snippet: text } } },
  ];
  return new MockLanguageModelV4({ doGenerate: async () => generateResult(content) });
}

function streamModel(text: string) {
  const [a, b] = [text.slice(0, 13), text.slice(13)];
  const parts: LanguageModelV4StreamPart[] = [
    { type: 'reasoning-start', id: 'r1', providerMetadata: partMeta(text) },
    { type: 'reasoning-delta', id: 'r1', delta: 'thinking', providerMetadata: partMeta(text) },
    { type: 'reasoning-end', id: 'r1', providerMetadata: partMeta(text) },
    { type: 'text-start', id: 't1', providerMetadata: partMeta(text) },
    { type: 'text-delta', id: 't1', delta: a, providerMetadata: partMeta(text) },
    { type: 'text-delta', id: 't1', delta: b, providerMetadata: partMeta(text) },
    {
      type: 'text-end',
      id: 't1',
      providerMetadata: partMeta(text),
      citations: [citation(text)],
    },
    { ...SOURCE, title: `Page about ${text}`, providerMetadata: { google: { snippet: text } } },
  ];
  return new MockLanguageModelV4({ doStream: async () => streamOf(parts) });
}

const options = (extra: Partial<GuardrailsOptions> = {}): GuardrailsOptions => ({
  output: [pii({ action: 'redact' })],
  checkReasoning: true,
  ...extra,
});

async function generated(text: string, extra: Partial<GuardrailsOptions> = {}) {
  const result = await generateText({
    model: wrapLanguageModel({
      model: generateModel(text),
      middleware: guardrails(options(extra)),
    }),
    prompt: 'my card?',
  });
  const json = JSON.stringify([result.content, result.steps, result.response.messages]);
  return { result, json };
}

async function streamed(text: string, extra: Partial<GuardrailsOptions> = {}) {
  const result = streamText({
    model: wrapLanguageModel({ model: streamModel(text), middleware: guardrails(options(extra)) }),
    prompt: 'my card?',
  });
  const parts = await readAll(result.fullStream);
  const ui = await readAll(result.toUIMessageStream({ sendSources: true }));
  const json = JSON.stringify([
    parts,
    await result.content,
    await result.steps,
    (await result.response).messages,
    ui,
  ]);
  return { parts, json, sources: await result.sources, content: await result.content };
}

describe('per-part provider data of a changed response (generateText)', () => {
  it('a redacted answer keeps no part metadata, citation or source that quotes the card', async () => {
    const { result, json } = await generated(ANSWER);
    expect(result.text).toBe('Your card is [CREDIT_CARD].');
    expect(json).not.toContain(CARD);
    // The text and reasoning parts go on without the provider's per-part data.
    expect(result.content).toEqual([
      { type: 'reasoning', text: 'thinking' },
      { type: 'text', text: 'Your card is [CREDIT_CARD].' },
    ]);
    expect(result.sources).toEqual([]);
  });

  it('a blocked answer keeps no part of the answer', async () => {
    const { result, json } = await generated(ANSWER, { output: [pii({ action: 'block' })] });
    expect(result.content).toEqual([
      { type: 'text', text: 'The text contains personal data (CREDIT_CARD).' },
    ]);
    expect(json).not.toContain(CARD);
  });

  it('a passing answer keeps every part as the model wrote it', async () => {
    const text = 'No card here.';
    const { result } = await generated(text);
    expect(result.content).toEqual([
      { type: 'reasoning', text: 'thinking', providerMetadata: partMeta(text) },
      {
        type: 'text',
        text,
        providerMetadata: partMeta(text),
        citations: [citation(text)],
      },
      {
        ...SOURCE,
        title: `Page about ${text}`,
        providerMetadata: { google: { snippet: text } },
      },
    ]);
  });

  it('reasoning that is not judged keeps its metadata (its text goes on unjudged as well)', async () => {
    const { result, json } = await generated(ANSWER, { checkReasoning: false });
    expect(result.content[0]).toEqual({
      type: 'reasoning',
      text: 'thinking',
      providerMetadata: partMeta(ANSWER),
    });
    // The judged text part loses its metadata and citations; the source goes.
    expect(result.content.slice(1)).toEqual([
      { type: 'text', text: 'Your card is [CREDIT_CARD].' },
    ]);
    expect(json).toContain(CARD); // in the unjudged reasoning part's metadata only
  });
});

describe('per-part provider data of a changed response (streamText)', () => {
  for (const mode of ['hold', 'window'] as const) {
    it(`${mode} mode: a redacted answer streams no part metadata, citation or source with the card`, async () => {
      const { parts, json, sources, content } = await streamed(ANSWER, { stream: { mode } });
      expect(json).not.toContain(CARD);
      expect(sources).toEqual([]);
      expect(parts.some(part => part.type === 'source')).toBe(false);
      expect(content).toEqual([
        { type: 'reasoning', text: 'thinking' },
        { type: 'text', text: 'Your card is [CREDIT_CARD].' },
      ]);
    });
  }

  it('hold mode: a passing answer streams every part with its metadata, citations and sources', async () => {
    const text = 'No card here, sorry.';
    const { sources, content } = await streamed(text, { stream: { mode: 'hold' } });
    expect(sources).toEqual([
      { ...SOURCE, title: `Page about ${text}`, providerMetadata: { google: { snippet: text } } },
    ]);
    expect(content).toEqual([
      { type: 'reasoning', text: 'thinking', providerMetadata: partMeta(text) },
      { type: 'text', text, providerMetadata: partMeta(text), citations: [citation(text)] },
      { ...SOURCE, title: `Page about ${text}`, providerMetadata: { google: { snippet: text } } },
    ]);
  });

  it('window mode: a passing answer keeps its citations and sources (sources come at the end)', async () => {
    const text = 'No card here, sorry.';
    const { parts, sources, content } = await streamed(text, { stream: { mode: 'window' } });
    expect(sources).toEqual([
      { ...SOURCE, title: `Page about ${text}`, providerMetadata: { google: { snippet: text } } },
    ]);
    // The deltas' metadata may quote the answer: it waits for the answer's end
    // (round 36; before, it went), then goes as is, nothing of the answer hidden.
    expect(content).toEqual([
      { type: 'reasoning', text: 'thinking', providerMetadata: partMeta(text) },
      { type: 'text', text, providerMetadata: partMeta(text), citations: [citation(text)] },
      { ...SOURCE, title: `Page about ${text}`, providerMetadata: { google: { snippet: text } } },
    ]);
    expect(parts.map(part => part.type).indexOf('source')).toBe(
      parts.map(part => part.type).indexOf('finish-step') - 1,
    );
  });

  for (const mode of ['hold', 'window'] as const) {
    it(`${mode} mode: a blocked answer streams no source or metadata with the card`, async () => {
      const { json, sources } = await streamed(ANSWER, {
        stream: { mode },
        output: [pii({ action: 'block' })],
      });
      expect(json).not.toContain(CARD);
      expect(sources).toEqual([]);
    });
  }

  it('passthrough mode withholds nothing: the parts pass as they come', async () => {
    const { sources } = await streamed(ANSWER, { stream: { mode: 'passthrough' } });
    expect(sources).toHaveLength(1);
  });
});
