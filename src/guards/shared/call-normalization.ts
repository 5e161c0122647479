import type { TextSource } from './chunked-scan';
import { type NormalizedText, normalizeText } from './normalize-text';

/**
 * The normal form (default options) of the last text a data-protection
 * guardrail normalised in a call, keyed by the call's `ctx.state`. In the
 * chain `pii()` + `secrets()`, both check the same string whenever `pii`
 * changed nothing (most prompts hold no personal data); the second then
 * reuses the first's normal form instead of normalising the text again.
 * That holds for a text that is its own normal form too (most chat
 * messages): the second guardrail then skips the scan for characters to
 * normalise, which on a short text costs more than the map lookup.
 *
 * Safety: an entry is used only for the very same text (`===`), and the
 * normal form is a function of the text alone, so findings never depend on
 * it. A use removes the entry and a new text replaces it, so at most one
 * normal form per call is kept (of a text the call holds anyway), and a
 * WeakMap lets it go with the call's state.
 */
const lastNormalized = new WeakMap<object, NormalizedText | PendingNormalForm | OfferedSource>();

/** A text and how to build its normal form (when first asked for). */
interface PendingNormalForm {
  original: string;
  build(): NormalizedText;
}

/** A long text and a way to read it in pieces (see `chunked-scan.ts`). */
interface OfferedSource {
  original: string;
  source: TextSource;
}

/** `normalizeText(text)`, reusing the call's last normal form when it is of the same text. */
export function normalizeInCall(text: string, state: object | undefined): NormalizedText {
  if (state === undefined) return normalizeText(text);
  const kept = lastNormalized.get(state);
  if (kept !== undefined) {
    lastNormalized.delete(state);
    if (kept.original === text && !('source' in kept)) {
      return 'build' in kept ? kept.build() : kept;
    }
  }
  const normalized = normalizeText(text);
  lastNormalized.set(state, normalized);
  return normalized;
}

/**
 * Offers the call's next `normalizeInCall(text)` a normal form of `text`
 * built by `build` (which must return exactly `normalizeText(text)`), for
 * a guardrail that has just made `text` and knows a cheaper way to its
 * normal form (`pii()`'s redaction, see `redacted-normal-form.ts`). It
 * replaces the call's kept normal form; `build` runs only if a later
 * guardrail asks for the normal form of this very string.
 */
export function offerNormalForm(
  text: string,
  state: object | undefined,
  build: () => NormalizedText,
): void {
  if (state === undefined) return;
  lastNormalized.set(state, { original: text, build });
}

/**
 * Offers a later guardrail of the call a way to read `text` in pieces
 * without writing it out (`pii()`'s redaction of a long text, which it
 * scanned in pieces: a rope, see `redactedTextSource`). Replaces the call's
 * kept normal form.
 */
export function offerTextSource(text: string, state: object | undefined, source: TextSource): void {
  if (state === undefined) return;
  lastNormalized.set(state, { original: text, source });
}

/**
 * How a guardrail should read a long `text` in pieces: the source offered
 * for it, or the string itself; undefined when the call keeps a normal
 * form of this text (or a way to derive it), which `normalizeInCall` then
 * returns at less cost than scanning in pieces. Keeps the call's entry.
 */
export function chunkSourceInCall(text: string, state: object | undefined): TextSource | undefined {
  const kept = state === undefined ? undefined : lastNormalized.get(state);
  if (kept === undefined || kept.original !== text) return text;
  return 'source' in kept ? kept.source : undefined;
}
