/**
 * Whether the strings of a JSON text hold a piece a typed key can be joined
 * from: the column reading of `split-array-strings.ts` (round 24) parsed
 * every JSON text with an object, about 50-110 ms a megabyte, and what it
 * joins is only kept when a provider rule matches across two strings or
 * more. Every such match holds its rule's literal (`ghp_`, `sk-`, `AKIA`,
 * `://`, `:AA`): in one string, or cut between two (`"gh"` then `"p_q8…"`,
 * or over three: `"g"`, `"h"`, `"p_…"`). So a text none of whose strings
 * holds a literal, and none of whose strings ends with a literal's head while
 * another starts with the rest of that literal, has nothing the columns can
 * add (round 25).
 */
import { providerRules } from './provider-rules';

/** Rules whose findings the joined strings' reading drops (see `UNTYPED` there). */
const UNTYPED_RULES = new Set(['GENERIC_SECRET']);

/**
 * The literals of the typed rules: two characters or more. Left out: the
 * Discord token's `.` (a one-character anchor that every e-mail address,
 * file name and URL holds: such a token cut over records is not read by
 * columns, only a flat array or one-string records join it).
 */
const literals = (() => {
  const all = new Set<string>();
  for (const { type, anchor } of providerRules) {
    if (UNTYPED_RULES.has(type)) continue;
    for (const literal of [...anchor.literals, ...(anchor.contains ?? [])]) {
      if (literal.length >= 2) all.add(literal);
    }
  }
  return [...all];
})();

/** One regular expression for all literals: one pass over the text. */
const anyLiteral = new RegExp(
  literals.map(literal => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'),
);

/** A literal's head (its first `j` characters) and the rest: `cut` names the pair. */
const headCuts = new Map<string, number[]>();
/** Every text a string can end with that is the end of some head (a string ending so may go on). */
const headEnds = new Set<string>();
/** A literal's rest after a cut, by cut. */
const rests: string[] = [];
/** Every beginning of a rest, with the cuts whose rest begins so. */
const restStarts = new Map<string, number[]>();
let longestHead = 0;
let longestRest = 0;
for (const literal of literals) {
  for (let j = 1; j < literal.length; j++) {
    const cut = rests.length;
    const head = literal.slice(0, j);
    const rest = literal.slice(j);
    rests.push(rest);
    headCuts.set(head, [...(headCuts.get(head) ?? []), cut]);
    for (let from = 0; from < head.length; from++) headEnds.add(head.slice(from));
    for (let to = 1; to <= rest.length; to++) {
      const start = rest.slice(0, to);
      restStarts.set(start, [...(restStarts.get(start) ?? []), cut]);
    }
    longestHead = Math.max(longestHead, head.length);
    longestRest = Math.max(longestRest, rest.length);
  }
}

/**
 * Reads the strings of one JSON text, one `add` per string: true from then
 * on (`found`) when a string holds an escape (read decoded, so not judged
 * here) or a literal's cut pair has been seen (a string ending with its
 * head, one starting with its rest or being a beginning of it). Literals
 * inside one string are `holdsLiteral`'s, asked once of the whole text.
 * Each string reads at most a literal's length at each end: linear.
 */
export class KeyPieces {
  found = false;
  private readonly ends = new Uint8Array(rests.length);
  private readonly starts = new Uint8Array(rests.length);

  /** The string `json[start, end)`, as written (`escaped`: it holds an escape). */
  add(json: string, start: number, end: number, escaped: boolean): void {
    if (this.found || end <= start) return;
    if (escaped) {
      this.found = true;
      return;
    }
    const length = end - start;
    // Its end: each head it ends with.
    for (let j = 1; j <= Math.min(longestHead, length); j++) {
      const tail = json.slice(end - j, end);
      if (!headEnds.has(tail)) break;
      for (const cut of headCuts.get(tail) ?? []) {
        if (this.starts[cut] === 1) {
          this.found = true;
          return;
        }
        this.ends[cut] = 1;
      }
    }
    // Its start: each rest it starts with, or that starts with all of it.
    for (let k = 1; k <= Math.min(longestRest, length); k++) {
      const begin = json.slice(start, start + k);
      const cuts = restStarts.get(begin);
      if (cuts === undefined) break;
      for (const cut of cuts) {
        if (k !== length && rests[cut]!.length !== k) continue;
        if (this.ends[cut] === 1) {
          this.found = true;
          return;
        }
        this.starts[cut] = 1;
      }
    }
  }
}

/** Whether `json` holds a typed rule's literal anywhere (a superset of "in one string"). */
export function holdsLiteral(json: string): boolean {
  return anyLiteral.test(json);
}
