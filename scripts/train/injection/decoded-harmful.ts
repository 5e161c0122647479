/**
 * The harmful-request detector retrained without what a set of left-out
 * injection sources hold (leak control), shared by round 6's stacking
 * experiment (stack.ts) and round 41's decoded-payload rule.
 *
 * The decoded-payload rule (issue 15; round 41's experiment, shipped since
 * round 42 with a cutoff of its own, `DECODED_CUTOFF`; see the model card's
 * Known limits): a text's probability is the higher of the
 * injection model's and the harmful detector's calibrated probability of its
 * best decoded segment (`readEncodings`: base64, hex, ROT13, reversed, Morse,
 * …), so an encoded harmful request counts as an attack whatever template
 * carries it. Nothing is fitted on injection rows: the injection weights and
 * Platt scaling are unchanged, and the threshold is picked on out-of-source
 * scores with the same rule.
 *
 * Leak control: for a set of left-out injection groups the harmful model is
 * retrained (train-harmful.ts's `prepare` / `fitHarmful`) without (a) its rows
 * from the left-out repositories, (b) every harmful request that a left-out
 * row contains near-exactly (≥ 80% of its 5-token shingles, compose.ts
 * `containment`; requests of fewer than 5 tokens: their token string inside
 * the row's), with `decoded`, also in what the row decodes to, (c) every
 * benign prompt that is a left-out row (benign.jsonl feeds both models), and
 * the rephrasings of all of those. `leak` keeps the full harmful training set
 * (an upper bound).
 */
import { resolve } from 'node:path';
import type { HarmfulScorer } from '../../../src/guards/harmful-content/harmful-scorer';
import { readEncodings } from '../../../src/guards/prompt-injection/decode-segments';
import {
  bestHarmfulReading,
  suffixHarmfulProbability,
} from '../../../src/guards/prompt-injection/decoded-harmful';
import { foldText } from '../../../src/guards/prompt-injection/fold-text';
import { textBeforeAnySuffix } from '../../../src/guards/prompt-injection/suffix-word-piece-gate';
import { containment, tokens } from '../compose/compose';
import { type HarmfulRow, harmfulRows } from '../harmful/harmful-data';
import type { DataPaths, TrainingRow } from '../injection-data';
import type { SparseRows } from '../logistic';
import { encoders } from '../obfuscations';
import {
  augmentedRows,
  fitHarmful,
  harmfulTrainOptions,
  isCalibrationRow,
  type Prepared,
  prepare as prepareHarmful,
} from '../train-harmful';
import { encodeWordSet, WordSet } from './word-pieces';
import { vocabularyHashes } from './word-vocabulary';

/**
 * Round 41's rule (see the file's comment), with round 42's cutoff the
 * shipped model's since round 42; `DECODED_HARMFUL=0` trains without it.
 */
export const DECODED_HARMFUL = process.env.DECODED_HARMFUL !== '0';

/**
 * Round 42 (with DECODED_HARMFUL; `DECODED_CUTOFF=0` is round 41's rule): the
 * decoded segment's harmful probability counts only at or above a cutoff of
 * its own, picked per harmful model on benign prompts that model never
 * trained on (its calibration slice), each written in every encoding of
 * `encoders` (see the model card's round-42 entry).
 */
export const DECODED_CUTOFF = process.env.DECODED_CUTOFF !== '0';

/**
 * Round 44's rule (issue 15; on by default since round 45, `SUFFIX_HARMFUL=0`
 * trains without it): a text whose tokens
 * open the adversarial-suffix gate (`adversarialSuffixStart`: tokens mixing
 * Latin with another script, or lone `!`, three in ten) counts by the
 * harmful detector's probability of the text before the suffix when that
 * reaches a cutoff of its own, picked per harmful model on the benign
 * prompts of its calibration slice as written (see the model card's
 * round-43 and round-44 entries; round 43 gated by the character model).
 */
export const SUFFIX_HARMFUL = process.env.SUFFIX_HARMFUL !== '0';

/**
 * Round 46 (issue 15; `SUFFIX_OUTSIDE=1`, off by default): the suffix rule
 * reads the stretches around the suffixes by round 46's gate
 * (`textOutsideSuffix`: lone `!` never opens it alone, a token of another
 * script counts beside a mixed one) instead of the text before the first.
 */
export const SUFFIX_OUTSIDE = process.env.SUFFIX_OUTSIDE === '1';

/**
 * Round 46 (hK, issue 15; on by default since its left-out run passed the
 * keep rule, `SUFFIX_BANG_MIXED=0` trains without it): round 45's gate (the
 * text before the suffix) counts a lone `!` only in a window that also
 * holds a token mixing scripts (`SUFFIX_BANG_NEEDS_MIXED` at run time), so
 * an ordinary message ending in `! ! !` no longer opens it.
 */
export const SUFFIX_BANG_MIXED = process.env.SUFFIX_BANG_MIXED !== '0';

/**
 * Round 49 (hD, issue 15; its left-out run passed round 45's Pareto rule,
 * but the lead ships it off: ~20% of the direct score's CPU, and review
 * blocked safety questions followed by camelCase names; `SUFFIX_WORD_PIECES=1`
 * trains with it and then writes the vocabulary files): the suffix
 * rule's gate also opens by variant F's word-piece gate
 * (`suffix-word-piece-gate.ts`: one-script suffixes of glued word pieces, in
 * a text whose words outside the suffix are English vocabulary); the request
 * is the text before the earlier of the two gates' starts
 * (`textBeforeAnySuffix`). The vocabulary (`word-vocabulary.ts`) is built
 * from the corpora on first use and shipped as `model/word-vocabulary-data.ts`.
 */
export const SUFFIX_WORD_PIECES = process.env.SUFFIX_WORD_PIECES === '1';

/**
 * Round 51 (hC, issue 15; on by default since its left-out run passed the
 * keep rule below, `SUFFIX_SCRIPT_MIX=0` trains without it): the suffix gate also opens on a window whose odd
 * tokens (other-script tokens too, one mixing scripts) draw letters from two
 * script groups or more (`SUFFIX_SCRIPT_MIX_ON` at run time, suffix-gate.ts).
 *
 * KEEP-RULE (written before the deciding run; passed, round 51: both kept, round 45's Pareto rule):
 * `SUFFIX_SCRIPT_MIX=1 npm run train -- --model injection --loso
 * --source-folds 5 --only direct`, against the committed
 * docs/prompt-injection-loso.json: one attack source gains >= 0.02 recall;
 * no attack source with >= 10 rows loses > 0.01; every benign source's FPR
 * within +0.005; synthetic ordinary chat left out <= 0.042; decoding
 * requests flagged <= 12 of 200; look-alikes <= 16 of 1,242; and of the 50
 * ordinary first turns of test/fixtures/r51-hC-ordinary-first-turns.txt
 * (written before the gate was run on them) at most 1 newly blocked by the
 * shipped model with the gate on. Screen (before the run, no model): the
 * gate opens on no benign row the shipped gate does not (every benign
 * source of the corpora, dev sets, harmful.jsonl negatives, synthetic chat
 * and the ordinary-chat fixtures).
 */
export const SUFFIX_SCRIPT_MIX = process.env.SUFFIX_SCRIPT_MIX !== '0';

/**
 * Round 51 (hC, issue 15; on by default since its left-out run passed the
 * keep rule, `SUFFIX_CUT_BACK=0` trains without it): the suffix rule reads the text before the gate's
 * cut and before each of the up to 10 tokens before it, and takes the best
 * (`SUFFIX_CUT_BACK_ON` at run time, `textsBeforeSuffix`). The keep rule
 * above holds for it and for `SUFFIX_SCRIPT_MIX=1` alone and together; one
 * run with both measures all three by the floor method (each left-out row's
 * score without the rule and the request's probability per variant are in
 * `--loso-scores`; valid while no fold threshold moves). If the two together
 * pass, both ship; else a variant alone that passes ships; else neither.
 * The 50 ordinary first turns are judged for the variant that would ship.
 */
export const SUFFIX_CUT_BACK = process.env.SUFFIX_CUT_BACK !== '0';

let suffixVocabulary: WordSet | undefined;

/** The word-piece gate's vocabulary, built once from `corpora` (default: the trainer's). */
export function suffixWordVocabulary(
  corpora = resolve(import.meta.dirname, '../../../../shared/corpora'),
): WordSet {
  suffixVocabulary ??= new WordSet(vocabularyHashes({ corpora, datasets: '' }));
  return suffixVocabulary;
}

/**
 * The shipped vocabulary files of the corpora in `corpora` (the trainer's
 * gate reads the same words from then on), by name: `word-vocabulary-data.ts`
 * (imported statically by `scorePromptInjection`) and
 * `word-vocabulary-chunk.ts` (the same data, reached only by `import()` from
 * `promptInjection()`'s harmful-model loader: a file reached statically too
 * would land in a chunk loaded at start, as `harmful-scorer-data.ts` notes).
 */
export function wordVocabularyFiles(corpora: string): Map<string, string> {
  const hashes = vocabularyHashes({ corpora, datasets: '' });
  suffixVocabulary ??= new WordSet(hashes);
  const body = [
    '/** The vocabulary of `suffix-word-piece-gate.ts` (`decodeWordSet`). */',
    'export const WORD_VOCABULARY =',
    `  '${encodeWordSet(hashes)}';`,
    '',
  ];
  const header = (reach: string) => [
    '// Generated by `npm run train` (scripts/train/injection/decoded-harmful.ts,',
    "// SUFFIX_WORD_PIECES, round 49): do not edit. The word-piece suffix gate's",
    `// vocabulary (scripts/train/injection/word-vocabulary.ts): ${hashes.length} FNV-1a hashes`,
    '// of words, sorted, as base64 of their little-endian bytes.',
    reach,
    '',
  ];
  return new Map([
    [
      'word-vocabulary-data.ts',
      [...header('// Imported statically by scorePromptInjection only.'), ...body].join('\n'),
    ],
    [
      'word-vocabulary-chunk.ts',
      [
        ...header("// Only promptInjection()'s `import()` reaches this file: a chunk of its own."),
        ...body,
      ].join('\n'),
    ],
  ]);
}

/** The suffix rule's probability of `text` as the trainer runs it (`SUFFIX_OUTSIDE`, `SUFFIX_BANG_MIXED`, `SUFFIX_WORD_PIECES`, `SUFFIX_SCRIPT_MIX`, `SUFFIX_CUT_BACK`). */
export function suffixRuleProbability(text: string, harmful: HarmfulScorer): number {
  if (SUFFIX_WORD_PIECES) {
    const request = textBeforeAnySuffix(foldText(text), suffixWordVocabulary, SUFFIX_BANG_MIXED);
    return request === undefined ? 0 : bestHarmfulReading([request], harmful).probability;
  }
  return suffixHarmfulProbability(
    text,
    harmful,
    SUFFIX_OUTSIDE ? 'outside' : 'before',
    SUFFIX_BANG_MIXED,
    SUFFIX_SCRIPT_MIX,
    SUFFIX_CUT_BACK,
  );
}

/** The harmful detector that judges decoded segments, and the probability from which its judgement counts. */
export interface DecodedJudge {
  harmful: HarmfulScorer;
  /** 0 (round 41: every judgement counts), or the cutoff picked by DECODED_CUTOFF. */
  cutoff: number;
  /** SUFFIX_HARMFUL: the cutoff of the suffix-harmful rule (absent: no such rule). */
  suffixCutoff?: number;
}

/** A held-apart benign prompt as written. */
export interface PlainBenign {
  id: string;
  /** The prompt's kind (ordinary or look-alike). */
  group: string;
  text: string;
}

/** A held-apart benign prompt in one encoding, read back as the rule reads a text. */
export interface EncodedBenign {
  /** The harmful row's id (the prompt's). */
  id: string;
  /** `<kind>:<encoding>`: the prompt's kind (ordinary or look-alike) and the encoding. */
  group: string;
  /** `decodedReadings` of the encoded prompt. */
  readings: string[];
}

/** Options of `harmfulLeakControl`. */
export interface LeakControlOptions {
  /** Requests held in a row's decoded segments count as held by the row. */
  decoded: boolean;
  /** Keep the full harmful training set whatever is left out (an upper bound). */
  leak: boolean;
}

/** The harmful model's data, and what to drop from it for a set of left-out injection groups. */
export interface HarmfulLeakControl {
  /** The harmful model's rows (originals and their twins), prepared once. */
  data: Prepared;
  /** Ids of the harmful originals to drop when `left` is left out (their twins follow them). */
  excluded(left: ReadonlySet<string>): Set<string>;
  /** `data` without the rows whose id (or original's id) is in `drop`. */
  subset(drop: ReadonlySet<string>): Prepared;
  /** The harmful scorer trained without what `left` holds (cached by the rows dropped). */
  scorer(left: ReadonlySet<string>): HarmfulScorer;
  /**
   * The benign prompts of the harmful calibration slice that `scorer(left)`
   * neither trained on nor dropped, each in every encoding (read once, lazily).
   */
  heldApartBenign(left: ReadonlySet<string>): EncodedBenign[];
  /** The same prompts as written (SUFFIX_HARMFUL's cutoff). */
  heldApartPlain(left: ReadonlySet<string>): PlainBenign[];
}

const normal = (text: string) => ` ${tokens(text).join(' ')} `;

/**
 * The injection groups whose rows hold each request near-exactly (≥ 80% of
 * its 5-token shingles, compose.ts `containment`; a request of fewer than 5
 * tokens: its token string inside the row's), by request id (requests held by
 * none are absent). `decoded`: what a row decodes to (`readEncodings`'
 * segments) counts as held by the row too.
 */
export function requestGroups(
  requests: ReadonlyArray<{ id: string; text: string }>,
  rows: ReadonlyArray<Pick<TrainingRow, 'text' | 'group'>>,
  decoded: boolean,
): Map<string, Set<string>> {
  const held: Array<{ text: string; group: string }> = [];
  for (const row of rows) {
    held.push({ text: row.text, group: row.group });
    if (!decoded) continue;
    for (const segment of readEncodings(row.text).segments) {
      held.push({ text: segment.text, group: row.group });
    }
  }
  const { groupsOf } = containment(
    requests.map(request => request.text),
    held.map((entry, index) => ({
      id: String(index),
      text: entry.text,
      label: 0 as const,
      group: entry.group,
      family: '',
    })),
  );
  const found = new Map<string, Set<string>>();
  const heldTokens = held.map(entry => normal(entry.text));
  for (const [p, request] of requests.entries()) {
    const set = groupsOf[p]!;
    const words = tokens(request.text);
    if (words.length < 5 && words.length > 0) {
      const needle = ` ${words.join(' ')} `;
      for (const [index, haystack] of heldTokens.entries()) {
        if (haystack.includes(needle)) set.add(held[index]!.group);
      }
    }
    if (set.size > 0) found.set(request.id, set);
  }
  return found;
}

/** Prepares the harmful data and the containment maps for the injection `rows`. */
export function harmfulLeakControl(
  paths: DataPaths,
  rows: readonly TrainingRow[],
  options: LeakControlOptions,
): HarmfulLeakControl {
  const originals = harmfulRows(paths);
  const all: HarmfulRow[] = [...originals, ...augmentedRows(originals)];
  const data = prepareHarmful(all, harmfulTrainOptions.bits);
  const containedIn = requestGroups(
    originals.filter(row => row.label === 1),
    rows,
    options.decoded,
  );
  // Injection groups holding each benign prompt (by normalised text).
  const benignGroups = new Map<string, Set<string>>();
  for (const row of rows) {
    const key = normal(row.text);
    const set = benignGroups.get(key) ?? new Set<string>();
    set.add(row.group);
    benignGroups.set(key, set);
  }

  const excluded = (left: ReadonlySet<string>): Set<string> => {
    const out = new Set<string>();
    if (options.leak) return out;
    for (const row of originals) {
      const repository = row.group.split(':')[0] === 'NVIDIA/garak' ? 'NVIDIA/garak' : row.group;
      const inFold =
        left.has(repository) ||
        [...(containedIn.get(row.id) ?? [])].some(group => left.has(group)) ||
        [...(benignGroups.get(normal(row.text)) ?? [])].some(group => left.has(group));
      if (inFold) out.add(row.id);
    }
    return out;
  };

  const subset = (drop: ReadonlySet<string>): Prepared => {
    const keep: number[] = [];
    for (const [index, row] of data.rows.entries()) {
      if (!drop.has(row.augmentOf ?? row.id)) keep.push(index);
    }
    const { indices, offsets, surprisal, labels } = data.sparse;
    let total = 0;
    for (const index of keep) total += offsets[index + 1]! - offsets[index]!;
    const sparse: SparseRows = {
      indices: new Int32Array(total),
      offsets: new Uint32Array(keep.length + 1),
      surprisal: new Float64Array(keep.length),
      labels: new Uint8Array(keep.length),
    };
    let at = 0;
    for (const [k, index] of keep.entries()) {
      sparse.indices.set(indices.subarray(offsets[index]!, offsets[index + 1]!), at);
      at += offsets[index + 1]! - offsets[index]!;
      sparse.offsets[k + 1] = at;
      sparse.surprisal[k] = surprisal[index]!;
      sparse.labels[k] = labels[index]!;
    }
    return {
      rows: keep.map(index => data.rows[index]!),
      folded: keep.map(index => data.folded[index]!),
      sparse,
    };
  };

  const fits = new Map<string, HarmfulScorer>();
  const scorer = (left: ReadonlySet<string>): HarmfulScorer => {
    const drop = excluded(left);
    const key = [...drop].sort().join('\n');
    let fitted = fits.get(key);
    if (!fitted) {
      fitted = fitHarmful(subset(drop)).scorer;
      fits.set(key, fitted);
    }
    return fitted;
  };
  let encoded: EncodedBenign[] | undefined;
  const heldApartBenign = (left: ReadonlySet<string>): EncodedBenign[] => {
    encoded ??= originals
      .filter(row => row.label === 0 && isCalibrationRow(row))
      .flatMap(row =>
        Object.entries(encoders).map(([name, encode]) => ({
          id: row.id,
          group: `${row.kind ?? 'general'}:${name}`,
          readings: decodedReadings(encode(row.text)),
        })),
      );
    const drop = excluded(left);
    return encoded.filter(entry => !drop.has(entry.id));
  };
  const heldApartPlain = (left: ReadonlySet<string>): PlainBenign[] => {
    const drop = excluded(left);
    return originals
      .filter(row => row.label === 0 && isCalibrationRow(row) && !drop.has(row.id))
      .map(row => ({ id: row.id, group: row.kind ?? 'general', text: row.text }));
  };
  return { data, excluded, subset, scorer, heldApartBenign, heldApartPlain };
}

/** The folded text of each decoded segment of `text` (`readEncodings`), as the harmful detector reads it. */
export function decodedReadings(text: string): string[] {
  return readEncodings(text).segments.map(segment => foldText(segment.text));
}

/** The harmful detector's calibrated probability of the best of `readings` (rounded to 3 decimals; 0 for none). */
export function readingsProbability(readings: readonly string[], harmful: HarmfulScorer): number {
  return bestHarmfulReading(readings, harmful).probability;
}

/**
 * The harmful detector's calibrated probability of the best decoded segment
 * of `text` (each segment folded and read as `harmfulProbability` reads a
 * text), rounded to 3 decimals; 0 when nothing decodes.
 */
export function decodedHarmfulProbability(text: string, harmful: HarmfulScorer): number {
  return readingsProbability(decodedReadings(text), harmful);
}
