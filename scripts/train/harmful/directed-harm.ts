/**
 * Round 50 (hG, issue 19; `DIRECTED_HARM=copies`): harm aimed at the reader.
 * PocoGCG's left-out misses are not suffixed requests (its rows carry no
 * adversarial suffix): 372 of its 570 "harmful strings" are missed against
 * 58 of 445 AdvBench behaviours (round 50's fold count), and those strings
 * are statements addressed to "you": threats ("I'm going to … you"),
 * wishes of harm ("I hope you … die"), self-harm imperatives ("… yourself")
 * and abusive vocatives ("you filthy …"). The hashed n-grams see each as
 * a new phrase; these four word-order signals name the shape, so a threat
 * learnt in one source lends weight to another's.
 *
 * Signals (each `copies` hashed features a window gains when present):
 * - threat: a first-person intent (i'll, i will, i'm going to, we'll …),
 *   then a harm verb within `REACH` words, then a second-person word
 *   within `OBJECT_REACH` words of the verb;
 * - wish: hope / wish / pray right before a second-person word, then a
 *   harm word within `REACH` words;
 * - self: a harm verb right before yourself / yourselves, or before
 *   "your life" / "your own life";
 * - vocative: a second-person word (you, you're, ur) then an abusive word
 *   within two words.
 * The word lists were written for this project from general knowledge of
 * the kind, not from rows. One pass over the window's words, one Map
 * lookup per word. Training and --loso only.
 */
import { windowWords } from './group-words';
import { SignalScorer, signalFeatures, wordClasses } from './signal-scorer';

const [INTENT, WILL, HARM, YOU, HOPE, SELF, ABUSE, LIFE] = [1, 2, 4, 8, 16, 32, 64, 128] as const;

const WORDS: readonly [number, string][] = [
  [INTENT, "i'll ill we'll i'm im we're i we imma"],
  [WILL, 'will gonna going shall'],
  [
    HARM,
    'kill killed murder murdered hurt rape raped stab stabbed shoot shot beat beaten burn burned ' +
      'torture tortured strangle choke slit die dies dead bleed rot hang hanged drown drowned poison ' +
      'poisoned slaughter butcher destroy ruin expose leak release punish suffer smash break cut ' +
      'gut skin behead lynch cancer aids',
  ],
  [YOU, "you your you're youre ur u ya yours"],
  [HOPE, 'hope wish pray'],
  [SELF, 'yourself yourselves'],
  [
    ABUSE,
    'filthy stupid worthless fucking fuckin dirty ugly whore cunt bitch slut idiot moron retard ' +
      'retarded loser disgrace pathetic scum trash piece pig faggot fag dumb disgusting bastard',
  ],
  [LIFE, 'life own'],
];

const classOf = wordClasses(WORDS);

/** The signals, in bit order of `directedHarmMask`. */
export const DIRECTED_HARM_SIGNALS = ['threat', 'wish', 'self', 'vocative'] as const;

/** Words from an intent to its harm verb, and from a hope word to its harm word. */
const REACH = 5;
/** Words from a threat's harm verb to its second-person object. */
const OBJECT_REACH = 3;
const NONE = -1_000_000;

/** Bit mask of `DIRECTED_HARM_SIGNALS` present in folded `text[start, end)`: one pass over its words. */
export function directedHarmMask(text: string, start: number, end: number): number {
  let mask = 0;
  // Word positions of the latest intent, threat verb, hope word, wished-on "you", harm word, "you".
  let [intentAt, threatVerbAt, hopeAt, wishAt, harmAt, youAt] = [
    NONE,
    NONE,
    NONE,
    NONE,
    NONE,
    NONE,
  ];
  const words = windowWords(text, start, end);
  for (const [at, token] of words.entries()) {
    const flags = classOf.get(token) ?? 0;
    // "i'll" / "i'm going" / "we will": an intent opens at the pronoun.
    if (flags & INTENT) {
      if (token.includes("'ll") || token === 'ill' || token === 'imma') intentAt = at;
      else if (at + 1 < words.length && (classOf.get(words[at + 1]!) ?? 0) & WILL) intentAt = at;
    }
    if (flags & HARM) {
      if (at - intentAt <= REACH) threatVerbAt = at;
      if (at - wishAt <= REACH) mask |= 2;
      harmAt = at;
    }
    if (flags & YOU) {
      if (at - threatVerbAt <= OBJECT_REACH) mask |= 1;
      if (at - hopeAt === 1) wishAt = at;
      youAt = at;
    }
    if (flags & HOPE) hopeAt = at;
    if (flags & SELF && at - harmAt === 1) mask |= 4;
    if (flags & LIFE && token === 'life' && at - harmAt <= 3 && at - youAt <= 2) mask |= 4;
    if (flags & ABUSE && at - youAt <= 2) mask |= 8;
  }
  return mask;
}

/** The hashed feature indices of the signals in `mask`, `copies` each, in 2^`bits` buckets. */
export function directedHarmFeatures(mask: number, bits: number, copies: number): number[] {
  return signalFeatures('directed-harm', DIRECTED_HARM_SIGNALS, mask, bits, copies);
}

/** An ExperimentScorer whose windows also carry the directed-harm signals (copies: DIRECTED_HARM). */
export class DirectedHarmScorer extends SignalScorer {
  protected signalIndices(text: string, start: number, end: number): number[] {
    return directedHarmFeatures(directedHarmMask(text, start, end), this.spec.bits, this.copies);
  }
}
