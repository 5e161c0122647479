import type { RankedSpan } from '../../shared/spans';
import { type TaggedChunks, tagNamedEntities } from './find-named-entities';
import type { NerEntity } from './labels';
import { scopedNerModel } from './ner-model-loader';
import type { NerSpan } from './tagger';

/** Ranks below every pattern entity: an overlap is settled for the pattern. */
const NER_PRIORITY = 0;

/** Whether `text[start, end)` holds a letter or a digit. */
function hasWord(text: string, start: number, end: number): boolean {
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index);
    if (
      (code >= 48 && code <= 57) ||
      (code >= 65 && code <= 90) ||
      (code >= 97 && code <= 122) ||
      code > 127
    ) {
      return true;
    }
  }
  return false;
}

/** Blanks and separators a piece of a cut span does not start or end with. */
const edge = /[\s,;:()[\]{}<>"'-]/;

/** Adds `[start, end)` less blanks and separators at its ends, if a word is left. */
function pushPiece(
  result: RankedSpan[],
  text: string,
  type: string,
  start: number,
  end: number,
): void {
  while (start < end && edge.test(text[start]!)) start++;
  while (end > start && edge.test(text[end - 1]!)) end--;
  if (start < end && hasWord(text, start, end)) {
    result.push({ type, start, end, priority: NER_PRIORITY });
  }
}

/**
 * The tagger's spans of `entities` in the normalised `text`, as ranked
 * candidates beside the pattern candidates: a pattern match (e-mail, phone,
 * card...) wins over a name or address covering it, so each tagged span is
 * cut around the pattern candidates it overlaps and the pieces that still
 * hold a word are kept (an address keeps its street when the phone number
 * written inside it is reported as PHONE_NUMBER). Linear after sorting.
 * The model is the caller's (`withNerModel`: `findPii`'s bundled one, `pii()`'s loaded one).
 * `placeholders`: the redaction placeholders the tagger masks (default
 * `[TYPE]` and `<TYPE_N>`; see `findNamedEntities`). `memo`: chunks
 * already tagged (see `TaggedChunks`).
 */
export function namedEntityCandidates(
  text: string,
  entities: readonly NerEntity[],
  patternCandidates: ReadonlyArray<{ start: number; end: number }>,
  placeholders?: RegExp,
  memo?: TaggedChunks,
): RankedSpan[] {
  if (entities.length === 0) return [];
  return cutAroundPatterns(
    text,
    tagNamedEntities(scopedNerModel, text, entities, placeholders, memo),
    patternCandidates,
  );
}

/**
 * `tagged` spans (in text order) cut around the `blocked` spans they
 * overlap, keeping the pieces that still hold a word, ranked below every
 * pattern entity. Linear after sorting `blocked`.
 */
export function cutAroundPatterns(
  text: string,
  tagged: readonly NerSpan[],
  blockedSpans: ReadonlyArray<{ start: number; end: number }>,
): RankedSpan[] {
  if (tagged.length === 0) return [];
  const blocked = [...blockedSpans].sort((a, b) => a.start - b.start);
  const result: RankedSpan[] = [];
  let first = 0;
  for (const span of tagged) {
    while (first < blocked.length && blocked[first]!.end <= span.start) first++;
    let cursor = span.start;
    for (let index = first; index < blocked.length && blocked[index]!.start < span.end; index++) {
      const block = blocked[index]!;
      if (block.start > cursor) pushPiece(result, text, span.type, cursor, block.start);
      cursor = Math.max(cursor, block.end);
    }
    if (cursor === span.start) {
      result.push({ type: span.type, start: span.start, end: span.end, priority: NER_PRIORITY });
    } else if (cursor < span.end) {
      pushPiece(result, text, span.type, cursor, span.end);
    }
  }
  return result;
}
