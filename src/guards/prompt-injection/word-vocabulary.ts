import { GuardrailFailClosedError } from '../../core/chain';
import { decodeWordSet, type WordSet } from './word-pieces';

/**
 * The word-piece suffix gate's vocabulary (round 49, issue 15;
 * `suffix-word-piece-gate.ts`) was asked for before it was given: a
 * `GuardrailFailClosedError` (the check does not pass).
 */
export class WordVocabularyLoadError extends GuardrailFailClosedError {
  override readonly name = 'WordVocabularyLoadError';
}

let given: string | undefined;
let vocabulary: WordSet | undefined;

/**
 * Gives the vocabulary in its shipped form (`model/word-vocabulary-data.ts`,
 * base64 of sorted 32-bit hashes), decoded once: `promptInjection()` gives it
 * with its harmful model (loaded on first need), `scorePromptInjection` from
 * its static import.
 */
export function giveWordVocabulary(base64: string): void {
  if (given === base64) return;
  vocabulary = decodeWordSet(base64);
  given = base64;
}

/**
 * The vocabulary given so far; when none was, calls `load` first (the
 * harmful model's accessor of `promptInjection()`, whose load gives it).
 */
export function wordVocabularyAfter(load: () => unknown): WordSet {
  if (vocabulary === undefined) load();
  return wordVocabulary();
}

/** The vocabulary given so far; throws `WordVocabularyLoadError` when none was. */
export function wordVocabulary(): WordSet {
  if (vocabulary === undefined) {
    throw new WordVocabularyLoadError(
      'prompt-injection: the suffix gate asked for its word vocabulary before it was loaded',
    );
  }
  return vocabulary;
}
