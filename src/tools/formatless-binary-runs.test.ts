import { generateText, type ModelMessage, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { serialisedWithoutTiming, textModel, withoutTiming } from '../../test/helpers';
import { realJpeg, realPdf, realPng, realZip } from '../../test/helpers/binary-files';
import { pseudoRandomBytes } from '../../test/helpers/binary-heads';
import { generatedFileOutcome, toolFileSent, toolOutputSent } from '../../test/helpers/tool-file';
import { pii } from '../guards/pii/pii';
import { getGuardrailOutcome } from '../middleware/get-guardrail-outcome';
import { guardrails } from '../middleware/guardrails-middleware';

// Round 24: whether a file of no text type was text was told from the whole
// file, so a short text between kilobytes of random bytes was binary and
// passed unread: `card 4111 1111 1111 1111` there reached the model (as a
// tool's file, a user's file, a generated file) past `pii`, though a model
// reading the bytes as text reads the card. A file that opens no binary
// format and is not text is judged on its readable runs, as `strings` reads
// it; a change never rewrites its bytes (withheld, or the call blocked).

const CARD = '4111 1111 1111 1111';
const utf8 = (text: string) => new TextEncoder().encode(text);
const joined = (...parts: ArrayLike<number>[]) =>
  Uint8Array.from(parts.flatMap(part => Array.from(part)));
/** Random bytes, a short text, random bytes. */
const hidden = (text: string) =>
  joined(pseudoRandomBytes(3000), utf8(` ${text} `), pseudoRandomBytes(3000, 0x9e3779b9));
/** What the model reads of a tool output withheld by a guardrail. */
const WITHHELD = {
  type: 'text',
  value: 'The result of the "report" tool call was withheld by a guardrail.',
};

describe('a card between random bytes', () => {
  it("as a tool's file of any type but text is withheld, never rewritten", async () => {
    for (const type of ['application/octet-stream', 'image/png', 'application/x-data']) {
      expect(await toolOutputSent(hidden(`card ${CARD}`), type)).toEqual(WITHHELD);
    }
    // Past the 65,536 bytes probed first, and as base64: the whole file's runs.
    const long = joined(pseudoRandomBytes(200_000), utf8(` card ${CARD} `), pseudoRandomBytes(9));
    expect(await toolOutputSent(long, 'application/x-data')).toEqual(WITHHELD);
    expect(await toolOutputSent(Buffer.from(long).toString('base64'), 'image/png')).toEqual(
      WITHHELD,
    );
  });

  it("as a user's file blocks the call: the model is never called", async () => {
    const mock = textModel('ok');
    const messages: ModelMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Read this.' },
          { type: 'file', mediaType: 'application/x-data', data: hidden(`card ${CARD}`) },
        ],
      },
    ];
    const result = await generateText({
      model: wrapLanguageModel({
        model: mock,
        middleware: guardrails({ input: [pii({ action: 'redact' })] }),
      }),
      messages,
    });
    expect(mock.doGenerateCalls).toEqual([]);
    expect(result.finishReason).toBe('content-filter');
    const records = withoutTiming((await getGuardrailOutcome(result))?.records);
    expect(records.map(r => [r.guardrail, r.status, r.part, r.reason])).toEqual([
      ['pii', 'passed', undefined, undefined],
      ['pii', 'modified', 'file', undefined],
      [
        'pii',
        'blocked',
        'file',
        'modified the text read from a file of message 0 that is not text, whose bytes are never rewritten: blocked instead',
      ],
    ]);
    expect(serialisedWithoutTiming(records)).not.toContain('4111');
  });

  it('as a generated file is withheld', async () => {
    expect(await generatedFileOutcome(hidden(`card ${CARD}`), 'application/octet-stream')).toEqual({
      files: [],
      records: [
        ['pii', 'modified'],
        ['output-unreadable', 'error'],
        ['pii', 'passed'],
      ],
    });
  });
});

describe('ordinary binaries', () => {
  it('random bytes, a PNG, a JPEG, a zip and a PDF with nothing in them go on as they came', async () => {
    const files: Array<[string, Uint8Array]> = [
      ['application/octet-stream', pseudoRandomBytes(20_000)],
      ['image/png', realPng(64, 64)],
      ['image/jpeg', realJpeg([], 20_000)],
      ['application/zip', realZip([{ name: 'a.bin', data: pseudoRandomBytes(8000, 7) }])],
      ['application/pdf', realPdf('BT /F1 12 Tf 72 712 Td (Quarterly figures) Tj ET')],
    ];
    for (const [type, data] of files) {
      expect(await toolFileSent(data, type)).toEqual({ mediaType: type, data });
    }
  });
});
