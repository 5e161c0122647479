/**
 * Proper-noun statistics for the tagger from unlabelled text (training time
 * only; the model ships one byte per word): for each word of the cluster
 * table (`clusters.ts`), counted over the same texts (English prose and the
 * benign prompts), how often prose writes it capitalised when it does not
 * start a sentence, how often it stands where names stand (capitalised
 * right after a title or a first name, or capitalised mid-sentence right
 * before a verb of speech) and where places stand (capitalised
 * mid-sentence right after `in`, `at`, `from`, …). Each share is bucketed
 * (`WordStatistics` in src/guards/pii/ner/features.ts holds the layout).
 * No label, no dev row and no list from the labelled data goes in; the
 * cue words and bucket bounds were written down before any measurement.
 * Deterministic: counts in text order.
 */
import {
  type BloomFilter,
  hashString,
  tokenBounds,
  type WordClusters,
  WordStatistics,
} from '../../../src/guards/pii/ner/features';

/** Words before a name. */
const titles = new Set(
  `mr mrs ms miss mx dr prof sir madam dame lord lady herr frau señor señora monsieur madame mme
  mlle signor signora don doña uncle aunt captain capt colonel general president king queen prince
  princess father mother brother sister cousin saint professor doctor`.split(/\s+/),
);

/** Verbs of speech after a name. */
const speech = new Set(
  `said says say asked asks replied replies answered answers cried exclaimed whispered told tells
  wrote writes added continued shouted muttered observed remarked smiled laughed nodded`.split(
    /\s+/,
  ),
);

/** Words before a place. */
const placeCues = new Set('in at from near to towards across via outside inside'.split(/\s+/));

/** Bucket of the share written capitalised mid-sentence: 1 never seen mid-sentence, 2-7 by share. */
function caseBucket(capitalised: number, mid: number): number {
  if (mid === 0) return 1;
  const share = capitalised / mid;
  return share < 0.02
    ? 2
    : share < 0.1
      ? 3
      : share < 0.3
        ? 4
        : share < 0.7
          ? 5
          : share < 0.95
            ? 6
            : 7;
}

/** Bucket of a context share: 0 never, 1 < 1%, 2 < 5%, 3 more. */
function cueBucket(hits: number, total: number): number {
  if (hits === 0) return 0;
  const share = hits / total;
  return share < 0.01 ? 1 : share < 0.05 ? 2 : 3;
}

/** The statistics of the cluster table's words over `texts`; `firstNames` marks a first name before a name. */
export function buildProperNouns(
  texts: readonly string[],
  clusters: WordClusters,
  firstNames: BloomFilter,
): WordStatistics {
  const size = clusters.hashes.length;
  const indexOf = new Map<number, number>();
  clusters.hashes.forEach((hash, index) => {
    indexOf.set(hash, index);
  });
  const total = new Int32Array(size);
  const mid = new Int32Array(size);
  const capitalisedMid = new Int32Array(size);
  const nameCue = new Int32Array(size);
  const placeCue = new Int32Array(size);
  for (const text of texts) {
    const bounds = tokenBounds(text);
    let previousLower = '';
    let previousCapital = false;
    let previousStart = true;
    let pending = -1; // a capitalised mid-sentence word waiting for a verb of speech after it
    for (let index = 0; index < bounds.count; index++) {
      const start = bounds.start[index]!;
      const raw = text.slice(start, Math.min(bounds.end[index]!, start + 40));
      const lower = raw.toLowerCase();
      const first = raw[0]!;
      const capital = first !== first.toLowerCase();
      const before = index > 0 ? text.charCodeAt(bounds.start[index - 1]!) : 46;
      const sentenceStart =
        bounds.newline[index] === 1 || before === 46 || before === 33 || before === 63;
      if (pending >= 0 && speech.has(lower)) nameCue[pending]! += 1;
      pending = -1;
      const word = indexOf.get(hashString(lower));
      if (word !== undefined) {
        total[word]! += 1;
        if (!sentenceStart) {
          mid[word]! += 1;
          if (capital) capitalisedMid[word]! += 1;
        }
        if (capital) {
          if (
            titles.has(previousLower) ||
            (previousCapital && !previousStart && firstNames.has(previousLower))
          )
            nameCue[word]! += 1;
          else if (!sentenceStart) pending = word;
          if (!sentenceStart && placeCues.has(previousLower)) placeCue[word]! += 1;
        }
      }
      previousLower = lower;
      previousCapital = capital;
      previousStart = sentenceStart;
    }
  }
  const values = new Uint8Array(size);
  for (let word = 0; word < size; word++) {
    values[word] =
      caseBucket(capitalisedMid[word]!, mid[word]!) |
      (cueBucket(nameCue[word]!, total[word]!) << 3) |
      (cueBucket(placeCue[word]!, total[word]!) << 5);
  }
  return new WordStatistics(clusters.hashes, values);
}
