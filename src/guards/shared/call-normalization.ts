import { type NormalizedText, normalizeText } from './normalize-text';

/**
 * The normal form (default options) of the last text a data-protection
 * guardrail normalised in a call, keyed by the call's `ctx.state`. In the
 * chain `pii()` + `secrets()`, both check the same string whenever `pii`
 * changed nothing (most prompts hold no personal data); the second then
 * reuses the first's normal form instead of normalising the text again.
 *
 * Safety: an entry is used only for the very same text (`===`), and the
 * normal form is a function of the text alone, so findings never depend on
 * it. A use removes the entry and a new text replaces it, so at most one
 * normal form per call is kept, and a WeakMap lets it go with the call's
 * state; nothing is kept when normalising changed nothing (then the normal
 * form is the text itself and costs one regex test).
 */
const lastNormalized = new WeakMap<object, SharedNormalForm>();

/** A text and how to get its normal form (built when first asked for). */
interface SharedNormalForm {
  original: string;
  get(): NormalizedText;
}

/** `normalizeText(text)`, reusing the call's last normal form when it is of the same text. */
export function normalizeInCall(text: string, state: object | undefined): NormalizedText {
  if (state === undefined) return normalizeText(text);
  const kept = lastNormalized.get(state);
  if (kept !== undefined) {
    lastNormalized.delete(state);
    if (kept.original === text) return kept.get();
  }
  const normalized = normalizeText(text);
  if (normalized.changed) lastNormalized.set(state, { original: text, get: () => normalized });
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
  lastNormalized.set(state, { original: text, get: build });
}
