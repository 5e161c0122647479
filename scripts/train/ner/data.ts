/**
 * Training and evaluation sequences for the tagger: the dev PII split's
 * presidio rows with their PERSON / STREET_ADDRESS / GPE (-> LOCATION) /
 * ORGANIZATION spans, and benign prompts as partly labelled negatives.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  Flag,
  type Gazetteers,
  type Scanned,
  scanText,
  type Token,
  tokenize,
  WordTable,
} from '../../../src/guards/pii/ner/features';
import { type NerEntity, nerEntities } from '../../../src/guards/pii/ner/labels';
import { prng } from '../logistic';

/** A gold span. */
export interface GoldSpan {
  type: NerEntity;
  start: number;
  end: number;
}

/** One text ready for training or scoring. */
export interface Sequence {
  id: string;
  /** Cross-validation group (the presidio template); negatives have none. */
  group: string | undefined;
  text: string;
  tokens: Token[];
  /** What the tagger reads (token bounds, word ids, flags). */
  scanned: Scanned;
  /** Gold label per token. */
  labels: Uint8Array;
  /** 1 where the gold label is known (benign rows leave capitalised words out). */
  known: Uint8Array;
  spans: GoldSpan[];
  /** Weight of this sequence's updates (default: 1 for labelled rows, the benign weight for negatives). */
  weight?: number;
}

const typeOf: Record<string, NerEntity> = {
  PERSON: 'PERSON',
  STREET_ADDRESS: 'STREET_ADDRESS',
  GPE: 'LOCATION',
  LOCATION: 'LOCATION',
  ORGANIZATION: 'ORGANIZATION',
};

/** Token labels from character spans: a token inside a span is B (first) or I. */
export function labelTokens(tokens: readonly Token[], spans: readonly GoldSpan[]): Uint8Array {
  const labels = new Uint8Array(tokens.length);
  for (const span of spans) {
    const entity = nerEntities.indexOf(span.type);
    let first = true;
    for (let index = 0; index < tokens.length; index++) {
      const token = tokens[index]!;
      if (token.start >= span.start && token.end <= span.end) {
        labels[index] = first ? 1 + 2 * entity : 2 + 2 * entity;
        first = false;
      }
    }
  }
  return labels;
}

// One word table per gazetteer set for the whole run, never emptied (sequences keep their word ids).
const wordTables = new WeakMap<Gazetteers, WordTable>();

/** The trainer's word table for `gazetteers`. */
export function wordTable(gazetteers: Gazetteers): WordTable {
  let table = wordTables.get(gazetteers);
  if (!table) {
    table = new WordTable(gazetteers);
    wordTables.set(gazetteers, table);
  }
  return table;
}

/** Whether benign prose's sentence-initial common words count as known outside (NER_COMMON_STARTS=1). */
const KNOWN_COMMON_STARTS = process.env.NER_COMMON_STARTS === '1';

/**
 * A capitalised word at a sentence start that prose mostly writes in lower
 * case and that is not in the name lists ("Hello", "Write", "Invalid"): in
 * unlabelled prose, taken as outside any entity.
 */
function isCommonStart(flags: number): boolean {
  return (
    (flags & (Flag.SentenceStart | Flag.Common | Flag.Title)) ===
      (Flag.SentenceStart | Flag.Common | Flag.Title) &&
    (flags & (Flag.Name | Flag.FirstName | Flag.Place | Flag.Country)) === 0
  );
}

/** A sequence of `text` with its gold spans (all tokens' labels known unless `partial`). */
export function sequence(
  id: string,
  group: string | undefined,
  text: string,
  spans: GoldSpan[],
  gazetteers: Gazetteers,
  partial: boolean,
): Sequence {
  const tokens = tokenize(text);
  const scanned = scanText(text, gazetteers, wordTable(gazetteers));
  const labels = labelTokens(tokens, spans);
  const known = new Uint8Array(tokens.length).fill(1);
  if (partial) {
    // Unlabelled prose: a lower-case word, a number or a sign is outside any
    // entity; a capitalised word may be a name, so it teaches nothing.
    for (let index = 0; index < tokens.length; index++) {
      const text = tokens[index]!.text;
      const first = text[0]!;
      if (first.toLowerCase() !== first.toUpperCase() && text !== text.toLowerCase())
        known[index] = KNOWN_COMMON_STARTS && isCommonStart(scanned.flags[index]!) ? 1 : 0;
    }
  }
  return { id, group, text, tokens, scanned, labels, known, spans };
}

interface DevRow {
  id: string;
  text: string;
  set: string;
  template_id?: number;
  spans: Array<{ entity_type: string; start: number; end: number }>;
}

/** The dev PII rows: presidio synthetic rows (grouped by template) and recognizer-test rows (no named entities). */
export function devSequences(datasets: string, gazetteers: Gazetteers): Sequence[] {
  const rows = readFileSync(`${datasets}/pii.dev.jsonl`, 'utf8')
    .split('\n')
    .filter(line => line.trim())
    .map(line => JSON.parse(line) as DevRow);
  return rows.map(row => {
    const spans: GoldSpan[] = row.spans
      .filter(span => typeOf[span.entity_type])
      .map(span => ({ type: typeOf[span.entity_type]!, start: span.start, end: span.end }));
    const group = row.template_id === undefined ? `set:${row.set}` : `template:${row.template_id}`;
    return sequence(row.id, group, row.text, spans, gazetteers, false);
  });
}

/** Benign prompts (every `step`-th by the sha256 of the id, at most 600 characters) as partly labelled negatives. */
export function benignSequences(corpora: string, gazetteers: Gazetteers, step: number): Sequence[] {
  const sequences: Sequence[] = [];
  for (const line of readFileSync(`${corpora}/benign.jsonl`, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const row = JSON.parse(line) as { id: string; text: string };
    if (row.text.length > 600) continue;
    const digest = createHash('sha256').update(row.id).digest();
    if (digest.readUInt32BE(0) % step !== 0) continue;
    sequences.push(sequence(row.id, undefined, row.text, [], gazetteers, true));
  }
  return sequences.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** One hand-written fixture row: its text and gold spans. */
export interface FixtureRow {
  text: string;
  spans: GoldSpan[];
}

/**
 * Rows of a hand-written fixture (`test/fixtures/ner-sentences*.jsonl`): spans in text order,
 * each a value found after the previous span, or at its `start`/`end` when given (checked).
 */
export function fixtureRows(path: string): FixtureRow[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(line => line.trim())
    .map((line, index) => {
      const row = JSON.parse(line) as {
        text: string;
        spans: Array<{ type: NerEntity; value: string; start?: number; end?: number }>;
      };
      const spans: GoldSpan[] = [];
      let from = 0;
      for (const span of row.spans) {
        const start = span.start ?? row.text.indexOf(span.value, from);
        const end = span.end ?? start + span.value.length;
        if (start < from || row.text.slice(start, end) !== span.value)
          throw new Error(`fixture row ${index + 1}: ${span.value} not at its place in the text`);
        spans.push({ type: span.type, start, end });
        from = end;
      }
      return { text: row.text, spans };
    });
}

/** Hand-written fixture sentences (`test/fixtures/ner-sentences.jsonl`), each with its spans. */
export function fixtureSequences(path: string, gazetteers: Gazetteers): Sequence[] {
  return fixtureRows(path).map((row, index) =>
    sequence(`fixture-${index + 1}`, undefined, row.text, row.spans, gazetteers, false),
  );
}

/** Writes `value` (lower case) the way `like` is written: all lower, all upper or capitalised words. */
function caseLike(value: string, like: string): string {
  if (like === like.toLowerCase()) return value;
  if (like === like.toUpperCase()) return value.toUpperCase();
  return value.replace(
    /(^|[\s-])(\p{L})/gu,
    (_, before: string, letter: string) => before + letter.toUpperCase(),
  );
}

/** Lists of replacement values (see `SwapLists` in gazetteers.ts). */
export interface AugmentLists {
  names: string[];
  places: string[];
  countries: string[];
}

/**
 * Copies of labelled rows whose PERSON and LOCATION values are swapped for
 * random entries of the public lists (same casing style, same number of
 * words for names up to two), and, every `lowerEvery`-th copy, the whole
 * text lower-cased. The model then learns from context, shape and the
 * gazetteers rather than by heart the few hundred values of the data.
 */
export function augmentedSequences(
  sequences: readonly Sequence[],
  lists: AugmentLists,
  gazetteers: Gazetteers,
  copies: number,
  seed: number,
): Sequence[] {
  const random = prng(seed);
  const pick = (list: readonly string[]) => list[Math.floor(random() * list.length)]!;
  const result: Sequence[] = [];
  let made = 0;
  for (const sequence of sequences) {
    if (sequence.spans.length === 0) continue;
    for (let copy = 0; copy < copies; copy++) {
      let text = '';
      let cursor = 0;
      const spans: GoldSpan[] = [];
      for (const span of [...sequence.spans].sort((a, b) => a.start - b.start)) {
        if (span.start < cursor) continue;
        const original = sequence.text.slice(span.start, span.end);
        let value = original;
        if (span.type === 'PERSON' && !/[\n\d]/.test(original)) {
          const words = original.split(/\s+/).length;
          value = words >= 2 ? `${pick(lists.names)} ${pick(lists.names)}` : pick(lists.names);
          value = caseLike(value, original);
        } else if (span.type === 'LOCATION' && !/[\n\d]/.test(original)) {
          value = caseLike(random() < 0.5 ? pick(lists.places) : pick(lists.countries), original);
        }
        text += sequence.text.slice(cursor, span.start);
        spans.push({ type: span.type, start: text.length, end: text.length + value.length });
        text += value;
        cursor = span.end;
      }
      text += sequence.text.slice(cursor);
      made++;
      if (made % 4 === 0) text = text.toLowerCase();
      result.push(sequence_(`${sequence.id}~${copy}`, sequence.group, text, spans, gazetteers));
    }
  }
  return result;
}

const personBegin = 1 + 2 * nerEntities.indexOf('PERSON');

/** `text` in lower case, one character at a time, each kept where lower-casing would change its length (offsets stay). */
export function lowerSameLength(text: string): string {
  return text.replace(/[\s\S]/gu, char => {
    const lower = char.toLowerCase();
    return lower.length === char.length ? lower : char;
  });
}

/**
 * Chat-style copies: of the labelled rows with a PERSON span, a seeded share
 * (`share`, 0-1) again with the whole text in lower case, the spans where
 * they were (`lowerSameLength`). People write names in lower case in chat
 * (`ask jae-hyun`); the dev split never does, so the model learnt that a
 * lower-case word is no name. Only the names and the words outside any
 * entity are known in a copy (addresses, places and organisations are
 * learnt as written). Deterministic: one draw per row, in order.
 */
export function lowerCasedSequences(
  sequences: readonly Sequence[],
  gazetteers: Gazetteers,
  share: number,
  seed: number,
  namesOnly = false,
): Sequence[] {
  const random = prng(seed ^ 0x10c45e);
  const result: Sequence[] = [];
  for (const sequence of sequences) {
    if (!sequence.spans.some(span => span.type === 'PERSON')) continue;
    if (random() >= share) continue;
    let text = lowerSameLength(sequence.text);
    if (namesOnly) {
      // Only the names in lower case (`met anna berg in Oslo`).
      text = sequence.text;
      for (const span of sequence.spans)
        if (span.type === 'PERSON')
          text =
            text.slice(0, span.start) +
            lowerSameLength(text.slice(span.start, span.end)) +
            text.slice(span.end);
    }
    if (text === sequence.text) continue;
    const lower = sequence_(
      `${sequence.id}~lower`,
      sequence.group,
      text,
      sequence.spans,
      gazetteers,
    );
    // Only names are taught in lower case: the tokens of the other types teach nothing here.
    for (let index = 0; index < lower.labels.length; index++) {
      const label = lower.labels[index]!;
      if (label !== 0 && label !== personBegin && label !== personBegin + 1) lower.known[index] = 0;
    }
    result.push(lower);
  }
  return result;
}

const sequence_ = (
  id: string,
  group: string | undefined,
  text: string,
  spans: GoldSpan[],
  gazetteers: Gazetteers,
) => sequence(id, group, text, spans, gazetteers, false);

/**
 * Paragraphs of English prose (`english_text.txt`, every `step`-th paragraph
 * of 40-600 characters, in file order) for self-training: unlabelled, to be
 * tagged by a model (scripts/train/train-ner.ts, NER_SELF_TRAIN).
 */
export function proseTexts(corpora: string, step: number): Array<{ id: string; text: string }> {
  const paragraphs = readFileSync(`${corpora}/english_text.txt`, 'utf8').split(/\n\s*\n/);
  const texts: Array<{ id: string; text: string }> = [];
  let kept = 0;
  paragraphs.forEach((raw, index) => {
    const text = raw.trim();
    if (text.length < 40 || text.length > 600) return;
    if (kept++ % step === 0) texts.push({ id: `prose:${index}`, text });
  });
  return texts;
}

/**
 * A self-training sequence: `text` with the spans a model tagged as its
 * labels; tokens inside them and lower-case words, numbers and signs are
 * known, capitalised words outside them are not (they may be missed names).
 */
export function selfSequence(
  id: string,
  text: string,
  spans: GoldSpan[],
  gazetteers: Gazetteers,
  weight: number,
): Sequence {
  const result = sequence(id, 'prose', text, spans, gazetteers, true);
  for (let index = 0; index < result.labels.length; index++)
    if (result.labels[index] !== 0) result.known[index] = 1;
  result.weight = weight;
  return result;
}
