import { generateText, isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { promptSentWithRecords, windowAndGenerateTexts } from '../../../test/helpers';
import { turnsModel } from '../../../test/helpers/turns-model';
import { guardTools } from '../../tools/guard-tool';
import { findPii } from './find-pii-bundled';
import { pii } from './pii';

/**
 * Round 19: values that passed `pii()` in round 18.
 * - A phone number after a phone word and a `-` with blanks before the dash
 *   (`tel\u00a0-415-555-0132`; NFKC makes the NBSP a space), or after a
 *   phone word and `_` (`tel_415-555-0132`, a field name).
 * - A card whose groups mix separators (`4111_1111-1111_1111`), read as a
 *   card only in a card's layout (4-4-4-4, 4-4-4-4-3, 4-6-5, 4-6-4).
 * - An e-mail address with two blanks around its `@` (`jane.doe  @  corp.io`),
 *   under the shape rule of one blank (a local part holding `.`, `_`, `+`,
 *   `-`, `%` or a digit when a blank is before the `@`).
 * - An opening quote before an address (`email = 'jane@corp.io'`) was taken
 *   into the span: the redaction read `email = [EMAIL_ADDRESS]'`.
 */

const found = (text: string) => findPii(text).map(span => text.slice(span.start, span.end));

describe('phone numbers after a label with blanks or _ before the number', () => {
  it('finds them without the label', () => {
    expect(found('tel\u00a0-415-555-0132')).toEqual(['415-555-0132']);
    expect(found('tel  -415-555-0132')).toEqual(['415-555-0132']);
    expect(found('tel_415-555-0132')).toEqual(['415-555-0132']);
    expect(found('phone_4155550132 ok')).toEqual(['4155550132']);
  });

  it('leaves a number after another word', () => {
    for (const text of ['SKU -415-555-0132', 'order_415-555-0132', 'hotel_415-555-0132']) {
      expect(found(text), text).toEqual([]);
    }
  });
});

describe('cards with mixed separators', () => {
  it('finds a card whose groups mix ` .-_` in a card layout', () => {
    expect(found('card 4111_1111-1111_1111 ok')).toEqual(['4111_1111-1111_1111']);
    expect(found('4111-1111 1111.1111')).toEqual(['4111-1111 1111.1111']);
    expect(found('amex 3782-822463_10005')).toEqual(['3782-822463_10005']);
  });

  it('leaves mixes outside a card layout, and / among them', () => {
    for (const text of ['4111_11111-111_1111', '4111/1111-1111_1111', '411-111_111-111-1111']) {
      expect(found(text), text).toEqual([]);
    }
  });
});

describe('e-mail addresses with two blanks around the @', () => {
  it('finds them when the local part is no plain word', () => {
    expect(found('mail jane.doe  @  corp.io now')).toEqual(['jane.doe  @  corp.io']);
    expect(found('mail jane.doe @  corp.io')).toEqual(['jane.doe @  corp.io']);
    expect(found('mail j_doe  @ corp.io')).toEqual(['j_doe  @ corp.io']);
  });

  it('leaves a bare @ between words', () => {
    for (const text of [
      'a  @  b.com',
      'meet  @  5pm',
      'Available  @  amazon.com',
      'x   @   y.io',
    ]) {
      expect(found(text), text).toEqual([]);
    }
  });
});

describe('an opening quote before an e-mail address', () => {
  it('stays out of the span', () => {
    expect(found("email = 'jane@corp.io'")).toEqual(['jane@corp.io']);
    expect(found('see `jane@corp.io`')).toEqual(['jane@corp.io']);
    expect(found("o'brien@corp.io")).toEqual(["o'brien@corp.io"]);
  });

  it('guardTools at tool_input: the tool receives the quotes around the placeholder', async () => {
    const received: unknown[] = [];
    const model = turnsModel([
      {
        toolCalls: [
          { toolCallId: 'c1', toolName: 'save', input: { note: "email = 'jane@corp.io'" } },
        ],
      },
      { text: 'Saved.' },
    ]);
    const tools = guardTools(
      {
        save: tool({
          inputSchema: z.object({ note: z.string() }),
          execute: async input => {
            received.push(input);
            return 'ok';
          },
        }),
      },
      { input: [pii()] },
    );
    await generateText({ model, tools, prompt: 'Save it', stopWhen: isStepCount(3) });
    expect(received).toEqual([{ note: "email = '[EMAIL_ADDRESS]'" }]);
  });
});

describe('through the middleware', () => {
  it('generateText: the model receives every value redacted, with the record', async () => {
    const { sent, records } = await promptSentWithRecords(
      pii(),
      "tel\u00a0-415-555-0132, card 4111_1111-1111_1111, mail jane.doe  @  corp.io or 'bob@corp.io'",
    );
    expect(sent).toBe(
      "tel\u00a0-[PHONE_NUMBER], card [CREDIT_CARD], mail [EMAIL_ADDRESS] or '[EMAIL_ADDRESS]'",
    );
    expect(records).toEqual([
      {
        guardrail: 'pii',
        kind: 'input',
        status: 'modified',
        info: {
          types: ['PHONE_NUMBER', 'CREDIT_CARD', 'EMAIL_ADDRESS'],
          spans: [
            { type: 'PHONE_NUMBER', start: 5, end: 17 },
            { type: 'CREDIT_CARD', start: 24, end: 43 },
            { type: 'EMAIL_ADDRESS', start: 50, end: 70 },
            { type: 'EMAIL_ADDRESS', start: 75, end: 86 },
          ],
        },
      },
    ]);
  });

  it('window streaming ends as generate does, at every cut', async () => {
    const answer = "Call tel_415-555-0132, pay 4111_1111-1111_1111, write 'jane@corp.io'.";
    const chunkings = [[1], [2], [3], [5], [7], [1, 4, 2]];
    const { generated, streamed } = await windowAndGenerateTexts(pii(), answer, chunkings);
    expect(generated).toBe("Call tel_[PHONE_NUMBER], pay [CREDIT_CARD], write '[EMAIL_ADDRESS]'.");
    expect(streamed).toEqual(chunkings.map(() => generated));
  });
});
