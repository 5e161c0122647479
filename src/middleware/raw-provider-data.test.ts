import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { generateText, streamText, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generateResult, readAll, streamOf, textParts } from '../../test/helpers';
import { pii } from '../guards/pii/pii';
import { secrets } from '../guards/secrets/secrets';
import { type GuardrailsOptions, guardrails } from './guardrails-middleware';

const CARD = '4111 1111 1111 1111';
const ANSWER = `Your card is ${CARD}.`;
const AWS_KEY = 'AKIAIOSFODNN7EXAMPLE';

/** `@ai-sdk/openai`'s metadata with `logprobs: true`: the answer's tokens, and an id apps chain on. */
const logprobsOf = (text: string) => ({
  openai: { responseId: 'resp_1', logprobs: [{ token: text, logprob: -0.1, top_logprobs: [] }] },
});

/** A provider's own chunk for one delta, as `includeRawChunks` hands it on. */
const raw = (delta: string): LanguageModelV4StreamPart => ({
  type: 'raw',
  rawValue: { choices: [{ delta: { content: delta } }] },
});

/** A model streaming `ANSWER` in two deltas, each after its raw chunk. */
function rawTextModel() {
  const [a, b] = [ANSWER.slice(0, 13), ANSWER.slice(13)]; // the card whole in the second
  return new MockLanguageModelV4({
    doStream: async () =>
      streamOf(
        [
          { type: 'text-start', id: 't1' },
          raw(a),
          { type: 'text-delta', id: 't1', delta: a },
          raw(b),
          { type: 'text-delta', id: 't1', delta: b },
          { type: 'text-end', id: 't1' },
        ],
        { providerMetadata: logprobsOf(ANSWER) },
      ),
  });
}

/** The part types and texts of `fullStream`, and its JSON. */
async function streamed(options: GuardrailsOptions, model = rawTextModel(), extra = {}) {
  const result = streamText({
    model: wrapLanguageModel({ model, middleware: guardrails(options) }),
    prompt: 'my card?',
    includeRawChunks: true,
    ...extra,
  });
  const parts = await readAll(result.fullStream);
  return {
    // Window mode may release the text in more than one delta: runs of one type count once.
    types: parts.map(part => part.type).filter((type, i, all) => type !== all[i - 1]),
    text: parts.flatMap(part => (part.type === 'text-delta' ? [part.text] : [])).join(''),
    json: JSON.stringify(parts),
    openai: (await result.providerMetadata)?.openai,
    ui: JSON.stringify(await readAll(result.toUIMessageStream())),
  };
}

const STEP_START = ['start', 'start-step'];
const TEXT = ['text-start', 'text-delta', 'text-end'];
const STEP_END = ['finish-step', 'finish'];

describe('raw provider chunks (streamText includeRawChunks)', () => {
  for (const mode of ['hold', 'window'] as const) {
    it(`${mode} mode: a redacted answer streams no raw chunk (they hold the card)`, async () => {
      const out = await streamed({ output: [pii({ action: 'redact' })], stream: { mode } });
      expect(out.text).toBe('Your card is [CREDIT_CARD].');
      expect(out.types).toEqual([...STEP_START, ...TEXT, ...STEP_END]);
      expect(out.json).not.toContain(CARD);
      expect(out.ui).not.toContain(CARD);
      // The provider's logprobs list the answer's tokens, it stores the answer under the id: both go.
      expect(out.openai).toEqual({});
    });

    it(`${mode} mode: a blocked answer streams no raw chunk`, async () => {
      const out = await streamed({ output: [pii({ action: 'block' })], stream: { mode } });
      expect(out.text).toBe('The text contains personal data (CREDIT_CARD).');
      expect(out.json).not.toContain(CARD);
      // Hold mode has read the finish part (logprobs dropped); window mode trips before it.
      expect(out.openai).toEqual(mode === 'hold' ? {} : undefined);
      expect(out.types).not.toContain('raw');
    });

    it(`${mode} mode: a passing answer streams no raw chunk either (decided before it is judged)`, async () => {
      const model = new MockLanguageModelV4({
        doStream: async () => streamOf([raw('Hello'), ...textParts(['Hello'])]),
      });
      const out = await streamed({ output: [pii({ action: 'redact' })], stream: { mode } }, model);
      expect(out.text).toBe('Hello');
      expect(out.types).toEqual([...STEP_START, ...TEXT, ...STEP_END]);
    });
  }

  it('passthrough mode: the text passes as written, the raw chunks go (they may carry a withheld file or call)', async () => {
    const out = await streamed({
      output: [pii({ action: 'redact' })],
      stream: { mode: 'passthrough' },
    });
    expect(out.types).toEqual([...STEP_START, ...TEXT, ...STEP_END]);
    expect(out.text).toBe(ANSWER);
  });

  it('a middleware that judges nothing of the response keeps the raw chunks', async () => {
    const out = await streamed({ input: [pii({ action: 'redact' })] });
    expect(out.types.filter(type => type === 'raw')).toHaveLength(2);
    // toUIMessageStream never forwards raw chunks (AI SDK 7 drops them).
    expect(out.ui).not.toContain('rawValue');
  });

  it('toolCalls only (no output guardrails): a withheld call leaves no raw chunk with its key', async () => {
    const input = JSON.stringify({ key: AWS_KEY });
    const model = new MockLanguageModelV4({
      doStream: async () =>
        streamOf([raw(input), { type: 'tool-call', toolCallId: 'c1', toolName: 'save', input }], {
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        }),
    });
    const tools = {
      save: tool({ inputSchema: z.object({ key: z.string() }), execute: async () => 'ok' }),
    };
    const out = await streamed({ toolCalls: [secrets()] }, model, { tools });
    expect(out.json).not.toContain(AWS_KEY);
    expect(out.types).not.toContain('raw');
    expect(out.types).not.toContain('tool-call');
  });
});

/** A model answering `text` with the provider's raw body holding it. */
function bodyModel(text: string) {
  return new MockLanguageModelV4({
    doGenerate: async () =>
      generateResult(text, {
        request: { body: { messages: [{ role: 'user', content: 'my card?' }] } },
        response: {
          id: 'r1',
          modelId: 'm1',
          timestamp: new Date(0),
          headers: { 'x-request-id': 'abc' },
          body: { choices: [{ message: { content: text } }] },
        },
        providerMetadata: logprobsOf(text),
      }),
  });
}

async function generated(options: GuardrailsOptions, text = ANSWER) {
  const result = await generateText({
    model: wrapLanguageModel({ model: bodyModel(text), middleware: guardrails(options) }),
    prompt: 'my card?',
    include: { requestBody: true, responseBody: true },
  });
  return { result, json: JSON.stringify(result.response) + JSON.stringify(result.steps) };
}

describe('the raw response body (generateText response.body)', () => {
  it('a redacted answer has no body nor id; headers, model id and timestamp stay', async () => {
    const { result, json } = await generated({ output: [pii({ action: 'redact' })] });
    expect(result.text).toBe('Your card is [CREDIT_CARD].');
    expect(result.response.body).toBeUndefined();
    // The AI SDK's own id: the provider's would chain the next call on the answer as written.
    expect(result.response.id).toMatch(/^aitxt-/);
    expect(result.response.modelId).toBe('m1');
    expect(result.response.timestamp).toEqual(new Date(0));
    expect(result.response.headers).toEqual({ 'x-request-id': 'abc' });
    expect(result.providerMetadata?.openai).toEqual({});
    expect(json).not.toContain(CARD);
    expect(JSON.stringify(result.providerMetadata)).not.toContain(CARD);
  });

  it('a blocked answer has no body', async () => {
    const { result, json } = await generated({ output: [pii({ action: 'block' })] });
    expect(result.text).toBe('The text contains personal data (CREDIT_CARD).');
    expect(result.response.body).toBeUndefined();
    expect(result.response.headers).toEqual({ 'x-request-id': 'abc' });
    expect(result.response.id).toMatch(/^aitxt-/);
    expect(result.providerMetadata?.openai).toEqual({});
    expect(json).not.toContain(CARD);
  });

  it('a passing unmodified answer keeps its body (and its request body)', async () => {
    const { result } = await generated({ output: [pii({ action: 'redact' })] }, 'No card here.');
    expect(result.response.body).toEqual({ choices: [{ message: { content: 'No card here.' } }] });
    expect(result.providerMetadata?.openai).toEqual(logprobsOf('No card here.').openai);
    expect(result.request.body).toEqual({ messages: [{ role: 'user', content: 'my card?' }] });
  });

  it('an input-only redaction keeps the body (the model never saw the value)', async () => {
    const { result } = await generated({ input: [pii({ action: 'redact' })] }, 'Noted.');
    expect(result.response.body).toEqual({ choices: [{ message: { content: 'Noted.' } }] });
  });

  it('a withheld tool call (toolCalls) drops the body that holds its arguments', async () => {
    const input = JSON.stringify({ key: AWS_KEY });
    const model = new MockLanguageModelV4({
      doGenerate: async () =>
        generateResult([{ type: 'tool-call', toolCallId: 'c1', toolName: 'save', input }], {
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          response: { id: 'r1', body: { tool_calls: [{ arguments: input }] } },
        }),
    });
    const tools = {
      save: tool({ inputSchema: z.object({ key: z.string() }), execute: async () => 'ok' }),
    };
    const result = await generateText({
      model: wrapLanguageModel({ model, middleware: guardrails({ toolCalls: [secrets()] }) }),
      tools,
      prompt: 'save it',
      include: { responseBody: true },
    });
    expect(result.response.body).toBeUndefined();
    expect(JSON.stringify(result.response) + JSON.stringify(result.steps)).not.toContain(AWS_KEY);
  });
});
