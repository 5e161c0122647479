import {
  type Gazetteers,
  MAX_FEATURES,
  surelyOutside,
  type Token,
  type TokenInfo,
  tokenFeatures,
  tokenInfos,
  tokenize,
} from './features';
import {
  entityOfLabel,
  isInside,
  LABEL_COUNT,
  type NerEntity,
  nerEntities,
  nerMaxLength,
} from './labels';

/** Scores every label of one token from its feature buckets (adds into `scores`). */
export type ScoreTokens = (buckets: Int32Array, count: number, scores: Float64Array) => void;

/** One entity found by the tagger: `[start, end)` offsets into the tagged text. */
export interface NerSpan {
  type: NerEntity;
  start: number;
  end: number;
}

const punctuationKept = new Set(['.']);
// Module-level copies: the hot loop reads no imported bindings.
const labelCount = LABEL_COUNT;
const maxLengthOfLabel = Array.from({ length: LABEL_COUNT }, (_, label) =>
  label === 0 ? 0 : nerMaxLength[nerEntities[(label - 1) >> 1]!],
);
const addressInside = 2 + 2 * nerEntities.indexOf('STREET_ADDRESS');

/**
 * Tags `tokens` left to right, one label per token (greedy, no search): a
 * token's label depends on its features (two tokens either side) and the two
 * labels before it, so the cost is linear in the number of tokens. An I label
 * is only allowed after B or I of the same type and while the entity stays
 * within its type's length bound.
 */
export function tagTokens(
  tokens: readonly Token[],
  infos: readonly TokenInfo[],
  score: ScoreTokens,
): Uint8Array {
  const labels = new Uint8Array(tokens.length);
  const buckets = new Int32Array(MAX_FEATURES);
  const scores = new Float64Array(labelCount);
  let previous = 0;
  let previous2 = 0;
  let spanStart = 0;
  for (let index = 0; index < tokens.length; index++) {
    if (previous === 0 && surelyOutside(infos[index]!)) {
      labels[index] = 0;
      previous2 = previous;
      continue;
    }
    const count = tokenFeatures(infos, index, previous, previous2, buckets);
    scores.fill(0);
    score(buckets, count, scores);
    const token = tokens[index]!;
    // The I label that may follow `previous` (B or I of one type), if any.
    const inside = previous === 0 ? 0 : previous % 2 === 1 ? previous + 1 : previous;
    const insideAllowed =
      inside !== 0 &&
      token.end - spanStart <= maxLengthOfLabel[inside]! &&
      (!token.newlineBefore || inside === addressInside);
    let best = 0;
    for (let label = 1; label < labelCount; label += 2) {
      if (scores[label]! > scores[best]!) best = label;
    }
    if (insideAllowed && scores[inside]! > scores[best]!) best = inside;
    if (best !== 0 && best % 2 === 1) spanStart = token.start;
    labels[index] = best;
    previous2 = previous;
    previous = best;
  }
  return labels;
}

function isWordToken(token: Token): boolean {
  const code = token.text.charCodeAt(0);
  return (
    token.text.toLowerCase() !== token.text.toUpperCase() ||
    (code >= 48 && code <= 57) ||
    code > 127
  );
}

/**
 * The entity spans of a label sequence: runs of B/I of one type, trimmed of
 * punctuation at either end (a full stop is kept right after a short word:
 * `St.`, `Apt.`), dropped when no word is left.
 */
export function spansOfLabels(tokens: readonly Token[], labels: Uint8Array): NerSpan[] {
  const spans: NerSpan[] = [];
  let index = 0;
  while (index < tokens.length) {
    const label = labels[index]!;
    if (label === 0) {
      index++;
      continue;
    }
    const entity = entityOfLabel(label);
    let end = index + 1;
    while (end < tokens.length && isInside(labels[end]!) && entityOfLabel(labels[end]!) === entity)
      end++;
    let first = index;
    let last = end - 1;
    while (first <= last && !isWordToken(tokens[first]!)) first++;
    while (last >= first && !isWordToken(tokens[last]!)) {
      const token = tokens[last]!;
      const before = tokens[last - 1];
      const abbreviation =
        punctuationKept.has(token.text) &&
        before !== undefined &&
        last - 1 >= first &&
        before.end === token.start &&
        before.text.length <= 4 &&
        /^\p{L}+$/u.test(before.text);
      if (abbreviation) break;
      last--;
    }
    if (first <= last) {
      spans.push({
        type: nerEntities[entity]!,
        start: tokens[first]!.start,
        end: tokens[last]!.end,
      });
    }
    index = end;
  }
  return spans;
}

/** Tokenises, tags and returns the spans of `text`. */
export function tagText(text: string, gazetteers: Gazetteers, score: ScoreTokens): NerSpan[] {
  const tokens = tokenize(text);
  if (tokens.length === 0) return [];
  const infos = tokenInfos(tokens, gazetteers);
  return spansOfLabels(tokens, tagTokens(tokens, infos, score));
}
