import { type NerEntity, nerEntities, nerMaxLength } from './labels';
import { nerModel } from './model/ner-model';
import { decodeNerModel, type NerModel } from './ner-model';
import { type NerSpan, tagText } from './tagger';

let loaded: NerModel | undefined;

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
 * length of the text; a token's label looks at most two tokens ahead, and no
 * span is longer than `nerMaxLength` of its type.
 */
export function findNamedEntities(
  text: string,
  entities: readonly NerEntity[] = nerEntities,
): NerSpan[] {
  if (entities.length === 0 || text.length === 0) return [];
  const spans = tagText(text, model().gazetteers, model().score);
  return entities.length === nerEntities.length
    ? spans
    : spans.filter(span => entities.includes(span.type));
}

export { type NerEntity, type NerSpan, nerEntities, nerMaxLength };
