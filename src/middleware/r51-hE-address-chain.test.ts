import { describe, expect, it } from 'vitest';
import { differentialTexts } from '../../test/helpers/window-differential';
import { bundledNerModel } from '../guards/pii/ner/bundled-ner-model';
import { nerMaxLength } from '../guards/pii/ner/labels';
import { type NerSpan, tagChunk } from '../guards/pii/ner/tagger';

/*
 * Round 51 (hE, issue 16): where the tagger ends an address no longer turns
 * on where a chain of address runs began. Before, an address's I label was
 * refused 160 characters after its B token, so in text dense with address
 * words the runs were cut every ~160 characters, at places set by the
 * chain's first run, any distance back; a stream's check, reading from a
 * later start, cut elsewhere. Now no count: a run ends where the model ends
 * it, or at the break after a line longer than 64 characters
 * (`ADDRESS_LINE`), and a run over the bound is cut at its line breaks and
 * commas (`addressPieces`).
 */

const model = bundledNerModel();
const spansOf = (text: string): NerSpan[] => tagChunk(text, model.gazetteers, model.score).spans;
const shown = (text: string, spans: readonly NerSpan[]) =>
  spans.map(span => `${span.type}:${text.slice(span.start, span.end)}`);

describe('round 51: address runs end at places of the text, not at a count', () => {
  // Seeds 5203 (not a differential's): 200 texts of round 50's address
  // shape; the spans in each text's last third, read from the text's start
  // and from every word start 200 to 260 characters before that third. At
  // e3931c8e 9 of 2,301 readings (3 texts) cut otherwise.
  it('reads the spans of a text of addresses alike from any start 200-260 characters back', () => {
    let readings = 0;
    const differing: number[] = [];
    const texts = differentialTexts('addresses', 5203, 200);
    texts.forEach((text, index) => {
      const from = Math.floor((text.length * 2) / 3);
      const lastThird = (spans: readonly NerSpan[], offset: number) =>
        spans
          .filter(span => span.start + offset >= from)
          .map(span => `${span.type}:${span.start + offset}-${span.end + offset}`)
          .join(',');
      const whole = lastThird(spansOf(text), 0);
      for (let start = from - 260; start <= from - 200; start++) {
        if (start <= 0 || !/\s/.test(text[start - 1]!)) continue;
        readings++;
        if (lastThird(spansOf(text.slice(start)), start) !== whole) differing.push(index);
      }
    });
    expect(readings).toBe(2301);
    expect([...new Set(differing)]).toEqual([]);
  }, 600_000);

  it('cuts a run of address lines longer than the bound at its line breaks', () => {
    const text =
      'Ship to:\nSuite 200\nPO Box 7\n1245 Harbor Road\nApt 39\nToronto, ON M5V 2T6\n221B Baker Street\nLondon NW1 6XE\n10 Downing Street\nPortland OR 97201\n1600 Pennsylvania Avenue\nWashington DC\nthanks';
    // At e3931c8e: one span of the first 155 characters, `Washington DC` none.
    expect(shown(text, spansOf(text))).toEqual([
      'STREET_ADDRESS:Suite 200',
      'STREET_ADDRESS:PO Box 7',
      'STREET_ADDRESS:1245 Harbor Road',
      'STREET_ADDRESS:Apt 39',
      'STREET_ADDRESS:Toronto, ON M5V 2T6',
      'STREET_ADDRESS:221B Baker Street',
      'STREET_ADDRESS:London NW1 6XE',
      'STREET_ADDRESS:10 Downing Street',
      'STREET_ADDRESS:Portland OR 97201',
      'STREET_ADDRESS:1600 Pennsylvania Avenue',
      'STREET_ADDRESS:Washington DC',
    ]);
  });

  it('cuts a line of addresses with no comma into pieces within the bound, every word in one', () => {
    const text =
      'Ship to 1245 Harbor Road Suite 200 PO Box 7 Toronto ON M5V 2T6 221B Baker Street London NW1 6XE 10 Downing Street Portland OR 97201 1600 Pennsylvania Avenue Washington DC 5th Avenue New York NY, thanks';
    const spans = spansOf(text);
    // At e3931c8e `York NY` was a person (the run cut at `Washington`, the rest read anew).
    expect(shown(text, spans)).toEqual([
      'STREET_ADDRESS:1245 Harbor Road Suite 200 PO Box 7 Toronto ON M5V 2T6 221B Baker Street London NW1 6XE 10 Downing Street Portland OR 97201 1600 Pennsylvania Avenue Washington',
      'STREET_ADDRESS:DC 5th Avenue New York NY',
    ]);
    for (const span of spans)
      expect(span.end - span.start).toBeLessThanOrEqual(nerMaxLength.STREET_ADDRESS);
  });

  it('ends an address at the break after more than 64 characters of it on the line', () => {
    const text =
      'Deliver to 1245 Harbor Road Suite 200 PO Box 7 Toronto ON M5V 2T6 Leeds LS1 4AP Paris 75001\nOlga Whitfield called.';
    const spans = shown(text, spansOf(text));
    // At e3931c8e the address ran on over the next line: `… Paris 75001\nOlga Whitfield called`.
    expect(spans[0]).toBe(
      'STREET_ADDRESS:1245 Harbor Road Suite 200 PO Box 7 Toronto ON M5V 2T6 Leeds LS1 4AP Paris 75001',
    );
    expect(spans.filter(span => span.includes('\n'))).toEqual([]);
  });

  // The first version of the line rule (the whole line before the break) cut this after `Street`.
  it('lets an address written over short lines after prose go on over its lines', () => {
    const text =
      'Please send the signed contract and both invoices to my home address, which is 1987 74 Diakou Street\n Suite 680\n Kissousa\n Cyprus 36903';
    expect(shown(text, spansOf(text))).toEqual([
      'STREET_ADDRESS:1987 74 Diakou Street\n Suite 680\n Kissousa\n Cyprus 36903',
    ]);
  });
});
