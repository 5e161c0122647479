import { generateText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { blockWord, textModel, withoutTiming } from '../../test/helpers';
import { pseudoRandomBytes } from '../../test/helpers/binary-heads';
import { userFileSent } from '../../test/helpers/tool-file';
import { pii } from '../guards/pii/pii';
import { getGuardrailOutcome } from './get-guardrail-outcome';
import { guardrails } from './guardrails-middleware';

/**
 * Round 26. What round 25 left in a media type:
 * - an address's short forms as the subtype (`text/0x7f.1`, `text/10.1`:
 *   127.0.0.1 and 10.0.0.1 as inet_aton reads them) hold fewer than four
 *   digits, so the type was plain: never judged, and quoted in reasons;
 * - an RFC 2047 encoded word inside an extended value
 *   (`name*=utf-8''%3D%3Futf-8%3FB%3F…`) was read as `=?utf-8?B?…?=`;
 * - a name given twice (`name*=…; name=x`) kept only its last value in the
 *   decoded reading, so the first's decoded card was never judged.
 */
const userFile = userFileSent;

/** The card's record, found in the decoded line (`text/plain; name=4111…`) of the judged text. */
const cardRecord = (mediaType: string) => {
  const start = mediaType.length + 1 + 'text/plain; name='.length;
  return {
    guardrail: 'pii',
    kind: 'input',
    status: 'modified',
    part: 'file',
    info: { types: ['CREDIT_CARD'], spans: [{ type: 'CREDIT_CARD', start, end: start + 19 }] },
  };
};

describe('a short address form as the subtype is no plain type', () => {
  it("a user's file: its media type is judged (a guardrail blocks the address)", async () => {
    for (const mediaType of ['text/0x7f.1', 'text/10.1']) {
      const word = mediaType.slice(5).replace('.', '\\.');
      expect(await userFile(mediaType, blockWord(word, 'no-address'))).toEqual({
        calls: 0,
        mediaType: undefined,
        records: [
          {
            guardrail: 'no-address',
            kind: 'input',
            status: 'blocked',
            severity: 'critical',
            reason: `matched ${word}`,
            message: `"${word}" is not allowed.`,
            part: 'file',
          },
        ],
      });
    }
  });

  it("a user's gzip file refused unread: the reason does not quote the type", async () => {
    const gzip = Uint8Array.from([0x1f, 0x8b, 8, 0, ...pseudoRandomBytes(64)]);
    const mock = textModel('ok');
    const result = await generateText({
      model: wrapLanguageModel({
        model: mock,
        middleware: guardrails({ input: [pii()], unreadableFiles: 'block' }),
      }),
      messages: [
        { role: 'user', content: [{ type: 'file', mediaType: 'application/0x7f.1', data: gzip }] },
      ],
    });
    expect(mock.doGenerateCalls).toHaveLength(0);
    expect(withoutTiming((await getGuardrailOutcome(result))?.records)).toEqual([
      {
        guardrail: 'unreadable-file',
        kind: 'input',
        status: 'blocked',
        reason:
          "message 0 (user) was not judged: a file without a plain media type, which no guardrail reads (unreadableFiles: 'block')",
        part: 'file',
      },
    ]);
  });
});

describe("a media type's parameters: encoded words inside extended values, names given twice", () => {
  it('an encoded word inside name*= is read decoded twice, as a mail reader shows it', async () => {
    const mediaType =
      "text/plain; name*=utf-8''%3D%3Futf-8%3FB%3FNDExMSAxMTExIDExMTEgMTExMQ%3D%3D%3F%3D";
    expect(await userFile(mediaType)).toEqual({
      calls: 1,
      mediaType: 'text/plain',
      records: [cardRecord(mediaType)],
    });
  });

  it('name*= then name=: both values are in the decoded reading', async () => {
    for (const mediaType of [
      "text/plain; name*=utf-8''4111%201111%201111%201111; name=x",
      "text/plain; name*0*=utf-8''4111%201111; name*1*=%201111%201111; name=x",
    ]) {
      expect(await userFile(mediaType)).toEqual({
        calls: 1,
        mediaType: 'text/plain',
        records: [cardRecord(mediaType)],
      });
    }
  });
});
