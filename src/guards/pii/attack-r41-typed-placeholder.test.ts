import { describe, expect, it } from 'vitest';
import { generatedText, streamedTextDeltas } from '../../../test/helpers/window';
import { guardrails } from '../../middleware/guardrails-middleware';
import { findPii } from './find-pii-bundled';
import { pii } from './pii';

/**
 * Round 41 attacker's read of round 40's typed placeholders (`[PERSON]`
 * read by the tagger as a name that just ended, see `tagTokens`): the text
 * owns what it writes, so it can write a placeholder itself, and the name
 * after it is then read with the history a name leaves. Before round 40
 * (dc00ff58) each name below was found as `PERSON`; round 40 missed them, round 41 (hK)
 * finds them again.
 */
const fakes: [string, string, string][] = [
  ['[LOCATION] Priya Natarajan called.', 'Priya Natarajan', '[LOCATION] [PERSON] called.'],
  ['[PERSON] Wang Wei called.', 'Wang Wei', '[PERSON] [PERSON] called.'],
  [
    'Please call [PERSON] and Ahmed Khan tomorrow.',
    'Ahmed Khan',
    'Please call [PERSON] and [PERSON] tomorrow.',
  ],
  [
    'Please call [PERSON], Olu Adeyemi tomorrow.',
    'Olu Adeyemi',
    'Please call [PERSON], [PERSON] tomorrow.',
  ],
  [
    'Please call <PERSON_1> Priya Natarajan tomorrow.',
    'Priya Natarajan',
    'Please call <PERSON_1> [PERSON] tomorrow.',
  ],
];
const spans = (text: string, entities: Parameters<typeof findPii>[1]) =>
  findPii(text, entities).map(span => [span.type, text.slice(span.start, span.end)]);

describe('a placeholder the text wrote itself before a real name', () => {
  // Round 41 (hK): fixed. A chunk with a typed placeholder is read plain, typed and with the
  // placeholder as blanks, and a name any reading finds is kept (find-named-entities.ts).
  it.each(fakes)('PERSON alone: %s still finds the name', (text, name) => {
    expect(spans(text, { entities: ['PERSON'] })).toEqual([['PERSON', name]]);
  });

  it.each(fakes)('the name stays without the fake placeholder: %s', (text, name) => {
    const plain = text.replace(/\[[A-Z]+\] ?|<[A-Z]+_\d+> ?/, '');
    expect(spans(plain, { entities: ['PERSON'] })).toEqual([['PERSON', name]]);
  });

  it.each(fakes)(
    'PERSON alone: %s is redacted in generate and in window deltas of 1, 7 and whole',
    async (text, _, redacted) => {
      const guard = pii({ entities: ['PERSON'] });
      expect(await generatedText(guardrails({ output: [guard] }), text)).toBe(redacted);
      const window = guardrails({ output: [guard], stream: { mode: 'window' } });
      const points = Array.from(text);
      for (const size of [1, 7, points.length]) {
        const deltas: string[] = [];
        for (let at = 0; at < points.length; at += size)
          deltas.push(points.slice(at, at + size).join(''));
        expect((await streamedTextDeltas(window, text, deltas)).join(''), `deltas of ${size}`).toBe(
          redacted,
        );
      }
    },
  );

  it('with the four tagged types the name is still redacted, under another type', () => {
    const entities = {
      entities: ['PERSON', 'STREET_ADDRESS', 'LOCATION', 'ORGANIZATION'],
    } as const;
    expect(spans(fakes[0]![0], { entities: [...entities.entities] })).toEqual([
      ['STREET_ADDRESS', 'Priya Natarajan'],
    ]);
    expect(spans(fakes[2]![0], { entities: [...entities.entities] })).toEqual([
      ['ORGANIZATION', 'Ahmed Khan'],
    ]);
  });
});

describe("window mode: names side by side, the first already the guard's placeholder", () => {
  const guard = pii({ entities: ['PERSON'] });
  const answers: [string, string][] = [
    ['Please call Ahmed Khan Priya Natarajan tomorrow.', 'Please call [PERSON] tomorrow.'],
    [
      'Please call Ahmed Khan, Priya Natarajan tomorrow.',
      'Please call [PERSON], [PERSON] tomorrow.',
    ],
    [
      'Please call Ahmed Khan and Priya Natarajan tomorrow.',
      'Please call [PERSON] and [PERSON] tomorrow.',
    ],
    ['Ahmed Khan\nPriya Natarajan called.', '[PERSON]\n[PERSON] called.'],
  ];
  it.each(answers)(
    '%s: generate and window deltas of 1 and 7 redact both',
    async (answer, redacted) => {
      expect(await generatedText(guardrails({ output: [guard] }), answer)).toBe(redacted);
      const window = guardrails({ output: [guard], stream: { mode: 'window' } });
      const points = Array.from(answer);
      for (const size of [1, 7]) {
        const deltas: string[] = [];
        for (let at = 0; at < points.length; at += size)
          deltas.push(points.slice(at, at + size).join(''));
        expect((await streamedTextDeltas(window, answer, deltas)).join('')).toBe(redacted);
      }
    },
  );
});
