/**
 * Experiment (FRAMED=1, training only; not shipped): the slot model plus
 * interaction features, so a linear model can weigh a word differently
 * inside a neutral framing (a story, a translation task, "hypothetically")
 * than bare. When the folded window holds a framing cue, each distinct word
 * of the window is listed once more under a salted hash. With composed rows
 * (harmful payloads in neutral framings as attacks, benign payloads in the
 * same framings as benign twins) the salted words can learn "harmful
 * request inside a frame" without the bare words learning "harmful topic".
 * Linear: one pass over the window.
 */
import type { InjectionModelSpec } from '../../../src/guards/prompt-injection/injection-model';
import { SlotInjectionScorer } from '../../../src/guards/prompt-injection/slot-features';

const framingCue =
  /\b(?:translat\w*|stor(?:y|ies)|novel|fiction\w*|screenplay|play|scene|chapter|character\w*|layers?|dreams?|imagine|hypothetic\w*|pretend\w*|research|educational|paraphras\w*|summari[sz]\w*|rewrite)\b/;

function salted(word: string, mask: number): number {
  let hash = 0x9e3779b9;
  for (let index = 0; index < word.length; index++) {
    hash = Math.imul(hash ^ word.charCodeAt(index), 0x01000193);
  }
  return (hash >>> 0) & mask;
}

export class FramedScorer extends SlotInjectionScorer {
  #buffer = new Int32Array(1024);

  constructor(spec: InjectionModelSpec, repeat: number) {
    super(spec, repeat);
  }

  override features(text: string, start: number, end: number): Int32Array {
    const base = super.features(text, start, end);
    const window = text.slice(start, end);
    if (!framingCue.test(window)) return base;
    const mask = (1 << this.spec.bits) - 1;
    const extra = new Set<number>();
    for (const match of window.matchAll(/[\p{L}\p{N}]+/gu)) extra.add(salted(match[0], mask));
    const needed = base.length + extra.size;
    if (this.#buffer.length < needed) this.#buffer = new Int32Array(needed * 2);
    this.#buffer.set(base);
    let at = base.length;
    for (const index of extra) this.#buffer[at++] = index;
    return this.#buffer.subarray(0, at);
  }
}
