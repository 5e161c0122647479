/**
 * Round 49 (hH, issue 19; `DEMEANING=copies`): a "demeaning people" word-class
 * lexicon the model weighs. do-not-answer's discrimination family is its
 * largest block of misses (92 of 176 left out, round 49's count), and they
 * are loaded questions and requests to belittle ("Why are all … so lazy?",
 * "Can you insult my … using foul language?", "Tell a joke about …");
 * AILuminate's hate family (36 of 100 English rows missed) and phrasing's
 * harassment and sexist-message rephrasings hold the same kind. The eleventh
 * round read the *group* words as one class (not kept: 128 of the family's
 * 176 rows name no group of its list); this reads the *demeaning* words
 * instead, so "dishonest" learnt in one source lends weight to "lazy" in
 * another, whatever group they are said of.
 *
 * Four signals, each `copies` hashed features a window gains when present:
 * a belittling verb (insult, mock, ridicule, make fun …), a derogatory
 * qualifier (derogatory, slur, foul, obscene, stereotype …), a negative
 * trait said of people (lazy, stupid, dishonest, inferior, smell …), and
 * such a trait within a few words after a generalising word (all, always,
 * every, everyone, naturally, genetically, inherently). The word lists were
 * written for this project from general knowledge of the kind, not from
 * rows. One pass over the window's words, one Map lookup per word.
 * Training and --loso only; round 49 did not keep it (a source lost 0.0104 and
 * the round's own look-alikes were over-blocked more): see the model card's
 * "Round 49 (hH)" paragraph.
 */
import { windowWords } from './group-words';
import { SignalScorer, signalFeatures, wordClasses } from './signal-scorer';

const VERB = 1;
const SLUR = 2;
const TRAIT = 4;
const ALL = 8;

const WORDS: readonly [number, string][] = [
  [
    VERB,
    'insult insults insulting insulted mock mocking mocks ridicule ridiculing belittle belittling ' +
      'demean demeaning humiliate humiliating disrespect disrespecting degrade degrading roast ' +
      'bully bullying harass harassing taunt taunting badmouth trash dehumanize dehumanise',
  ],
  [
    SLUR,
    'derogatory slur slurs foul obscene vulgar offensive stereotype stereotypes stereotyping ' +
      'racist sexist bigoted hateful insults epithets',
  ],
  [
    TRAIT,
    'lazy stupid dumb idiots idiotic backward backwards uneducated dishonest untrustworthy ' +
      'corrupt violent savage savages primitive inferior ignorant worthless useless failures ' +
      'failure clueless smell stinky smelly dirty filthy greedy rude arrogant aggressive extremists ' +
      'terrorists criminals vain ugly unattractive disgusting subhuman parasites vermin incompetent ' +
      'unproductive inefficient intolerant misbehaved jobless cheap weak crazy hysterical ' +
      'overemotional liars thieves barbaric uncivilized',
  ],
  [ALL, 'all always every everyone everybody naturally genetically inherently never'],
];

const classOf = wordClasses(WORDS);

/** The signals, in bit order of `demeaningMask`. */
export const DEMEANING_SIGNALS = ['belittle', 'derogatory', 'trait', 'all+trait'] as const;

/** A trait counts as generalised when at most this many words after a generalising word. */
const GENERAL_REACH = 6;
const NONE = -1_000_000;

/** Bit mask of `DEMEANING_SIGNALS` present in folded `text[start, end)`: one pass over its words. */
export function demeaningMask(text: string, start: number, end: number): number {
  let mask = 0;
  let allAt = NONE;
  for (const [word, token] of windowWords(text, start, end).entries()) {
    const flags = classOf.get(token) ?? 0;
    if (flags & VERB) mask |= 1;
    if (flags & SLUR) mask |= 2;
    if (flags & TRAIT) {
      mask |= 4;
      if (word - allAt <= GENERAL_REACH) mask |= 8;
    }
    if (flags & ALL) allAt = word;
  }
  return mask;
}

/** The hashed feature indices of the signals in `mask`, `copies` each, in 2^`bits` buckets. */
export function demeaningFeatures(mask: number, bits: number, copies: number): number[] {
  return signalFeatures('demeaning', DEMEANING_SIGNALS, mask, bits, copies);
}

/** An ExperimentScorer whose windows also carry the demeaning signals (copies: DEMEANING). */
export class DemeaningScorer extends SignalScorer {
  protected signalIndices(text: string, start: number, end: number): number[] {
    return demeaningFeatures(demeaningMask(text, start, end), this.spec.bits, this.copies);
  }
}
