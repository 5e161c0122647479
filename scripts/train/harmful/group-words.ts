/**
 * Experiment (training time only, eleventh round; `GROUP_WORDS=copies`):
 * words naming a group of people read also as one class token, ⟨group⟩.
 * do-not-answer's misses are mostly loaded questions about a group ("Why
 * are all … so …?"); a question learnt about one group from one source
 * then shares features with the same question about another group from
 * another source. Beside the n-grams (not instead of them), each group word
 * of a window adds the word 1–2-grams the window would have with that word
 * written as ⟨group⟩: the class itself, (previous word, ⟨group⟩) and
 * (⟨group⟩, next word), a neighbouring group word read as ⟨group⟩ too
 * ("muslim women" gives (⟨group⟩, ⟨group⟩)). Linear: one pass over the
 * window's words.
 *
 * The list was written for this project from general knowledge (no corpus
 * row was read to make it), in the folded form `foldText` gives (lower
 * case, accents removed): nationalities and ethnicities, religions,
 * genders, sexual orientations and gender identities, disabilities, ages
 * and generations, and a few professions and political camps used as
 * groups, in English, French and Italian (the Latin-script languages of the
 * harmful sources). Words that are mostly something else ("man" for manual
 * pages, "black", "white", "old", "poor", "people") are left out; nationality
 * adjectives that also name a language ("french", "chinese") are in, and
 * the model weighs their contexts.
 */
import { hashString } from '../../../src/guards/pii/ner/features';
import { bucket } from '../clusters-harmful/cluster-scorer';
import { ExperimentScorer } from './concept-features';
import { appendFeatures } from './skip-grams';

/** The group words by kind (folded). */
export const GROUP_WORDS: Record<string, string> = {
  nationalityEn:
    'americans african africans arab arabs asian asians australians brazilians british canadians ' +
    'chinese colombians cubans egyptians english europeans filipinos french germans greeks ' +
    'haitians hispanic hispanics indians iranians iraqis irish israelis italians jamaicans ' +
    'japanese koreans latino latinos latina latinas mexican mexicans nigerians pakistanis ' +
    'palestinians poles polish russians saudis scots somalis spaniards syrians turks ' +
    'ukrainians vietnamese',
  ethnicityEn:
    'aboriginal aborigines blacks whites caucasians caucasian gypsies gypsy roma ' +
    'indigenous immigrants immigrant migrants migrant refugees refugee foreigners ' +
    'minorities rednecks hillbillies',
  religionEn:
    'atheist atheists buddhist buddhists catholic catholics christian christians evangelicals ' +
    'hindu hindus jew jews jewish mormon mormons muslim muslims protestants sikh sikhs',
  genderEn: 'women woman men females males ladies wives transgender trans transsexual transsexuals',
  orientationEn:
    'gay gays lesbian lesbians homosexual homosexuals bisexual bisexuals queer lgbt lgbtq ' +
    'nonbinary',
  disabilityEn:
    'disabled handicapped autistic retarded cripples crippled deaf dwarfs midgets ' +
    'schizophrenics obese',
  ageEn: 'elderly seniors boomers millennials zoomers teenagers teens',
  roleEn:
    'lawyers politicians bankers cops feminists liberals conservatives democrats republicans ' +
    'vegans homeless',
  french:
    'femmes hommes musulmans musulman musulmane musulmanes juifs juif juive juives chretiens ' +
    'catholiques athees noirs noires blancs arabes maghrebins africains asiatiques chinois ' +
    'immigres immigrants migrants etrangers refugies roms gitans homosexuels homosexuelle ' +
    'homosexuelles lesbiennes gays transgenres handicapes autistes obeses feministes',
  italian:
    'donne uomini musulmani ebrei cristiani neri arabi africani asiatici cinesi immigrati ' +
    'stranieri rifugiati zingari rom omosessuali lesbiche disabili anziani femministe',
};

const groupWords = new Set<string>();
for (const words of Object.values(GROUP_WORDS)) {
  for (const word of words.split(' ')) groupWords.add(word);
}

/** Whether a folded word names a group of people. */
export function isGroupWord(word: string): boolean {
  return groupWords.has(word);
}

/** A word: the code units skip-grams.ts and cluster-scorer.ts read as word units (a–z, digits, apostrophe, U+00C0–U+1FFF but × and ÷). */
const WORD = /[a-z0-9'\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u1fff]+/g;

/** The folded words of `text[start, end)`, in order. */
export function windowWords(text: string, start: number, end: number): string[] {
  return text.slice(start, end).match(WORD) ?? [];
}

/** The feature kind of the group reading (cluster-scorer.ts uses 1–4, skip-grams 5, frame classes 6). */
const GROUP_KIND = 7;
/** The class token's hash; GROUP_SALT gives a second hash, to see how much the hash alone moves a run. */
const GROUP = hashString(`${process.env.GROUP_SALT ?? 'group'}:⟨group⟩`);
/** The "no neighbour" side of a bigram at the window's edge. */
const EDGE = hashString('⟨edge⟩');

/** The trainer's scorer whose window features add the ⟨group⟩ reading of its group words. */
export class GroupScorer extends ExperimentScorer {
  /** Hashed features per 1–2-gram of the reading (the trainer sets it from GROUP_WORDS). */
  copies = 1;

  override features(text: string, start: number, end: number): Int32Array {
    const base = super.features(text, start, end);
    const words = windowWords(text, start, end);
    let any = false;
    for (const word of words) {
      if (groupWords.has(word)) {
        any = true;
        break;
      }
    }
    if (!any) return base;
    const hashes = words.map(word => (groupWords.has(word) ? GROUP : hashString(word)));
    const seen = new Set<number>(base);
    const extra: number[] = [];
    const add = (a: number, b: number) => {
      for (let copy = 0; copy < this.copies; copy++) {
        const index = bucket(GROUP_KIND, a, Math.imul(b, 31) + copy, this.spec.bits);
        if (!seen.has(index)) {
          seen.add(index);
          extra.push(index);
        }
      }
    };
    for (const [at, word] of words.entries()) {
      if (!groupWords.has(word)) continue;
      add(GROUP, GROUP);
      add(at > 0 ? hashes[at - 1]! : EDGE, GROUP ^ 1);
      add(GROUP ^ 2, at + 1 < words.length ? hashes[at + 1]! : EDGE);
    }
    return appendFeatures(base, extra);
  }
}
