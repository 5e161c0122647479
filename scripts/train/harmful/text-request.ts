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
import { SignalScorer } from './signal-scorer';

/** An ExperimentScorer whose windows also carry the text-request signals (copies: TEXT_REQUEST). */
export class TextRequestScorer extends SignalScorer {
  protected signalIndices(text: string, start: number, end: number): number[] {
    return textRequestFeatures(textRequestMask(text, start, end), this.spec.bits, this.copies);
  }
}
