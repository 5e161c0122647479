import type { JSONValue, SharedV4ProviderMetadata } from '@ai-sdk/provider';

/**
 * A provider's metadata keys that quote the answer as the model wrote it:
 * `logprobs` list its tokens (`@ai-sdk/openai` with `logprobs: true`),
 * Google's grounding metadata its segments (`groundingSupports[].segment.text`,
 * round 35: a redacted or blocked answer's e-mail and keys stayed there).
 * They go from a changed or blocked response whatever they hold.
 */
const ANSWER_QUOTING_KEYS: ReadonlySet<string> = new Set([
  'logprobs',
  'groundingMetadata',
  'groundingMetadataPerRequest',
]);

/**
 * A provider's keys whose string values are known not to quote the answer
 * nor to refer to it: the service tier. Kept when their value is a string of
 * at most {@link SAFE_STRING_CHARS}. Not a response id (`@ai-sdk/openai`'s
 * `responseId`, round 36): it quotes nothing, but with the Responses API's
 * `store` (its default) a next call chained on it (`previousResponseId`)
 * has the provider put the answer as the model wrote it back into the
 * model's context, what a guardrail hid with it. It goes as every other
 * string does.
 */
const KNOWN_SAFE_KEYS: ReadonlySet<string> = new Set(['serviceTier']);

/** The longest string a known-safe key keeps (an id; a longer one may hold anything). */
export const SAFE_STRING_CHARS = 256;

/** How deep one provider key's value is walked; deeper, the key goes (fail closed). */
export const METADATA_MAX_DEPTH = 32;

/** How many values (objects, arrays, leaves) one call's metadata walk visits; past it, the keys left go. */
export const METADATA_MAX_NODES = 10_000;

/**
 * True when `value` holds no string: only numbers, booleans and nulls, in
 * objects and arrays (object keys are the provider's names, not text of the
 * answer). False when it holds a string, or when the walk passes its bounds
 * (`budget.nodes` is shared by the whole metadata, so the walk is linear in
 * its size and stops after {@link METADATA_MAX_NODES} values).
 */
function holdsNoString(value: unknown, budget: { nodes: number }): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: next, depth } = stack.pop()!;
    if (--budget.nodes < 0 || depth > METADATA_MAX_DEPTH) return false;
    if (next === null || typeof next === 'number' || typeof next === 'boolean') continue;
    if (typeof next !== 'object') return false; // a string (or anything not JSON)
    const children = Array.isArray(next) ? next : Object.values(next);
    for (const child of children) stack.push({ value: child, depth: depth + 1 });
  }
  return true;
}

/**
 * The provider metadata of a response a guardrail changed or blocked, without
 * what may quote the answer. The library cannot tell what a provider's key
 * holds (`providerMetadata.acme.text` may be the answer as written; a hidden
 * e-mail may sit inside a longer string, nested in arrays and objects), so it
 * fails closed: per provider, a key stays only when it is known-safe
 * (`serviceTier`: a short string) or its value holds no string
 * at all (token counts, flags); every other key goes. The walk is bounded
 * (depth {@link METADATA_MAX_DEPTH}, {@link METADATA_MAX_NODES} values for the
 * whole metadata): a value past them goes. A provider entry that is not an
 * object goes unless it holds no string. Linear in the metadata's size.
 */
export function withoutAnswerQuotes(
  providerMetadata: SharedV4ProviderMetadata,
): SharedV4ProviderMetadata {
  const budget = { nodes: METADATA_MAX_NODES };
  // Entries, not assignments: a `__proto__` key stays a key (an assignment would set the prototype).
  const kept: [string, unknown][] = [];
  for (const [provider, entry] of Object.entries(providerMetadata)) {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      if (holdsNoString(entry, budget)) kept.push([provider, entry]);
      continue;
    }
    const keys: [string, JSONValue | undefined][] = [];
    for (const [key, value] of Object.entries(entry)) {
      if (ANSWER_QUOTING_KEYS.has(key)) continue;
      const safe =
        KNOWN_SAFE_KEYS.has(key) && typeof value === 'string' && value.length <= SAFE_STRING_CHARS;
      if (safe || holdsNoString(value, budget)) keys.push([key, value]);
    }
    kept.push([provider, Object.fromEntries(keys)]);
  }
  return Object.fromEntries(kept) as SharedV4ProviderMetadata;
}
