import { CONCEPTS, conceptIndices, conceptMask } from './concept-words';
import { CONTROL_MARKERS, controlMarkerIndices, controlMarkerMask } from './control-markers';
import { namedFeature } from './hashed-features';
import { type InjectionModelSpec, InjectionScorer } from './injection-model';

/**
 * Structure features of the direct detector: coarse slots found with small
 * word lists in the folded text (a directive verb, a reference to earlier
 * instructions, rules or safety, the system prompt, an extraction verb, a
 * persona set-up, rules switched off, a harmful topic), and their pairs —
 * both anywhere in the window and within a few words of each other. They
 * are hashed into the model's feature space as extra binary features, so
 * the model learns their weights beside the n-grams (no rule decides on its
 * own). One pass over the words: linear time.
 */

/** Slot of each listed word (folded text is lower case, leetspeak and homoglyphs folded). */
const SLOT_WORDS: Record<string, string> = {};
const lists: Record<string, string> = {
  directive:
    'ignore ignoring disregard forget overlook override bypass skip discard abandon dismiss neglect erase cancel drop circumvent unlearn',
  prior:
    'previous prior above earlier preceding initial original former aforementioned before everything',
  instructions:
    'instructions instruction directives directive guidance orders commands told instructed programming training context',
  rules:
    'rules rule guidelines guideline restrictions restriction policies policy filters filter safety censorship limitations limits ethics ethical moral morals guardrails constraints boundaries principles',
  system: 'system prompt prompts configuration config hidden secret internal confidential',
  extract: 'reveal print show output repeat display leak disclose dump expose recite share',
  persona:
    'pretend roleplay role character persona simulate simulation jailbreak jailbroken dan unfiltered uncensored unrestricted amoral',
  release: 'unlimited unrestricted uncensored unfiltered freed liberated unbound anything',
  harm: 'bomb explosive explosives weapon weapons meth methamphetamine cocaine heroin poison malware ransomware virus hack hacking kill murder steal phishing suicide terrorist',
};
for (const [slot, words] of Object.entries(lists)) {
  for (const word of words.split(' ')) SLOT_WORDS[word] ??= slot;
}
/** Two-word cues. */
const SLOT_PAIRS: Record<string, string> = {
  'act as': 'persona',
  'you are': 'persona',
  'from now': 'persona',
  'now on': 'persona',
  'no longer': 'release',
  'no restrictions': 'release',
  'without any': 'release',
  'do anything': 'release',
  'developer mode': 'persona',
  'new instructions': 'directive',
  'system prompt': 'system',
};

const SLOTS = Object.keys(lists);
const K = SLOTS.length;
/** Number of slots (exported for the differential test, fast-paths.test.ts). */
export const SLOT_COUNT = K;

/** FNV-1a of a word, as computed while the words are scanned. */
function wordHash(word: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < word.length; index++) {
    hash = Math.imul(hash ^ word.charCodeAt(index), 0x01000193);
  }
  return hash >>> 0;
}

/** Hash of two words in a row, from their word hashes. */
export function pairHash(first: number, second: number): number {
  return (Math.imul(first ^ 0x5bd1e995, 0x01000193) ^ second) >>> 0;
}

/** Listed words by hash (a hit is confirmed against the text). */
export const WORD_SLOTS = new Map<number, { word: string; slot: number }>(
  Object.entries(SLOT_WORDS).map(([word, slot]) => [
    wordHash(word),
    { word, slot: SLOTS.indexOf(slot) },
  ]),
);
export const PAIR_SLOTS = new Map<number, { first: string; second: string; slot: number }>(
  Object.entries(SLOT_PAIRS).map(([pair, slot]) => {
    const [first, second] = pair.split(' ') as [string, string];
    return [
      pairHash(wordHash(first), wordHash(second)),
      { first, second, slot: SLOTS.indexOf(slot) },
    ];
  }),
);
/**
 * A filter on the low 12 bits of a word's hash, so that most words cost one
 * array read: bit 1, a listed word may have this hash; bit 2, the first
 * word of a listed pair; bit 4, the second word of one.
 */
export const FILTER = new Uint8Array(4096);
for (const word of Object.keys(SLOT_WORDS)) FILTER[wordHash(word) & 4095]! |= 1;
for (const pair of Object.keys(SLOT_PAIRS)) {
  const [first, second] = pair.split(' ') as [string, string];
  FILTER[wordHash(first) & 4095]! |= 2;
  FILTER[wordHash(second) & 4095]! |= 4;
}

/** Words apart within which two slots count as near. */
export const NEAR = 6;

/**
 * Feature names by id: `id < K` is slot `id` itself; `K + a*K + b` (a < b)
 * both slots anywhere in the window; `K + K*K + a*K + b` the two within
 * `NEAR` words.
 */
const FEATURE_NAMES: string[] = [];
for (let a = 0; a < K; a++) FEATURE_NAMES[a] = `slot:${SLOTS[a]}`;
for (let a = 0; a < K; a++) {
  for (let b = a + 1; b < K; b++) {
    FEATURE_NAMES[K + a * K + b] = `slot-any:${SLOTS[a]}+${SLOTS[b]}`;
    FEATURE_NAMES[K + K * K + a * K + b] = `slot-near:${SLOTS[a]}+${SLOTS[b]}`;
  }
}

/** Scratch of `scanSlots` (slot numbers and flags, no text; scanning is synchronous). */
const slotLast = new Int32Array(K);
const slotSeen = new Uint8Array(K + 2 * K * K);

/**
 * Calls `emit(id)` (see `FEATURE_NAMES`) once for each slot feature of
 * folded `text[start, end)`, in the order first found. One pass over the
 * words, a fixed amount of work per word.
 */
function scanSlots(text: string, start: number, end: number, emit: (id: number) => void): void {
  // Word number of each slot's last occurrence; -1: not seen.
  const last = slotLast.fill(-1);
  const seen = slotSeen.fill(0);
  const add = (id: number) => {
    if (seen[id] === 1) return;
    seen[id] = 1;
    emit(id);
  };
  const mark = (slot: number, position: number) => {
    for (let other = 0; other < K; other++) {
      if (other === slot || last[other]! < 0) continue;
      const pair = slot < other ? slot * K + other : other * K + slot;
      add(K + pair);
      if (position - last[other]! <= NEAR) add(K + K * K + pair);
    }
    if (last[slot]! < 0) add(slot);
    last[slot] = position;
  };
  // The previous word (start and hash), if it was short enough to be listed.
  let previousStart = -1;
  let previousEnd = -1;
  let previousHash = 0;
  let position = 0;
  let index = start;
  // (No read past `end`: `charCodeAt` past the string would give NaN and
  // slow every comparison of the loop.)
  while (index < end) {
    let code = text.charCodeAt(index);
    if (code < 97 || code > 122) {
      index++;
      continue;
    }
    const wordStart = index;
    let hash = 0x811c9dc5;
    while (true) {
      hash = Math.imul(hash ^ code, 0x01000193);
      if (++index === end) break;
      code = text.charCodeAt(index);
      if (code < 97 || code > 122) break;
    }
    hash >>>= 0;
    const length = index - wordStart;
    // Words longer than any listed one are neither a slot nor half of a pair.
    if (length <= 16) {
      const filter = FILTER[hash & 4095]!;
      const entry = (filter & 1) !== 0 ? WORD_SLOTS.get(hash) : undefined;
      if (entry && entry.word.length === length && text.startsWith(entry.word, wordStart)) {
        mark(entry.slot, position);
      }
      if ((filter & 4) !== 0 && previousStart >= 0 && (FILTER[previousHash & 4095]! & 2) !== 0) {
        const pair = PAIR_SLOTS.get(pairHash(previousHash, hash));
        if (
          pair &&
          pair.first.length === previousEnd - previousStart &&
          pair.second.length === length &&
          text.startsWith(pair.first, previousStart) &&
          text.startsWith(pair.second, wordStart)
        ) {
          mark(pair.slot, position);
        }
      }
      previousStart = wordStart;
      previousEnd = index;
      previousHash = hash;
    } else {
      previousStart = -1;
    }
    position++;
  }
}

/** Ids of the slot features of folded `text[start, end)` in the order found (for the differential test). */
export function slotFeatureIds(text: string, start: number, end: number): number[] {
  const ids: number[] = [];
  scanSlots(text, start, end, id => ids.push(id));
  return ids;
}

/** The slot features of folded text, by name (for tests and explanations). */
export function slotFeatureNames(folded: string): string[] {
  const names: string[] = [];
  scanSlots(folded, 0, folded.length, id => names.push(FEATURE_NAMES[id]!));
  return names;
}

const indexCache = new Map<number, Int32Array>();

/**
 * Writes the hashed indices of the slot features of folded
 * `text[start, end)` into `out` from `at`; returns the new end.
 */
export function collectSlotFeatures(
  text: string,
  start: number,
  end: number,
  bits: number,
  out: Int32Array,
  at: number,
): number {
  let indices = indexCache.get(bits);
  if (!indices) {
    indices = new Int32Array(FEATURE_NAMES.length);
    for (const [id, name] of FEATURE_NAMES.entries()) {
      if (name !== undefined) indices[id] = namedFeature(name, bits);
    }
    indexCache.set(bits, indices);
  }
  let count = at;
  scanSlots(text, start, end, id => {
    out[count++] = indices[id]!;
  });
  return count;
}

/** Most slot features of one window. */
export const MAX_SLOT_FEATURES = 9 + 2 * 36;

/** The linear detector with the slot features added to each window's n-grams. */
export class SlotInjectionScorer extends InjectionScorer {
  #buffer = new Int32Array(1024);

  readonly #repeat: number;

  /** `repeat`: each slot feature is listed that many times (its input weighs `repeat` n-grams). */
  constructor(spec: InjectionModelSpec, repeat = 1) {
    super(spec);
    this.#repeat = repeat;
  }

  override features(text: string, start: number, end: number): Int32Array {
    const base = super.features(text, start, end);
    const needed =
      base.length + (MAX_SLOT_FEATURES + CONCEPTS.length + CONTROL_MARKERS.length) * this.#repeat;
    if (this.#buffer.length < needed) this.#buffer = new Int32Array(needed * 2);
    this.#buffer.set(base);
    const count = collectSlotFeatures(text, start, end, this.spec.bits, this.#buffer, base.length);
    let at = count;
    for (let copy = 1; copy < this.#repeat; copy++) {
      for (let index = base.length; index < count; index++)
        this.#buffer[at++] = this.#buffer[index]!;
    }
    // Round 48: the concept features (concept-words.ts); round 49 (hF): the
    // fake control markers (control-markers.ts); each listed as often.
    for (const family of MASKED_FAMILIES) {
      if (!this.spec[family.flag]) continue;
      const mask = family.mask(text, start, end);
      at = appendMasked(mask, family.indices(this.spec.bits), this.#repeat, this.#buffer, at);
    }
    return this.#buffer.subarray(0, at);
  }
}

/** Feature families found as a bit mask per window, each behind its spec flag. */
const MASKED_FAMILIES = [
  { flag: 'conceptFeatures', mask: conceptMask, indices: conceptIndices },
  { flag: 'controlMarkers', mask: controlMarkerMask, indices: controlMarkerIndices },
] as const;

/** Writes `indices[id]` `repeat` times into `out` from `at` for each bit `id` set in `mask`; returns the new end. */
function appendMasked(
  mask: number,
  indices: Int32Array,
  repeat: number,
  out: Int32Array,
  at: number,
): number {
  let count = at;
  for (let id = 0; mask !== 0 && id < indices.length; id++) {
    if ((mask & (1 << id)) === 0) continue;
    for (let copy = 0; copy < repeat; copy++) out[count++] = indices[id]!;
  }
  return count;
}
