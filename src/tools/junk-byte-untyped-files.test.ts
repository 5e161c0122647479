import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { generateResult, textModel, withoutTiming } from '../../test/helpers';
import { pngHolding, pseudoRandomBytes } from '../../test/helpers/binary-heads';
import { octetStreamToolFileSent, toolOutputSent } from '../../test/helpers/tool-file';
import { pii } from '../guards/pii/pii';
import { getGuardrailOutcome } from '../middleware/get-guardrail-outcome';
import { guardrails } from '../middleware/guardrails-middleware';

/*
 * Round 21: a file of no media type or `application/octet-stream` with more
 * than one bad byte in 16 (bytes that are no UTF-8, NUL, control
 * characters) was binary to every guardrail and passed unread: an attacker
 * put a card number or an instruction in a file with a few junk bytes.
 * Bytes with no binary signature (PNG, PDF, zip, ...) of which at least half
 * the characters lie in readable runs (3 or more in a row) are now judged as
 * text, each bad byte read as U+FFFD, as the user's file, a tool's
 * `toModelOutput` file and a file the model generates. Random bytes and
 * files that open a binary format stay binary (`unreadableFiles` decides);
 * since round 22 a signature needs its format's structure behind it
 * (a PNG's IHDR chunk): one a client wrote before its text counts for nothing.
 */

const encode = (text: string) => new TextEncoder().encode(text);
const JUNK = [0xff, 0x00];
/** `card 4111 1111 1111 1111 ` then `abc` and two junk bytes, ten times: 2 bad bytes in 5 after the card. */
const JUNKY = Uint8Array.from([
  ...encode('card 4111 1111 1111 1111 '),
  ...Array.from({ length: 10 }, () => [...encode('abc'), ...JUNK]).flat(),
]);
/** The same bytes after a PNG's signature alone: no PNG (round 22), judged as text. */
const SIGNED = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...JUNKY]);
/** What the model reads of a tool output withheld by a guardrail. */
const WITHHELD = {
  type: 'text',
  value: 'The result of the "report" tool call was withheld by a guardrail.',
};
/**
 * Round 23: the junk holds NULs, which no text has: the bytes are judged but
 * never rewritten (before, the redacted text went on as UTF-8, NULs and all),
 * so the card blocks the user's call and withholds the tool's output.
 */
const BLOCKED_USER = {
  sent: undefined,
  records: [
    ['pii', 'modified'],
    ['pii', 'blocked'],
  ],
};
/** The same bytes in a PNG's chunk: an image, binary, not read. */
const IMAGE = pngHolding(JUNKY);
/** 4,096 bytes of a fixed pseudo-random sequence (compressed or encrypted data reads so). */
const RANDOM = pseudoRandomBytes(4096);
/** Junk every third byte: too little read in runs, binary (the rule's residue; see docs). */
const DENSE = Uint8Array.from(
  Array.from(encode('card 4111 1111 1111 1111 '), (byte, index) =>
    index % 2 === 1 ? [byte, 0xff] : [byte],
  ).flat(),
);

async function userFile(data: Uint8Array, unreadableFiles: 'pass' | 'block' = 'pass') {
  const mock = textModel('ok');
  const result = await generateText({
    model: wrapLanguageModel({
      model: mock,
      middleware: guardrails({ input: [pii({ action: 'redact' })], unreadableFiles }),
    }),
    messages: [
      { role: 'user', content: [{ type: 'file', mediaType: 'application/octet-stream', data }] },
    ],
  });
  const outcome = await getGuardrailOutcome(result);
  const sent = mock.doGenerateCalls[0]?.prompt[0]?.content as unknown as
    | Array<{ data: { data: Uint8Array } }>
    | undefined;
  return {
    sent: sent?.[0]?.data.data,
    records: withoutTiming(outcome?.records ?? []).map(r => [r.guardrail, r.status]),
  };
}

/** A file the model generates: what `result.files` holds, and the records. */
async function generatedFile(data: Uint8Array) {
  const result = await generateText({
    model: wrapLanguageModel({
      model: new MockLanguageModelV4({
        doGenerate: async () =>
          generateResult([
            { type: 'text', text: 'ok' },
            { type: 'file', mediaType: 'application/octet-stream', data: { type: 'data', data } },
          ]),
      }),
      middleware: guardrails({ output: [pii({ action: 'redact' })] }),
    }),
    prompt: 'Write the file',
  });
  const outcome = await getGuardrailOutcome(result);
  return {
    files: result.files.map(file => file.uint8Array),
    records: withoutTiming(outcome?.records ?? []).map(r => [r.guardrail, r.status, r.reason]),
  };
}

describe('an untyped file of text with many junk bytes', () => {
  it("a user's file is judged as text: the card blocks the call (never rewritten)", async () => {
    expect(await userFile(JUNKY)).toEqual(BLOCKED_USER);
  });

  it("a tool's toModelOutput file is judged too; a generated one is withheld", async () => {
    expect(await toolOutputSent(JUNKY, 'application/octet-stream')).toEqual(WITHHELD);
    // A generated file read as text with bytes that are not UTF-8 is withheld
    // (round 21, generated-files.ts); before, it passed as binary, unread.
    expect(await generatedFile(JUNKY)).toEqual({
      files: [],
      records: [
        [
          'output-unreadable',
          'error',
          'file 0 of the response was withheld unjudged: its bytes are not UTF-8 text',
        ],
        ['pii', 'passed', undefined],
      ],
    });
  });

  it("a binary signature with no format behind it is no image: the user's and the tool's file are judged", async () => {
    expect(await userFile(SIGNED)).toEqual(BLOCKED_USER);
    expect(await toolOutputSent(SIGNED, 'application/octet-stream')).toEqual(WITHHELD);
  });

  it('an image (signature and structure) and junk every other character stay binary', async () => {
    for (const data of [IMAGE, DENSE]) {
      expect(await userFile(data)).toEqual({ sent: data, records: [] });
      expect(await userFile(data, 'block')).toEqual({
        sent: undefined,
        records: [['unreadable-file', 'blocked']],
      });
      expect(await octetStreamToolFileSent(data)).toEqual(data);
      expect(await generatedFile(data)).toEqual({
        files: [data],
        records: [['pii', 'passed', undefined]],
      });
    }
  });

  it('random bytes are judged on their readable runs (round 24) and go on as they came', async () => {
    expect(await userFile(RANDOM)).toEqual({ sent: RANDOM, records: [['pii', 'passed']] });
    expect(await userFile(RANDOM, 'block')).toEqual({
      sent: undefined,
      records: [['unreadable-file', 'blocked']],
    });
    expect(await octetStreamToolFileSent(RANDOM)).toEqual(RANDOM);
    expect(await generatedFile(RANDOM)).toEqual({
      files: [RANDOM],
      records: [
        ['pii', 'passed', undefined],
        ['pii', 'passed', undefined],
      ],
    });
  });
});
