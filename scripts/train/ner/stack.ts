/**
 * Experiment (NER_STACK=1, issue 17 item 1): a span-level second stage for
 * PERSON, stacked on the tagger. Candidate spans (capitalised runs of 1-4
 * tokens with name particles and initials, the tagger's PERSON spans and
 * their one-token edge variants) are scored by a logistic model over cheap
 * span features (lists, clusters, shapes, context words, punctuation, and
 * the tagger's own evidence: its spans and its B/I-PER score margins).
 * Overlapping candidates: the best-scoring one above a threshold is kept
 * (greedy, highest first, never two overlapping); the kept set replaces the
 * tagger's PERSON spans, other types untouched.
 *
 * Stacking: the second stage learns only from out-of-fold tagger outputs
 * (the caller trains taggers on inner folds of its training rows), and its
 * threshold is picked on out-of-fold second-stage scores inside those
 * same training rows, never on the rows it is reported on. Deterministic:
 * a seeded shuffle, no other randomness.
 */
import {
  bucket,
  Flag,
  MAX_FEATURES,
  NONE,
  type Scanned,
  surelyOutside,
  type T,
  tokenFeatures,
} from '../../../src/guards/pii/ner/features';
import { LABEL_COUNT, nerEntities, nerMaxLength } from '../../../src/guards/pii/ner/labels';
import type { NerSpan, ScoreTokens } from '../../../src/guards/pii/ner/tagger';
import { prng, shuffleInPlace } from '../logistic';
import type { Sequence } from './data';

const personB = 1 + 2 * nerEntities.indexOf('PERSON');
const personI = personB + 1;
const addressInside = 2 + 2 * nerEntities.indexOf('STREET_ADDRESS');
const maxLengthOfLabel = Array.from({ length: LABEL_COUNT }, (_, label) =>
  label === 0 ? 0 : nerMaxLength[nerEntities[(label - 1) >> 1]!],
);

/** The tagger's labels (exactly `tagTokens`'s) and, per token, the PERSON margin it saw. */
export interface TaggerEvidence {
  labels: Uint8Array;
  /** B-PER score minus the best other allowed label's (score units: int8 steps for a shipped model), NaN where the token was not scored. */
  marginB: Float64Array;
  /** I-PER score minus the best other label's, NaN where I-PER was not allowed or the token not scored. */
  marginI: Float64Array;
}

/** `tagTokens` (greedy, same rules) recording the PERSON margins on the way. */
export function tagWithMargins(scanned: Scanned, score: ScoreTokens): TaggerEvidence {
  const count = scanned.count;
  const { flags, start: starts, end: ends, newline: newlines } = scanned;
  const labels = new Uint8Array(count);
  const marginB = new Float64Array(count).fill(Number.NaN);
  const marginI = new Float64Array(count).fill(Number.NaN);
  const buckets = new Int32Array(MAX_FEATURES);
  const scores = new Float64Array(LABEL_COUNT);
  let previous = 0;
  let previous2 = 0;
  let spanStart = 0;
  for (let index = 0; index < count; index++) {
    if (previous === 0 && surelyOutside(flags[index]!)) {
      labels[index] = 0;
      previous2 = previous;
      continue;
    }
    const features = tokenFeatures(scanned, index, previous, previous2, buckets);
    scores.fill(0);
    score(buckets, features, scores);
    const inside = previous === 0 ? 0 : previous % 2 === 1 ? previous + 1 : previous;
    const insideAllowed =
      inside !== 0 &&
      ends[index]! - spanStart <= maxLengthOfLabel[inside]! &&
      (newlines[index] === 0 || inside === addressInside);
    let best = 0;
    for (let label = 1; label < LABEL_COUNT; label += 2) {
      if (scores[label]! > scores[best]!) best = label;
    }
    if (insideAllowed && scores[inside]! > scores[best]!) best = inside;
    // Margins: PERSON's label against the best of the other allowed labels.
    let otherB = Number.NEGATIVE_INFINITY;
    for (let label = 0; label < LABEL_COUNT; label += label === 0 ? 1 : 2) {
      if (label !== personB && scores[label]! > otherB) otherB = scores[label]!;
    }
    if (insideAllowed && scores[inside]! > otherB) otherB = scores[inside]!;
    marginB[index] = scores[personB]! - otherB;
    if (insideAllowed && inside === personI) {
      let otherI = Number.NEGATIVE_INFINITY;
      for (let label = 0; label < LABEL_COUNT; label += label === 0 ? 1 : 2)
        if (scores[label]! > otherI) otherI = scores[label]!;
      marginI[index] = scores[personI]! - otherI;
    }
    if (best !== 0 && best % 2 === 1) spanStart = starts[index]!;
    labels[index] = best;
    previous2 = previous;
    previous = best;
  }
  return { labels, marginB, marginI };
}

/** A candidate PERSON span: tokens `[first, last]`. */
export interface Candidate {
  first: number;
  last: number;
  start: number;
  end: number;
}

/** Lower-case name particles written inside a name (`Ludwig van Beethoven`, `Maria de la Cruz`). */
const particles = new Set(
  'de da del della di du des van von der den ter ten le la al el bin ibn bint dos das do y e zu'.split(
    ' ',
  ),
);

function lowerOf(scanned: Scanned, index: number): string {
  return scanned.words.lower[scanned.word[index]!]!;
}

function isCapital(flags: number): boolean {
  return (flags & (Flag.Title | Flag.Upper)) !== 0;
}

/** A token that may be part of a name run: a capitalised word, an initial, a prefixed name (`al-Amin`, `d'Arcy`). */
function isNameToken(text: string, scanned: Scanned, index: number): boolean {
  const flags = scanned.flags[index]!;
  if ((flags & (Flag.Punct | Flag.Digit)) !== 0) return false;
  if (isCapital(flags)) return true;
  const lower = lowerOf(scanned, index);
  return (
    /^(?:al|el|ad|ul|d|o)['’-]\p{Lu}/u.test(
      text.slice(scanned.start[index]!, scanned.end[index]!),
    ) && lower.length > 3
  );
}

function isParticle(scanned: Scanned, index: number): boolean {
  return (scanned.flags[index]! & Flag.Lower) !== 0 && particles.has(lowerOf(scanned, index));
}

/** Whether tokens `index - 1` and `index` are neighbours on one line (only blanks between). */
function joined(scanned: Scanned, index: number): boolean {
  return scanned.newline[index] === 0;
}

const MAX_TOKENS = 4;

/**
 * The candidates of one text: every sub-run of 1-4 tokens of a run of name
 * tokens (particles inside only), the tagger's PERSON spans (`spans`, after
 * the span rules) and each one moved by one token at either edge. Linear:
 * at most 10 candidates per run position, 5 per tagger span.
 */
export function personCandidates(
  text: string,
  scanned: Scanned,
  spans: readonly NerSpan[],
): Candidate[] {
  const count = scanned.count;
  const seen = new Set<number>();
  const result: Candidate[] = [];
  const add = (first: number, last: number) => {
    if (first < 0 || last >= count || first > last || last - first >= MAX_TOKENS + 1) return;
    const key = first * 8 + (last - first);
    if (seen.has(key)) return;
    const start = scanned.start[first]!;
    const end = scanned.end[last]!;
    if (end - start > nerMaxLength.PERSON) return;
    for (let index = first; index <= last; index++) {
      if ((scanned.flags[index]! & Flag.Punct) !== 0 && index !== last) {
        // an initial's full stop is inside its token; other signs break a name except an abbreviation's stop
        if (!(index > first && text.charCodeAt(scanned.start[index]!) === 46)) return;
      }
      if (index > first && !joined(scanned, index)) return;
    }
    if ((scanned.flags[first]! & (Flag.Punct | Flag.Digit)) !== 0) return;
    if ((scanned.flags[last]! & (Flag.Punct | Flag.Digit)) !== 0) return;
    if (isParticle(scanned, first) || isParticle(scanned, last)) return;
    seen.add(key);
    result.push({ first, last, start, end });
  };
  // Runs of name tokens.
  let index = 0;
  while (index < count) {
    if (!isNameToken(text, scanned, index)) {
      index++;
      continue;
    }
    let end = index + 1;
    while (end < count && joined(scanned, end)) {
      if (isNameToken(text, scanned, end)) end++;
      else if (
        isParticle(scanned, end) &&
        end + 1 < count &&
        joined(scanned, end + 1) &&
        (isNameToken(text, scanned, end + 1) || isParticle(scanned, end + 1))
      )
        end++;
      else break;
    }
    for (let first = index; first < end; first++) {
      if (isParticle(scanned, first)) continue;
      for (let last = first; last < end && last - first < MAX_TOKENS; last++) {
        if (!isParticle(scanned, last)) add(first, last);
      }
    }
    index = end;
  }
  // The tagger's PERSON spans and their edge variants.
  for (const span of spans) {
    if (span.type !== 'PERSON') continue;
    let first = 0;
    while (first < count && scanned.start[first]! < span.start) first++;
    let last = first;
    while (last + 1 < count && scanned.end[last + 1]! <= span.end) last++;
    if (first >= count || scanned.end[last]! !== span.end || scanned.start[first] !== span.start)
      continue;
    add(first, last);
    add(first - 1, last);
    add(first + 1, last);
    add(first, last - 1);
    add(first, last + 1);
  }
  result.sort((a, b) => a.start - b.start || a.end - b.end);
  return result;
}

/** Hashed feature buckets of the second stage. */
export const STACK_BITS = 16;
const STACK_MASK = (1 << STACK_BITS) - 1;

/** Template numbers of the second stage's features (their own space, hashed with `bucket`). */
enum S {
  Bias = 100,
  Length,
  Every,
  First,
  Last,
  FirstCluster,
  LastCluster,
  Shapes,
  FirstShape,
  LastShape,
  SentenceStart,
  Before,
  After,
  Before2,
  BeforeCluster,
  AfterCluster,
  PunctBefore,
  PunctAfter,
  TaggerExact,
  TaggerRelation,
  OtherType,
  MarginB,
  MarginI,
  MarginMin,
  LabelBefore,
  LabelAfter,
  ExactLength,
  StartCommon,
  AfterFlags,
  BeforeFlags,
  Words,
}

/** Flags a list feature reads. */
const listFlags =
  Flag.FirstName |
  Flag.Name |
  Flag.Common |
  Flag.Place |
  Flag.Country |
  Flag.Title |
  Flag.Upper |
  Flag.Lower |
  Flag.Honorific |
  Flag.Street |
  Flag.Organisation;

/** Feature groups; the feature sets tried leave some out (`featureSets`). */
const groupsOf: Record<string, S[]> = {
  lexical: [S.Words, S.Before, S.After, S.Before2],
  lists: [S.Every, S.First, S.Last, S.SentenceStart, S.StartCommon],
  context: [
    S.BeforeCluster,
    S.AfterCluster,
    S.BeforeFlags,
    S.AfterFlags,
    S.PunctBefore,
    S.PunctAfter,
    S.FirstCluster,
    S.LastCluster,
    S.Shapes,
    S.FirstShape,
    S.LastShape,
  ],
  evidence: [
    S.TaggerExact,
    S.TaggerRelation,
    S.OtherType,
    S.ExactLength,
    S.MarginB,
    S.MarginI,
    S.MarginMin,
    S.LabelBefore,
    S.LabelAfter,
  ],
};
/**
 * The feature sets the second stage may use, chosen inside each training
 * fold with the L2 strength and the threshold (`pickSettings`): all
 * features; without the hashed words; without the words and the context
 * description (the lists and the tagger's evidence); the tagger's evidence
 * alone.
 */
export const featureSets: ReadonlyArray<{ name: string; omitted: ReadonlySet<S> }> = [
  { name: 'all', omitted: new Set() },
  { name: 'no words', omitted: new Set(groupsOf.lexical) },
  { name: 'lists + evidence', omitted: new Set([...groupsOf.lexical!, ...groupsOf.context!]) },
  {
    name: 'evidence',
    omitted: new Set([...groupsOf.lexical!, ...groupsOf.context!, ...groupsOf.lists!]),
  },
];

function marginBin(value: number): number {
  if (Number.isNaN(value)) return 99;
  const scaled = value / 64;
  if (scaled < -4) return 0;
  if (scaled > 4) return 10;
  return Math.round(scaled * 1.25) + 5;
}

/** The feature buckets of one candidate. */
export function candidateFeatures(
  text: string,
  scanned: Scanned,
  evidence: TaggerEvidence,
  spans: readonly NerSpan[],
  candidate: Candidate,
): number[][] {
  const { first, last } = candidate;
  const words = scanned.words;
  const ids = scanned.word;
  const flags = scanned.flags;
  const clusters = words.cluster;
  const out: number[][] = featureSets.map(() => []);
  const push = (template: S, value: number) => {
    const feature = bucket(template as unknown as T, value) & STACK_MASK;
    featureSets.forEach((set, which) => {
      if (!set.omitted.has(template)) out[which]!.push(feature);
    });
  };
  const length = last - first + 1;
  push(S.Bias, 0);
  push(S.Length, length);
  let every = listFlags;
  let shapes = 0x811c9dc5;
  let wordsHash = 0x9747b28c;
  for (let index = first; index <= last; index++) {
    every &= flags[index]!;
    shapes = Math.imul(shapes ^ words.shapeHash[ids[index]!]!, 0x01000193);
    wordsHash = Math.imul(wordsHash ^ words.lowerHash[ids[index]!]!, 0x01000193);
  }
  push(S.Every, every);
  push(S.First, (flags[first]! & listFlags) * 8 + Math.min(length, 4));
  push(S.Last, (flags[last]! & listFlags) * 8 + Math.min(length, 4));
  const capital = (index: number) => (isCapital(flags[index]!) ? 1 : 0);
  push(S.FirstCluster, clusters[ids[first]!]! * 2 + capital(first));
  push(S.LastCluster, clusters[ids[last]!]! * 2 + capital(last));
  push(S.Shapes, shapes);
  push(S.FirstShape, words.shapeHash[ids[first]!]!);
  push(S.LastShape, words.shapeHash[ids[last]!]!);
  push(S.Words, wordsHash);
  const sentenceStart = (flags[first]! & Flag.SentenceStart) !== 0 ? 1 : 0;
  push(
    S.SentenceStart,
    sentenceStart * 4 +
      ((flags[first]! & Flag.Common) !== 0 ? 2 : 0) +
      ((flags[first]! & Flag.FirstName) !== 0 ? 1 : 0),
  );
  push(S.StartCommon, sentenceStart * 2 + (length === 1 ? 1 : 0));
  const before = first > 0 && scanned.newline[first] === 0 ? first - 1 : -1;
  const after = last + 1 < scanned.count && scanned.newline[last + 1] === 0 ? last + 1 : -1;
  push(S.Before, before >= 0 ? words.lowerHash[ids[before]!]! : NONE);
  push(S.After, after >= 0 ? words.lowerHash[ids[after]!]! : NONE);
  push(
    S.Before2,
    before > 0 && scanned.newline[before] === 0 ? words.lowerHash[ids[before - 1]!]! : NONE,
  );
  push(S.BeforeCluster, before >= 0 ? clusters[ids[before]!]! * 2 + capital(before) : 999);
  push(S.AfterCluster, after >= 0 ? clusters[ids[after]!]! * 2 + capital(after) : 999);
  push(S.BeforeFlags, before >= 0 ? flags[before]! & (listFlags | Flag.Punct | Flag.Digit) : -1);
  push(S.AfterFlags, after >= 0 ? flags[after]! & (listFlags | Flag.Punct | Flag.Digit) : -1);
  const punct = (index: number) =>
    index >= 0 && (flags[index]! & Flag.Punct) !== 0 ? text.charCodeAt(scanned.start[index]!) : 0;
  push(S.PunctBefore, first === 0 ? -1 : scanned.newline[first] ? -2 : punct(before));
  push(
    S.PunctAfter,
    last + 1 >= scanned.count ? -1 : scanned.newline[last + 1] ? -2 : punct(after),
  );
  // The tagger's evidence.
  const start = candidate.start;
  const end = candidate.end;
  let exact = 0;
  let relation = 0;
  let other = 0;
  for (const span of spans) {
    if (span.end <= start || span.start >= end) continue;
    if (span.type !== 'PERSON') {
      other |= 1 << nerEntities.indexOf(span.type);
      continue;
    }
    if (span.start === start && span.end === end) exact = 1;
    else if (span.start <= start && span.end >= end) relation |= 1;
    else if (span.start >= start && span.end <= end) relation |= 2;
    else relation |= 4;
  }
  push(S.TaggerExact, exact);
  push(S.TaggerRelation, relation);
  push(S.OtherType, other);
  push(S.ExactLength, exact * 8 + Math.min(length, 4) + (relation === 0 ? 0 : 16));
  push(S.MarginB, marginBin(evidence.marginB[first]!));
  let sum = 0;
  let n = 0;
  let minimum = Number.POSITIVE_INFINITY;
  for (let index = first + 1; index <= last; index++) {
    const value = evidence.marginI[index]!;
    const usable = Number.isNaN(value) ? evidence.marginB[index]! : value;
    if (Number.isNaN(usable)) continue;
    sum += usable;
    n++;
    if (usable < minimum) minimum = usable;
  }
  push(S.MarginI, n === 0 ? 98 : marginBin(sum / n));
  push(S.MarginMin, n === 0 ? 98 : marginBin(minimum));
  push(S.LabelBefore, first > 0 ? evidence.labels[first - 1]! : 99);
  push(S.LabelAfter, last + 1 < scanned.count ? evidence.labels[last + 1]! : 99);
  return out;
}

/** One text's candidates with their features and (when known) whether each is a gold PERSON. */
export interface CandidateSet {
  id: string;
  candidates: Candidate[];
  /** Per feature set (`featureSets`), per candidate: its buckets. */
  features: number[][][];
  gold: Uint8Array;
  /** The gold PERSON spans of the text (for F1 when picking the threshold). */
  goldCount: number;
  goldSpans: Array<{ start: number; end: number }>;
  /** 1 where the tagger (with the span rules) found exactly this candidate as PERSON. */
  tagged: Uint8Array;
}

/** Candidates of `sequence` under a tagger's output. */
export function candidateSet(
  sequence: Sequence,
  evidence: TaggerEvidence,
  spans: readonly NerSpan[],
): CandidateSet {
  const candidates = personCandidates(sequence.text, sequence.scanned, spans);
  const all = candidates.map(candidate =>
    candidateFeatures(sequence.text, sequence.scanned, evidence, spans, candidate),
  );
  const goldSpans = sequence.spans.filter(span => span.type === 'PERSON');
  const gold = new Uint8Array(candidates.length);
  candidates.forEach((candidate, index) => {
    if (goldSpans.some(span => span.start === candidate.start && span.end === candidate.end))
      gold[index] = 1;
  });
  const tagged = Uint8Array.from(candidates, candidate =>
    spans.some(
      span =>
        span.type === 'PERSON' && span.start === candidate.start && span.end === candidate.end,
    )
      ? 1
      : 0,
  );
  return {
    id: sequence.id,
    tagged,
    candidates,
    features: featureSets.map((_, which) => all.map(rows => rows[which]!)),
    gold,
    goldCount: goldSpans.length,
    goldSpans,
  };
}

/** Settings of the second stage (fixed before the first run). */
export const stackOptions = { epochs: 10, learningRate: 0.2, seed: 20261201 };
/** L2 strengths tried (chosen inside each training fold). */
export const l2Values = [1e-3, 1e-2, 1e-1, 1];

/** The settings of a second stage: feature set, L2 strength, threshold (a logit). */
export interface StackSettings {
  features: number;
  l2: number;
  threshold: number;
}

/** Logistic regression (AdaGrad, L2) over the candidates of `sets`; returns weights with the bias in them. */
export function trainStack(
  sets: readonly CandidateSet[],
  features: number,
  l2: number,
): Float64Array {
  const weights = new Float64Array(1 << STACK_BITS);
  const squares = new Float64Array(1 << STACK_BITS).fill(1e-8);
  const rows: Array<[number[], number]> = [];
  for (const set of sets) {
    set.features[features]!.forEach((row, index) => {
      rows.push([row, set.gold[index]!]);
    });
  }
  const random = prng(stackOptions.seed);
  const order = rows.map((_, index) => index);
  const { learningRate } = stackOptions;
  for (let epoch = 0; epoch < stackOptions.epochs; epoch++) {
    shuffleInPlace(order, random);
    for (const which of order) {
      const [row, label] = rows[which]!;
      let logit = 0;
      for (const feature of row) logit += weights[feature]!;
      const probability = 1 / (1 + Math.exp(-logit));
      const gradient = probability - label;
      for (const feature of row) {
        const g = gradient + l2 * weights[feature]!;
        squares[feature]! += g * g;
        weights[feature]! -= (learningRate * g) / Math.sqrt(squares[feature]!);
      }
    }
  }
  return weights;
}

/** Logits of every candidate of `set`. */
export function scoreSet(weights: Float64Array, set: CandidateSet, features: number): Float64Array {
  return Float64Array.from(set.features[features]!, row => {
    let logit = 0;
    for (const feature of row) logit += weights[feature]!;
    return logit;
  });
}

/** The kept candidates: highest logit first, above `threshold`, never overlapping one kept before. */
export function decide(set: CandidateSet, logits: Float64Array, threshold: number): Candidate[] {
  const order = set.candidates
    .map((_, index) => index)
    .filter(index => logits[index]! > threshold)
    .sort((a, b) => logits[b]! - logits[a]! || a - b);
  const kept: Candidate[] = [];
  for (const index of order) {
    const candidate = set.candidates[index]!;
    if (kept.some(other => other.start < candidate.end && candidate.start < other.end)) continue;
    kept.push(candidate);
  }
  return kept.sort((a, b) => a.start - b.start);
}

/** PERSON exact F1 of the decisions over `sets` at `threshold`. */
function exactF1(
  sets: readonly CandidateSet[],
  logits: readonly Float64Array[],
  threshold: number,
) {
  let predicted = 0;
  let right = 0;
  let gold = 0;
  sets.forEach((set, which) => {
    gold += set.goldCount;
    for (const candidate of decide(set, logits[which]!, threshold)) {
      predicted++;
      if (set.goldSpans.some(span => span.start === candidate.start && span.end === candidate.end))
        right++;
    }
  });
  return predicted === 0 || right === 0 ? 0 : (2 * right) / (predicted + gold);
}

/** Thresholds tried (logits). */
const thresholds = Array.from({ length: 41 }, (_, index) => -4 + index * 0.2);

/**
 * The settings of the second stage from out-of-fold scores: `sets[i]`
 * belongs to `groups[i]`; for each feature set and L2 strength, for each
 * group a model trained on the others scores it, and the settings with the
 * best PERSON exact F1 over all of them win (ties: the first tried). Also
 * returns that F1 and the tagger's own on the same rows.
 */
export function pickSettings(
  sets: readonly CandidateSet[],
  groups: readonly number[],
): { settings: StackSettings; f1: number; taggerF1: number } {
  const distinct = [...new Set(groups)].sort((a, b) => a - b);
  const taggerF1 = exactF1(
    sets,
    sets.map(set => Float64Array.from(set.tagged, value => (value ? 1 : -1))),
    0,
  );
  let best = { settings: { features: 0, l2: l2Values[0]!, threshold: 0 }, f1: -1 };
  for (let features = 0; features < featureSets.length; features++) {
    for (const l2 of l2Values) {
      const logits: Float64Array[] = new Array(sets.length);
      for (const group of distinct) {
        const weights = trainStack(
          sets.filter((_, index) => groups[index] !== group),
          features,
          l2,
        );
        sets.forEach((set, index) => {
          if (groups[index] === group) logits[index] = scoreSet(weights, set, features);
        });
      }
      for (const threshold of thresholds) {
        const f1 = exactF1(sets, logits, threshold);
        if (f1 > best.f1) best = { settings: { features, l2, threshold }, f1 };
      }
    }
  }
  return { ...best, taggerF1 };
}

/** The spans with PERSON replaced by the second stage's decisions. */
export function restack(
  spans: readonly NerSpan[],
  set: CandidateSet,
  weights: Float64Array,
  settings: StackSettings,
): NerSpan[] {
  const persons = decide(set, scoreSet(weights, set, settings.features), settings.threshold).map(
    candidate => ({
      type: 'PERSON' as const,
      start: candidate.start,
      end: candidate.end,
    }),
  );
  return [...spans.filter(span => span.type !== 'PERSON'), ...persons].sort(
    (a, b) => a.start - b.start || a.end - b.end,
  );
}
