/**
 * Round 48 (hI, issue 19; `TEXT_REQUEST=copies`): the trainer's scorer with
 * the "produce harmful text" frame signals of
 * src/guards/harmful-content/text-request.ts added to every window's
 * features (`copies` hashed features per signal present). Training and
 * --loso only; see the model card's "Round 48 (hI)" paragraph.
 */
import {
  textRequestFeatures,
  textRequestMask,
} from '../../../src/guards/harmful-content/text-request';
import { ExperimentScorer } from './concept-features';
import { appendFeatures } from './skip-grams';

/** An ExperimentScorer whose windows also carry the text-request signals. */
export class TextRequestScorer extends ExperimentScorer {
  /** Hashed features per signal present (the trainer sets it from TEXT_REQUEST). */
  copies = 4;

  override features(text: string, start: number, end: number): Int32Array {
    const base = super.features(text, start, end);
    const mask = textRequestMask(text, start, end);
    if (mask === 0) return base;
    const seen = new Set<number>(base);
    const extra = textRequestFeatures(mask, this.spec.bits, this.copies).filter(index => {
      if (seen.has(index)) return false;
      seen.add(index);
      return true;
    });
    return appendFeatures(base, extra);
  }
}
