import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModelV4, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { generateText, type ModelMessage, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { blockWord, generateResult, readAll, streamOf, textParts } from '../../test/helpers';
import { block, defineGuardrail } from '../core/define-guardrail';
import { pii } from '../guards/pii/pii';
import { type GuardrailsOptions, guardrails } from './guardrails-middleware';

// Round 36: a response a guardrail redacted or blocked kept the provider's
// response id (`providerMetadata.openai.responseId`, `response.id`, the
// stream's `response-metadata` part). With `@ai-sdk/openai`'s Responses API
// and `store` (its default), the next call chained on that id
// (`providerOptions.openai.previousResponseId`) makes OpenAI put the answer
// as the model wrote it back into the model's context: the model may repeat
// what the guardrail hid, and no input guardrail sees it (the provider adds
// it). The ids go from a changed or blocked response; a passing one keeps them.

const EMAIL = 'jane.doe@corp.io';
const ANSWER = `Write to ${EMAIL} today.`;
const REDACTED = 'Write to [EMAIL_ADDRESS] today.';
const RESPONSE_ID = 'resp_6f1a';
const ITEM_ID = 'msg_6f1a';

const usage = { input_tokens: 5, output_tokens: 6, total_tokens: 11 };

/** The Responses API's answer `text` as JSON (generate) or server-sent events (stream). */
function reply(text: string, stream: boolean): Response {
  const created_at = 1_700_000_000;
  const item = { type: 'message', role: 'assistant', id: ITEM_ID };
  if (!stream) {
    const content = [{ type: 'output_text', text, annotations: [] }];
    return Response.json({
      id: RESPONSE_ID,
      created_at,
      model: 'gpt-test',
      output: [{ ...item, content }],
      usage,
    });
  }
  const events = [
    { type: 'response.created', response: { id: RESPONSE_ID, created_at, model: 'gpt-test' } },
    { type: 'response.output_item.added', output_index: 0, item },
    // Two deltas, the e-mail cut across them.
    ...[text.slice(0, 12), text.slice(12)].map(delta => ({
      type: 'response.output_text.delta',
      item_id: ITEM_ID,
      output_index: 0,
      delta,
    })),
    { type: 'response.output_item.done', output_index: 0, item },
    { type: 'response.completed', response: { usage } },
  ];
  const body = events.map(event => `data: ${JSON.stringify(event)}\n\n`).join('');
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

/**
 * `@ai-sdk/openai`'s Responses model (store on, the default) answering
 * every call with `text`, wrapped in the guardrails; `bodies` are the
 * request bodies the provider sent.
 */
function openaiModel(text: string, options: GuardrailsOptions) {
  const bodies: Record<string, unknown>[] = [];
  const provider = createOpenAI({
    apiKey: 'test-key',
    fetch: async (_url, init) => {
      const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
      bodies.push(body);
      return reply(text, body.stream === true);
    },
  });
  const model = wrapLanguageModel({
    model: provider.responses('gpt-test'),
    middleware: guardrails(options),
  });
  return { model, bodies };
}

const FIRST: ModelMessage[] = [{ role: 'user', content: 'Who do I write to?' }];

/**
 * The request the provider gets for the next turn when the app chains on
 * what the first call gave it, as the AI SDK docs show: the response's
 * messages and `previousResponseId` from its provider metadata (or its
 * `response.id`, the same id for the Responses API).
 */
async function nextTurn(
  model: LanguageModelV4,
  bodies: Record<string, unknown>[],
  first: { messages: ModelMessage[]; responseId: unknown; id: string },
) {
  const sent = bodies.length;
  for (const previousResponseId of [first.responseId, first.id]) {
    await generateText({
      model,
      messages: [...FIRST, ...first.messages, { role: 'user', content: 'Say it again.' }],
      providerOptions: {
        openai: typeof previousResponseId === 'string' ? { previousResponseId } : {},
      },
    });
  }
  return bodies.slice(sent).map(body => ({
    previous: body.previous_response_id,
    assistant: (body.input as unknown[])[1],
  }));
}

async function generated(text: string, options: GuardrailsOptions) {
  const { model, bodies } = openaiModel(text, options);
  const result = await generateText({ model, messages: FIRST });
  const first = {
    messages: result.response.messages,
    responseId: result.providerMetadata?.openai?.responseId,
    id: result.response.id,
  };
  return {
    text: result.text,
    first,
    json: JSON.stringify([result.response, result.steps, result.providerMetadata]),
    next: await nextTurn(model, bodies, first),
  };
}

async function streamed(text: string, options: GuardrailsOptions) {
  const { model, bodies } = openaiModel(text, options);
  const result = streamText({ model, messages: FIRST });
  const parts = await readAll(result.fullStream);
  const response = await result.response;
  const first = {
    messages: response.messages,
    responseId: (await result.providerMetadata)?.openai?.responseId,
    id: response.id,
  };
  // What the middleware itself hands on, before the AI SDK reads it.
  const stream = await model.doStream({
    prompt: [{ role: 'user', content: [{ type: 'text', text: 'Who?' }] }],
  });
  return {
    text: await result.text,
    first,
    json: JSON.stringify([parts, response, await result.steps, await readAll(stream.stream)]),
    next: await nextTurn(model, bodies, first),
  };
}

/** What the next turn sends when the first answer passed: the chain, and the stored item by its id. */
const CHAINED = { previous: RESPONSE_ID, assistant: { type: 'item_reference', id: ITEM_ID } };

/**
 * What it sends when a guardrail changed the first answer: the answer as
 * the app saw it, and no chain (from the metadata) or the AI SDK's own
 * response id (from `response.id`), which OpenAI does not know.
 */
const unchained = (text: string, sdkId: string) =>
  [undefined, sdkId].map(previous => ({
    previous,
    assistant: { role: 'assistant', content: text },
  }));

describe('the provider response id of a changed or blocked answer (openai previousResponseId)', () => {
  it('generate: a redacted answer gives no id the next call can chain on', async () => {
    const out = await generated(ANSWER, { output: [pii({ action: 'redact' })] });
    expect(out.text).toBe(REDACTED);
    expect(out.first.responseId).toBeUndefined();
    expect(out.first.id).not.toBe(RESPONSE_ID);
    expect(out.json).not.toContain(RESPONSE_ID);
    expect(out.json).not.toContain(ITEM_ID);
    expect(out.next).toEqual(unchained(REDACTED, out.first.id));
  });

  it('generate: a blocked answer gives no id either', async () => {
    const out = await generated(ANSWER, { output: [pii({ action: 'block' })] });
    expect(out.text).toBe('The text contains personal data (EMAIL_ADDRESS).');
    expect(out.first.responseId).toBeUndefined();
    expect(out.first.id).not.toBe(RESPONSE_ID);
    expect(out.json).not.toContain(RESPONSE_ID);
    expect(out.next).toEqual(
      unchained('The text contains personal data (EMAIL_ADDRESS).', out.first.id),
    );
  });

  it('generate: a passing answer keeps its ids (the app chains on it)', async () => {
    const out = await generated('Write to the help desk.', { output: [pii({ action: 'redact' })] });
    expect(out.first.responseId).toBe(RESPONSE_ID);
    expect(out.first.id).toBe(RESPONSE_ID);
    expect(out.next).toEqual([CHAINED, CHAINED]);
  });

  for (const mode of ['hold', 'window'] as const) {
    it(`stream (${mode}): a redacted answer gives no id, in no part`, async () => {
      const out = await streamed(ANSWER, {
        output: [pii({ action: 'redact' })],
        stream: { mode },
      });
      expect(out.text).toBe(REDACTED);
      expect(out.first.responseId).toBeUndefined();
      expect(out.first.id).not.toBe(RESPONSE_ID);
      expect(out.json).not.toContain(RESPONSE_ID);
      expect(out.next).toEqual(unchained(REDACTED, out.first.id));
    });

    it(`stream (${mode}): a blocked answer gives no id`, async () => {
      const out = await streamed(ANSWER, { output: [pii({ action: 'block' })], stream: { mode } });
      expect(out.text).toBe('The text contains personal data (EMAIL_ADDRESS).');
      expect(out.first.responseId).toBeUndefined();
      expect(out.first.id).not.toBe(RESPONSE_ID);
      expect(out.json).not.toContain(RESPONSE_ID);
    });

    it(`stream (${mode}): a passing answer keeps its ids`, async () => {
      const out = await streamed('Write to the help desk.', {
        output: [pii({ action: 'redact' })],
        stream: { mode },
      });
      expect(out.text).toBe('Write to the help desk.');
      expect(out.first.responseId).toBe(RESPONSE_ID);
      expect(out.first.id).toBe(RESPONSE_ID);
      // Window mode releases text parts without their metadata (the item id): the text goes as written.
      const assistant =
        mode === 'hold'
          ? CHAINED.assistant
          : { role: 'assistant', content: 'Write to the help desk.' };
      expect(out.next).toEqual([
        { previous: RESPONSE_ID, assistant },
        { previous: RESPONSE_ID, assistant },
      ]);
    });
  }
});

/** The response's own parts as `@ai-sdk/openai` streams them: its metadata first, its id in the finish too. */
function metadataStream(parts: LanguageModelV4StreamPart[]) {
  return streamOf(
    [
      { type: 'response-metadata', id: RESPONSE_ID, timestamp: new Date(0), modelId: 'm' },
      ...parts,
    ],
    { providerMetadata: { openai: { responseId: RESPONSE_ID } } },
  );
}

/** The middleware's `response-metadata` parts in order, where the finish falls among them, and the text. */
async function envelopeOf(options: GuardrailsOptions, source: LanguageModelV4) {
  const model = wrapLanguageModel({ model: source, middleware: guardrails(options) });
  const { stream } = await model.doStream({
    prompt: [{ role: 'user', content: [{ type: 'text', text: 'Who?' }] }],
  });
  const all = await readAll(stream);
  return {
    envelope: all.flatMap((part): unknown[] =>
      part.type === 'response-metadata' ? [part] : part.type === 'finish' ? ['finish'] : [],
    ),
    text: all.flatMap(part => (part.type === 'text-delta' ? [part.delta] : [])).join(''),
    json: JSON.stringify(all),
  };
}

/** {@link envelopeOf} a model streaming `parts` after its metadata. */
const envelope = (options: GuardrailsOptions, parts: LanguageModelV4StreamPart[]) =>
  envelopeOf(options, new MockLanguageModelV4({ doStream: async () => metadataStream(parts) }));

/** The part as the provider sent it, less its id: it goes on at once. */
const WITHOUT_ID = { type: 'response-metadata', timestamp: new Date(0), modelId: 'm' };

describe("the stream's response-metadata part: its id follows only an answer nothing was hidden of", () => {
  for (const mode of ['hold', 'window'] as const) {
    const options = { output: [pii({ action: 'redact' })], stream: { mode } };

    it(`${mode}: a passing answer gets its id in a part of its own before the finish`, async () => {
      const out = await envelope(options, textParts(['Write to ', 'the desk.']));
      expect(out.envelope).toEqual([
        WITHOUT_ID,
        { type: 'response-metadata', id: RESPONSE_ID },
        'finish',
      ]);
    });

    it(`${mode}: a redacted answer never gets it`, async () => {
      const out = await envelope(options, textParts(['Write to jane.d', 'oe@corp.io today.']));
      expect(out.envelope).toEqual([WITHOUT_ID, 'finish']);
      expect(out.json).not.toContain(RESPONSE_ID);
      expect(out.json).not.toContain(EMAIL);
    });
  }

  it('hold, blocked: no id', async () => {
    const out = await envelope(
      { output: [pii({ action: 'block' })] },
      textParts(['Write to jane.d', 'oe@corp.io today.']),
    );
    expect(out.envelope).toEqual([WITHOUT_ID, 'finish']);
    expect(out.json).not.toContain(RESPONSE_ID);
  });

  it('a parallel input trip (the provider stored the prompt it blocked): no id', async () => {
    const judge = defineGuardrail({ name: 'late', parallel: true, check: async () => block() });
    const out = await envelope({ input: [judge] }, textParts(['Sure.']));
    expect(out.envelope).toEqual([WITHOUT_ID, 'finish']);
    expect(out.json).not.toContain(RESPONSE_ID);
  });

  it("toolCalls only (no text judged): a redacted call's response never gets its id, a passing one does", async () => {
    const call = (card: string): LanguageModelV4StreamPart => ({
      type: 'tool-call',
      toolCallId: 'c1',
      toolName: 'save',
      input: JSON.stringify({ card }),
    });
    const options = { toolCalls: [pii({ action: 'redact' })] };
    const redacted = await envelope(options, [call('4111 1111 1111 1111')]);
    expect(redacted.envelope).toEqual([WITHOUT_ID, 'finish']);
    expect(redacted.json).not.toContain(RESPONSE_ID);
    const passing = await envelope(options, [call('none')]);
    expect(passing.envelope).toEqual([
      WITHOUT_ID,
      { type: 'response-metadata', id: RESPONSE_ID },
      'finish',
    ]);
  });

  it('a middleware that judges nothing of the response hands the part on as it came', async () => {
    const out = await envelope({ input: [pii({ action: 'redact' })] }, textParts(['Hi.']));
    expect(out.envelope).toEqual([{ ...WITHOUT_ID, id: RESPONSE_ID }, 'finish']);
  });
});

describe("hold mode with retry: a blocked attempt's id never goes", () => {
  /** A model whose first stream is `first` with its id, whose retry is `second` with `secondId` (or none). */
  function retriedModel(first: string, second: string, secondId: string | undefined) {
    let calls = 0;
    return new MockLanguageModelV4({
      doStream: async () => {
        const [text, id] = calls++ === 0 ? [first, RESPONSE_ID] : [second, secondId];
        return streamOf([
          { type: 'response-metadata', ...(id !== undefined && { id }), modelId: 'm' },
          ...textParts([text]),
        ]);
      },
    });
  }
  const options = { output: [blockWord('acme')], retry: { maxAttempts: 2 } };
  const META = { type: 'response-metadata', modelId: 'm' };

  it("a passing retry that sends no id of its own: none goes, not the blocked attempt's", async () => {
    const out = await envelopeOf(options, retriedModel('Buy Acme.', 'Our product.', undefined));
    expect(out.text).toBe('Our product.');
    // Each attempt's metadata without its id (the retry's last, as the AI SDK reads it).
    expect(out.envelope).toEqual([META, META, 'finish']);
    expect(out.json).not.toContain(RESPONSE_ID);
  });

  it('a passing retry with its own id: that id goes', async () => {
    const out = await envelopeOf(options, retriedModel('Buy Acme.', 'Our product.', 'resp_2'));
    expect(out.envelope).toEqual([
      META,
      META,
      { type: 'response-metadata', id: 'resp_2' },
      'finish',
    ]);
    expect(out.json).not.toContain(RESPONSE_ID);
  });
});

describe('generate: a parallel input trip drops the response id', () => {
  it("response.id is the AI SDK's, the metadata has no responseId", async () => {
    const judge = defineGuardrail({ name: 'late', parallel: true, check: async () => block() });
    const result = await generateText({
      model: wrapLanguageModel({
        model: new MockLanguageModelV4({
          doGenerate: async () =>
            generateResult('Sure.', {
              response: { id: RESPONSE_ID },
              providerMetadata: { openai: { responseId: RESPONSE_ID } },
            }),
        }),
        middleware: guardrails({ input: [judge] }),
      }),
      prompt: 'Who?',
    });
    expect(result.finishReason).toBe('content-filter');
    expect(result.response.id).toMatch(/^aitxt-/);
    expect(result.providerMetadata?.openai).toEqual({});
  });
});

// A tool call `toolCalls` rewrote kept its `providerMetadata.openai.itemId`.
// For OpenAI's provider-defined and custom tools (shell, apply_patch,
// computer, `openai.tools.customTool`) with `store`, the next step sends
// that item by reference (`item_reference`), not the arguments as judged:
// the provider reads back the call as the model wrote it. A rewritten call
// loses its provider data; a call passed as written keeps it.
describe('a tool call toolCalls rewrote loses its provider item id', () => {
  const CARD = '4111 1111 1111 1111';
  const callOf = (card: string) =>
    ({
      type: 'tool-call',
      toolCallId: 'c1',
      toolName: 'save',
      input: JSON.stringify({ card }),
      providerMetadata: { openai: { itemId: 'ctc_1' } },
    }) as const;
  const middleware = () => guardrails({ toolCalls: [pii({ action: 'redact' })] });
  const toolCallsFinish = { unified: 'tool-calls', raw: 'tool_calls' } as const;

  for (const [label, card, expected] of [
    ['redacted', CARD, { toolCallId: 'c1', toolName: 'save', input: '{"card":"[CREDIT_CARD]"}' }],
    [
      'passing',
      'none',
      {
        toolCallId: 'c1',
        toolName: 'save',
        input: '{"card":"none"}',
        providerMetadata: { openai: { itemId: 'ctc_1' } },
      },
    ],
  ] as const) {
    it(`generate, ${label}`, async () => {
      const model = wrapLanguageModel({
        model: new MockLanguageModelV4({
          doGenerate: async () => generateResult([callOf(card)], { finishReason: toolCallsFinish }),
        }),
        middleware: middleware(),
      });
      const result = await model.doGenerate({
        prompt: [{ role: 'user', content: [{ type: 'text', text: 'Save it.' }] }],
      });
      expect(result.content).toEqual([{ type: 'tool-call', ...expected }]);
    });

    it(`stream, ${label}`, async () => {
      const model = wrapLanguageModel({
        model: new MockLanguageModelV4({
          doStream: async () => streamOf([callOf(card)], { finishReason: toolCallsFinish }),
        }),
        middleware: middleware(),
      });
      const { stream } = await model.doStream({
        prompt: [{ role: 'user', content: [{ type: 'text', text: 'Save it.' }] }],
      });
      const calls = (await readAll(stream)).filter(part => part.type === 'tool-call');
      expect(calls).toEqual([{ type: 'tool-call', ...expected }]);
    });
  }
});
