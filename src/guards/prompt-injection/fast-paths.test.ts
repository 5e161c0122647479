/**
 * Differential test of the speed work of issues 15 and 19: the fast
 * `foldText`, `decodeSegments`, `collectFeatures` and `maxWindowSurprisal`
 * against the implementations they replaced (fast-paths.reference.ts, kept
 * verbatim), on generated adversarial strings. Byte-identical is the rule:
 * the trained models were built with the old code, and `npm run train`
 * rebuilds them with the new one.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../bench/fixtures';
import { maxWindowSurprisal } from './char-language-model';
import { decodeSegments } from './decode-segments';
import { generated } from './fast-paths.inputs';
import {
  referenceCollectFeatures,
  referenceDecodeSegments,
  referenceFoldText,
  referenceMaxWindowSurprisal,
  referenceSlotFeatureIds,
} from './fast-paths.reference';
import { foldInPieces, foldText } from './fold-text';
import { collectFeatures } from './hashed-features';
import { MODEL_WINDOW, windowStarts } from './injection-model';
import { injectionModels } from './load-models';
import { slotFeatureIds } from './slot-features';

const texts = generated(1500);

/**
 * The file's own bound: the foldText tests fold 1.2 M characters 15 times
 * (one character a piece the dearest, about 5 s), about 11 s of CPU with
 * nothing else running, and came within reach of vitest's 20 s under CI's
 * load (round 34: 15.3 s and 5.1 s here, 2 cores shared by 8 runs).
 */
const FILE_TIMEOUT = 90_000;

describe('fast paths give the same results as the code they replaced', {
  timeout: FILE_TIMEOUT,
}, () => {
  it('foldText, in each leet mode', () => {
    let changed = 0;
    for (const text of texts) {
      for (const leet of [true, false, 'aggressive'] as const) {
        const expected = referenceFoldText(text, { leet });
        expect(foldText(text, { leet })).toBe(expected);
        if (leet === true && expected !== text.toLowerCase()) changed++;
      }
    }
    // The strings exercise the folding, not only lower-casing.
    expect(changed).toBeGreaterThan(texts.length / 2);
  });

  it('foldText cut into pieces as small as one character', () => {
    // Tiny pieces put a cut at nearly every "ab cd"; the strings are also
    // glued in pairs with such a place between them, so that cuts fall next
    // to every kind of neighbour the atoms make.
    const glued = texts.map((text, index) => `${text}Xy zW${texts[(index + 1) % texts.length]}`);
    let withCut = 0;
    for (const text of [...texts, ...glued]) {
      for (const leet of [true, false, 'aggressive'] as const) {
        const expected = referenceFoldText(text, { leet });
        for (const pieceLength of [1, 5, 64]) {
          expect(foldInPieces(text, leet, pieceLength).join('')).toBe(expected);
        }
      }
      if (/[A-Za-z]{2} [A-Za-z]{2}/.test(text)) withCut++;
    }
    expect(withCut).toBeGreaterThan(texts.length);
  });

  it('bestWindow reads the same windows from pieces of the folded text', () => {
    const { direct, languageModel } = injectionModels();
    const random = seededRandom(2048);
    let long = 0;
    for (const text of texts) {
      const folded = foldText(text);
      const expected = direct.bestWindow(folded, languageModel);
      // Cut at random places (empty pieces too), and as foldTextPieces cuts.
      const cuts = [0, folded.length];
      for (let cut = 0; cut < 1 + folded.length / 500; cut++) {
        cuts.push(Math.floor(random() * (folded.length + 1)));
      }
      cuts.sort((a, b) => a - b);
      const pieces = cuts.slice(1).map((end, index) => folded.slice(cuts[index], end));
      expect(direct.bestWindow(pieces, languageModel)).toEqual(expected);
      expect(direct.bestWindow(foldInPieces(text, true, 700), languageModel)).toEqual(expected);
      if (folded.length > MODEL_WINDOW) long++;
    }
    expect(long).toBeGreaterThan(5);
  });

  it('decodeSegments', () => {
    let decoded = 0;
    for (const text of texts) {
      const expected = referenceDecodeSegments(text);
      expect(decodeSegments(text)).toEqual(expected);
      decoded += expected.length;
    }
    expect(decoded).toBeGreaterThan(100);
  });

  it('collectFeatures, maxWindowSurprisal and the slot features, window by window', () => {
    const { languageModel } = injectionModels();
    const bits = 18;
    const stamps = [new Uint8Array(1 << bits), new Uint8Array(1 << bits)] as const;
    const buffers = [new Int32Array(6 * MODEL_WINDOW + 8), new Int32Array(6 * MODEL_WINDOW + 8)];
    let generation = 0;
    let slotFeatures = 0;
    for (const text of texts) {
      const folded = foldText(text);
      for (const start of windowStarts(folded.length)) {
        const end = Math.min(folded.length, start + MODEL_WINDOW);
        generation = (generation % 255) + 1;
        if (generation === 1) for (const stamp of stamps) stamp.fill(0);
        const count = collectFeatures(folded, start, end, bits, stamps[0], generation, buffers[0]!);
        const expected = referenceCollectFeatures(
          folded,
          start,
          end,
          bits,
          stamps[1],
          generation,
          buffers[1]!,
        );
        // Same indices in the same order (training sums them in this order).
        expect(Array.from(buffers[0]!.subarray(0, count))).toEqual(
          Array.from(buffers[1]!.subarray(0, expected)),
        );
        expect(maxWindowSurprisal(folded, languageModel, start, end)).toBe(
          referenceMaxWindowSurprisal(folded, languageModel, start, end),
        );
        const slots = slotFeatureIds(folded, start, end);
        expect(slots).toEqual(referenceSlotFeatureIds(folded, start, end));
        slotFeatures += slots.length;
      }
    }
    // The strings hold cue words (ignore, previous, system, prompt, bomb, ...).
    expect(slotFeatures).toBeGreaterThan(1000);
  });
});
