import { type NerEntity, nerEntities, nerMaxLength } from './labels';
import { nerModel } from './model/ner-model';
import { decodeNerModel, type NerModel } from './ner-model';
import { type NerSpan, tagText } from './tagger';

let loaded: NerModel | undefined;

/** Characters tagged at once. */
export const NER_CHUNK = 65_536;

/**
 * Where the chunk starting at `start` ends: at a line break in its last
 * quarter, else at a blank there, else at `NER_CHUNK` characters (never
 * inside a surrogate pair). Only an address runs over a line break, and few
 * entities over a blank.
 */
function chunkEnd(text: string, start: number): number {
  const limit = start + NER_CHUNK;
  if (limit >= text.length) return text.length;
  const floor = start + (NER_CHUNK * 3) / 4;
  const newline = text.lastIndexOf('\n', limit - 1);
  if (newline >= floor) return newline + 1;
  for (let index = limit - 1; index >= floor; index--) {
    const code = text.charCodeAt(index);
    if (code === 32 || code === 9) return index + 1;
  }
  const code = text.charCodeAt(limit - 1);
  return code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
}

/** The shipped model, decoded on first use and kept (importing costs nothing until a text is tagged). */
function model(): NerModel {
  loaded ??= decodeNerModel(nerModel);
  return loaded;
}

/**
 * Finds names of people, street addresses, places and organisations in
 * `text` with the shipped token tagger (an averaged perceptron over
 * capitalisation, shape, affix, context-word and gazetteer features; see
 * docs/pii-ner-model.md). Returns `[{ type, start, end }]` in text order,
 * offsets into `text`, only of the `entities` asked for. Linear in the
 * length of the text, tagged in chunks of `NER_CHUNK` characters cut at line
 * breaks or blanks (bounded memory); a token's label looks at most two tokens ahead, and no
 * span is longer than `nerMaxLength` of its type.
 */
export function findNamedEntities(
  text: string,
  entities: readonly NerEntity[] = nerEntities,
): NerSpan[] {
  if (entities.length === 0 || text.length === 0) return [];
  const { gazetteers, score } = model();
  const spans: NerSpan[] = [];
  // Tagged a chunk at a time, so memory stays bounded on a 10 MB text.
  for (let start = 0; start < text.length; ) {
    const end = chunkEnd(text, start);
    for (const span of tagText(text.slice(start, end), gazetteers, score)) {
      if (entities.includes(span.type)) {
        spans.push({ type: span.type, start: span.start + start, end: span.end + start });
      }
    }
    start = end;
  }
  return spans;
}

export { type NerEntity, type NerSpan, nerEntities, nerMaxLength };
