/**
 * Serialises a value as canonical JSON: the text `JSON.stringify` would
 * produce (same `toJSON` calls, same dropping of `undefined` and functions),
 * but with object keys sorted at every depth and no whitespace. Two values
 * that are equal as JSON always give the same text, so guardrails (and caches
 * keyed on their input) see one stable form whatever order a model or a tool
 * wrote the keys in.
 *
 * A top-level value with no JSON form (`undefined`, a function) becomes
 * `null`, as it would in a tool result sent to the model. Throws a `TypeError`
 * on cycles and `BigInt`s, like `JSON.stringify`.
 */
export function canonicalJson(value: unknown): string {
  return serialise(value, new Set()) ?? 'null';
}

function serialise(value: unknown, ancestors: Set<object>): string | undefined {
  let current = value;
  if (
    current != null &&
    typeof current === 'object' &&
    typeof (current as { toJSON?: unknown }).toJSON === 'function'
  ) {
    current = (current as { toJSON: () => unknown }).toJSON();
  }
  switch (typeof current) {
    case 'string':
      return JSON.stringify(current);
    case 'number':
      return Number.isFinite(current) ? JSON.stringify(current) : 'null';
    case 'boolean':
      return current ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (current === null) return 'null';
  const object = current as object;
  // Boxed primitives serialise as their primitive, as in JSON.stringify.
  if (object instanceof Number || object instanceof String || object instanceof Boolean) {
    return serialise(object.valueOf(), ancestors);
  }
  if (ancestors.has(object)) {
    throw new TypeError('Converting circular structure to JSON');
  }
  ancestors.add(object);
  try {
    if (Array.isArray(object)) {
      const items = object.map(item => serialise(item, ancestors) ?? 'null');
      return `[${items.join(',')}]`;
    }
    const members: string[] = [];
    for (const key of Object.keys(object).sort()) {
      const member = serialise((object as Record<string, unknown>)[key], ancestors);
      if (member !== undefined) members.push(`${JSON.stringify(key)}:${member}`);
    }
    return `{${members.join(',')}}`;
  } finally {
    ancestors.delete(object);
  }
}
