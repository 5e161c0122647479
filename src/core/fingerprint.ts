/**
 * A stable text form of a guardrail's options, for `Guardrail.fingerprint`:
 * equal options give equal text whatever the key order. Regular expressions
 * keep their source and flags, functions their source text (two different
 * closures over the same source are not told apart: name the guardrail
 * differently when that matters), class instances their own enumerable
 * fields, and cycles and depth beyond 8 a marker, so any value is accepted.
 * The middleware only stores a hash of it, never the text.
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
      if (value instanceof Set) return ['[set]', ...[...value].map(item => walk(item, depth + 1))];
      if (value instanceof Map) {
        return ['[map]', ...[...value].map(([k, v]) => [walk(k, depth + 1), walk(v, depth + 1)])];
      }
      const sorted: Record<string, unknown> = {};
      for (const key of Object.keys(value).sort()) {
        sorted[key] = walk((value as Record<string, unknown>)[key], depth + 1);
      }
      return sorted;
    } finally {
      seen.delete(value);
    }
  }
  return JSON.stringify(walk(options, 0)) ?? '';
}
