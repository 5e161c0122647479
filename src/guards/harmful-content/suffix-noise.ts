import { dominantScript } from './script';

/**
 * Suffix noise: optimised adversarial suffixes (GCG, random search) append
 * dozens of junk tokens (`comenzó -> bry----- dns erhielt zob … ('/acu라`)
 * to a harmful request. Each adds n-grams the model has never seen, and
 * with the 1/√n scaling of the hashed features they dilute the request's
 * score. The second reading scores the text before its noisy tail; the
 * text's score is the higher of the two readings.
 *
 * A token (a whitespace-separated word of folded text) is noise when it
 * holds a code-like symbol (brackets, slashes, `=`, `<`, `>`, `_`, …), mixes
 * Latin letters with another script, or, in a mostly Latin text, is in
 * another script. The tail starts at the first noise token after which at
 * least `TAIL_NOISE` tokens, and at least `TAIL_SHARE` of the tokens, are
 * noise. Dropping only the noise tokens leaves most of a suffix (its tokens
 * are mostly fragments of real words: `dns erhielt zob requested`), so the
 * whole tail goes.
 *
 * The character language model of the injection detector was tried first:
 * per-token surprisal does not tell these fragments (2.3–3.3 nats per
 * letter) from English words (1.2–3.5) or tool names (nginx 4.1, ffmpeg
 * 4.5), so it is not used. Linear: one pass over the text and one over its
 * tokens.
 */

/** Fewest noise tokens in a noisy tail. */
export const TAIL_NOISE = 3;
/** Smallest share of noise tokens in a noisy tail. */
export const TAIL_SHARE = 0.15;
/** Fewest tokens before the tail for the second reading. */
export const MIN_HEAD_TOKENS = 3;

/** Code-like symbols (ASCII): not sentence punctuation, apostrophes, hyphens or parentheses. */
const symbol = new Uint8Array(128);
for (const ch of '[]{}<>/\\=|^`~@#$%&*+_;') symbol[ch.charCodeAt(0)] = 1;

/** Any UTF-16 unit from U+0370 on (a cheap pre-check: letters of other scripts are among them). */
const otherScriptUnit = /[\u0370-\uffff]/;

function isLatinLetter(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 0xc0 && code < 0x250 && code !== 0xd7 && code !== 0xf7) ||
    (code >= 0x1e00 && code <= 0x1eff)
  );
}

/** A letter of another script (not Latin, not the punctuation and symbol blocks). */
function isOtherLetter(code: number): boolean {
  return (
    code >= 0x370 && !(code >= 0x1e00 && code <= 0x1eff) && !(code >= 0x2000 && code <= 0x2bff)
  );
}

/**
 * Offset in `folded` where its noisy tail starts, or -1 when it has none
 * (or fewer than `MIN_HEAD_TOKENS` tokens before it). With `symbols` false,
 * only script mixing makes a token noise (code-like symbols do not).
 */
export function noisyTailStart(folded: string, symbols = true): number {
  // Without symbols only letters of another script make noise: none past U+036F, no tail.
  if (!symbols && !otherScriptUnit.test(folded)) return -1;
  const starts: number[] = [];
  /** Bits per token: 1 symbol, 2 Latin letter, 4 letter of another script. */
  const kinds: number[] = [];
  let anyOther = false;
  let index = 0;
  const length = folded.length;
  while (index < length) {
    while (index < length && folded.charCodeAt(index) <= 32) index++;
    if (index >= length) break;
    const start = index;
    let hasSymbol = false;
    let latin = false;
    let other = false;
    while (index < length && folded.charCodeAt(index) > 32) {
      const code = folded.charCodeAt(index);
      if (symbols && code < 128 && symbol[code] === 1) hasSymbol = true;
      if (isLatinLetter(code)) latin = true;
      else if (isOtherLetter(code)) other = true;
      index++;
    }
    starts.push(start);
    kinds.push((hasSymbol ? 1 : 0) | (latin ? 2 : 0) | (other ? 4 : 0));
    if (other) anyOther = true;
  }
  // The text's script only matters when some token has letters of another script.
  const latinText = anyOther && dominantScript(folded) === 'latin';
  const noise = kinds.map(kind =>
    (kind & 1) !== 0 || (kind & 6) === 6 || (latinText && (kind & 4) !== 0) ? 1 : 0,
  );
  // From the end: noise tokens in the suffix starting at each token; the
  // earliest qualifying noise token (after the head) starts the tail.
  let tailNoise = 0;
  let cut = -1;
  for (let at = noise.length - 1; at >= MIN_HEAD_TOKENS; at--) {
    tailNoise += noise[at]!;
    const tokens = noise.length - at;
    if (noise[at] === 1 && tailNoise >= TAIL_NOISE && tailNoise >= TAIL_SHARE * tokens) {
      cut = starts[at]!;
    }
  }
  return cut;
}
