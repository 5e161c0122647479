/**
 * Keeps the regexes `libphonenumber-js` compiles alive between calls.
 *
 * libphonenumber builds its metadata's patterns with `new RegExp(string)` on
 * every call (`matchesEntirely`, the national prefix, the leading digits of
 * each format, ...). V8 finds the compiled code of such a regex in a
 * compilation cache that full garbage collections age out, so after a
 * collection every call compiles its patterns again: validating one number
 * costs about 0.8 ms then against 0.04 ms warm, and the phone finder on a
 * megabyte of real text 10-15 ms instead of 3. A regex object that stays
 * alive keeps its compiled code across collections (212 metadata patterns of
 * ten regions: 9.3 ms to build and test after two full collections, 0.15 ms
 * when the objects were kept). Measured gain: `findPii` of a one-sentence
 * prompt with a phone number right after two full collections 1.9 -> 1.2-1.3
 * ms of CPU (min of 21); the rest of that cost is not the regexes.
 *
 * While libphonenumber runs (synchronously), the global `RegExp` is a
 * constructor that hands out one kept object per string pattern and flags.
 * A regex without the `g` or `y` flag never reads or writes `lastIndex`,
 * so one object serves every caller as a fresh one would. A `g` regex
 * (the matcher's candidate pattern and its inner-match patterns) comes
 * back with `lastIndex` 0, as a fresh one has; libphonenumber sets
 * `lastIndex` before each search with it, and one matcher runs at a time
 * (each call finishes before the next starts), so no two users share one.
 * The kept patterns come from libphonenumber's metadata and constants,
 * never from the text (every `new RegExp` on its parse, search and
 * validation paths builds from them), and at most `keptLimit` are kept.
 */

const NativeRegExp = RegExp;
const nativeSearch = String.prototype.search;
/**
 * Kept regexes by flags, then by pattern: the lookup hashes the pattern
 * string itself. A key built per call (`${flags}/${pattern}`) was a fresh
 * string to copy and hash each time, a fifth of libphonenumber's time on
 * real text (4,800 lookups per MB: the leading digits of every +1 region
 * per number), where a metadata string passed to `search` hashes once.
 */
const kept = new Map<string, Map<string, RegExp>>();
let keptCount = 0;
/** Enough for every pattern of the regions a text names; past it, regexes are built as before. */
const keptLimit = 4_096;

function keptRegExp(pattern: string, flags: string): RegExp {
  let regExp = kept.get(flags)?.get(pattern);
  if (regExp === undefined) {
    regExp = new NativeRegExp(pattern, flags);
    if (keptCount < keptLimit) {
      let byPattern = kept.get(flags);
      if (byPattern === undefined) {
        byPattern = new Map();
        kept.set(flags, byPattern);
      }
      byPattern.set(pattern, regExp);
      keptCount++;
    }
  }
  return regExp;
}

/** `RegExp` as libphonenumber calls it, with kept objects for plain string patterns. */
function ReusingRegExp(this: unknown, pattern?: unknown, flags?: unknown): RegExp {
  if (new.target === undefined) return NativeRegExp(pattern as string, flags as string);
  if (typeof pattern === 'string' && (flags === undefined || typeof flags === 'string')) {
    const regExp = keptRegExp(pattern, flags ?? '');
    regExp.lastIndex = 0;
    return regExp;
  }
  return new NativeRegExp(pattern as string, flags as string);
}
ReusingRegExp.prototype = NativeRegExp.prototype;

/**
 * Runs `work` (synchronous) with the global `RegExp` handing out kept
 * regexes, and puts the real one back after, also when `work` throws. When
 * the global cannot be replaced (frozen intrinsics) or already is, `work`
 * runs as it is.
 */
export function withReusedRegExps<T>(work: () => T): T {
  const global = globalThis as { RegExp: RegExpConstructor };
  if (global.RegExp !== NativeRegExp) return work();
  try {
    global.RegExp = ReusingRegExp as unknown as RegExpConstructor;
  } catch {
    return work();
  }
  try {
    // `search` with a string builds its regex from the intrinsic RegExp,
    // not the global: libphonenumber looks up each region's leading digits
    // so (`getCountryByNationalNumber`, for every number of a calling code
    // several regions share, such as +1). The kept one is the same pattern
    // with no flags, and `search` puts back the `lastIndex` it found. When
    // `search` cannot be replaced, it stays as it is.
    if (String.prototype.search === nativeSearch) {
      try {
        String.prototype.search = reusingSearch;
      } catch {}
    }
    return work();
  } finally {
    global.RegExp = NativeRegExp;
    if (String.prototype.search === reusingSearch) String.prototype.search = nativeSearch;
  }
}

/** `String.prototype.search` with a kept regex for a string pattern. */
const reusingSearch = function search(this: string, pattern: unknown): number {
  return nativeSearch.call(
    this,
    typeof pattern === 'string' ? keptRegExp(pattern, '') : (pattern as RegExp),
  );
} as typeof String.prototype.search;

/** The patterns kept so far (for tests: they must hold no text that was scanned). */
export function keptRegExpPatterns(): string[] {
  return [...kept].flatMap(([flags, byPattern]) =>
    [...byPattern.keys()].map(pattern => `${flags}/${pattern}`),
  );
}
