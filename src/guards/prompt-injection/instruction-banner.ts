/**
 * A forged "new important instructions" banner (issue 15, round 51 hA): a
 * line that is only a run of banner characters (`*`, `#`, `=`, `%`, `~`),
 * the words "new important instructions" in some language, and another run:
 * `*** NEW IMPORTANT INSTRUCTIONS ***`, `***IMPORTANT NEW INSTRUCTIONS***`,
 * `### Nuevas instrucciones importantes ###`. The banner is a known
 * injection form (the "NEW IMPORTANT INSTRUCTIONS" banner of published
 * indirect-injection demonstrations, 2023), written here as a kind: the
 * three concepts in about twenty languages, from general knowledge.
 *
 * Narrow on purpose: an ordinary message may open with `=== New
 * instructions ===`, `*** NEW INSTRUCTIONS FOR THE OFFICE KITCHEN ***` or
 * `### Istruzioni importanti ###` (a notice pasted to be translated or
 * rewritten). The banner's words must name instructions, say they are new
 * AND important, and hold nothing else (no topic, no owner, no `for …`);
 * only a few particles (`të`, `e`, `and`, `&`) may join them.
 *
 * One pass over the text's lines; a line is judged only when it opens and
 * ends with two or more banner characters and is at most
 * `MAX_BANNER_LENGTH` characters long. The text is read as written (lower
 * case only): linear, no RegExp over the text.
 */

/*
 * KEEP-RULE (round 51 hJ, committed before the deciding evaluation): the
 * rule narrowed to a banner followed by an order aimed at the assistant's
 * own output or behaviour is kept iff, by the floor method on hA's left-out
 * score file (/tmp/hA-scores.jsonl at each row's fold threshold, as hA
 * measured it): one attack source gains >= 0.02, none loses > 0.01; every
 * benign source's FPR within +0.005 (the benign screen: the rule fires on
 * <= 0.5% of each benign source's rows, <= 1 under 200); ordinary chat
 * (synthetic) <= 0.042; decoding requests <= 12 of 200; look-alikes <= 16 of
 * 1,242; 0 of test/fixtures/r51-hJ-banner-ordinary.jsonl (45 rows, committed
 * in fa8d6539 before the rule ran on them) and <= 1 of hA's 50
 * (r51-hA-banner-ordinary.jsonl; its 2 firing rows are in sample for hJ)
 * newly blocked by scorePromptInjection with the rule on.
 */

/**
 * Whether `scorePromptInjection` applies the rule (direct mode). On since
 * round 51 hJ (the banner followed by an order to the assistant passed its
 * keep rule; hA's banner-only reading did not); the trainer reads it by
 * default (`INSTRUCTION_BANNER=0` without it).
 */
export const INSTRUCTION_BANNER_ON = true;

/** Signal id in `scorePromptInjection`'s signals (when the rule is on). */
export const INSTRUCTION_BANNER_SIGNAL = 'instruction-banner';

/** Probability a direct-mode text with the banner gets: over every threshold the trainer picks. */
export const INSTRUCTION_BANNER_PROBABILITY = 0.99;

/** Longest line judged as a banner (characters, delimiters included). */
export const MAX_BANNER_LENGTH = 120;

const BANNER_CHARACTERS = new Set(['*', '#', '=', '%', '~']);

/** "instructions" (en, fr, es, pt, it, de, nl, pl, cs, sk, tr, sq, ga, gd, zu, xh, sw, id, ms, hu, ro, sv, da, no, fi, af). */
const INSTRUCTION_WORDS = new Set([
  'instructions',
  'instruction',
  'consignes',
  'instrucciones',
  'instruções',
  'instrucoes',
  'istruzioni',
  'anweisungen',
  'instruktionen',
  'instructies',
  'instrukcje',
  'polecenia',
  'pokyny',
  'instrukce',
  'talimatlar',
  'talimatları',
  'udhëzime',
  'udhëzimet',
  'udhezime',
  'treoracha',
  'treoir',
  'stiùireadh',
  'stiùiridhean',
  'stiuireadh',
  'imiyalelo',
  'iziyalezo',
  'imiyalezo',
  'maagizo',
  'maelekezo',
  'instruksi',
  'arahan',
  'utasítások',
  'utasítás',
  'instrucțiuni',
  'instrucţiuni',
  'instructiuni',
  'instruktioner',
  'instruksjoner',
  'ohjeet',
  'ohjeita',
  'instruksies',
]);

/** "new". */
const NEW_WORDS = new Set([
  'new',
  'nouvelles',
  'nouvelle',
  'nouveaux',
  'nouveau',
  'nuevas',
  'nuevos',
  'novas',
  'novos',
  'nuove',
  'nuovi',
  'neue',
  'neuen',
  'nieuwe',
  'nowe',
  'nové',
  'yeni',
  'reja',
  'nua',
  'ùr',
  'ùra',
  'ur',
  'emisha',
  'ezintsha',
  'mapya',
  'baru',
  'új',
  'noi',
  'nya',
  'nye',
  'uudet',
  'uusia',
  'nuwe',
]);

/** "important". */
const IMPORTANT_WORDS = new Set([
  'important',
  'importantes',
  'importante',
  'importanti',
  'wichtige',
  'wichtigen',
  'belangrijke',
  'ważne',
  'důležité',
  'dôležité',
  'önemli',
  'rëndësishme',
  'rendesishme',
  'tábhachtacha',
  'thábhachtacha',
  'tabhachtacha',
  'cudromach',
  'chudromach',
  'ebalulekile',
  'ezibalulekile',
  'muhimu',
  'penting',
  'fontos',
  'viktiga',
  'vigtige',
  'viktige',
  'tärkeät',
  'tärkeitä',
  'belangrike',
]);

/** Words that may join the three. */
const PARTICLES = new Set(['të', 'e', 'and', '&', 'und', 'et', 'y', 'i', 'en', 'ja', 'och', 'og']);

/** Longest stretch after a banner read for an order to the assistant (characters). */
export const MAX_ORDER_WINDOW = 300;

/**
 * Phrases (lower case, read as written) of an order aimed at the
 * assistant's own output or behaviour (round 51 hJ): "in / at the end of
 * your response", the prompt "you were given", "your system prompt"; in
 * English, and informal second person in the languages of the banner
 * lexicon (a notice to its readers uses the formal `votre`, `su`, `Ihrer`,
 * and "reply to HR", "respond within", "include your number": verbs and
 * nouns without the assistant's own response, which do not count).
 */
const ORDER_PHRASES = [
  // en
  'in your response',
  'of your response',
  'to your response',
  'in your answer',
  'of your answer',
  'in your output',
  'of your output',
  'you were given',
  'your system prompt',
  'your initial prompt',
  'the words above',
  'output your',
  // sq (Albanian)
  'përgjigjen tënde',
  'përgjigjes tënde',
  'pergjigjen tende',
  'të është dhënë',
  'tënde të sistemit',
  'id-në tënde',
  // ga (Irish), gd (Scottish Gaelic)
  'do fhreagra',
  'do fhreagairt',
  'fhreagairt agad',
  'a fhuair thu',
  // zu, xh
  'mpendulweni yakho',
  'mpendulo yakho',
  'mpempendulo yakho',
  'owawunikezwa',
  'wesistimu yakho',
  'wakho wesistimu',
  // fr, es, it, de, pt, nl, pl (informal)
  'dans ta réponse',
  'de ta réponse',
  'en tu respuesta',
  'de tu respuesta',
  'nella tua risposta',
  'della tua risposta',
  'in deiner antwort',
  'deiner antwort',
  'na tua resposta',
  'da tua resposta',
  'in je antwoord',
  'van je antwoord',
  'w twojej odpowiedzi',
  'w swojej odpowiedzi',
];

/**
 * Whether `text` carries a new-important-instructions banner line followed,
 * within `MAX_ORDER_WINDOW` characters, by an order to the assistant
 * (`ORDER_PHRASES`). The banner alone is what a pasted notice has too
 * (round 51 hA: 2 of 50 ordinary first turns).
 */
export function hasInstructionBanner(text: string): boolean {
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (
      end - start <= MAX_BANNER_LENGTH + 16 &&
      isBannerLine(text.slice(start, end)) &&
      ordersAssistant(text.slice(end, end + MAX_ORDER_WINDOW).toLowerCase())
    )
      return true;
    start = end + 1;
  }
  return false;
}

function ordersAssistant(window: string): boolean {
  for (const phrase of ORDER_PHRASES) if (window.includes(phrase)) return true;
  return false;
}

function isBannerLine(raw: string): boolean {
  const line = raw.trim();
  if (line.length < 8 || line.length > MAX_BANNER_LENGTH) return false;
  let open = 0;
  while (open < line.length && BANNER_CHARACTERS.has(line[open]!)) open++;
  if (open < 2) return false;
  let close = line.length;
  while (close > open && BANNER_CHARACTERS.has(line[close - 1]!)) close--;
  if (line.length - close < 2) return false;
  const words = line
    .slice(open, close)
    .toLowerCase()
    .split(/[\s:!.,\-–—]+/u)
    .filter(word => word !== '');
  let instructions = false;
  let fresh = false;
  let important = false;
  for (const word of words) {
    if (INSTRUCTION_WORDS.has(word)) instructions = true;
    else if (NEW_WORDS.has(word)) fresh = true;
    else if (IMPORTANT_WORDS.has(word)) important = true;
    else if (!PARTICLES.has(word)) return false;
  }
  return instructions && fresh && important;
}
