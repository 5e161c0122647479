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

/** An array index as `Object.keys` gives it. */
const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

/** An object being read: its kind, its entries (label and value) and the parts read so far. */
interface Frame {
  object: object;
  head: string;
  entries: Array<[label: string, value: unknown, unreadable?: true]>;
  next: number;
  parts: string[];
  /** The label of the entry whose object is being read above this frame. */
  pending: string;
}

/**
 * A fingerprint of a guardrail's options, for `Guardrail.fingerprint`: a hash
 * of a stable text form, so equal options give equal fingerprints whatever
 * the key order, and no option value (a key in a client's config, a policy
 * text) is kept in it. Regular expressions count by source and flags,
 * functions by source text (two closures over the same source are not told
 * apart: name the guardrails differently when that matters), a language
 * model by its provider and model id, other objects by their own enumerable
 * fields, at any depth (it used to stop at 8 levels, so options that differed
 * only deeper shared remembered verdicts). Cycles and unreadable fields
 * or objects (a throwing getter, a revoked proxy, a throwing proxy trap or
 * iterator) become markers, so any value is accepted. Linear in the value's
 * size (an array's own entries, not its length: a sparse array is cheap): no
 * recursion (any depth), and an object reached twice is read once (each
 * object counts by a hash of its parts). Not a security boundary: the
 * options are the deployer's, not the client's.
 */
export function optionsFingerprint(options: unknown): string {
  const digests = new Map<object, string>();
  const onPath = new Set<object>();
  const stack: Frame[] = [];

  /**
   * The text of a value that is not read entry by entry, or undefined after
   * opening a frame for it; a value that throws when read (a revoked proxy,
   * a proxy trap, a throwing `provider` getter or iterator) is a marker.
   */
  function leaf(value: unknown): string | undefined {
    try {
      return readLeaf(value);
    } catch {
      return '"[unreadable]"';
    }
  }

  function readLeaf(value: unknown): string | undefined {
    if (value === undefined) return '"[undefined]"';
    if (value === null || typeof value === 'boolean' || typeof value === 'string') {
      return JSON.stringify(value);
    }
    if (typeof value === 'number') {
      return Number.isFinite(value) ? String(value) : JSON.stringify(String(value));
    }
    if (typeof value === 'bigint') return JSON.stringify(`${value}n`);
    if (typeof value === 'symbol') return JSON.stringify(String(value));
    if (typeof value === 'function') return JSON.stringify(`[function ${value.toString()}]`);
    if (value instanceof RegExp) return JSON.stringify(`[regexp /${value.source}/${value.flags}]`);
    if (typeof value !== 'object') return JSON.stringify(String(value));
    const known = digests.get(value);
    if (known !== undefined) return `#${known}`;
    if (onPath.has(value)) return '"[cycle]"';
    // A language model (a judge's) is its provider and model id: its other
    // fields are clients, settings and, in mocks, call logs that change.
    const { provider, modelId } = value as { provider?: unknown; modelId?: unknown };
    if (typeof provider === 'string' && typeof modelId === 'string') {
      return JSON.stringify(`[model ${provider}/${modelId}]`);
    }
    const frame = open(value);
    onPath.add(value);
    stack.push(frame);
    return undefined;
  }

  function open(object: object): Frame {
    const frame: Frame = { object, head: '', entries: [], next: 0, parts: [], pending: '' };
    if (Array.isArray(object)) {
      // Its own items (indices come first, in order), and its length when it
      // has holes: a sparse `new Array(1e8)` is one line, not 100 million
      // entries (reading every index ran out of heap). A dense array reads
      // as it always did.
      for (const key of Object.keys(object)) {
        if (!ARRAY_INDEX.test(key)) break;
        try {
          frame.entries.push([key, (object as unknown as Record<string, unknown>)[key]]);
        } catch {
          frame.entries.push([key, undefined, true]);
        }
      }
      frame.head =
        frame.entries.length === object.length ? '[array]' : `[array of length ${object.length}]`;
    } else if (object instanceof Set) {
      frame.head = '[set]';
      let index = 0;
      for (const item of object) frame.entries.push([String(index++), item]);
    } else if (object instanceof Map) {
      frame.head = '[map]';
      let index = 0;
      for (const [key, value] of object) {
        frame.entries.push([`k${index}`, key], [`v${index}`, value]);
        index++;
      }
    } else {
      frame.head = '[object]';
      for (const key of Object.keys(object).sort()) {
        try {
          frame.entries.push([key, (object as Record<string, unknown>)[key]]);
        } catch {
          frame.entries.push([key, undefined, true]); // a getter that throws
        }
      }
    }
    return frame;
  }

  const root = leaf(options);
  if (root !== undefined) return hash64(root);
  for (;;) {
    const frame = stack[stack.length - 1]!;
    if (frame.next < frame.entries.length) {
      const [label, value, unreadable] = frame.entries[frame.next++]!;
      const text = unreadable ? '"[unreadable]"' : leaf(value);
      if (text === undefined) frame.pending = label;
      else frame.parts.push(`${JSON.stringify(label)}:${text}`);
      continue;
    }
    stack.pop();
    onPath.delete(frame.object);
    const digest = hash64(`${frame.head}{${frame.parts.join(',')}}`);
    digests.set(frame.object, digest);
    const parent = stack[stack.length - 1];
    if (parent === undefined) return digest;
    parent.parts.push(`${JSON.stringify(parent.pending)}:#${digest}`);
  }
}
