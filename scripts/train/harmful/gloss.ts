/**
 * Experiment (training time only, tenth round; `GLOSS_READING=1`): an
 * English gloss of a non-English prompt as a second reading. The third
 * round's lexicon (lexicon.ts) is read as a dictionary: each concept it
 * finds is written as one English word, in the order found, with "how to"
 * first when a how-to frame is found, and the gloss is scored by the same
 * hashed n-gram model, so the weights learnt from English requests apply to
 * "วิธีทำระเบิด" ("how to bomb") without any new weight. Only prompts of at
 * most `GLOSS_MAX_LENGTH` folded characters that do not read as English get
 * it (mostly non-Latin script, or Latin script with few English function
 * words); English prompts score exactly as without it. The higher logit
 * counts, as with the noisy-tail reading. Linear: one script count, one
 * word pass, one lexicon pass.
 */
import { dominantScript } from '../../../src/guards/harmful-content/script';
import { CONCEPTS, conceptSequence, ExperimentScorer } from './concept-features';

/** Prompts longer than this (folded characters) get no gloss reading. */
export const GLOSS_MAX_LENGTH = 4096;

/** The English word of each harmful concept of the lexicon. */
export const GLOSS_WORDS: Readonly<Record<string, string>> = {
  explosive: 'bomb',
  weapon: 'weapon',
  kill: 'kill',
  poison: 'poison',
  drugs: 'drugs',
  hacking: 'hack',
  theft: 'steal',
  fraud: 'fraud',
  'self-harm': 'self-harm',
  'sexual-violence': 'rape',
  terror: 'terrorism',
  illegal: 'illegal',
};

/** Forty English function words; a Latin-script text with few of them is read as another language. */
export const ENGLISH_FUNCTION_WORDS: ReadonlySet<string> = new Set(
  (
    'the to of and is are was were be how what which who why when where you your my for ' +
    'with can could would should will do does did that this it its have has from about by they we'
  ).split(' '),
);

/** Under this share of English function words (of at least `MIN_WORDS` Latin words), a Latin-script text is not English. */
const FUNCTION_SHARE = 0.08;
const MIN_WORDS = 4;

const isLatinLetter = (code: number) =>
  (code >= 97 && code <= 122) ||
  (code >= 0xc0 && code < 0x250 && code !== 0xd7 && code !== 0xf7) ||
  (code >= 0x1e00 && code <= 0x1eff);

/**
 * Whether folded text reads as English: Latin script, and either fewer than
 * `MIN_WORDS` words (too short to tell) or at least `FUNCTION_SHARE` of its
 * words English function words.
 */
export function readsAsEnglish(folded: string): boolean {
  if (dominantScript(folded) !== 'latin') return false;
  let words = 0;
  let functionWords = 0;
  let wordStart = -1;
  for (let index = 0; index <= folded.length; index++) {
    const letter = index < folded.length && isLatinLetter(folded.charCodeAt(index));
    if (letter && wordStart < 0) wordStart = index;
    if (!letter && wordStart >= 0) {
      words++;
      if (index - wordStart <= 6 && ENGLISH_FUNCTION_WORDS.has(folded.slice(wordStart, index)))
        functionWords++;
      wordStart = -1;
    }
  }
  return words < MIN_WORDS || functionWords >= FUNCTION_SHARE * words;
}

/** The English gloss of folded text: "how to" when a how-to frame is found, then each harmful concept's word in order; "" when no harmful concept is found. */
export function englishGloss(folded: string): string {
  const words: string[] = [];
  let howto = false;
  for (const bit of conceptSequence(folded, 0, folded.length)) {
    const concept = CONCEPTS[bit]!;
    if (concept === 'howto') howto = true;
    else words.push(GLOSS_WORDS[concept]!);
  }
  if (words.length === 0) return '';
  return (howto ? ['how to', ...words] : words).join(' ');
}

/** Start and end of the extra span that stands for the gloss (not a span of the text). */
export const GLOSS_SPAN = -1;

/** The trainer's scorer with the gloss reading: a non-English prompt is also scored as its English gloss. */
export class GlossScorer extends ExperimentScorer {
  #gloss = '';

  /** The last text's gloss ("" when it has none); for tests and reports. */
  get gloss(): string {
    return this.#gloss;
  }

  override extraSpans(folded: string): readonly number[] {
    const spans = super.extraSpans(folded);
    this.#gloss =
      folded.length <= GLOSS_MAX_LENGTH && !readsAsEnglish(folded) ? englishGloss(folded) : '';
    return this.#gloss === '' ? spans : [...spans, GLOSS_SPAN, GLOSS_SPAN];
  }

  override features(text: string, start: number, end: number): Int32Array {
    return start === GLOSS_SPAN
      ? super.features(this.#gloss, 0, this.#gloss.length)
      : super.features(text, start, end);
  }
}
