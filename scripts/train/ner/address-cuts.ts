/**
 * Experiment (NER_ADDRESS_CUTS=1, evaluation only, not shipped): address
 * cuts learnt from the training folds' gold spans. Between two consecutive
 * word tokens of a gold address region (gold STREET_ADDRESS spans and the
 * gold spans of other types between them, joined by blanks and signs only),
 * the gap is a *cut* when the two tokens are not in the same gold span. A
 * gap is described by its separator (line break, comma, other sign, blank)
 * and the classes of the tokens either side; a predicted address is cut at
 * every gap whose class the training gold cuts more often than not (seen at
 * least `MIN_SEEN` times), and a piece without a digit, street or unit word
 * is dropped (the gold that cuts addresses labels city and country GPE).
 */
import type { NerSpan } from '../../../src/guards/pii/ner/tagger';
import type { Sequence } from './data';

const MIN_SEEN = 5;

const units = new Set([
  'suite',
  'apt',
  'unit',
  'box',
  'floor',
  'flat',
  'room',
  'psc',
  'apo',
  'fpo',
  'dpo',
]);
const streets = new Set(
  `street st str road rd avenue ave av avenida boulevard blvd lane ln drive dr court ct place pl square
  way terrace crescent close rue via viale piazza vicolo calle rua travessa ul utca tér út gasse weg platz
  laan straat vej gade gatan gata veien gate katu tie`.split(/\s+/),
);

interface Word {
  start: number;
  end: number;
  text: string;
}

function wordsOf(text: string, start: number, end: number): Word[] {
  const words: Word[] = [];
  for (const match of text
    .slice(start, end)
    .matchAll(/[\p{L}\p{M}\p{N}]+(?:['’.-][\p{L}\p{M}\p{N}]+)*\.?/gu)) {
    const from = start + match.index!;
    words.push({ start: from, end: from + match[0].length, text: match[0] });
  }
  return words;
}

function classOf(word: string): string {
  const lower = word.replace(/\.$/, '').toLowerCase();
  if (/^\d{1,3}[a-z]?$/i.test(word)) return 'short number';
  if (/^\d{4,6}$/.test(word)) return 'long number';
  if (/\d/.test(word)) return 'alphanumeric';
  if (units.has(lower)) return 'unit';
  if (streets.has(lower)) return 'street';
  if (word === word.toUpperCase()) return 'caps';
  if (word === word.toLowerCase()) return 'lower';
  return 'capitalised';
}

function gapKey(text: string, left: Word, right: Word): string {
  const gap = text.slice(left.end, right.start);
  const separator = /\n/.test(gap)
    ? 'newline'
    : /,/.test(gap)
      ? 'comma'
      : /\S/.test(gap)
        ? 'sign'
        : 'blank';
  return `${separator}|${classOf(left.text)}|${classOf(right.text)}`;
}

/** Learnt cut classes: gap key -> cut or not. */
export type CutTable = Map<string, boolean>;

/** Learns the cut table from the gold spans of `sequences` (the training folds). */
export function learnCuts(sequences: readonly Sequence[]): CutTable {
  const seen = new Map<string, [number, number]>();
  for (const sequence of sequences) {
    const text = sequence.text;
    const spans = [...sequence.spans].sort((a, b) => a.start - b.start);
    // Regions: runs of gold spans holding at least one address, joined by gaps without a word.
    let index = 0;
    while (index < spans.length) {
      let last = index;
      while (
        last + 1 < spans.length &&
        !/[\p{L}\p{N}]/u.test(text.slice(spans[last]!.end, spans[last + 1]!.start))
      )
        last++;
      const region = spans.slice(index, last + 1);
      index = last + 1;
      if (!region.some(span => span.type === 'STREET_ADDRESS')) continue;
      const words = region.flatMap((span, which) =>
        wordsOf(text, span.start, span.end).map(word => ({ ...word, which })),
      );
      for (let at = 1; at < words.length; at++) {
        const key = gapKey(text, words[at - 1]!, words[at]!);
        const entry = seen.get(key) ?? [0, 0];
        entry[words[at - 1]!.which === words[at]!.which ? 1 : 0]++;
        seen.set(key, entry);
      }
    }
  }
  const table: CutTable = new Map();
  for (const [key, [cut, kept]] of seen) if (cut + kept >= MIN_SEEN) table.set(key, cut > kept);
  return table;
}

/** `spans` with every STREET_ADDRESS cut by `table`. */
export function applyCuts(text: string, spans: readonly NerSpan[], table: CutTable): NerSpan[] {
  const result: NerSpan[] = [];
  for (const span of spans) {
    if (span.type !== 'STREET_ADDRESS') {
      result.push(span);
      continue;
    }
    const words = wordsOf(text, span.start, span.end);
    let pieceStart = 0;
    const pieces: Word[][] = [];
    for (let at = 1; at <= words.length; at++) {
      if (at === words.length || table.get(gapKey(text, words[at - 1]!, words[at]!)) === true) {
        pieces.push(words.slice(pieceStart, at));
        pieceStart = at;
      }
    }
    if (pieces.length <= 1) {
      result.push(span);
      continue;
    }
    for (const piece of pieces) {
      if (piece.length === 0) continue;
      const keep = piece.some(
        word => /\d/.test(word.text) || /^(unit|street)$/.test(classOf(word.text)),
      );
      if (keep)
        result.push({ type: 'STREET_ADDRESS', start: piece[0]!.start, end: piece.at(-1)!.end });
    }
  }
  return result;
}
