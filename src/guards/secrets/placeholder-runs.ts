import { nerEntities } from '../pii/ner/labels';
import { secretTypesFor } from './secret-types';

/**
 * The names the chain's own redaction writes as `[NAME]` or `[NAME_n]`:
 * every entity type of `findPii`, its patterns' (named here so that
 * `secrets` loads none of `pii`'s finders; a test checks them against
 * `allPiiEntities`) and the tagger's, and every type `findSecrets` reports.
 * A caller's own placeholder names are not in it: such a run is read as
 * any other.
 */
const placeholderNames: ReadonlySet<string> = new Set([
  ...'EMAIL_ADDRESS PHONE_NUMBER CREDIT_CARD IBAN_CODE US_SSN US_ITIN IP_ADDRESS URL MAC_ADDRESS CRYPTO UK_NINO UK_NHS'.split(
    ' ',
  ),
  ...nerEntities,
  ...secretTypesFor(),
]);

/** The most digits of a numbered placeholder's `_n`. */
const maxNumberDigits = 4;

/** By ASCII code: a name's character (`A`-`Z`, `_`, `0`-`9`) as 0-36; -1 for any other. */
const symbols = (() => {
  const table = new Int8Array(128).fill(-1);
  for (let code = 65; code <= 90; code++) table[code] = code - 65;
  table[95] = 26;
  for (let code = 48; code <= 57; code++) table[code] = code - 21;
  return table;
})();

function nameSymbol(code: number): number {
  return code < 128 ? symbols[code]! : -1;
}

/**
 * `placeholderNames` as a trie over `nameSymbol`s: `next[state * 37 +
 * symbol]` the state after a character (0: none; the root is 1), `named[state]`
 * 1 where a name ends. Read one character at a time, no name sliced (a
 * slice and a set lookup per placeholder cost more than the scans saved).
 */
const { next, named } = (() => {
  const edges: number[] = new Array(2 * 37).fill(0);
  const ends: number[] = [0, 0];
  for (const name of placeholderNames) {
    let state = 1;
    for (let at = 0; at < name.length; at++) {
      const symbol = nameSymbol(name.charCodeAt(at));
      if (symbol < 0) throw new Error(`placeholder name ${name}: only A-Z, 0-9 and _`);
      let target = edges[state * 37 + symbol]!;
      if (target === 0) {
        target = ends.length;
        ends.push(0);
        for (let each = 0; each < 37; each++) edges.push(0);
        edges[state * 37 + symbol] = target;
      }
      state = target;
    }
    ends[state] = 1;
  }
  return { next: Int32Array.from(edges), named: Uint8Array.from(ends) };
})();

/** Whether `source[from, to)` is one of `placeholderNames`. */
function isName(source: string, from: number, to: number): boolean {
  let state = 1;
  for (let at = from; at < to && state !== 0; at++) {
    const symbol = nameSymbol(source.charCodeAt(at));
    if (symbol < 0) return false;
    state = next[state * 37 + symbol]!;
  }
  return state !== 0 && named[state] === 1;
}

/**
 * Where the placeholder starting at `at` (its `[`) in `source[at, end)`
 * ends (after its `]`): a name of `placeholderNames`, or one and `_n`
 * (1 to 4 digits); -1 when there is none. The name is read once, through
 * the trie; only a name the trie does not end (`_n`) is read again.
 */
function placeholderEnd(source: string, at: number, end: number): number {
  if (source.charCodeAt(at) !== 91) return -1;
  let state = 1;
  let index = at + 1;
  for (; index < end; index++) {
    const symbol = nameSymbol(source.charCodeAt(index));
    if (symbol < 0) break;
    state = next[state * 37 + symbol]!;
    if (state === 0) break;
  }
  if (state !== 0 && index < end && source.charCodeAt(index) === 93 && named[state] === 1) {
    return index + 1;
  }
  return numberedEnd(source, at, end);
}

/** `placeholderEnd` of a numbered placeholder (`[PHONE_NUMBER_2]`): -1 when it is none. */
function numberedEnd(source: string, at: number, end: number): number {
  let close = at + 1;
  while (close < end && nameSymbol(source.charCodeAt(close)) >= 0) close++;
  if (close === end || source.charCodeAt(close) !== 93) return -1;
  let digits = close;
  while (digits > at + 1 && close - digits < maxNumberDigits) {
    const code = source.charCodeAt(digits - 1);
    if (code < 48 || code > 57) break;
    digits--;
  }
  const underscore = digits - 1;
  if (digits === close || underscore <= at + 1 || source.charCodeAt(underscore) !== 95) return -1;
  return isName(source, at + 1, underscore) ? close + 1 : -1;
}

/**
 * Whether `source[start, end)` is only the chain's placeholders
 * (`[EMAIL_ADDRESS]`, `[PHONE_NUMBER_2]`), one after another or joined by
 * a `,` or `;` each (`[EMAIL_ADDRESS],[EMAIL_ADDRESS]`), and nothing else.
 */
export function isPlaceholderRun(source: string, start: number, end: number): boolean {
  let at = start;
  while (at < end) {
    at = placeholderEnd(source, at, end);
    if (at < 0) return false;
    if (at < end) {
      const code = source.charCodeAt(at);
      if (code === 44 || code === 59) {
        at++;
        if (at === end) return false;
      }
    }
  }
  return true;
}

/**
 * `runs` (`printableRuns`' flat `[start, end, …]`, in text order) without
 * the runs that are only the chain's placeholders (`isPlaceholderRun`);
 * `runs` itself when there are none. The provider scans that read runs (the
 * literals near tokens and keyed values, glued keys, keys split across a
 * blank) can find nothing in such a run: their literals there would start
 * a token inside a name of capitals and `_`, between brackets, that no
 * rule's value takes (`[` and `]` are no token's characters, and no keyed
 * value starts after one); a run that holds anything else (a key glued to
 * a placeholder, `[EMAIL_ADDRESS]ghp_…`; a caller's own `[AKIA…]`) is read
 * as before. A redacted flood of short values (`[EMAIL_ADDRESS]` 150,000
 * times) was half the chain's time in those scans (round 47).
 */
export function withoutPlaceholderRuns(source: string, runs: Int32Array): Int32Array {
  let kept: Int32Array | undefined;
  let count = 0;
  for (let run = 0; run < runs.length; run += 2) {
    const start = runs[run]!;
    const end = runs[run + 1]!;
    if (
      source.charCodeAt(start) === 91 &&
      source.charCodeAt(end - 1) === 93 &&
      isPlaceholderRun(source, start, end)
    ) {
      if (kept === undefined) {
        kept = new Int32Array(runs.length);
        kept.set(runs.subarray(0, run));
        count = run;
      }
      continue;
    }
    if (kept !== undefined) {
      kept[count++] = start;
      kept[count++] = end;
    }
  }
  return kept === undefined ? runs : kept.subarray(0, count);
}
