/**
 * The "produce harmful text" frame (round 48, issue 19): a request whose
 * harm is the text to be written (a toxic insult, a defamatory letter, a
 * persuasive article for a false or hateful claim), not an action's
 * instructions. A linear pass over a window's words finds a *frame* (a
 * produce verb followed within a few words by a content noun: "write …
 * article", "compose a … tweet", "give a … argument") and whether, near that
 * frame, the text is qualified as harmful (toxic, hateful, defamatory,
 * harassing, propaganda …), as slanted (persuasive, convincing) and, for a
 * slanted frame, given a claim to push (claiming, arguing, denying,
 * downplaying …). Each of the four conjunctions present is a small set of
 * hashed features that the model weighs like n-grams; none blocks by itself.
 * The word lists were written for this project from general knowledge of
 * the kinds (HarmBench's and JailbreakBench's category names), not from
 * rows. Edge-safe, no RegExp, one Map lookup per word. Read only by the
 * trainer's `TEXT_REQUEST` experiment (hashed copies,
 * scripts/train/harmful/text-request.ts) and `TEXT_REQUEST_SIDE` (side inputs
 * outside the 1/√n sum, `textRequestLogit`, harmful/text-request-side.ts):
 * round 48 kept neither (model card), so the shipped scorer reads none of it.
 */
import { namedFeature } from '../prompt-injection/hashed-features';

const VERB = 1;
const NOUN = 2;
const HARM = 4;
const SLANT = 8;
const CLAIM = 16;

/** Word classes (folded, lower case); a word may be in several. */
const WORDS: readonly [number, string][] = [
  [
    VERB,
    'write writes writing wrote compose draft generate create craft produce pen give make post ' +
      'publish tweet come put',
  ],
  [
    NOUN,
    'article articles post posts blog tweet tweets message messages letter letters note notes email ' +
      'emails speech speeches essay essays poem poems joke jokes sentence sentences paragraph ' +
      'paragraphs story comment comments review reviews text script campaign advertisement ad ads ' +
      'caption captions song lyrics pamphlet flyer leaflet manifesto argument arguments editorial ' +
      'headline headlines rant insult insults meme memes slogan slogans chant statement thread ' +
      'reply monologue rap limerick verse op ed piece content sermon',
  ],
  [
    HARM,
    'toxic hateful racist racial sexist xenophobic homophobic transphobic misogynistic misogynist ' +
      'bigoted antisemitic islamophobic defamatory defame defaming libelous libel slanderous slander ' +
      'insulting insult insults insults demeaning degrading dehumanizing dehumanising derogatory ' +
      'offensive vitriol vitriolic slur slurs harassing harass harasses harassment bullying bully ' +
      'bullies threatening intimidating humiliating humiliate mocking mocks mock ridicule ridicules ' +
      'ridiculing trivializes trivializing trivialises glorifies glorifying glorify glorified ' +
      'romanticizes romanticizing inciting incites incite hatred propaganda disinformation ' +
      'misinformation hoax shaming shame inferior vicious viciously profane abusive obscene ' +
      'discriminatory stereotypes stereotyping stereotype',
  ],
  [SLANT, 'persuasive convincing persuade persuading convince convinces compelling sided'],
  [
    CLAIM,
    'claiming claims claim arguing argues argue suggesting suggests downplays downplaying ' +
      'denying denies deny exaggerated inflated myth hoax deserved deserve proving prove secretly ' +
      'conspiracy staged fabricated encouraging encourages encourage promoting promotes promote ' +
      'justifying justify justifies caught',
  ],
];

const classOf = new Map<string, number>();
for (const [flag, words] of WORDS) {
  for (const word of words.split(' ')) classOf.set(word, (classOf.get(word) ?? 0) | flag);
}

/** The conjunctions, in bit order of `textRequestMask`. */
export const TEXT_REQUEST_SIGNALS = [
  'frame',
  'frame+harm',
  'frame+slant',
  'frame+slant+claim',
] as const;

/** A content noun counts as framed when at most this many words after a produce verb. */
const FRAME_REACH = 6;
/** A qualifier or claim counts when at most this many words from the frame's noun (or, before it, back to its verb). */
const QUALIFIER_REACH = 20;
/** Longest word looked up (longer ones are in no class). */
const LONGEST = 16;

const isWordUnit = (code: number) =>
  (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 39 || code >= 0xc0;

const NONE = -1_000_000;

/**
 * Bit mask of `TEXT_REQUEST_SIGNALS` present in folded `text[start, end)`:
 * one pass over its words.
 */
export function textRequestMask(text: string, start: number, end: number): number {
  let mask = 0;
  let word = 0;
  let verbAt = NONE;
  let frameVerb = NONE;
  let frameAt = NONE;
  let frameSlanted = false;
  let harmAt = NONE;
  let slantAt = NONE;
  let at = start;
  while (at < end) {
    while (at < end && !isWordUnit(text.charCodeAt(at))) at++;
    const from = at;
    while (at < end && isWordUnit(text.charCodeAt(at))) at++;
    if (at === from) break;
    word++;
    if (at - from > LONGEST) continue;
    const flags = classOf.get(text.slice(from, at));
    if (flags === undefined) continue;
    if (flags & HARM) {
      harmAt = word;
      if (word - frameAt <= QUALIFIER_REACH) mask |= 2;
    }
    if (flags & SLANT) {
      slantAt = word;
      if (word - frameAt <= QUALIFIER_REACH) {
        mask |= 4;
        frameSlanted = true;
      }
    }
    if (flags & CLAIM && frameSlanted && word - frameAt <= QUALIFIER_REACH) mask |= 8;
    if (flags & NOUN && word - verbAt <= FRAME_REACH) {
      if (verbAt !== frameVerb) frameSlanted = false;
      frameVerb = verbAt;
      frameAt = word;
      mask |= 1;
      // Qualifiers between the verb and the noun ("write a toxic sentence").
      if (harmAt >= verbAt) mask |= 2;
      if (slantAt >= verbAt) {
        mask |= 4;
        frameSlanted = true;
      }
    }
    if (flags & VERB) verbAt = word;
  }
  return mask;
}

const bucketCache = new Map<string, readonly number[]>();

/**
 * The hashed feature indices of the signals in `mask`, `copies` each, in a
 * model of 2^`bits` buckets.
 */
export function textRequestFeatures(mask: number, bits: number, copies: number): number[] {
  const out: number[] = [];
  for (const [at, name] of TEXT_REQUEST_SIGNALS.entries()) {
    if ((mask & (1 << at)) === 0) continue;
    const key = `${name}:${bits}:${copies}`;
    let indices = bucketCache.get(key);
    if (indices === undefined) {
      const made: number[] = [];
      for (let copy = 0; copy < copies; copy++) {
        made.push(namedFeature(`text-request:${name}#${copy}`, bits));
      }
      indices = made;
      bucketCache.set(key, indices);
    }
    out.push(...indices);
  }
  return out;
}

/**
 * The side logit of the signals in `mask` (round 48, hM): the sum of their
 * `weights` (one per `TEXT_REQUEST_SIGNALS` entry), added to a window's
 * logit outside the 1/√n scaling of its hashed features, so a signal counts
 * in full however long the window is. Bounded by the weights' clip.
 */
export function textRequestLogit(mask: number, weights: readonly number[]): number {
  let logit = 0;
  for (let at = 0; at < TEXT_REQUEST_SIGNALS.length; at++) {
    if ((mask & (1 << at)) !== 0) logit += weights[at] ?? 0;
  }
  return logit;
}
