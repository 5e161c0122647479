import type { DetectedSpan } from './spans';

/**
 * Private-use characters: U+E000–F8FF and planes 15 and 16 (U+F0000–10FFFF,
 * a high surrogate U+DB80–DBFF with its low one). The normaliser keeps them
 * (icon fonts draw them as visible symbols between words and numbers), so
 * one inside a value split it: `4111\uE0001111\uE000…` was no card,
 * `jane\uE000.doe@corp.io` no address, a `ghp_` token with U+F8FF inside
 * a high-entropy string with its prefix left visible (round 24).
 */
const PRIVATE_USE = /[\uE000-\uF8FF]|[\uDB80-\uDBFF][\uDC00-\uDFFF]/;
const PRIVATE_USE_ALL = /[\uE000-\uF8FF]|[\uDB80-\uDBFF][\uDC00-\uDFFF]/g;

/** True for a private-use code point (see `PRIVATE_USE`). */
export function isPrivateUse(codePoint: number): boolean {
  return (codePoint >= 0xe000 && codePoint <= 0xf8ff) || codePoint >= 0xf0000;
}

/**
 * `text` with each private-use character written as zero-width spaces (one
 * per UTF-16 unit: same length, same offsets), which the normaliser reads
 * through as it reads through invisible characters; undefined when `text`
 * holds none. pii and secrets read such a text a second time so: a value
 * with private-use characters inside is found, its span in the original
 * covering them (one beside it stays). One regex search; linear.
 */
export function privateUseReadThrough(text: string): string | undefined {
  if (!PRIVATE_USE.test(text)) return undefined;
  return text.replace(PRIVATE_USE_ALL, unit => (unit.length === 1 ? '\u200b' : '\u200b\u200b'));
}

/**
 * `first` with each span of `second` that overlaps none of it added, and
 * each one that covers every span of it that it overlaps in place of them
 * (a value read whole where the first reading saw pieces of it); a span of
 * `second` that only partly covers one of `first` is left out. Both in
 * text order, neither overlapping itself; `first` itself when nothing
 * changes. Linear.
 */
export function withWiderSpans<T extends DetectedSpan>(first: T[], second: readonly T[]): T[] {
  return withSecondReading(first, second, true);
}

/**
 * `first` with the spans of `second` that overlap none of it, in text order
 * (both in text order, neither overlapping itself); `first` itself when
 * `second` adds none. Linear.
 */
export function withSpansApart<T extends DetectedSpan>(first: T[], second: readonly T[]): T[] {
  return withSecondReading(first, second, false);
}

/** `withWiderSpans` (`wider`) or `withSpansApart`: one walk of both lists. */
function withSecondReading<T extends DetectedSpan>(
  first: T[],
  second: readonly T[],
  wider: boolean,
): T[] {
  let merged: T[] | undefined;
  let index = 0;
  for (const span of second) {
    while (index < first.length && first[index]!.end <= span.start) {
      merged?.push(first[index]!);
      index++;
    }
    let last = index;
    let covers = true;
    while (last < first.length && first[last]!.start < span.end) {
      const other = first[last]!;
      if (!wider || other.start < span.start || other.end > span.end) covers = false;
      last++;
    }
    if (!covers) continue;
    if (
      last === index + 1 &&
      first[index]!.start === span.start &&
      first[index]!.end === span.end
    ) {
      continue; // the same span
    }
    merged ??= first.slice(0, index);
    merged.push(span);
    index = last;
  }
  if (merged === undefined) return first;
  for (; index < first.length; index++) merged.push(first[index]!);
  return merged;
}
