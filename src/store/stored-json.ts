/**
 * JSON read back from a `Store` (round 33). A store shared by many servers
 * (Redis) is writable by whoever owns it: a value another client wrote may be
 * no JSON, megabytes long or nested a million levels deep. `JSON.parse` took
 * each whole: a 100 MB array allocated its items, and deep nesting parsed in
 * superlinear time. Every guardrail reads stored JSON through here, bounded
 * first, so a value it cannot read is one it does not read.
 */

/**
 * Deepest nesting stored JSON may have: Redis's cjson refuses more than
 * 1,000 levels of arrays and objects (the outer one is one level).
 */
export const MAX_STORED_JSON_DEPTH = 1_000;

/**
 * Longest stored JSON text, in UTF-16 code units, that the verdict cache and
 * the pseudonym vault read (1 MiB). The longest they write is far below it: a
 * cached modification is at most 100,000 characters (600,000 in JSON if every
 * one is escaped as `\u00XX`), a pseudonym vault's original a few hundred.
 */
export const MAX_STORED_JSON_CHARS = 1_048_576;

/**
 * The value of the JSON text `raw`, or `undefined` when there is none to read:
 * `raw` is missing, longer than `maxChars`, nested deeper than
 * `MAX_STORED_JSON_DEPTH`, no JSON, or refused by `reviver` (it throws).
 * (JSON itself never reads as `undefined`.) Linear in `raw`'s length, which
 * is checked before anything else is.
 */
export function readStoredJson(
  raw: string | undefined,
  maxChars: number,
  reviver?: (key: string, value: unknown) => unknown,
): unknown {
  if (raw === undefined || raw.length > maxChars || tooDeep(raw)) return undefined;
  try {
    return JSON.parse(raw, reviver);
  } catch {
    // Not JSON, or JSON the reviver refused: nothing to read.
    return undefined;
  }
}

/**
 * Whether the JSON text `raw` opens more than `MAX_STORED_JSON_DEPTH` arrays
 * and objects within each other (brackets in strings do not count). One pass;
 * a text too short to hold that many levels is not read.
 */
function tooDeep(raw: string): boolean {
  if (raw.length <= 2 * MAX_STORED_JSON_DEPTH) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i++; // backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x5b || code === 0x7b) {
      if (++depth > MAX_STORED_JSON_DEPTH) return true;
    } else if (code === 0x5d || code === 0x7d) {
      depth--;
    }
  }
  return false;
}
