import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { generateResult, withoutTiming } from '../../test/helpers';
import { pii } from '../guards/pii/pii';
import { getGuardrailOutcome } from './get-guardrail-outcome';
import { guardrails } from './guardrails-middleware';

/*
 * Round 21: a file given by URL passed the input guardrails unread. The AI
 * SDK downloads before the call only the URLs the model does not support
 * (`supportedUrls`); one it supports (Gemini's `*`, say) goes on as a URL
 * and the provider fetches it after the guardrails ran, so a `text/plain`
 * file at a URL holding a card reached the model unjudged. The middleware now
 * takes text types out of the model's `supportedUrls`: the SDK downloads
 * such a file, and its bytes are judged like an attached file's. A text
 * file that still reaches the middleware as a URL fails closed.
 */

const CARD_TEXT = 'card 4111 1111 1111 1111';
const URL_TEXT = new URL('https://files.example.com/notes.txt');
const URL_IMAGE = new URL('https://files.example.com/cat.png');

/** A model that supports every https URL, as a provider fetching files itself does. */
function fetchingModel() {
  return new MockLanguageModelV4({
    supportedUrls: { '*': [/^https:\/\//] },
    doGenerate: async () => generateResult('ok'),
  });
}

async function run(mediaType: string, url: URL) {
  const mock = fetchingModel();
  const downloaded: string[] = [];
  const result = await generateText({
    model: wrapLanguageModel({
      model: mock,
      middleware: guardrails({ input: [pii({ action: 'redact' })] }),
    }),
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Summarise the file.' },
          { type: 'file', mediaType, data: url },
        ],
      },
    ],
    // No network: the SDK's download is answered here, for the URLs it fetches.
    experimental_download: async requests =>
      requests.map(({ url: requested, isUrlSupportedByModel }) => {
        if (isUrlSupportedByModel) return null;
        downloaded.push(requested.toString());
        return { data: new TextEncoder().encode(CARD_TEXT), mediaType };
      }),
  });
  const file = (
    mock.doGenerateCalls[0]!.prompt[0]!.content as unknown as Array<{
      data: unknown;
    }>
  )[1]!;
  const data = (file.data as { type: string; data?: Uint8Array; url?: URL }) ?? {};
  return {
    downloaded,
    sent:
      data.type === 'data'
        ? new TextDecoder().decode(data.data)
        : data.type === 'url'
          ? String(data.url)
          : data.type,
    records: withoutTiming((await getGuardrailOutcome(result))?.records ?? []).map(r => [
      r.guardrail,
      r.status,
      r.part,
    ]),
  };
}

describe('a file given by URL to a model that fetches URLs itself', () => {
  it('a text file is downloaded by the SDK before the call and judged: the card is redacted', async () => {
    expect(await run('text/plain', URL_TEXT)).toEqual({
      downloaded: [URL_TEXT.toString()],
      sent: 'card [CREDIT_CARD]',
      records: [
        ['pii', 'passed', undefined],
        ['pii', 'modified', 'file'],
      ],
    });
  });

  it('an image still goes to the provider as its URL', async () => {
    expect(await run('image/png', URL_IMAGE)).toEqual({
      downloaded: [],
      sent: URL_IMAGE.toString(),
      records: [['pii', 'passed', undefined]],
    });
  });

  it('a text file that reaches the middleware as a URL fails closed (a direct call)', async () => {
    const mock = fetchingModel();
    const model = wrapLanguageModel({
      model: mock,
      middleware: guardrails({ input: [pii({ action: 'redact' })] }),
    });
    const params: LanguageModelV4CallOptions = {
      prompt: [
        {
          role: 'user',
          content: [
            { type: 'file', mediaType: 'text/plain', data: { type: 'url', url: URL_TEXT } },
          ],
        },
      ],
    };
    const result = await model.doGenerate(params);
    expect(mock.doGenerateCalls).toHaveLength(0);
    expect(result.finishReason.unified).toBe('content-filter');
  });
});
