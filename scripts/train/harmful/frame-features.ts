/**
 * Experiment (training time only, ninth round; `FRAME_FEATURES=copies`):
 * the "how to do it" vs "about it" frame as a small feature family. Each
 * word of a window is looked up in eight cue classes written for this
 * project from the ninth round's aggregate analysis of JailbreakBench's
 * twins (the model card): four that say a request means to act (evasion,
 * deception, a person as target, operational detail) and four that say it
 * asks about the thing (fiction, history, prevention and law, explanation).
 * Every class present in the window adds `copies` hashed features beside
 * the n-grams, so a class weighs like a few n-grams whichever of its words
 * carries it. Linear: one pass over the window's words.
 */
import { hashString } from '../../../src/guards/pii/ner/features';
import { bucket } from '../clusters-harmful/cluster-scorer';
import { ExperimentScorer } from './concept-features';
import { appendFeatures } from './skip-grams';

/** The cue classes and their words (folded: lower case). */
export const FRAME_CLASSES: Record<string, string> = {
  evasion:
    'undetected undetectable untraceable unnoticed evade evading evasion bypass bypassing circumvent ' +
    'circumventing caught secretly covertly anonymously discreetly',
  deception:
    'fake faked forge forged forging counterfeit convincing deceive deceiving impersonate impersonating ' +
    'trick tricking manipulate manipulating blackmail extort scam',
  target:
    "someone somebody someone's victim victims neighbor neighbour coworker classmate boss wife husband " +
    'girlfriend boyfriend child kid minor minors',
  operational:
    'instructions tutorial detailed recipe exact precise procedure blueprint guide steps step ' +
    'homemade quantities',
  fiction: 'fictional fiction story novel screenplay poem character characters scene plot roleplay',
  history: 'history historical historically historian century centuries ancient era origins',
  prevention:
    'prevent preventing prevention protect protecting protection defend safety safely warning signs ' +
    'symptoms risks dangers dangerous report recognize awareness legal law laws ethical',
  explanation:
    'which why what explain explains difference differ typically meaning definition define does ' +
    'overview summary causes',
};

const classOf = new Map<string, number>();
for (const [at, words] of Object.values(FRAME_CLASSES).entries()) {
  for (const word of words.split(' ')) classOf.set(word, at);
}
/** The salt of the classes' hashes (FRAME_SALT: a second hash, to see how much the hash alone moves a run). */
const salt = process.env.FRAME_SALT ?? 'frame';
const classHashes = Object.keys(FRAME_CLASSES).map(name => hashString(`${salt}:${name}`));

const isWordUnit = (code: number) =>
  (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 39 || code >= 0xc0;

/** The feature kind of a frame class (cluster-scorer.ts uses 1–4, skip-grams 5). */
const FRAME_KIND = 6;

/** The trainer's scorer whose window features add the frame classes present in the window. */
export class FrameScorer extends ExperimentScorer {
  /** Hashed features per class present (the trainer sets it from FRAME_FEATURES). */
  copies = 4;

  override features(text: string, start: number, end: number): Int32Array {
    const base = super.features(text, start, end);
    let present = 0;
    let at = start;
    while (at < end) {
      while (at < end && !isWordUnit(text.charCodeAt(at))) at++;
      const from = at;
      while (at < end && isWordUnit(text.charCodeAt(at))) at++;
      if (at - from > 13) continue;
      const found = classOf.get(text.slice(from, at));
      if (found !== undefined) present |= 1 << found;
    }
    if (present === 0) return base;
    const seen = new Set<number>(base);
    const extra: number[] = [];
    for (const [at, hash] of classHashes.entries()) {
      if ((present & (1 << at)) === 0) continue;
      for (let copy = 0; copy < this.copies; copy++) {
        const index = bucket(FRAME_KIND, hash, copy, this.spec.bits);
        if (!seen.has(index)) {
          seen.add(index);
          extra.push(index);
        }
      }
    }
    return appendFeatures(base, extra);
  }
}
