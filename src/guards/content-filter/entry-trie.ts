import { SPACED_JOIN, SPACED_SPACE } from '../prompt-injection/fold-text';

/**
 * The trie of the entries: `children.get(node * 0x10000 + unit)` = child;
 * node 0 is the root. `backward`: each entry read from its last unit.
 */
export function entryTrie(terms: readonly string[], backward = false): Map<number, number> {
  const children = new Map<number, number>();
  let nodes = 1;
  for (const term of terms) {
    let node = 0;
    for (let i = 0; i < term.length; i++) {
      const key = node * 0x10000 + term.charCodeAt(backward ? term.length - 1 - i : i);
      let child = children.get(key);
      if (child === undefined) {
        child = nodes++;
        children.set(key, child);
      }
      node = child;
    }
  }
  return children;
}

/**
 * A walk of the entries' trie over the readings of a spaced-out run: begun
 * at the root (`begin`), then fed the run's units (`unit`) and the steps
 * between them (`step`, of the kinds `spacedStep` in fold-text gives), in
 * the order they stand. Each answers whether a reading is still the start
 * of an entry. `foldText` joins a run's units or, where a single blank cuts
 * its words, keeps the blank, so a `SPACED_SPACE` step reads as nothing or
 * as a blank; a `SPACED_JOIN` (one separator other than a blank) as
 * nothing; a `SPACED_BREAK` (two or three blanks) as a blank. A unit may
 * read two ways (a leetspeak character as itself and as its letter).
 */
export interface SpacedRunWalk {
  /** Starts a reading at the root of the trie. */
  begin(): void;
  /** Reads a unit as `code`, or as `other` too when it is not 0; true while some reading begins an entry. */
  unit(code: number, other?: number): boolean;
  /** Reads a step of the run by its kind; true while some reading begins an entry. */
  step(kind: number): boolean;
}

/**
 * The one walker of contentFilter's window hook over spaced-out runs
 * (round 40): its pre-test of a suffix that starts with spaced units
 * (`spacedLettersPrefixTest`) and its hold of a run ending the text
 * (`spelledRunHold`) both read the entries' trie through it. A reading of
 * at most `units` units, each with at most a blank before it, walks no
 * deeper than `2 × units` characters into an entry, so the trie holds the
 * entries' first `2 × units` characters only (memory bounded by the walk,
 * not by a long entry). The trie nodes a reading may have reached are kept
 * each once, by a stamp per node, in typed arrays reused from walk to walk
 * (round 39: `includes` on arrays emptied by `length = 0` was quadratic in
 * the live nodes and cost more than the reading). Each unit or step costs
 * a trie look-up per live node, at most two.
 */
export function spacedRunWalker(terms: readonly string[], units: number): SpacedRunWalk {
  const children = entryTrie(terms.map(term => term.slice(0, 2 * units)));
  const nodes = children.size + 1;
  let states = new Int32Array(nodes);
  let next = new Int32Array(nodes);
  let live = 0;
  const seen = new Uint32Array(nodes);
  let generation = 0;
  /** The live nodes after reading `code` (and `other`, if not 0), the ones before kept too when `keep`. */
  const read = (code: number, other: number, keep: boolean) => {
    // Most walks hold one live node (a run of letters in one reading): no
    // node can be reached twice from one, so no stamp is needed.
    if (live === 1) {
      const node = states[0]!;
      const key = node * 0x10000;
      const child = children.get(key + code);
      const otherChild = other === 0 ? undefined : children.get(key + other);
      let count = 0;
      if (keep) next[count++] = node;
      if (child !== undefined) next[count++] = child;
      if (otherChild !== undefined && otherChild !== child) next[count++] = otherChild;
      const swap = states;
      states = next;
      next = swap;
      live = count;
      return count > 0;
    }
    if (++generation === 0xffffffff) {
      seen.fill(0);
      generation = 1;
    }
    let count = 0;
    if (keep) {
      for (let at = 0; at < live; at++) {
        const node = states[at]!;
        seen[node] = generation;
        next[count++] = node;
      }
    }
    for (let at = 0; at < live; at++) {
      const node = states[at]! * 0x10000;
      const child = children.get(node + code);
      if (child !== undefined && seen[child] !== generation) {
        seen[child] = generation;
        next[count++] = child;
      }
      if (other === 0) continue;
      const otherChild = children.get(node + other);
      if (otherChild !== undefined && seen[otherChild] !== generation) {
        seen[otherChild] = generation;
        next[count++] = otherChild;
      }
    }
    const swap = states;
    states = next;
    next = swap;
    live = count;
    return count > 0;
  };
  return {
    begin() {
      states[0] = 0;
      live = 1;
    },
    unit: (code, other = 0) => read(code, other, false),
    step: kind => (kind === SPACED_JOIN ? live > 0 : read(32, 0, kind === SPACED_SPACE)),
  };
}
