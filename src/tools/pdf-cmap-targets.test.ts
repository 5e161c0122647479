import { describe, expect, it } from 'vitest';
import { drawn, hex4, onePagePdf } from '../../test/helpers/pdf-fonts';
import { toolFileSent, toolOutputSent, userFileOutcome } from '../../test/helpers/tool-file';

/**
 * Round 29. A ToUnicode map's targets of an odd number of bytes (`<30>`,
 * not `<0030>`): pdf.js and poppler read them with a zero byte before them
 * (the digits, here); the lone byte was dropped, so `<0130> <0139> <30>`
 * read the digits' codes as U+0000…U+0009 and `<0163> <63>` as nothing.
 */

const CARD = 'card 4111 1111 1111 1111';
const WITHHELD = {
  type: 'text',
  value: 'The result of the "report" tool call was withheld by a guardrail.',
};
/** Each character's code: a digit 0x2240 and up, any other 0x2300 and its place in {@link OTHERS} (no byte its own). */
const OTHERS = ' acdeihoprs';
const codeOf = (c: string) => (/\d/.test(c) ? 0x2240 + Number(c) : 0x2300 + OTHERS.indexOf(c));
const shown = (text: string) => `<${[...text].map(c => hex4(codeOf(c))).join('')}>`;
/** A map of 1-byte targets: the digits by one range, every other character by bfchar. */
const oddTargets = [
  '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
  '1 begincodespacerange <0000> <FFFF> endcodespacerange',
  '1 beginbfrange <2240> <2249> <30> endbfrange',
  `${OTHERS.length} beginbfchar`,
  ...[...OTHERS].map(c => `<${hex4(codeOf(c))}> <${hex4(c.charCodeAt(0)).slice(2)}>`),
  'endbfchar endcmap end end',
].join('\n');

describe('ToUnicode targets of an odd number of bytes', () => {
  it("a card drawn through 1-byte targets withholds a tool's file (guardTools)", async () => {
    expect(
      await toolOutputSent(onePagePdf(drawn(shown(CARD)), oddTargets), 'application/pdf'),
    ).toEqual(WITHHELD);
  });

  it("blocks a user's call with it, exact records; the same PDF without a card goes on", async () => {
    const { calls, records } = await userFileOutcome(
      onePagePdf(drawn(shown(CARD)), oddTargets),
      'application/pdf',
    );
    expect(calls).toBe(0);
    expect(records.map(r => [r.guardrail, r.status])).toEqual([
      ['pii', 'modified'],
      ['pii', 'blocked'],
    ]);
    const text = 'order 2024 shipped';
    const data = onePagePdf(drawn(shown(text)), oddTargets);
    expect(await toolFileSent(data, 'application/pdf')).toEqual({
      mediaType: 'application/pdf',
      data,
    });
  });
});
