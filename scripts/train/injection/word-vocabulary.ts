/**
 * Round 47 (hA, issue 15): the vocabulary of the word-piece test
 * (`word-pieces.ts`), built from the English
 * prose corpus (`english_text.txt`) and the benign prompts (`benign.jsonl`):
 * the text lower-cased and cut at every character that is not an ASCII
 * letter; a word is a run of `PIECE_MIN` or more letters seen at least
 * `VOCABULARY_MIN_COUNT` times in the two files together. Deterministic (the
 * hashes are sorted).
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataPaths } from '../injection-data';
import { PIECE_MIN, WORD_PIECE_MAX, wordHash } from './word-pieces';

/** Fewest times a word is seen in the corpora to be a word of the vocabulary. */
export const VOCABULARY_MIN_COUNT = 3;

/** Adds the words of `text` (lower case, ASCII letters) to `counts`. */
function countWords(text: string, counts: Map<string, number>): void {
  const lower = text.toLowerCase();
  let start = -1;
  for (let index = 0; index <= lower.length; index++) {
    const code = index < lower.length ? lower.charCodeAt(index) : 0;
    if (code >= 97 && code <= 122) {
      if (start < 0) start = index;
      continue;
    }
    if (start >= 0 && index - start >= PIECE_MIN && index - start <= WORD_PIECE_MAX) {
      const word = lower.slice(start, index);
      counts.set(word, (counts.get(word) ?? 0) + 1);
    }
    start = -1;
  }
}

/** The sorted hashes of the vocabulary's words. */
export function vocabularyHashes(
  { corpora }: DataPaths,
  minCount = VOCABULARY_MIN_COUNT,
): Uint32Array {
  const counts = new Map<string, number>();
  countWords(readFileSync(join(corpora, 'english_text.txt'), 'utf8'), counts);
  for (const line of readFileSync(join(corpora, 'benign.jsonl'), 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    countWords((JSON.parse(line) as { text: string }).text, counts);
  }
  const hashes = new Set<number>();
  for (const [word, count] of counts) if (count >= minCount) hashes.add(wordHash(word));
  return Uint32Array.from([...hashes].sort((a, b) => a - b));
}
