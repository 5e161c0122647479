import { dominantScript } from '../harmful-content/script';

/**
 * The adversarial-suffix gate (issue 15, round 44): does a text carry an
 * optimised suffix (GCG, random search), told by the shape of its tokens
 * rather than by an English character model, so that natural text in any
 * language passes? Round 43's gate (a window of the character model at
 * 2.5 nats/char or more) let through a third of XQuAD's and GPTeacher's
 * benign paragraphs: other Latin-script languages read as gibberish to an
 * English model.
 *
 * A token (a whitespace-separated word of folded text) is odd when it mixes
 * letters of the Latin script with letters of another script inside the
 * token (`годиultatslass`, `aboutFloat時`, `heartали`) in a text mostly in
 * Latin letters, or is a lone `!` (GCG's initial suffix is twenty of them,
 * and what the search leaves of it; since round 46 a lone `!` counts only
 * in a window that also holds a mixed token, `SUFFIX_BANG_NEEDS_MIXED`).
 * Natural text in another script, or a
 * Latin text quoting one, keeps its scripts in separate tokens; emoji,
 * symbols and punctuation are not letters. The gate opens at the first odd
 * token of the first run of `SUFFIX_WINDOW` tokens holding at least
 * `SUFFIX_ODD` odd tokens. Both numbers were set by a screen on the corpora
 * (every source seen; see the model card's round-44 entry), not fitted to
 * rows. One pass over the text: linear.
 */

/** Tokens per window of the gate. */
export const SUFFIX_WINDOW = 10;
/** Fewest odd tokens in a window that opens the gate. */
export const SUFFIX_ODD = 3;

/** 1 for a Latin letter, 2 for a letter of another script, 0 for anything else. */
function letterKind(code: number): 0 | 1 | 2 {
  if (code < 0x80) return (code | 32) >= 97 && (code | 32) <= 122 ? 1 : 0;
  if (code < 0x250) return code >= 0xc0 && code !== 0xd7 && code !== 0xf7 ? 1 : 0;
  if (code >= 0x1e00 && code <= 0x1eff) return 1;
  // Combining marks, punctuation and symbol blocks, surrogates (emoji), specials: not letters.
  if (code < 0x370) return 0;
  if (code >= 0x2000 && code <= 0x33ff) return 0;
  if (code >= 0xd800 && code <= 0xdfff) return 0;
  if (code >= 0xfe00) return 0;
  return 2;
}

/**
 * Round 51 (hC, issue 15): a bit for the script group of a letter of another
 * script than Latin (`letterKind` 2), so a window can count how many
 * scripts its odd tokens draw on. Greek, Cyrillic, Armenian, Hebrew, Arabic,
 * Devanagari / Bengali, Thai, Georgian, Hangul and CJK (Han with kana) each
 * have one bit; any other block of 256 code points one of 16 more bits.
 */
function scriptBit(code: number): number {
  if (code < 0x400) return 1 << 1;
  if (code < 0x530) return 1 << 2;
  if (code < 0x590) return 1 << 3;
  if (code < 0x600) return 1 << 4;
  if (code < 0x780 || (code >= 0xfb50 && code <= 0xfdff)) return 1 << 5;
  if (code >= 0x900 && code < 0xa00) return 1 << 6;
  if (code >= 0xe00 && code < 0xe80) return 1 << 7;
  if (code >= 0x10a0 && code < 0x1100) return 1 << 8;
  if ((code >= 0xac00 && code <= 0xd7af) || (code >= 0x1100 && code < 0x1200)) return 1 << 9;
  if ((code >= 0x3400 && code <= 0x9fff) || (code >= 0x3040 && code < 0x3100)) return 1 << 10;
  if (code >= 0x3130 && code < 0x3190) return 1 << 9;
  return 1 << (11 + ((code >> 8) & 15));
}

/** Number of bits set in a 32-bit mask. */
function bitCount(mask: number): number {
  let count = 0;
  for (let rest = mask; rest !== 0; rest &= rest - 1) count++;
  return count;
}

/**
 * Calls `visit` on each whitespace-separated token of `pieces` (read as one
 * text) in order: its start and end offsets, whether it is a lone `!`, and
 * the kinds of letters it holds (`letterKind` bits: 1 Latin, 2 another
 * script). Stops when `visit` returns true. One pass.
 */
function forEachToken(
  pieces: readonly string[],
  visit: (start: number, end: number, lone: boolean, kinds: number, scripts: number) => boolean,
): void {
  let start = -1;
  let kinds = 0;
  let scripts = 0;
  let bang = false;
  let offset = 0;
  for (const piece of pieces) {
    for (let index = 0; index < piece.length; index++) {
      const code = piece.charCodeAt(index);
      if (code > 32) {
        if (start < 0) {
          start = offset + index;
          bang = code === 33;
        }
        const kind = letterKind(code);
        kinds |= kind;
        if (kind === 2) scripts |= scriptBit(code);
        continue;
      }
      if (start < 0) continue;
      const end = offset + index;
      if (visit(start, end, bang && end - start === 1, kinds, scripts)) return;
      start = -1;
      kinds = 0;
      scripts = 0;
    }
    offset += piece.length;
  }
  if (start >= 0) visit(start, offset, bang && offset - start === 1, kinds, scripts);
}

/**
 * Round 46 (hK, issue 15): a lone `!` counts toward a window of the gate
 * only when that window also holds a token mixing scripts, so punctuation
 * alone never opens it ("Can you help me ! ! !" opened round 45's gate and
 * its whole text was judged as the request). The trainer's
 * `SUFFIX_BANG_MIXED` reads the same switch (`=0` trains round 45's gate);
 * kept by its left-out run, see the model card's round-46 entries.
 */
export const SUFFIX_BANG_NEEDS_MIXED = true;

/**
 * Round 51 (hC, issue 15; on since its left-out run passed its keep rule,
 * llm-adaptive-attacks 0.288 → 0.454 with the walked-back cut, nothing else
 * moved; `SUFFIX_SCRIPT_MIX=0` in the trainer without it): the gate also opens on a window of
 * `SUFFIX_WINDOW` tokens holding `SUFFIX_ODD` odd tokens where tokens all in
 * another script (in a text mostly in Latin letters) count too, when one
 * of them mixes scripts inside the token and their letters of other scripts
 * come from at least two script groups (`скрипт`, `답({`, `دسته`,
 * `nslogorpaд` in one window). Optimised suffixes are drawn from a
 * multilingual tokenizer's vocabulary and mix many scripts in a few tokens;
 * natural text quoting another language quotes one (round 46's weak
 * other-script tokens without this condition opened on 2% of arena-hard).
 */
export const SUFFIX_SCRIPT_MIX_ON = true;

/**
 * Offset in `folded` (folded text, `foldText`, or its pieces in order,
 * `foldTextPieces`, read as one text) where its adversarial suffix starts by
 * the gate above, or -1 when the gate stays shut. `bangNeedsMixed`: lone `!`
 * open a window only beside a token mixing scripts (`SUFFIX_BANG_NEEDS_MIXED`).
 * `scriptMix`: round 51's script-mix window opens it too (`SUFFIX_SCRIPT_MIX_ON`).
 * One pass; a window of `SUFFIX_WINDOW` tokens kept, so its memory is
 * bounded whatever the length.
 */
export function adversarialSuffixStart(
  folded: string | readonly string[],
  bangNeedsMixed = SUFFIX_BANG_NEEDS_MIXED,
  scriptMix = SUFFIX_SCRIPT_MIX_ON,
): number {
  const pieces = typeof folded === 'string' ? [folded] : folded;
  const latin = latinTextOf(pieces);
  // The last SUFFIX_WINDOW tokens (a ring): 0 plain, 1 lone `!`, 2 mixing scripts,
  // 3 all in another script (counted by `scriptMix` only); where each starts, its script bits.
  const kind = new Uint8Array(SUFFIX_WINDOW);
  const scriptBits = new Int32Array(SUFFIX_WINDOW);
  const starts = new Array<number>(SUFFIX_WINDOW).fill(0);
  let tokens = 0;
  let inWindow = 0;
  let other = 0;
  let mixed = 0;
  let found = -1;
  forEachToken(pieces, (start, _end, lone, kinds, scripts) => {
    const tokenKind =
      kinds === 3 ? (latin() ? 2 : 0) : lone ? 1 : scriptMix && kinds === 2 && latin() ? 3 : 0;
    const slot = tokens % SUFFIX_WINDOW;
    if (tokens >= SUFFIX_WINDOW && kind[slot] !== 0) {
      if (kind[slot] === 3) other--;
      else inWindow--;
      if (kind[slot] === 2) mixed--;
    }
    kind[slot] = tokenKind;
    scriptBits[slot] = tokenKind >= 2 ? scripts : 0;
    starts[slot] = start;
    tokens++;
    if (tokenKind === 3) other++;
    else if (tokenKind !== 0) inWindow++;
    if (tokenKind === 2) mixed++;
    const round45 = inWindow >= SUFFIX_ODD && (!bangNeedsMixed || mixed > 0);
    // Round 51: or three odd tokens (other-script ones too), one mixing scripts, whose
    // letters of other scripts come from two script groups at least (`SUFFIX_SCRIPT_MIX_ON`).
    const mix =
      scriptMix && !round45 && mixed > 0 && inWindow + other >= SUFFIX_ODD && windowScripts();
    if (!round45 && !mix) return false;
    // The oldest odd token of the window (tokens of another script count for `mix` only).
    for (let back = Math.min(tokens, SUFFIX_WINDOW); back >= 1; back--) {
      const at = (tokens - back) % SUFFIX_WINDOW;
      if (kind[at] === 1 || kind[at] === 2 || (mix && kind[at] === 3)) {
        found = starts[at]!;
        return true;
      }
    }
    return false;
  });
  return found;

  /** Whether the window's odd tokens hold letters of two script groups or more. */
  function windowScripts(): boolean {
    let union = 0;
    for (let at = 0; at < SUFFIX_WINDOW; at++) union |= scriptBits[at]!;
    return bitCount(union) >= 2;
  }
}

/**
 * Whether the text of `pieces` is mostly in Latin letters, read once on
 * first call: only when a token mixes scripts (or, for round 46's gate, is
 * in another script).
 */
function latinTextOf(pieces: readonly string[]): () => boolean {
  let latinText: boolean | undefined;
  return () =>
    (latinText ??= dominantScript(pieces.length === 1 ? pieces[0]! : pieces.join('')) === 'latin');
}

/** The first `length` characters of the text that `pieces` make up. */
export function piecesPrefix(pieces: readonly string[], length: number): string {
  if (pieces.length === 1)
    return pieces[0]!.length > length ? pieces[0]!.slice(0, length) : pieces[0]!;
  const parts: string[] = [];
  let taken = 0;
  for (const piece of pieces) {
    if (taken >= length) break;
    const part = piece.length > length - taken ? piece.slice(0, length - taken) : piece;
    parts.push(part);
    taken += part.length;
  }
  return parts.join('');
}

/**
 * The folded text before an adversarial suffix (`adversarialSuffixStart` on
 * `folded`, a folded text or its pieces; `bangNeedsMixed` as there), or
 * `undefined` when the gate stays shut or nothing comes before the suffix
 * (no request to judge).
 */
export function textBeforeSuffix(
  folded: string | readonly string[],
  bangNeedsMixed = SUFFIX_BANG_NEEDS_MIXED,
  scriptMix = SUFFIX_SCRIPT_MIX_ON,
): string | undefined {
  const start = adversarialSuffixStart(folded, bangNeedsMixed, scriptMix);
  if (start <= 0) return undefined;
  return typeof folded === 'string' ? folded.slice(0, start) : piecesPrefix(folded, start);
}

/**
 * Round 51 (hC, issue 15; on since its left-out run passed its keep rule,
 * `SUFFIX_CUT_BACK=0` in the trainer without it): the suffix rule reads the text
 * before the gate's cut and the texts before each of the `SUFFIX_WINDOW`
 * tokens before it, and takes the best. The gate cuts at the oldest odd
 * token of its first open window, and an optimised suffix often opens with
 * tokens of plain shape (`widgetienceaming robot repeating`): the cut then
 * leaves up to a window of suffix in the request, which lowers the harmful
 * reading of it. The readings keep at least `SUFFIX_CUT_BACK_MIN_TOKENS`
 * tokens.
 */
export const SUFFIX_CUT_BACK_ON = true;

/** Fewest tokens a walked-back request keeps (`SUFFIX_CUT_BACK_ON`). */
export const SUFFIX_CUT_BACK_MIN_TOKENS = 3;

/**
 * Characters a walked-back request keeps at most, from its end (from the
 * first token start in them): the text before the cut is read whole once,
 * the walked-back readings only add a bounded tail each, so a long text
 * costs about one reading more, not ten.
 */
export const SUFFIX_CUT_BACK_CHARS = 4096;

/**
 * The requests before an adversarial suffix of `folded` (a folded text or
 * its pieces): the text before the gate's cut (`textBeforeSuffix`, with
 * `bangNeedsMixed` and `scriptMix` as there), then, with `cutBack`, the
 * texts before each of the up to `SUFFIX_WINDOW` tokens before the cut that
 * keep at least `SUFFIX_CUT_BACK_MIN_TOKENS` tokens, longest first, each
 * its last `SUFFIX_CUT_BACK_CHARS` characters at most;
 * `undefined` when the gate stays shut or nothing comes before the suffix.
 * At most `SUFFIX_WINDOW + 1` readings, the first a prefix of the text, the
 * others bounded: linear, about one reading of the text more.
 */
export function textsBeforeSuffix(
  folded: string | readonly string[],
  bangNeedsMixed = SUFFIX_BANG_NEEDS_MIXED,
  scriptMix = SUFFIX_SCRIPT_MIX_ON,
  cutBack = SUFFIX_CUT_BACK_ON,
): string[] | undefined {
  const request = textBeforeSuffix(folded, bangNeedsMixed, scriptMix);
  if (request === undefined) return undefined;
  if (!cutBack) return [request];
  // Token starts of the request, the last SUFFIX_WINDOW + SUFFIX_CUT_BACK_MIN_TOKENS kept (a ring).
  const keep = SUFFIX_WINDOW + SUFFIX_CUT_BACK_MIN_TOKENS;
  const starts: number[] = [];
  let tokens = 0;
  for (let index = 0; index < request.length; index++) {
    const code = request.charCodeAt(index);
    if (code > 32 && (index === 0 || request.charCodeAt(index - 1) <= 32)) {
      starts[tokens % keep] = index;
      tokens++;
    }
  }
  const readings = [request];
  // Cut before the last token, the one before it, …: each reading keeps MIN_TOKENS tokens.
  for (let back = 1; back <= SUFFIX_WINDOW && tokens - back >= SUFFIX_CUT_BACK_MIN_TOKENS; back++) {
    const end = starts[(tokens - back) % keep]!;
    let from = Math.max(0, end - SUFFIX_CUT_BACK_CHARS);
    // From a token start: skip the rest of a token cut in two.
    if (from > 0) {
      while (from < end && request.charCodeAt(from - 1) > 32) from++;
    }
    readings.push(request.slice(from, end));
  }
  return readings;
}

/**
 * The adversarial-suffix spans of `folded` (a folded text, or its pieces read
 * as one text) as `[start, end)` offsets in order, by round 46's gate (issue
 * 15). Tokens are strong (mixing Latin letters with another script's inside
 * the token, as `adversarialSuffixStart` reads them) or weak (a lone `!`, or,
 * in a text mostly in Latin letters, a token whose letters are all of
 * another script: `Вла`, `сторо` between Latin words); a window of
 * `SUFFIX_WINDOW` tokens opens when it holds `SUFFIX_ODD` of them, one strong
 * at least. So punctuation alone never opens it (`! ! ! Explain how …`
 * opened round 45's gate before the request), nor does a Latin text quoting
 * words of another script. A span runs from the oldest odd token of an open
 * window to its newest; windows that share an odd token make one span. One
 * pass, a ring of `SUFFIX_WINDOW` tokens: linear; its memory is the spans.
 */
export function suffixSpans(folded: string | readonly string[]): Array<[number, number]> {
  const pieces = typeof folded === 'string' ? [folded] : folded;
  const latin = latinTextOf(pieces);
  // The last SUFFIX_WINDOW tokens (a ring): 0 plain, 1 weak, 2 strong; where each starts and ends.
  const kind = new Uint8Array(SUFFIX_WINDOW);
  const starts = new Array<number>(SUFFIX_WINDOW).fill(0);
  const ends = new Array<number>(SUFFIX_WINDOW).fill(0);
  const spans: Array<[number, number]> = [];
  let tokens = 0;
  let weak = 0;
  let mixed = 0;
  // The open span: its start and end offsets, and the index of its newest odd token.
  let spanStart = -1;
  let spanEnd = -1;
  let spanLast = -1;
  forEachToken(pieces, (start, end, lone, kinds) => {
    const tokenKind = kinds >= 2 && latin() ? (kinds === 3 ? 2 : 1) : lone ? 1 : 0;
    const slot = tokens % SUFFIX_WINDOW;
    if (tokens >= SUFFIX_WINDOW) {
      if (kind[slot] === 1) weak--;
      else if (kind[slot] === 2) mixed--;
    }
    kind[slot] = tokenKind;
    starts[slot] = start;
    ends[slot] = end;
    if (tokenKind === 1) weak++;
    else if (tokenKind === 2) mixed++;
    tokens++;
    if (mixed === 0 || mixed + weak < SUFFIX_ODD) return false;
    // The oldest and the newest odd token of the window.
    let oldest = -1;
    let newest = -1;
    for (let index = Math.max(0, tokens - SUFFIX_WINDOW); index < tokens; index++) {
      if (kind[index % SUFFIX_WINDOW] === 0) continue;
      if (oldest < 0) oldest = index;
      newest = index;
    }
    if (spanStart >= 0 && oldest <= spanLast) {
      spanLast = newest;
      spanEnd = ends[newest % SUFFIX_WINDOW]!;
      return false;
    }
    if (spanStart >= 0) spans.push([spanStart, spanEnd]);
    spanStart = starts[oldest % SUFFIX_WINDOW]!;
    spanEnd = ends[newest % SUFFIX_WINDOW]!;
    spanLast = newest;
    return false;
  });
  if (spanStart >= 0) spans.push([spanStart, spanEnd]);
  return spans;
}

/** Characters `from` to `to` of the text that `pieces` make up. */
export function piecesSlice(pieces: readonly string[], from: number, to: number): string {
  if (pieces.length === 1) return pieces[0]!.slice(from, to);
  const parts: string[] = [];
  let offset = 0;
  for (const piece of pieces) {
    const end = offset + piece.length;
    if (end > from && offset < to) parts.push(piece.slice(Math.max(0, from - offset), to - offset));
    offset = end;
    if (offset >= to) break;
  }
  return parts.join('');
}

/** A letter or a digit in the pieces of text between suffix spans: something to read. */
const readable = /[\p{L}\p{N}]/u;

/**
 * The folded text around the adversarial suffixes of `folded` (a folded
 * text or its pieces, `suffixSpans`): the stretches before, between and
 * after the spans that hold a letter or a digit, in order, each read on its
 * own as the request; `undefined` when the gate stays shut or nothing
 * readable lies outside the spans (round 46: round 45 read only the text
 * before the first span, so a request written after its suffix, or after
 * three lone `!`, was never read). Their total length is at most the
 * text's; one pass.
 */
export function textOutsideSuffix(folded: string | readonly string[]): string[] | undefined {
  const spans = suffixSpans(folded);
  if (spans.length === 0) return undefined;
  const pieces = typeof folded === 'string' ? [folded] : folded;
  let length = 0;
  for (const piece of pieces) length += piece.length;
  const outside: string[] = [];
  let from = 0;
  for (const [start, end] of [...spans, [length, length] as [number, number]]) {
    if (start > from) {
      const text = piecesSlice(pieces, from, start);
      if (readable.test(text)) outside.push(text);
    }
    from = end;
  }
  return outside.length === 0 ? undefined : outside;
}
