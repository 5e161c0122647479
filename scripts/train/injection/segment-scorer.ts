/**
 * Experiment (SEGMENTS=…, training only; issue 15, round 40, not kept: see
 * the model card's Known limits):
 * a short attack inside a long template or document is diluted in its
 * 2,048-character window, since each window's features are scaled by 1/√n
 * and the template's n-grams outnumber the attack's. With `SEGMENTS=L` (or
 * `L,S`) the direct scorer also reads the folded text in segments of `L`
 * characters every `S` (default L/2, so any stretch of up to L − S
 * characters lies whole in one segment), each scored by the same model on
 * its own, and a text's logit is the highest over its whole windows and its
 * segments (before calibration, so Platt scaling and the threshold are
 * fitted on the combined score). Texts of `L` characters or fewer are read
 * as before. Linear: about L/S segment reads per character.
 */
import { maxWindowSurprisal } from '../../../src/guards/prompt-injection/char-language-model';
import type {
  InjectionScorer,
  WindowVerdict,
} from '../../../src/guards/prompt-injection/injection-model';
import type { TrainingRow } from '../injection-data';

/** Segment length and step, in folded characters. */
export interface SegmentOptions {
  length: number;
  stride: number;
}

/** `SEGMENTS=L[,S]` from the environment, or undefined (the shipped scorer). */
export function segmentOptions(value = process.env.SEGMENTS ?? ''): SegmentOptions | undefined {
  if (value === '' || value === '0') return undefined;
  const [length, stride] = value.split(',').map(Number);
  if (!Number.isInteger(length) || length! < 64) throw new Error(`SEGMENTS: bad length ${value}`);
  const step = stride ?? Math.floor(length! / 2);
  if (!Number.isInteger(step) || step < 1 || step > length!)
    throw new Error(`SEGMENTS: bad stride ${value}`);
  return { length: length!, stride: step };
}

/** Start offsets of the segments of a text of `length` characters (none when it fits in one). */
export function segmentStarts(length: number, options: SegmentOptions): number[] {
  if (length <= options.length) return [];
  const starts: number[] = [];
  for (let start = 0; start + options.length < length; start += options.stride) starts.push(start);
  starts.push(length - options.length);
  return starts;
}

/**
 * `scorer` with its `bestWindow` also taking the best segment (see the
 * file's comment). The instance is changed and returned.
 */
export function withSegments<T extends InjectionScorer>(scorer: T, options: SegmentOptions): T {
  const whole = scorer.bestWindow.bind(scorer);
  scorer.bestWindow = (
    text: string | readonly string[],
    languageModel: Uint8Array,
  ): WindowVerdict => {
    let best = whole(text, languageModel);
    // The whole text's highest window surprisal stays the verdict's (segments are within it).
    const { peakSurprisal } = best;
    const joined = typeof text === 'string' ? text : text.join('');
    for (const start of segmentStarts(joined.length, options)) {
      const end = start + options.length;
      const surprisal = maxWindowSurprisal(joined, languageModel, start, end);
      const verdict = scorer.logit(scorer.features(joined, start, end), surprisal);
      if (verdict.logit > best.logit) best = { ...verdict, peakSurprisal };
    }
    return best;
  };
  return scorer;
}

/** Group of the segment rows (`SEGMENT_TRAIN=1`): a composed group, so it is no source of its own. */
export const SEGMENT_GROUP = 'synthetic:compose-segments';

/** Most segment rows made of one benign row. */
const SEGMENTS_PER_ROW = 4;

/**
 * Training rows made of segments of long benign rows (`SEGMENT_TRAIN=1`,
 * with `SEGMENTS`): up to `SEGMENTS_PER_ROW` segments of each benign row
 * longer than a segment, evenly spread over the row (cut from its text as
 * written), as negatives, so that the model learns what a segment of a long
 * benign prompt looks like on its own. Attack rows give none: a segment of
 * an attack template may hold only its benign part. Each segment row
 * carries its row's source as origin, so it leaves training whenever that
 * source is left out; hand-written rows and calibration rows
 * (`isCalibration`) give none.
 */
export function segmentRows(
  rows: readonly TrainingRow[],
  options: SegmentOptions,
  isCalibration: (row: TrainingRow) => boolean,
): TrainingRow[] {
  const made: TrainingRow[] = [];
  for (const row of rows) {
    if (row.label !== 0 || row.group.startsWith('synthetic:') || isCalibration(row)) continue;
    const starts = segmentStarts(row.text.length, options);
    if (starts.length === 0) continue;
    const count = Math.min(SEGMENTS_PER_ROW, starts.length);
    const picked = new Set<number>();
    for (let k = 0; k < count; k++) {
      picked.add(starts[count === 1 ? 0 : Math.round((k * (starts.length - 1)) / (count - 1))]!);
    }
    for (const start of picked) {
      made.push({
        id: `${row.id}~segment${start}`,
        text: row.text.slice(start, start + options.length),
        label: 0,
        group: SEGMENT_GROUP,
        family: row.family,
        origins: [row.group, ...(row.origins ?? [])],
      });
    }
  }
  return made;
}
