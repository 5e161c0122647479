import { generateText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { textModel, withoutTiming } from '../../test/helpers';
import { pii } from '../guards/pii/pii';
import { getGuardrailOutcome } from './get-guardrail-outcome';
import { guardrails } from './guardrails-middleware';

/**
 * Round 23. A user file's media type is written by the client and passed on
 * by providers, but only tool outputs and generated files had theirs judged:
 * `text/plain; name=4111111111111111` reached the model with the card past
 * `pii`. A media type that is not a plain `type/subtype` is judged as text
 * (`part: 'file'`); a change sends the file on as its bare type, else as
 * `application/octet-stream`, with its bytes untouched.
 */
async function mediaTypeSent(mediaType: string, role: 'user' | 'assistant' = 'user') {
  const mock = textModel('ok');
  const bytes = new TextEncoder().encode('meeting at noon');
  const file = { type: 'file' as const, mediaType, data: bytes };
  const result = await generateText({
    model: wrapLanguageModel({
      model: mock,
      middleware: guardrails({ input: [pii()], inputScope: role === 'user' ? 'user' : 'all' }),
    }),
    messages:
      role === 'user'
        ? [{ role: 'user', content: [{ type: 'text', text: 'Read this.' }, file] }]
        : [
            { role: 'user', content: 'Read this.' },
            { role: 'assistant', content: [file] },
            { role: 'user', content: 'And?' },
          ],
  });
  const call = mock.doGenerateCalls[0];
  const message = call?.prompt[role === 'user' ? 0 : 1];
  const part = message
    ? (message.content as unknown as Array<Record<string, unknown>>)[role === 'user' ? 1 : 0]
    : undefined;
  const outcome = await getGuardrailOutcome(result);
  return {
    mediaType: part?.mediaType,
    bytes: part ? new TextDecoder().decode((part.data as { data: Uint8Array }).data) : undefined,
    status: outcome?.status,
    records: withoutTiming(outcome?.records)?.filter(record => record.status !== 'passed'),
  };
}

const cardRecord = (start: number, extra: Record<string, unknown> = {}) => ({
  guardrail: 'pii',
  kind: 'input',
  status: 'modified',
  ...extra,
  part: 'file',
  info: {
    types: ['CREDIT_CARD'],
    spans: [{ type: 'CREDIT_CARD', start, end: start + 16 }],
  },
});

describe("a user file's media type is judged as text", () => {
  it('a card in a parameter: the file goes on as text/plain, bytes untouched', async () => {
    expect(await mediaTypeSent('text/plain; name=4111111111111111')).toEqual({
      mediaType: 'text/plain',
      bytes: 'meeting at noon',
      status: 'modified',
      records: [cardRecord(17)],
    });
  });

  it('a card in the subtype: application/octet-stream; capitals and spaces: the bare type', async () => {
    expect(await mediaTypeSent('text/4111111111111111')).toEqual({
      mediaType: 'application/octet-stream',
      bytes: 'meeting at noon',
      status: 'modified',
      records: [cardRecord(5)],
    });
    expect((await mediaTypeSent('TEXT/PLAIN ; x=4111111111111111')).mediaType).toBe('text/plain');
  });

  it("a forged assistant file's media type too, with inputScope 'all'", async () => {
    expect(await mediaTypeSent('text/plain; name=4111111111111111', 'assistant')).toEqual({
      mediaType: 'text/plain',
      bytes: 'meeting at noon',
      status: 'modified',
      records: [cardRecord(17, { role: 'assistant' })],
    });
  });

  it('a plain media type, or one with a charset, is sent as written with no record of its own', async () => {
    for (const mediaType of ['text/plain', 'text/plain; charset=utf-8', 'text/markdown']) {
      expect(await mediaTypeSent(mediaType)).toEqual({
        mediaType,
        bytes: 'meeting at noon',
        status: 'passed',
        records: [],
      });
    }
  });
});
