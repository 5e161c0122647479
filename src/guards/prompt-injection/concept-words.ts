import { namedFeature } from './hashed-features';

/**
 * Language-independent concept features of the direct detector (issue 15,
 * round 48): a jailbreak wrapper translated into another language is, to the
 * n-grams, unknown words. A few override concepts are found with small word
 * lists in about 20 Latin-script languages (written from general knowledge
 * of the languages, not from any dataset) and emitted as one named feature
 * per concept, the same feature for every language, so that the weight the
 * model learns from English attacks carries over to a translated one:
 *
 * - `concept:override`: a directive verb (ignore, forget, disregard, …)
 *   within 4 words of an instructions or rules word ("ignore previous
 *   instructions", "ignorez les consignes", "zignoruj poprzednie
 *   instrukcje", "injoro udhëzimet"; "ignore my earlier e-mail" is none).
 * - `concept:unrestricted`: a "without / no" word at most 2 words before a
 *   rules word ("without restrictions", "sin restricciones", "ohne Filter").
 * - `concept:devmode`: a developer word within 2 words of a mode word, or a
 *   compound of the two ("developer mode", "modo desarrollador",
 *   "Entwicklermodus").
 *
 * Folded text only (lower case, Latin diacritics removed: see
 * `foldForModel`), so the lists are written without diacritics. Words of
 * other scripts are not read. One pass over the words; a word is looked up
 * whole and by its first 3 to 14 letters (stems, marked `*` in the lists): a
 * fixed amount of work per word, linear time.
 */

/** Word roles. */
const DIRECTIVE = 1;
const INSTRUCTIONS = 4;
const LIMITS = 128;
const WITHOUT = 8;
const DEVELOPER = 16;
const MODE = 32;
const DEVMODE = 64;

/** Role lists: `*` marks a stem (matches every word that starts with it). */
const ROLE_WORDS: Array<[number, string]> = [
  [
    DIRECTIVE,
    // en
    'ignore ignoring disregard forget bypass override ' +
      // fr es pt it ro (ignor*), de nl pl cs sk
      'ignor* oublie* oubliez contourne* olvida* olvidar omite omitir descarta* esqueca esquece* ' +
      'desconsidera* dimentica* uita* uitati ignoriere* vergiss vergessen negeer vergeet ' +
      'zignoruj zapomnij zapomen* ' +
      // tr sq ga gd zu sw id ms hu
      'yoksay unut gormezden injoro* harro shperfill* neamhaird dearmad diochuimhn* ziba ' +
      'zibe puuza sahau abaikan lupakan figyelmen',
  ],
  [
    INSTRUCTIONS,
    'instructions instruction directives guidelines ' +
      'consigne* instruccion* indicaciones directriz directrices instruc* diretriz* ' +
      'istruzion* instructiun* anweisung* vorgaben instructies instrukcj* instrukc* pokyn* ' +
      'talimat* udhezim* treoir* treoracha stiuiridh* imiyalelo umyalelo iziyalezo ' +
      'maagizo maelekezo instruksi arahan utasitas*',
  ],
  [
    LIMITS,
    'rules restrictions limitations limits filters censorship safeguards guardrails ' +
      'regle* restriction* filtre* censure regla* restriccion* filtro* censura regra* ' +
      'restric* regol* restrizion* limitazion* reguli* restrictii* limitari* regeln ' +
      'einschrankung* beschrankung* regels beperking* zasad* ograniczen* pravidl* omezen* ' +
      'kural* kisitlama* rregull* kufizim* rialacha srianta riaghailt* cuingealachadh ' +
      'imithetho imikhawulo sheria vikwazo vizuizi aturan peraturan batasan pembatasan ' +
      'szabaly* korlatoz*',
  ],
  [
    WITHOUT,
    'without no sans aucune aucun sin ningun ninguna sem nenhum nenhuma senza nessun nessuna ' +
      'fara ohne keine zonder geen bez olmadan pa gan gun ngaphandle bila tanpa nelkul',
  ],
  [
    DEVELOPER,
    'developer developers developpeur desarrollador desenvolvedor sviluppatore dezvoltator* ' +
      'entwickler ontwikkelaar* programist* dewelopersk* vyvojar* gelistirici zhvillues* ' +
      'forbroir* forbartha leasaiche* unjiniyela msanidi pengembang fejleszto*',
  ],
  [
    MODE,
    'mode modo modus modalita modalitatea modalitet* tryb trybie rezim* modu modul ' +
      'modh mod menyra hali',
  ],
  [DEVMODE, 'entwicklermodus ontwikkelaarsmodus ontwikkelmodus developermode devmode'],
];

/** FNV-1a step, as computed while the words are scanned. */
const step = (hash: number, code: number) => Math.imul(hash ^ code, 0x01000193);

function hashOf(word: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < word.length; index++) hash = step(hash, word.charCodeAt(index));
  return hash >>> 0;
}

/**
 * Listed whole words and stems by hash (a hit is confirmed against the
 * text), and a filter on the low 12 bits of a hash (bit 1: a whole word may
 * have it, bit 2: a stem), so that most words and prefixes cost one array read.
 */
const WHOLE = new Map<number, Array<{ word: string; roles: number }>>();
const STEMS = new Map<number, Array<{ word: string; roles: number }>>();
const FILTER = new Uint8Array(4096);
const STEM_MIN = 3;
const STEM_MAX = 14;
for (const [role, words] of ROLE_WORDS) {
  for (const listed of words.split(' ')) {
    if (listed === '') continue;
    const stem = listed.endsWith('*');
    const word = stem ? listed.slice(0, -1) : listed;
    if (stem && (word.length < STEM_MIN || word.length > STEM_MAX)) {
      throw new Error(`concept stem ${word}`);
    }
    const hash = hashOf(word);
    const map = stem ? STEMS : WHOLE;
    const entries = map.get(hash) ?? [];
    const entry = entries.find(other => other.word === word);
    if (entry) entry.roles |= role;
    else entries.push({ word, roles: role });
    map.set(hash, entries);
    FILTER[hash & 4095]! |= stem ? 2 : 1;
  }
}

/** Roles of `text[start, start + length)` listed in `map` under `hash`. */
function rolesAt(
  map: Map<number, Array<{ word: string; roles: number }>>,
  hash: number,
  text: string,
  start: number,
  length: number,
): number {
  const entries = map.get(hash >>> 0);
  if (!entries) return 0;
  let roles = 0;
  for (const entry of entries) {
    if (entry.word.length === length && text.startsWith(entry.word, start)) roles |= entry.roles;
  }
  return roles;
}

/** Longest word looked up (longer words have no role). */
const MAX_WORD = 24;

/** Concept names, in the order of their ids. */
export const CONCEPTS = ['override', 'unrestricted', 'devmode'] as const;

/** Words apart within which a directive and an instructions or rules word make an override. */
const OVERRIDE_NEAR = 4;
/** Words after a "without" word within which a rules word makes it unrestricted. */
const WITHOUT_NEAR = 2;
/** Words apart within which a developer and a mode word make developer mode. */
const MODE_NEAR = 2;

/**
 * Bit mask of the concepts (bit `i`: `CONCEPTS[i]`) in folded
 * `text[start, end)`. Words are runs of a–z.
 */
export function conceptMask(text: string, start: number, end: number): number {
  let mask = 0;
  // Word number of each role's last occurrence.
  let lastDirective = -100;
  let lastReference = -100;
  let lastWithout = -100;
  let lastDeveloper = -100;
  let lastMode = -100;
  let position = 0;
  let index = start;
  while (index < end && mask !== 7) {
    let code = text.charCodeAt(index);
    if (code < 97 || code > 122) {
      index++;
      continue;
    }
    // The word's hash, and the roles of its listed stems, as it is read.
    const wordStart = index;
    let hash = step(0x811c9dc5, code);
    let roles = 0;
    while (++index < end) {
      code = text.charCodeAt(index);
      if (code < 97 || code > 122) break;
      hash = step(hash, code);
      const length = index + 1 - wordStart;
      if (length >= STEM_MIN && length <= STEM_MAX && (FILTER[hash & 4095]! & 2) !== 0) {
        roles |= rolesAt(STEMS, hash, text, wordStart, length);
      }
    }
    const length = index - wordStart;
    if (length <= MAX_WORD) {
      if ((FILTER[hash & 4095]! & 1) !== 0) roles |= rolesAt(WHOLE, hash, text, wordStart, length);
      if (roles !== 0) {
        if ((roles & DIRECTIVE) !== 0) {
          if (position - lastReference <= OVERRIDE_NEAR) mask |= 1;
          lastDirective = position;
        }
        if ((roles & (INSTRUCTIONS | LIMITS)) !== 0) {
          if (position - lastDirective <= OVERRIDE_NEAR) mask |= 1;
          lastReference = position;
        }
        if ((roles & LIMITS) !== 0 && position - lastWithout <= WITHOUT_NEAR) mask |= 2;
        if ((roles & WITHOUT) !== 0) lastWithout = position;
        if ((roles & DEVMODE) !== 0) mask |= 4;
        if ((roles & DEVELOPER) !== 0) {
          if (position - lastMode <= MODE_NEAR) mask |= 4;
          lastDeveloper = position;
        }
        if ((roles & MODE) !== 0) {
          if (position - lastDeveloper <= MODE_NEAR) mask |= 4;
          lastMode = position;
        }
      }
    }
    position++;
  }
  return mask;
}

/** Names of the concepts of folded text (for tests and explanations). */
export function conceptNames(folded: string): string[] {
  const mask = conceptMask(folded, 0, folded.length);
  return CONCEPTS.filter((_, id) => (mask & (1 << id)) !== 0);
}

/** Hashed index of each concept feature (`CONCEPTS` order), by the model's bits. */
const indicesByBits: Int32Array[] = [];

/** The hashed indices of the concept features in a space of `2^bits` buckets. */
export function conceptIndices(bits: number): Int32Array {
  indicesByBits[bits] ??= Int32Array.from(CONCEPTS, name => namedFeature(`concept:${name}`, bits));
  return indicesByBits[bits];
}
