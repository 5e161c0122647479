import type { LanguageModelV4Content } from '@ai-sdk/provider';
import { generateText, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import {
  generateResult,
  serialisedWithoutTiming,
  streamOf,
  withoutTiming,
} from '../../test/helpers';
import {
  streamedFileOutcome,
  toolFileSent,
  toolOutputSent,
  userFileSent,
} from '../../test/helpers/tool-file';
import type { GuardrailEvent } from '../core/types';
import { pii } from '../guards/pii/pii';
import { getGuardrailOutcome } from './get-guardrail-outcome';
import { guardrails } from './guardrails-middleware';

/**
 * Round 25. A media type's parameters were judged as written only, so a
 * value written to read otherwise decoded passed `pii`: an RFC 2231 / 8187
 * extended value (`name*=utf-8''4111%201111%201111%201111`), continuations
 * (`title*0*=…; title*1*=…`) and a quoted string's escapes
 * (`name="41\11 1111 1111 1111"`). Now the judged text is the media type as
 * written and a line of it with its parameters decoded; one that cannot be
 * decoded fails closed. And `text/1.2.3.4` (an address as the subtype) with
 * no parameter was a plain type, never judged.
 */
const bytes = new TextEncoder().encode('meeting at noon');
const EXTENDED = "text/plain; name*=utf-8''4111%201111%201111%201111";
const CONTINUED = "text/plain; title*0*=utf-8''4111%201111; title*1*=%201111%201111";
const ESCAPED = 'text/plain; name="41\\11 1111 1111 1111"';
const UNDECODABLE = "text/plain; name*=koi8-r''%34%31";

async function promptFileSent(mediaType: string) {
  const { mediaType: sent, records } = await userFileSent(mediaType);
  return { mediaType: sent, records };
}

/** The card's record, found in the decoded line of the judged text. */
const cardRecord = (mediaType: string, decodedName: string, kind = 'input') => {
  const start = mediaType.length + 1 + `text/plain; ${decodedName}=`.length;
  return {
    guardrail: 'pii',
    kind,
    status: 'modified',
    part: 'file',
    info: { types: ['CREDIT_CARD'], spans: [{ type: 'CREDIT_CARD', start, end: start + 19 }] },
  };
};

describe("a user file's media type is judged with its parameters decoded", () => {
  it('an extended value, continuations, a quoted escape: sent on as text/plain', async () => {
    expect(await promptFileSent(EXTENDED)).toEqual({
      mediaType: 'text/plain',
      records: [cardRecord(EXTENDED, 'name')],
    });
    expect(await promptFileSent(CONTINUED)).toEqual({
      mediaType: 'text/plain',
      records: [cardRecord(CONTINUED, 'title')],
    });
    expect(await promptFileSent(ESCAPED)).toEqual({
      mediaType: 'text/plain',
      records: [cardRecord(ESCAPED, 'name')],
    });
  });

  it('an RFC 2047 encoded word (base64 or quoted), as mail readers show a name', async () => {
    const base64 = 'text/plain; name="=?utf-8?B?NDExMSAxMTExIDExMTEgMTExMQ==?="';
    expect(await promptFileSent(base64)).toEqual({
      mediaType: 'text/plain',
      records: [cardRecord(base64, 'name')],
    });
    const quoted = 'text/plain; name==?utf-8?Q?4111_1111_1111=201111?=';
    expect(await promptFileSent(quoted)).toEqual({
      mediaType: 'text/plain',
      records: [cardRecord(quoted, 'name')],
    });
    expect((await promptFileSent('text/plain; name="=?utf-8?B?!!!?="')).records).toEqual([
      {
        guardrail: 'input-unreadable',
        kind: 'input',
        status: 'error',
        reason:
          'message 0 (user) was not judged: a media type parameter cannot be decoded: an encoded word (=?…?=) in it is not base64 or quoted text',
        part: 'file',
      },
    ]);
  });

  it('a parameter that cannot be decoded fails closed, the value not in the reason', async () => {
    const sent = await promptFileSent(UNDECODABLE);
    expect(sent.mediaType).toBeUndefined();
    expect(sent.records).toEqual([
      {
        guardrail: 'input-unreadable',
        kind: 'input',
        status: 'error',
        reason:
          'message 0 (user) was not judged: a media type parameter cannot be decoded: its charset is not UTF-8, US-ASCII or ISO-8859-1',
        part: 'file',
      },
    ]);
  });

  it('an address as the subtype, with no parameter: judged, sent as application/octet-stream', async () => {
    expect(await promptFileSent('text/1.2.3.4')).toEqual({
      mediaType: 'application/octet-stream',
      records: [
        {
          guardrail: 'pii',
          kind: 'input',
          status: 'modified',
          part: 'file',
          info: { types: ['IP_ADDRESS'], spans: [{ type: 'IP_ADDRESS', start: 5, end: 12 }] },
        },
      ],
    });
  });

  it('a parameter that decodes to itself adds no second line; plain types stay unjudged', async () => {
    expect(await promptFileSent('text/plain; charset=utf-8')).toEqual({
      mediaType: 'text/plain; charset=utf-8',
      records: [],
    });
    expect(await promptFileSent('video/mp4')).toEqual({ mediaType: 'video/mp4', records: [] });
  });
});

type FilePart = Extract<LanguageModelV4Content, { type: 'file' }>;
const file = (mediaType: string): FilePart => ({
  type: 'file',
  mediaType,
  data: { type: 'data', data: bytes },
});

describe("a generated file's media type is judged with its parameters decoded", () => {
  it('generateText: the card never reaches result.files; an undecodable one is withheld', async () => {
    const result = await generateText({
      model: wrapLanguageModel({
        model: new MockLanguageModelV4({
          doGenerate: async () =>
            generateResult([
              { type: 'text', text: 'Files.' },
              file(EXTENDED),
              file(UNDECODABLE),
              file('text/1.2.3.4'),
            ]),
        }),
        middleware: guardrails({ output: [pii({ action: 'redact' })] }),
      }),
      prompt: 'write the files',
    });
    expect(result.files.map(f => f.mediaType)).toEqual(['text/plain', 'application/octet-stream']);
    const records = withoutTiming((await getGuardrailOutcome(result))?.records);
    expect(records.filter(record => record.status !== 'passed')).toEqual([
      { ...cardRecord(EXTENDED, 'name', 'output') },
      {
        guardrail: 'output-unreadable',
        kind: 'output',
        status: 'error',
        reason:
          'file 1 of the response was withheld unjudged: a media type parameter cannot be decoded: its charset is not UTF-8, US-ASCII or ISO-8859-1',
        part: 'file',
      },
      {
        guardrail: 'pii',
        kind: 'output',
        status: 'modified',
        part: 'file',
        info: { types: ['IP_ADDRESS'], spans: [{ type: 'IP_ADDRESS', start: 5, end: 12 }] },
      },
    ]);
  });

  it('a media type longer than a file text may be is withheld unjudged (streamText)', async () => {
    const long = `text/plain; name=${'x'.repeat(1_000_000)}`;
    expect(await streamedFileOutcome(bytes, long)).toEqual({
      files: [],
      records: [
        {
          guardrail: 'output-unreadable',
          kind: 'output',
          status: 'error',
          reason:
            'file 0 of the response was withheld unjudged: its media type is longer than 1000000 characters',
          part: 'file',
        },
      ],
    });
  });

  it('streamText: continuations and a quoted escape', async () => {
    const result = streamText({
      model: wrapLanguageModel({
        model: new MockLanguageModelV4({
          doStream: async () => streamOf([file(CONTINUED), file(ESCAPED)]),
        }),
        middleware: guardrails({ output: [pii({ action: 'redact' })] }),
      }),
      prompt: 'write the files',
    });
    const types: string[] = [];
    for await (const part of result.fullStream) {
      if (part.type === 'file') types.push(part.file.mediaType);
    }
    expect(types).toEqual(['text/plain', 'text/plain']);
    // Without durationMs: a measured float may hold a hidden value's digits by chance.
    expect(serialisedWithoutTiming(await result.response)).not.toContain('4111');
  });
});

describe("a tool's file media type is judged with its parameters decoded (guardTools)", () => {
  it('redacted: sent on as text/plain; undecodable: withheld; an address subtype', async () => {
    expect(await toolFileSent(bytes, EXTENDED)).toEqual({ mediaType: 'text/plain', data: bytes });
    expect(await toolFileSent(bytes, ESCAPED)).toEqual({ mediaType: 'text/plain', data: bytes });
    expect((await toolFileSent(bytes, 'text/1.2.3.4')).mediaType).toBe('application/octet-stream');
    const events: GuardrailEvent[] = [];
    expect(await toolOutputSent(bytes, UNDECODABLE, events)).toEqual({
      type: 'text',
      value: 'The result of the "report" tool call was withheld by a guardrail.',
    });
    const refused = events.filter(({ record }) => record.status !== 'passed');
    expect(refused.map(({ record }) => [record.guardrail, record.status, record.reason])).toEqual([
      [
        'pii',
        'error',
        "the tool's model output was withheld: content part 0 (a file of type text/plain): a media type parameter cannot be decoded: its charset is not UTF-8, US-ASCII or ISO-8859-1",
      ],
    ]);
  });
});
