import { Flag, type Scanned } from './features';

/**
 * Words that are never a whole entity on their own: a span of one token
 * that is one of these is dropped, and a PERSON span loses a greeting it
 * starts with ("Hi Freddy" -> "Freddy"). Fixed lists of whole categories
 * (docs/pii-ner-model.md), not words picked from the evaluation data.
 */

/** Greetings and salutations written before a name. */
export const greetingWords: ReadonlySet<string> = new Set([
  'hi',
  'hello',
  'hey',
  'dear',
  'greetings',
]);

/** English weekday names. */
const weekdays = 'monday tuesday wednesday thursday friday saturday sunday';

/**
 * English month names (round 38): `the March deadline`, `in July` were read
 * as a person or a place. `April`, `June`, `May` alone are names too: a
 * one-word mention of one is dropped (`April Jones` is kept).
 */
const months =
  'january february march april may june july august september october november december';

/**
 * English names of the ISO 639-1 languages that are one word (CLDR, read
 * with `new Intl.DisplayNames(['en'], { type: 'language' })` on Node 20),
 * less those in the first-names list of the trainer (`welsh`). Most double
 * as nationality adjectives ("English", "Danish", "German").
 */
const languages = `
  abkhazian afar afrikaans akan albanian amharic arabic aragonese armenian assamese avaric
  avestan aymara azerbaijani bambara bangla bashkir basque belarusian bhojpuri bislama bosnian
  breton bulgarian burmese catalan chamorro chechen chinese chuvash cornish corsican cree
  croatian czech danish divehi dutch dzongkha english esperanto estonian ewe faroese fijian
  filipino finnish french fula galician ganda georgian german greek guarani gujarati hausa
  hebrew herero hindi hungarian icelandic ido igbo indonesian interlingua interlingue
  inuktitut inupiaq irish italian japanese javanese kalaallisut kannada kanuri kashmiri kazakh
  khmer kikuyu kinyarwanda komi kongo korean kuanyama kurdish kyrgyz lao latin latvian
  limburgish lingala lithuanian luxembourgish macedonian malagasy malay malayalam maltese manx
  marathi marshallese mongolian nauru navajo ndonga nepali norwegian nyanja occitan odia
  ojibwa oromo ossetic pali pashto persian polish portuguese punjabi quechua romanian romansh
  rundi russian samoan sango sanskrit sardinian serbian shona sindhi sinhala slovak slovenian
  somali spanish sundanese swahili swati swedish tahitian tajik tamil tatar telugu thai
  tibetan tigrinya tongan tsonga tswana turkish turkmen ukrainian urdu uyghur uzbek venda
  vietnamese walloon wolof xhosa yiddish yoruba zhuang zulu
`;

/** Lower-case words that are never a one-token entity: weekdays, months, languages, greetings. */
export const notEntityWords: ReadonlySet<string> = new Set(
  `${weekdays} ${months} ${languages} ${[...greetingWords].join(' ')}`.split(/\s+/).filter(Boolean),
);

/** Words that follow a verb, never a name: articles, possessives, object pronouns, particles. */
const objectWords: ReadonlySet<string> = new Set(
  'the a an my your our their his her its this that these those me him them us it up down out off'.split(
    ' ',
  ),
);

/**
 * Whether token `index` starts a sentence and an object follows it (`Sue
 * the landlord`, `Pat the dough`, `Jack up the car`, `Bill me later`): an
 * imperative verb, not a name, though the name lists hold it. A name
 * before such a word would be a subject before its verb.
 */
export function isImperative(scanned: Scanned, index: number): boolean {
  const next = index + 1;
  if ((scanned.flags[index]! & Flag.SentenceStart) === 0 || next >= scanned.count) return false;
  if ((scanned.flags[next]! & Flag.Lower) === 0 || scanned.newline[next] !== 0) return false;
  return objectWords.has(scanned.words.lower[scanned.word[next]!]!);
}
