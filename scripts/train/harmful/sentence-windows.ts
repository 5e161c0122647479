/**
 * Sentence windows: a harmful ask that is one sentence among benign context
 * (a persona, a pasted article, "given this text, …") is diluted in a whole
 * window, whose features are mostly the context's. Scoring each sentence
 * group on its own as an extra window lets the ask be judged by itself; the
 * text's score is the highest window.
 *
 * Linear: the segments do not overlap, so every character is read once more
 * at most, and only texts of at most `maxLength` folded characters get the
 * extra reading (a bounded cost per call; longer texts keep the overlapping
 * windows alone).
 */

import type { HarmfulReadingOptions } from '../../../src/guards/harmful-content/readings';

/** The shipped readings plus sentence groups (training experiments only; concept-features.ts). */
export interface ExperimentReadings extends HarmfulReadingOptions {
  /** Texts of at most this many folded characters are also scored per sentence group (0: off). */
  sentenceMaxLength: number;
  /** Sentences shorter than this many characters are merged with the next one. */
  sentenceMinLength: number;
}

/** No extra reading. */
export const NO_EXPERIMENT_READING: ExperimentReadings = {
  sentenceMaxLength: 0,
  sentenceMinLength: 0,
  noisyTailMaxLength: 0,
};

function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 0xa0;
}

/** Ends a sentence when followed by a space: . ! ? */
function isSentenceEnd(code: number): boolean {
  return code === 46 || code === 33 || code === 63;
}

/** Ends a sentence wherever it stands: the CJK full stop and full-width ! ? */
function isWideSentenceEnd(code: number): boolean {
  return code === 0x3002 || code === 0xff01 || code === 0xff1f;
}

/**
 * Start and end offsets (flat pairs) of the sentence groups of `text` when it
 * has at least two and is at most `options.sentenceMaxLength` long, else
 * none. A sentence ends at . ! ? followed by a space, at a CJK full stop or
 * full-width ! ?, at a line break, or at a run of dashes; groups shorter than `sentenceMinLength` join the next.
 */
export function sentenceSpans(
  text: string,
  options: Pick<ExperimentReadings, 'sentenceMaxLength' | 'sentenceMinLength'>,
): number[] {
  const { sentenceMaxLength, sentenceMinLength } = options;
  if (sentenceMaxLength === 0 || text.length > sentenceMaxLength) return [];
  const spans: number[] = [];
  let start = -1;
  const close = (end: number) => {
    if (start < 0) return;
    let last = end;
    while (last > start && isSpace(text.charCodeAt(last - 1))) last--;
    if (last - start < sentenceMinLength) return; // keep `start`: the group continues
    spans.push(start, last);
    start = -1;
  };
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 10 || code === 13) {
      close(index);
      continue;
    }
    if (start < 0) {
      if (isSpace(code) || code === 45) continue;
      start = index;
    }
    if (code === 45 && text.charCodeAt(index + 1) === 45) {
      close(index);
      continue;
    }
    if (
      isWideSentenceEnd(code) ||
      (isSentenceEnd(code) && (index + 1 === text.length || isSpace(text.charCodeAt(index + 1))))
    ) {
      close(index + 1);
    }
  }
  if (start >= 0) {
    let last = text.length;
    while (last > start && isSpace(text.charCodeAt(last - 1))) last--;
    if (last > start) spans.push(start, last);
  }
  // One sentence: the whole-text window already reads it.
  return spans.length >= 4 ? spans : [];
}
