/** 64 bits of two 32-bit multiplicative hashes: enough to tell one deployment's configurations apart. */
function hash64(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/**
 * A fingerprint of a guardrail's options, for `Guardrail.fingerprint`: a hash
 * of a stable text form, so equal options give equal fingerprints whatever
 * the key order, and no option value (a key in a client's config, a policy
 * text) is kept in it. Regular expressions count by source and flags,
 * functions by source text (two closures over the same source are not told
 * apart: name the guardrails differently when that matters), a language
 * model by its provider and model id, other objects by their own enumerable
 * fields; cycles, depth beyond 8 and unreadable fields
 * become markers, so any value is accepted. Not a security boundary: the
 * options are the deployer's, not the client's.
 */
export function optionsFingerprint(options: unknown): string {
  const seen = new Set<object>();
  function walk(value: unknown, depth: number): unknown {
    if (value === undefined) return '[undefined]';
    if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
    if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
    if (typeof value === 'bigint') return `${value}n`;
    if (typeof value === 'symbol') return String(value);
    if (typeof value === 'function') return `[function ${value.toString()}]`;
    if (value instanceof RegExp) return `[regexp /${value.source}/${value.flags}]`;
    if (typeof value !== 'object') return String(value);
    if (depth > 8) return '[deep]';
    if (seen.has(value)) return '[cycle]';
    seen.add(value);
    try {
      if (Array.isArray(value)) return value.map(item => walk(item, depth + 1));
      // A language model (a judge's) is its provider and model id: its other
      // fields are clients, settings and, in mocks, call logs that change.
      const { provider, modelId } = value as { provider?: unknown; modelId?: unknown };
      if (typeof provider === 'string' && typeof modelId === 'string') {
        return `[model ${provider}/${modelId}]`;
      }
      if (value instanceof Set) return ['[set]', ...[...value].map(item => walk(item, depth + 1))];
      if (value instanceof Map) {
        return ['[map]', ...[...value].map(([k, v]) => [walk(k, depth + 1), walk(v, depth + 1)])];
      }
      const sorted: Record<string, unknown> = {};
      for (const key of Object.keys(value).sort()) {
        try {
          sorted[key] = walk((value as Record<string, unknown>)[key], depth + 1);
        } catch {
          sorted[key] = '[unreadable]'; // a getter that throws
        }
      }
      return sorted;
    } finally {
      seen.delete(value);
    }
  }
  return hash64(JSON.stringify(walk(options, 0)) ?? '');
}
