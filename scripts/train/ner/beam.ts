/**
 * Beam search decoding of the greedy model, measured and not shipped
 * (docs/pii-ner-model.md, eighth session; NER_BEAM=width). The same label
 * constraints as the shipped greedy tagger (`tagTokens`, which is width 1:
 * tested).
 */
import {
  contextFeatures,
  HISTORY_FEATURES,
  historyFeatures,
  MAX_FEATURES,
  type Scanned,
  surelyOutside,
} from '../../../src/guards/pii/ner/features';
import { LABEL_COUNT, nerEntities, nerMaxLength } from '../../../src/guards/pii/ner/labels';
import type { ScoreTokens } from '../../../src/guards/pii/ner/tagger';

const labelCount = LABEL_COUNT;
const maxLengthOfLabel = Array.from({ length: LABEL_COUNT }, (_, label) =>
  label === 0 ? 0 : nerMaxLength[nerEntities[(label - 1) >> 1]!],
);
const addressInside = 2 + 2 * nerEntities.indexOf('STREET_ADDRESS');

/**
 * Beam search over the same model (`tagTokens` is width 1): the `width`
 * best label histories are kept, each extended by every label its last
 * label allows (same constraints as `tagTokens`), scored by the sum of
 * its tokens' label scores. Histories ending in the same two labels are
 * merged (the model sees no further back), so a width of 81 would be exact
 * but for the length bound. A history's score is the sum over its tokens of
 * each label's score minus the outside label's on that token, so an outside
 * token adds 0 and a token `surelyOutside` after an outside label can stay
 * outside without scoring, as in `tagTokens`. The label-free features
 * of a token are scored once, the five label-history features once per
 * history: linear in the tokens, `width` times the history work.
 */
export function tagTokensBeam(scanned: Scanned, score: ScoreTokens, width: number): Uint8Array {
  const { count, flags, start: starts, end: ends, newline: newlines } = scanned;
  const labels = new Uint8Array(count);
  if (count === 0) return labels;
  const buckets = new Int32Array(MAX_FEATURES);
  const history = new Int32Array(HISTORY_FEATURES);
  const context = new Float64Array(labelCount);
  const scores = new Float64Array(labelCount);
  // Per token and kept history: its label and the history it extends.
  const chosen = new Uint8Array(count * width);
  const parent = new Uint16Array(count * width);
  let size = 1;
  // The kept histories (last two labels, where the open entity starts, score) and the next ones.
  let kept = histories(width);
  let next = histories(width);
  // Best candidate per (label, previous label): its score, history and start.
  const slotScore = new Float64Array(labelCount * labelCount);
  const slotFrom = new Int32Array(labelCount * labelCount);
  const slotStart = new Int32Array(labelCount * labelCount);
  const used: number[] = [];
  for (let index = 0; index < count; index++) {
    const skip = surelyOutside(flags[index]!);
    let contextScored = false;
    used.length = 0;
    for (let from = 0; from < size; from++) {
      const last = kept.previous[from]!;
      if (last === 0 && skip) {
        offer(0, last, kept.total[from]!, from, kept.start[from]!);
        continue;
      }
      if (!contextScored) {
        const features = contextFeatures(scanned, index, buckets, 0);
        context.fill(0);
        score(buckets, features, context);
        contextScored = true;
      }
      historyFeatures(scanned, index, last, kept.previous2[from]!, history);
      scores.set(context);
      score(history, HISTORY_FEATURES, scores);
      const inside = last === 0 ? 0 : last % 2 === 1 ? last + 1 : last;
      const insideAllowed =
        inside !== 0 &&
        ends[index]! - kept.start[from]! <= maxLengthOfLabel[inside]! &&
        (newlines[index] === 0 || inside === addressInside);
      // Scores relative to outside: a token outside adds 0 whether it was scored or skipped.
      const base = kept.total[from]! - scores[0]!;
      offer(0, last, kept.total[from]!, from, kept.start[from]!);
      for (let label = 1; label < labelCount; label += 2)
        offer(label, last, base + scores[label]!, from, starts[index]!);
      if (insideAllowed) offer(inside, last, base + scores[inside]!, from, kept.start[from]!);
    }
    // Keep the `width` best merged histories (ties: the lower slot, so the result is deterministic).
    used.sort((a, b) => slotScore[b]! - slotScore[a]! || a - b);
    size = Math.min(width, used.length);
    for (let rank = 0; rank < size; rank++) {
      const slot = used[rank]!;
      const label = (slot / labelCount) | 0;
      next.previous[rank] = label;
      next.previous2[rank] = slot % labelCount;
      next.start[rank] = slotStart[slot]!;
      next.total[rank] = slotScore[slot]!;
      chosen[index * width + rank] = label;
      parent[index * width + rank] = slotFrom[slot]!;
    }
    [kept, next] = [next, kept];
  }
  let at = 0;
  for (let index = count - 1; index >= 0; index--) {
    labels[index] = chosen[index * width + at]!;
    at = parent[index * width + at]!;
  }
  return labels;

  function offer(label: number, last: number, value: number, from: number, start: number): void {
    const slot = label * labelCount + last;
    let fresh = true;
    for (let seen = 0; seen < used.length; seen++) if (used[seen] === slot) fresh = false;
    if (fresh) used.push(slot);
    else if (slotScore[slot]! >= value) return;
    slotScore[slot] = value;
    slotFrom[slot] = from;
    slotStart[slot] = start;
  }
}

/** `width` label histories: the last two labels, where the open entity starts, the score. */
function histories(width: number) {
  return {
    previous: new Uint8Array(width),
    previous2: new Uint8Array(width),
    start: new Int32Array(width),
    total: new Float64Array(width),
  };
}
