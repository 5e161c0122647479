/**
 * Reads the training data of the prompt-injection detector from the shared
 * corpora and development datasets (never copied into the repository), in a
 * deterministic order (sorted by id).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One labelled text. */
export interface TrainingRow {
  id: string;
  text: string;
  label: 0 | 1;
  /** Leave-one-source-out group: the repository of `source`, or `dev:<set>`. */
  group: string;
  family: string;
  /**
   * Composed rows (scripts/train/compose/): the sources their payload comes
   * from or appears in; the row leaves training whenever one of them is left out.
   */
  origins?: readonly string[];
}

/** Where the data lives (paths relative to the repository root by default). */
export interface DataPaths {
  corpora: string;
  datasets: string;
}

/** One JSONL row of the corpora or data sets, as read. */
export interface RawRow {
  id?: string;
  text: string;
  label: number;
  source?: string;
  set?: string;
  family?: string;
  /** Harmful rows: the source's own hazard category, if any. */
  category?: string;
}

export function readJsonl(path: string): RawRow[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(line => line.trim() !== '')
    .map(line => JSON.parse(line) as RawRow);
}

/** The repository a corpus row comes from (the first one for combined rows). */
export function repositoryOf(source: string): string {
  return source.split(' + ')[0]!.split(':')[0]!.trim();
}

/** FNV-1a of a string, for deterministic ids and splits. */
export function fnv(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  }
  return hash >>> 0;
}

function corpusRows(path: string, keepLabel?: 0 | 1): TrainingRow[] {
  return readJsonl(path)
    .filter(row => keepLabel === undefined || row.label === keepLabel)
    .map(row => ({
      id: row.id ?? `row-${fnv(row.text)}`,
      text: row.text,
      label: row.label === 1 ? 1 : 0,
      group: repositoryOf(row.source ?? 'unknown'),
      family: row.family ?? '',
    }));
}

function devRows(path: string): TrainingRow[] {
  return readJsonl(path).map(row => ({
    id: row.id ?? `row-${fnv(row.text)}`,
    text: row.text,
    label: row.label === 1 ? 1 : 0,
    group: `dev:${row.set ?? 'all'}`,
    family: row.set ?? '',
  }));
}

function sorted(rows: TrainingRow[]): TrainingRow[] {
  return rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Direct mode: direct attacks and benign prompts, plus the direct dev split. */
export function directRows({ corpora, datasets }: DataPaths): TrainingRow[] {
  return sorted([
    ...corpusRows(join(corpora, 'injection_direct.jsonl')),
    ...corpusRows(join(corpora, 'benign.jsonl')),
    ...devRows(join(datasets, 'prompt_injection.dev.jsonl')),
  ]);
}

/** Indirect mode: injected and clean tool outputs / documents, plus the indirect dev split. */
export function indirectRows({ corpora, datasets }: DataPaths): TrainingRow[] {
  return sorted([
    ...corpusRows(join(corpora, 'injection_indirect.jsonl')),
    ...devRows(join(datasets, 'indirect_injection.dev.jsonl')),
  ]);
}

/**
 * Rows kept out of training to calibrate and pick the threshold: a fixed
 * 10% slice by a hash of the id.
 */
export function isCalibrationRow(row: TrainingRow): boolean {
  return fnv(`calibration:${row.id}`) % 10 === 0;
}

/** Paragraphs of English prose for the character language model, minus benign corpus prompts. */
export function englishParagraphs({ corpora }: DataPaths): string[] {
  const benign = new Set(
    readJsonl(join(corpora, 'benign.jsonl')).map(row => row.text.trim().replace(/\s+/g, ' ')),
  );
  return readFileSync(join(corpora, 'english_text.txt'), 'utf8')
    .split(/\n\s*\n/)
    .map(paragraph => paragraph.trim().replace(/\s+/g, ' '))
    .filter(paragraph => paragraph !== '' && !benign.has(paragraph));
}

/**
 * Background negatives: paragraphs of the English prose file (novels, OWASP
 * cheat-sheet prose, role-play answers; benign corpus prompts excluded), cut
 * to at most `maxLength` characters, every `step`-th one. They teach the
 * model that ordinary text, including text about security, is no attack.
 */
export function proseRows(
  paragraphs: readonly string[],
  step: number,
  maxLength = 800,
): TrainingRow[] {
  const rows: TrainingRow[] = [];
  for (let index = 0; index < paragraphs.length; index += step) {
    const paragraph = paragraphs[index]!;
    if (paragraph.length < 40) continue;
    const text = paragraph.length > maxLength ? paragraph.slice(0, maxLength) : paragraph;
    rows.push({
      id: `prose-${fnv(text).toString(16).padStart(8, '0')}-${index}`,
      text,
      label: 0,
      group: 'english-prose',
      family: 'prose',
    });
  }
  return rows;
}

/**
 * Prompt-sized background negatives: each prose paragraph cut at sentence
 * ends into pieces of at most `maxLength` characters (a longer sentence is
 * one piece, cut at `maxLength`), pieces under 30 characters dropped, every
 * `step`-th piece kept. Deterministic (file order).
 */
export function prosePieces(
  paragraphs: readonly string[],
  step: number,
  maxLength: number,
): TrainingRow[] {
  const rows: TrainingRow[] = [];
  let counter = 0;
  const emit = (piece: string) => {
    const text = piece.trim().slice(0, maxLength);
    if (text.length < 30) return;
    if (counter++ % step !== 0) return;
    rows.push({
      id: `prose-${fnv(text).toString(16).padStart(8, '0')}-${counter}`,
      text,
      label: 0,
      group: 'english-prose',
      family: 'prose',
    });
  };
  for (const paragraph of paragraphs) {
    let piece = '';
    for (const sentence of paragraph.split(/(?<=[.!?]["”’)]?)\s+/)) {
      if (piece !== '' && piece.length + 1 + sentence.length > maxLength) {
        emit(piece);
        piece = '';
      }
      piece = piece === '' ? sentence : `${piece} ${sentence}`;
    }
    if (piece !== '') emit(piece);
  }
  return rows;
}
