/**
 * Experiment (training time only, eighth round): the request's verb–object
 * pairs as features of the harmful-request detector. Within a clause (cut at
 * . , ; : ? ! and line breaks), every pair of content words (not in a short
 * list of function words) at most `span` words apart but not neighbours
 * (neighbours are already word 2-grams) is hashed into the model's feature
 * space beside its n-grams, in order: "make a pipe bomb" gives (make, pipe)
 * and (make, bomb); "how did people make bombs in the past" gives
 * (make, bombs). Frame words between the verb and its object then no longer
 * separate them. Linear: each word pairs with at most `span` words.
 */
import { hashString } from '../../../src/guards/pii/ner/features';
import type { InjectionModelSpec } from '../../../src/guards/prompt-injection/injection-model';
import { bucket } from '../clusters-harmful/cluster-scorer';
import { type ConceptFeatureOptions, ExperimentScorer } from './concept-features';
import type { ExperimentReadings } from './sentence-windows';

const FUNCTION_WORDS = new Set(
  (
    'a an the to of in on at for from by with and or but if so as is are was were be been being ' +
    'do does did i you he she it we they me my your his her its our their this that these those ' +
    'can could would should will shall may might must some any all very just about into over'
  ).split(' '),
);

const isWordUnit = (code: number) =>
  (code >= 97 && code <= 122) ||
  (code >= 48 && code <= 57) ||
  code === 39 ||
  (code >= 0xc0 && code !== 0xd7 && code !== 0xf7 && code < 0x2000);

/** . , ; : ? ! and line breaks end a clause. */
const endsClause = (code: number) =>
  code === 46 ||
  code === 44 ||
  code === 59 ||
  code === 58 ||
  code === 63 ||
  code === 33 ||
  code === 10;

/** The feature kind of a skip-gram (cluster-scorer.ts uses 1–4). */
const SKIP_GRAM_KIND = 5;

/** The trainer's scorer whose window features add the clause's content-word skip-grams. */
export class SkipGramScorer extends ExperimentScorer {
  /** Farthest pair, in words (set by `skipGramScorer`). */
  span = 4;

  override features(text: string, start: number, end: number): Int32Array {
    const base = super.features(text, start, end);
    const bits = this.spec.bits;
    const seen = new Set<number>(base);
    const extra: number[] = [];
    // Content words of the current clause: hash and word position.
    const hashes: number[] = [];
    const positions: number[] = [];
    let position = 0;
    let at = start;
    while (at < end) {
      while (at < end && !isWordUnit(text.charCodeAt(at))) {
        if (endsClause(text.charCodeAt(at))) {
          hashes.length = 0;
          positions.length = 0;
        }
        at++;
      }
      if (at >= end) break;
      const from = at;
      while (at < end && isWordUnit(text.charCodeAt(at))) at++;
      const word = text.slice(from, at);
      position++;
      if (FUNCTION_WORDS.has(word)) continue;
      const hash = hashString(word);
      for (let k = hashes.length - 1; k >= 0 && position - positions[k]! <= this.span; k--) {
        if (position - positions[k]! < 2) continue;
        const index = bucket(SKIP_GRAM_KIND, hashes[k]!, hash, bits);
        if (!seen.has(index)) {
          seen.add(index);
          extra.push(index);
        }
      }
      hashes.push(hash);
      positions.push(position);
    }
    return appendFeatures(base, extra);
  }
}

/** `base` followed by `extra` (`base` itself when `extra` is empty). */
export function appendFeatures(base: Int32Array, extra: readonly number[]): Int32Array {
  if (extra.length === 0) return base;
  const out = new Int32Array(base.length + extra.length);
  out.set(base, 0);
  out.set(extra, base.length);
  return out;
}

/** A `SkipGramScorer` pairing words at most `span` words apart. */
export function skipGramScorer(
  spec: InjectionModelSpec,
  concepts: ConceptFeatureOptions,
  readings: ExperimentReadings | undefined,
  span: number,
): SkipGramScorer {
  const scorer = new SkipGramScorer(spec, concepts, readings);
  scorer.span = span;
  return scorer;
}
