import { describe, expect, it } from 'vitest';
import { realPdf } from '../../test/helpers/binary-files';
import { cmapOf, glyphs, onePagePdf, shownHex } from '../../test/helpers/pdf-fonts';
import { toolFileSent, toolOutputSent, userFileOutcome } from '../../test/helpers/tool-file';

// Round 28: the strings of one text line were read as separate lines (a line
// feed between any two strings not in one `TJ` array), through the plain
// and the ToUnicode paths, so a card shown in pieces, `(card 4111 ) Tj
// (1111 ) Tj …`, read as `card 4111 \n1111 \n…` and passed `pii`. The
// strings of one line now read as a viewer shows them.

const PIECES = ['card 41', '11 1111 ', '1111 11', '11'];
const WITHHELD = {
  type: 'text',
  value: 'The result of the "report" tool call was withheld by a guardrail.',
};
const hexOf = (text: string) =>
  `<${Array.from(text, c => c.charCodeAt(0).toString(16).padStart(2, '0')).join('')}>`;

/** Content streams showing `pieces` (each by `shown`) on one line, laid out in several ways. */
const oneLine = (pieces: string[], shown: (piece: string) => string): Array<[string, string]> => {
  const s = pieces.map(shown);
  return [
    ['Tj after Tj', `BT /F1 12 Tf 72 712 Td ${s.map(p => `${p} Tj`).join(' ')} ET`],
    ['one TJ array', `BT /F1 12 Tf 72 712 Td [${s.join(' -250 ')}] TJ ET`],
    ['TJ arrays', `BT /F1 12 Tf 72 712 Td ${s.map(p => `[${p} -120] TJ`).join(' ')} ET`],
    ['Td along the line', `BT /F1 12 Tf 72 712 Td ${s.map(p => `${p} Tj 30.5 0 Td`).join(' ')} ET`],
    ['Td a sliver down', `BT /F1 12 Tf 72 712 Td ${s.map(p => `${p} Tj 30 -0.4 Td`).join(' ')} ET`],
    [
      'Tm at one height',
      `BT /F1 12 Tf ${s.map((p, k) => `1 0 0 1 ${72 + 40 * k} 712 Tm ${p} Tj`).join(' ')} ET`,
    ],
    ['one BT a piece', s.map((p, k) => `BT /F1 12 Tf ${72 + 40 * k} 712 Td ${p} Tj ET`).join('\n')],
    // Round 29: each piece's `cm` and `Td` put it at 712 together.
    [
      'cm pieces at one height',
      s
        .map(
          (p, k) =>
            `q 1 0 0 1 ${72 + 40 * k} ${700 + 20 * k} cm BT /F1 12 Tf 0 ${12 - 20 * k} Td ${p} Tj ET Q`,
        )
        .join('\n'),
    ],
    // Round 29: a Tm of 0.01 makes `-50` half a unit down.
    [
      'Td under a Tm of 0.01',
      `BT /F1 1200 Tf 0.01 0 0 0.01 72 712 Tm ${s.map(p => `${p} Tj 3000 -50 Td`).join(' ')} ET`,
    ],
    [
      'after a quote',
      `BT /F1 12 Tf 14 TL 72 712 Td (Total) Tj ${s[0]} ' ${s
        .slice(1)
        .map(p => `${p} Tj`)
        .join(' ')} ET`,
    ],
  ];
};
/** The same pieces, each on a line of its own. */
const ownLines = (pieces: string[], shown: (piece: string) => string): Array<[string, string]> => {
  const s = pieces.map(shown);
  return [
    ['Td down', `BT /F1 12 Tf 72 712 Td ${s.map(p => `${p} Tj 0 -14 Td`).join(' ')} ET`],
    ['T*', `BT /F1 12 Tf 14 TL 72 712 Td ${s.map(p => `${p} Tj T*`).join(' ')} ET`],
    ["'", `BT /F1 12 Tf 14 TL 72 712 Td ${s.map(p => `${p} '`).join(' ')} ET`],
    ['"', `BT /F1 12 Tf 14 TL 72 712 Td ${s.map(p => `0 0 ${p} "`).join(' ')} ET`],
    [
      'Tm lower',
      `BT /F1 12 Tf ${s.map((p, k) => `1 0 0 1 72 ${712 - 14 * k} Tm ${p} Tj`).join(' ')} ET`,
    ],
    // Round 29: a Tm of 100 makes `-0.14` 14 units down; `cm` moves each piece 14 down.
    [
      'Td under a Tm of 100',
      `BT /F1 0.12 Tf 100 0 0 100 72 712 Tm ${s.map(p => `${p} Tj 0 -0.14 Td`).join(' ')} ET`,
    ],
    [
      'cm lower',
      s.map((p, k) => `q 1 0 0 1 72 ${712 - 14 * k} cm BT /F1 12 Tf ${p} Tj ET Q`).join('\n'),
    ],
  ];
};

const codes = glyphs(`${PIECES.join('')}Total`);
const cmap = cmapOf(codes);
/** A PDF whose page is `content` uncompressed. */
const plainPdf = (content: string) =>
  new TextEncoder().encode(
    `%PDF-1.7\n1 0 obj\n<< /Length ${content.length} >>\nstream\n${content}\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n`,
  );
const pdfs = (
  layouts: (pieces: string[], shown: (piece: string) => string) => Array<[string, string]>,
  pieces = PIECES,
) => [
  ...layouts(pieces, p => `(${p})`).map(
    ([name, content]) => [`${name}, literal`, realPdf(content)] as const,
  ),
  ...layouts(pieces, hexOf).map(([name, content]) => [`${name}, hex`, realPdf(content)] as const),
  ...layouts(pieces, p => `(${p})`).map(
    ([name, content]) => [`${name}, uncompressed`, plainPdf(content)] as const,
  ),
  ...layouts(pieces, p => shownHex(p, codes)).map(
    ([name, content]) => [`${name}, ToUnicode`, onePagePdf(content, cmap)] as const,
  ),
];

describe('the strings of one PDF text line read as one text', () => {
  it("a card shown in pieces on one line withholds a tool's file (guardTools)", async () => {
    const passed: string[] = [];
    // Split inside a group, and between groups by a move (a move between two digits reads both ways).
    const moved = pdfs(oneLine, ['card 4111 1111', '1111 1111']).filter(([name]) =>
      /^(Td along|Td a sliver|Tm at|one BT|cm pieces|Td under)/.test(name),
    );
    for (const [name, data] of [...pdfs(oneLine), ...moved]) {
      const sent = await toolOutputSent(data, 'application/pdf');
      if (JSON.stringify(sent) !== JSON.stringify(WITHHELD)) passed.push(name);
    }
    expect(passed).toEqual([]);
  });

  it('the same pieces on lines of their own are no card: the file goes on as it is', async () => {
    const withheld: string[] = [];
    for (const [name, data] of pdfs(ownLines)) {
      const sent = await toolFileSent(data, 'application/pdf').catch(() => undefined);
      if (sent?.data !== data) withheld.push(name);
    }
    expect(withheld).toEqual([]);
  });

  it.each([
    'one BT a piece, ToUnicode',
    'cm pieces at one height, ToUnicode',
    'Td under a Tm of 0.01, ToUnicode',
  ])("a card over pieces on one line (%s) blocks a user's call, exact records", async layout => {
    const data = pdfs(oneLine).find(([name]) => name === layout)![1];
    const { calls, records } = await userFileOutcome(data, 'application/pdf');
    expect(calls).toBe(0);
    expect(records.map(r => [r.guardrail, r.status])).toEqual([
      ['pii', 'modified'],
      ['pii', 'blocked'],
    ]);
  });
});
