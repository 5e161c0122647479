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
const lastNormalized = new WeakMap<object, NormalizedText>();

/** `normalizeText(text)`, reusing the call's last normal form when it is of the same text. */
export function normalizeInCall(text: string, state: object | undefined): NormalizedText {
  if (state === undefined) return normalizeText(text);
  const kept = lastNormalized.get(state);
  if (kept !== undefined) {
    lastNormalized.delete(state);
    if (kept.original === text) return kept;
  }
  const normalized = normalizeText(text);
  if (normalized.changed) lastNormalized.set(state, normalized);
  return normalized;
}
