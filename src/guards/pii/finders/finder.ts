/** Shared shape of the pattern finders `findPii` runs, one file per entity. */
import type { CountryCode } from 'libphonenumber-js/max';

/** Reports every candidate `[start, end)` of one entity in the normalised text. */
export type Finder = (
  text: string,
  add: (start: number, end: number) => void,
  options: Resolved,
) => void;

/** `findPii`'s options with defaults applied, as the finders read them. */
export interface Resolved {
  defaultRegion: CountryCode;
  phoneRegions: readonly CountryCode[];
  /** `defaultRegion`, then the other `phoneRegions`: the order phone numbers are read in (made from them when absent). */
  phoneRegionOrder?: readonly CountryCode[];
  obfuscatedEmails: boolean;
  hasNhs: boolean;
  /**
   * The phone numbers in each run of digits judged in this call (empty when
   * its shape rules it out), kept across the scans of one `findPii` call
   * (it reads the text again with its values redacted) and never beyond: a
   * cache that outlived the call would keep the user's numbers in memory.
   */
  phoneVerdicts?: PhoneVerdicts;
}

/** Phone numbers (offsets in the run) per run of digits, as `Resolved.phoneVerdicts` keeps them. */
export type PhoneVerdicts = Map<string, Array<[number, number]>>;

/** One pattern entity: how to find it, how long a match can be, how it ranks in overlaps. */
export interface EntityFinder {
  find: Finder;
  /** The longest normalised text a match can span (for stream windows). */
  maxLength: number;
  /** Wins over lower priorities when two matches overlap. */
  priority: number;
}

/** A 128-entry table: 1 for the ASCII characters `pattern` matches. */
export function codeTable(pattern: RegExp): Uint8Array {
  const table = new Uint8Array(128);
  for (let code = 0; code < 128; code++)
    table[code] = pattern.test(String.fromCharCode(code)) ? 1 : 0;
  return table;
}

export const isInTable = (table: Uint8Array, code: number) => code < 128 && table[code] === 1;

/** `[A-Za-z0-9_]`: what `\w` reads (without the `u` and `i` flags). */
export function isWordCode(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 95
  );
}
