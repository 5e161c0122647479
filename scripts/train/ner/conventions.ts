/**
 * The two ways the dev split cuts a street address, and what exact span
 * matching can reach when a tagger follows one of them everywhere.
 *
 * - **whole**: the address is one STREET_ADDRESS span, city, region, country
 *   and postcode included (`1987 74 Diakou Street⏎ Suite 680⏎ Kissousa⏎ Cyprus 36903`).
 * - **pieces**: the same kind of text is several spans: house number, street,
 *   unit and postcode as STREET_ADDRESS, city and country as GPE
 *   (`20789` / `Allika 46` / `Suite 501` / [Riisa] / [Estonia] / `62488`).
 *
 * A row is "pieces" when two of its STREET_ADDRESS spans are separated only
 * by blanks, signs and gold spans of other types (nothing but the address
 * between them); otherwise "whole". Read from the gold spans only.
 */
import type { NerEntity } from '../../../src/guards/pii/ner/labels';
import type { GoldSpan, Sequence } from './data';

export type Convention = 'pieces' | 'whole' | 'none';

/** The address convention of one row's gold spans. */
export function addressConvention(text: string, spans: readonly GoldSpan[]): Convention {
  const addresses = spans
    .filter(span => span.type === 'STREET_ADDRESS')
    .sort((a, b) => a.start - b.start);
  if (addresses.length === 0) return 'none';
  for (let index = 1; index < addresses.length; index++) {
    const from = addresses[index - 1]!.end;
    const to = addresses[index]!.start;
    let gap = '';
    for (let at = from; at < to; at++) {
      if (!spans.some(span => span.start <= at && at < span.end)) gap += text[at];
    }
    if (!/[\p{L}\p{N}]/u.test(gap)) return 'pieces';
  }
  return 'whole';
}

/** Exact-match P/R/F1 of STREET_ADDRESS if every address were cut one way. */
export interface Ceiling {
  policy: string;
  predicted: number;
  gold: number;
  exact: number;
  f1: number;
}

function ceiling(policy: string, predicted: number, gold: number, exact: number): Ceiling {
  const precision = predicted === 0 ? 0 : exact / predicted;
  const recall = gold === 0 ? 0 : exact / gold;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { policy, predicted, gold, exact, f1 };
}

/**
 * Two oracles that know where every address is and cut it one way:
 * `whole` predicts one span per address (a pieces row's pieces and the
 * city/country between them as one span); `pieces` predicts the gold pieces
 * on pieces rows and, on whole rows, the address cut at line breaks and
 * commas (a whole address with no line break or comma is matched; one with
 * them gives its parts, none exact). Neither can exceed these numbers
 * without telling the two conventions apart, which only the template does.
 */
export function addressCeilings(sequences: readonly Sequence[]): {
  rows: Record<Convention, number>;
  spans: Record<Convention, number>;
  ceilings: Ceiling[];
} {
  const rows: Record<Convention, number> = { pieces: 0, whole: 0, none: 0 };
  const spans: Record<Convention, number> = { pieces: 0, whole: 0, none: 0 };
  let gold = 0;
  let wholePredicted = 0;
  let wholeExact = 0;
  let piecesPredicted = 0;
  let piecesExact = 0;
  for (const sequence of sequences) {
    const convention = addressConvention(sequence.text, sequence.spans);
    const addresses = sequence.spans.filter(
      span => span.type === ('STREET_ADDRESS' satisfies NerEntity),
    );
    rows[convention]++;
    spans[convention] += addresses.length;
    gold += addresses.length;
    if (convention === 'pieces') {
      wholePredicted += 1;
      piecesPredicted += addresses.length;
      piecesExact += addresses.length;
    } else {
      wholePredicted += addresses.length;
      wholeExact += addresses.length;
      for (const address of addresses) {
        const parts = sequence.text
          .slice(address.start, address.end)
          .split(/[\n,]/)
          .filter(part => /[\p{L}\p{N}]/u.test(part)).length;
        piecesPredicted += parts;
        if (parts === 1) piecesExact++;
      }
    }
  }
  return {
    rows,
    spans,
    ceilings: [
      ceiling('every address one span (whole)', wholePredicted, gold, wholeExact),
      ceiling('every address in pieces', piecesPredicted, gold, piecesExact),
    ],
  };
}

/** A markdown summary of the conventions and the two ceilings. */
export function conventionReport(sequences: readonly Sequence[]): string {
  const { rows, spans, ceilings } = addressCeilings(sequences);
  const lines = [
    `Address conventions in the gold spans: ${rows.whole} rows cut **whole** (${spans.whole} spans), ${rows.pieces} rows cut in **pieces** (${spans.pieces} spans).`,
    '',
    '| oracle (knows every address, cuts all one way) | predicted | exact | exact P | exact R | exact F1 |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const entry of ceilings) {
    lines.push(
      `| ${entry.policy} | ${entry.predicted} | ${entry.exact} | ${(entry.exact / entry.predicted).toFixed(3)} | ${(entry.exact / entry.gold).toFixed(3)} | ${entry.f1.toFixed(3)} |`,
    );
  }
  return lines.join('\n');
}
