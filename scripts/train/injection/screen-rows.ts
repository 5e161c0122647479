/**
 * The rows a rule's benign screen reads (issue 15's rule: ≤ 0.5% of each
 * benign source's rows, ≤ 1 under 200): the direct corpora and dev sets
 * with the synthetic rows, the indirect rows, harmful.jsonl's and
 * harmful.dev.jsonl's benign rows, and the ordinary turns of the test
 * fixtures (round 51 hB; the sources prior-override-screen.ts reads, plus
 * every ordinary-chat fixture).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { syntheticRows } from '../augment';
import {
  type DataPaths,
  directRows,
  indirectRows,
  readJsonl,
  repositoryOf,
} from '../injection-data';

/** One screened text: `name` is "set<TAB>source". */
export interface ScreenRow {
  id: string;
  name: string;
  label: number;
  text: string;
}

/** Ordinary first turns and follow-ups of test/fixtures (one text a line, or JSONL). */
export const ORDINARY_FIXTURES = [
  'ordinary-chat.txt',
  'decoding-requests.txt',
  'instruction-disclosure-ordinary.txt',
  'pretext-ordinary.txt',
  'system-prompt-questions.txt',
  'r50-blind-first-turns.txt',
  'r50-blind-noise-tails.txt',
  'r50-prior-override-ordinary.txt',
  'r50-prior-override-ordinary-2.txt',
  'r50-prior-override-ordinary-3.txt',
  'r50-prior-override-ordinary-4.txt',
  'r50-prior-override-ordinary-5.txt',
  'r50-blind-follow-ups.jsonl',
  'r50-blind-harmful-benign.jsonl',
  'r50-ordinary-addressing.jsonl',
  'r50-harmful-directed-harm-benign.jsonl',
  'followup-ordinary-hj.jsonl',
  'followup-conversations.jsonl',
  'harmful-ordinary-requests.jsonl',
  'harmful-lookalikes.jsonl',
  'r51-hB-code-ordinary.txt',
  'r51-hB-code-ordinary-hard.txt',
];

/** The user texts of one fixture line (JSONL: `text`, `user`, `followUp`, even `turns`; label 0 only). */
function fixtureTexts(file: string, line: string): string[] {
  if (!file.endsWith('.jsonl')) return [line];
  const value = JSON.parse(line) as Record<string, unknown>;
  if (typeof value.label === 'number' && value.label !== 0) return [];
  const texts: string[] = [];
  for (const key of ['text', 'user', 'followUp']) {
    if (typeof value[key] === 'string') texts.push(value[key] as string);
  }
  if (Array.isArray(value.turns)) {
    value.turns.forEach((turn, index) => {
      if (index % 2 === 0 && typeof turn === 'string') texts.push(turn);
    });
  }
  return texts;
}

/** Every row a screen reads. */
export function screenRows(paths: DataPaths, fixtures = ORDINARY_FIXTURES): ScreenRow[] {
  const rows: ScreenRow[] = [];
  for (const row of [...directRows(paths), ...syntheticRows()]) {
    rows.push({ id: row.id, name: `direct\t${row.group}`, label: row.label, text: row.text });
  }
  for (const row of indirectRows(paths)) {
    rows.push({ id: row.id, name: `indirect\t${row.group}`, label: row.label, text: row.text });
  }
  for (const row of readJsonl(join(paths.corpora, 'harmful.jsonl'))) {
    if (row.label === 0) {
      const name = `harmful\t${repositoryOf(row.source ?? '')}`;
      rows.push({ id: '', name, label: 0, text: row.text });
    }
  }
  for (const row of readJsonl(join(paths.datasets, 'harmful.dev.jsonl'))) {
    if (row.label === 0)
      rows.push({ id: '', name: `harmful.dev\t${row.set}`, label: 0, text: row.text });
  }
  for (const file of fixtures) {
    for (const line of readFileSync(join('test/fixtures', file), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      for (const text of fixtureTexts(file, line)) {
        rows.push({ id: '', name: `fixture\t${file}`, label: 0, text });
      }
    }
  }
  return rows;
}

/** The most rows a benign source of `count` rows may fire on. */
export const screenLimit = (count: number): number => (count < 200 ? 1 : Math.floor(0.005 * count));
