/**
 * Training experiments only (not shipped: src/guards/harmful-content/ runs
 * none of this): the cross-lingual lexicon's concept features (third round)
 * and sentence groups as extra windows (fourth round), both measured and not
 * kept (docs/harmful-content-model.md), in `ExperimentScorer`, the scorer
 * the trainer uses; with every knob off it scores as the shipped
 * `HarmfulScorer`.
 */
import { HarmfulScorer } from '../../../src/guards/harmful-content/harmful-scorer';
import { dominantScript } from '../../../src/guards/harmful-content/script';
import { foldTermReadings } from '../../../src/guards/prompt-injection/fold-text';
import { namedFeature } from '../../../src/guards/prompt-injection/hashed-features';
import {
  type InjectionModelSpec,
  SURPRISAL_KNOTS,
} from '../../../src/guards/prompt-injection/injection-model';
import { HARM_TERMS, HOWTO_TERMS } from './lexicon';
import { type ExperimentReadings, NO_EXPERIMENT_READING, sentenceSpans } from './sentence-windows';

/**
 * Language-independent features from the cross-lingual lexicon
 * (`lexicon.ts`): which harmful concepts (explosive, poison, hacking, ...)
 * and whether a how-to frame occur in a window of folded text, and each
 * concept paired with the how-to frame. They share the n-gram features'
 * hashed space under their own names, so the model weighs "a poison is
 * named and a method is asked for" the same in every language the lexicon
 * covers. Matching is one Aho–Corasick pass: linear in the window.
 */

/** Names of the concepts, in bit order; the how-to frame is the last. */
export const CONCEPTS: readonly string[] = [...Object.keys(HARM_TERMS), 'howto'];
const HOWTO_BIT = 1 << (CONCEPTS.length - 1);

/** 32 (a space) for a unit that is not part of a word, else the unit. */
function mapUnit(code: number): number {
  if (code < 0x80) {
    return (code >= 97 && code <= 122) || (code >= 48 && code <= 57) ? code : 32;
  }
  if (code === 0xa0 || (code >= 0x2000 && code <= 0x206f) || (code >= 0x3000 && code <= 0x303f))
    return 32;
  if (code >= 0xff00 && code <= 0xff0f) return 32;
  return code;
}

interface Automaton {
  /** Goto transitions per state. */
  next: Map<number, number>[];
  fail: Int32Array;
  /** Bit mask of the concepts whose term ends in this state (through fail links too). */
  out: Int32Array;
}

let automaton: Automaton | undefined;

/**
 * Folds a term as text is folded (each of `foldTermReadings`: alone, and with
 * its look-alike words as written, as in a sentence of its script) and maps
 * non-word units to single spaces (edges kept).
 */
function normaliseTerm(term: string): number[][] {
  const leading = term.startsWith(' ');
  const trailing = term.endsWith(' ');
  return foldTermReadings(term.trim()).map(folded => termUnits(folded, leading, trailing));
}

function termUnits(folded: string, leading: boolean, trailing: boolean): number[] {
  const units: number[] = leading ? [32] : [];
  for (let index = 0; index < folded.length; index++) {
    const unit = mapUnit(folded.charCodeAt(index));
    if (unit === 32 && units[units.length - 1] === 32) continue;
    units.push(unit);
  }
  if (trailing && units[units.length - 1] !== 32) units.push(32);
  return units;
}

function build(): Automaton {
  const next: Map<number, number>[] = [new Map()];
  const outs: number[] = [0];
  const add = (units: number[], bit: number) => {
    let state = 0;
    for (const unit of units) {
      let to = next[state]!.get(unit);
      if (to === undefined) {
        to = next.length;
        next.push(new Map());
        outs.push(0);
        next[state]!.set(unit, to);
      }
      state = to;
    }
    outs[state]! |= bit;
  };
  CONCEPTS.forEach((concept, bit) => {
    const terms = concept === 'howto' ? HOWTO_TERMS : HARM_TERMS[concept]!;
    for (const term of terms) for (const units of normaliseTerm(term)) add(units, 1 << bit);
  });
  const fail = new Int32Array(next.length);
  const out = Int32Array.from(outs);
  const queue: number[] = [];
  for (const to of next[0]!.values()) queue.push(to);
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head]!;
    for (const [unit, to] of next[state]!) {
      let f = fail[state]!;
      while (f !== 0 && !next[f]!.has(unit)) f = fail[f]!;
      const target = next[f]!.get(unit);
      fail[to] = target !== undefined && target !== to ? target : 0;
      out[to]! |= out[fail[to]!]!;
      queue.push(to);
    }
  }
  return { next, fail, out };
}

/**
 * One Aho–Corasick pass over `folded[start, end)`: calls `found` with the
 * mask of the concepts whose term ends at each position where one does, in
 * text order.
 */
function walkConcepts(
  folded: string,
  start: number,
  end: number,
  found: (mask: number) => void,
): void {
  automaton ??= build();
  const { next, fail, out } = automaton;
  let state = 0;
  let previous = 32;
  const step = (unit: number) => {
    for (;;) {
      const to = next[state]!.get(unit);
      if (to !== undefined) {
        state = to;
        break;
      }
      if (state === 0) break;
      state = fail[state]!;
    }
    if (out[state] !== 0) found(out[state]!);
  };
  step(32);
  for (let index = start; index < end; index++) {
    const unit = mapUnit(folded.charCodeAt(index));
    if (unit === 32 && previous === 32) continue;
    previous = unit;
    step(unit);
  }
  if (previous !== 32) step(32);
}

/** Bit mask (bit i: `CONCEPTS[i]`) of the concepts found in `folded[start, end)`. */
export function conceptMask(folded: string, start: number, end: number): number {
  let mask = 0;
  walkConcepts(folded, start, end, found => {
    mask |= found;
  });
  return mask;
}

/** The concepts found in `folded[start, end)` as bit indices (`CONCEPTS[i]`), each once, in the order of their first match. */
export function conceptSequence(folded: string, start: number, end: number): number[] {
  const sequence: number[] = [];
  let seen = 0;
  walkConcepts(folded, start, end, found => {
    for (let bit = 0; bit < CONCEPTS.length; bit++) {
      if ((found & (1 << bit)) !== 0 && (seen & (1 << bit)) === 0) sequence.push(bit);
    }
    seen |= found;
  });
  return sequence;
}

/** The concept names a mask stands for (for reports and tests). */
export function conceptNames(mask: number): string[] {
  return CONCEPTS.filter((_, bit) => (mask & (1 << bit)) !== 0);
}

/** Feature names of a mask: each concept, and each harmful concept paired with a how-to frame. */
function featureNames(mask: number): string[] {
  const names: string[] = [];
  const howto = (mask & HOWTO_BIT) !== 0;
  for (const [bit, concept] of CONCEPTS.entries()) {
    if ((mask & (1 << bit)) === 0) continue;
    names.push(concept);
    if (howto && concept !== 'howto') names.push(`howto+${concept}`);
  }
  return names;
}

/**
 * The lexicon's strength in a window, 0..3: how many harmful concepts are
 * named (at most 2), plus 1 when a how-to frame asks for one of them.
 */
export function conceptStrength(mask: number): number {
  let concepts = 0;
  for (let bit = 0; bit < CONCEPTS.length - 1; bit++) if ((mask & (1 << bit)) !== 0) concepts++;
  return Math.min(2, concepts) + (concepts > 0 && (mask & HOWTO_BIT) !== 0 ? 1 : 0);
}

/** How the lexicon enters a harmful-request model (stored in its model file). */
export interface ConceptFeatureOptions {
  /** Copies of each concept feature among the hashed features (0: none). */
  copies: number;
  /**
   * true: `conceptStrength` of the window enters the logit outside the
   * 1/√n scaling of the hashed features, through the model's three suffix
   * weights (the input is `SURPRISAL_KNOTS[0] + strength`), so a named
   * concept weighs the same in a short text as in a long one and in any
   * language.
   */
  dense: boolean;
  /**
   * true: a window mostly in a non-Latin script is judged by the concept
   * features alone (no hashed n-grams), so words of a language with no
   * harmful training rows cannot outweigh a named harmful concept; a
   * Latin-script window by the hashed n-grams alone.
   */
  scriptGate?: boolean;
}

/**
 * The shipped `HarmfulScorer` plus the experiments' features and windows:
 * the lexicon's concept features (`ConceptFeatureOptions`) and sentence
 * groups as extra windows (`ExperimentReadings`). Not reentrant (like its
 * base class): the last window's concepts are kept for `suffixInput`.
 */
export class ExperimentScorer extends HarmfulScorer {
  readonly concepts: ConceptFeatureOptions;
  readonly experimentReadings: ExperimentReadings;
  #buffer = new Int32Array(0);
  readonly #indices = new Map<string, number[]>();
  #lastMask = 0;

  constructor(
    spec: InjectionModelSpec,
    concepts: ConceptFeatureOptions,
    readings: ExperimentReadings = NO_EXPERIMENT_READING,
  ) {
    super(spec, readings);
    const { sentenceMaxLength, sentenceMinLength } = readings;
    for (const [name, value] of Object.entries({ sentenceMaxLength, sentenceMinLength })) {
      if (!Number.isInteger(value) || value < 0) {
        throw new RangeError(
          `ExperimentScorer: ${name} must be a non-negative integer, got ${value}`,
        );
      }
    }
    this.experimentReadings = { ...this.readings, sentenceMaxLength, sentenceMinLength };
    const { copies, dense } = concepts;
    if (!Number.isInteger(copies) || copies < 0 || copies > 16) {
      throw new RangeError(`ExperimentScorer: copies must be an integer 0..16, got ${copies}`);
    }
    if (typeof dense !== 'boolean')
      throw new TypeError('ExperimentScorer: dense must be a boolean');
    this.concepts = concepts.scriptGate ? { copies, dense, scriptGate: true } : { copies, dense };
  }

  /** Sentence groups of texts up to `sentenceMaxLength` folded characters (sentence-windows.ts). */
  override extraSpans(folded: string): readonly number[] {
    return sentenceSpans(folded, this.experimentReadings);
  }

  #namedIndices(name: string): number[] {
    let indices = this.#indices.get(name);
    if (indices === undefined) {
      indices = [];
      for (let copy = 0; copy < this.concepts.copies; copy++) {
        indices.push(namedFeature(`harm-concept:${name}#${copy}`, this.spec.bits));
      }
      this.#indices.set(name, indices);
    }
    return indices;
  }

  override features(text: string, start: number, end: number): Int32Array {
    const { copies, dense, scriptGate } = this.concepts;
    const gated = scriptGate === true && dominantScript(text, start, end) !== 'latin';
    const base = gated ? this.#buffer.subarray(0, 0) : super.features(text, start, end);
    // With the gate, Latin-script windows are judged by the n-grams alone.
    if ((copies === 0 && !dense) || (scriptGate === true && !gated)) return base;
    const mask = conceptMask(text, start, end);
    this.#lastMask = mask;
    if (mask === 0 || copies === 0) return base;
    const extra: number[] = [];
    for (const name of featureNames(mask)) extra.push(...this.#namedIndices(name));
    const needed = base.length + extra.length;
    if (this.#buffer.length < needed) {
      this.#buffer = new Int32Array(Math.max(needed, 2 * this.#buffer.length));
    }
    this.#buffer.set(base, 0);
    for (let index = 0; index < extra.length; index++) {
      this.#buffer[base.length + index] = extra[index]!;
    }
    return this.#buffer.subarray(0, needed);
  }

  /** Only the concept features of `text[start, end)` (for training rows that teach the concepts on their own). */
  conceptFeatures(text: string, start: number, end: number): Int32Array {
    const mask = conceptMask(text, start, end);
    this.#lastMask = mask;
    const extra: number[] = [];
    for (const name of featureNames(mask)) extra.push(...this.#namedIndices(name));
    return Int32Array.from(extra);
  }

  /** The suffix-feature input of the window last passed to `features` (0 when `dense` is off). */
  override suffixInput(): number {
    return this.concepts.dense ? SURPRISAL_KNOTS[0] + conceptStrength(this.#lastMask) : 0;
  }
}
