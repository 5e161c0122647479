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
 * nothing; a `SPACED_BREAK` (two or three blanks) as a blank. Since round
 * 44 contentFilter also reads an entry of several words inside a run with
 * its blanks dropped and the run's word breaks dropped
 * (`spelled-run-entries.ts`): an entry's blank may then stand at any step,
 * and any step may read as nothing, so every step reads as nothing or as a
 * blank. A unit may read two ways (a leetspeak character as itself and as
 * its letter).
 */
export interface SpacedRunWalk {
  /** Starts a reading at the root of the trie. */
  begin(): void;
  /** Reads a unit as `code`, or as `other` too when it is not 0; true while some reading begins an entry. */
  unit(code: number, other?: number): boolean;
  /** Reads a step of the run (any kind: as nothing or a blank); true while some reading begins an entry. */
  step(): boolean;
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
export function spacedRunWalker(
  terms: readonly string[],
  units: number,
  /** The most cells of its table of ASCII children (`denseChildren`; 0: the map alone, for the test that compares). */
  cells = DENSE_CELLS,
): SpacedRunWalk {
  const children = entryTrie(terms.map(term => term.slice(0, 2 * units)));
  const nodes = children.size + 1;
  const childOf = denseChildren(children, nodes, cells);
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
      const child = childOf(node, code);
      const otherChild = other === 0 ? -1 : childOf(node, other);
      let count = 0;
      if (keep) next[count++] = node;
      if (child >= 0) next[count++] = child;
      if (otherChild >= 0 && otherChild !== child) next[count++] = otherChild;
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
      const node = states[at]!;
      const child = childOf(node, code);
      if (child >= 0 && seen[child] !== generation) {
        seen[child] = generation;
        next[count++] = child;
      }
      if (other === 0) continue;
      const otherChild = childOf(node, other);
      if (otherChild >= 0 && seen[otherChild] !== generation) {
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
    // Every kind reads as nothing or as a blank (see `SpacedRunWalk`).
    step: () => read(32, 0, true),
  };
}

/** The most cells of a walker's table of ASCII children (1 MB); past it, the trie's map alone. */
const DENSE_CELLS = 1 << 18;

/**
 * The child of `node` under `unit` in `children` (an `entryTrie` of
 * `nodes` nodes), -1 for none. Round 41: children under ASCII units are
 * read from a table (`cells[node × width + columns[unit]]` = child + 1, a
 * unit no entry has: no column), not the map, which was about a fifth of
 * contentFilter's window hook on spaced letters (a `Map.get` per live
 * node, unit and step); other units, and every unit when the table would
 * pass `most` (`DENSE_CELLS`), from the map.
 */
function denseChildren(
  children: ReadonlyMap<number, number>,
  nodes: number,
  most: number,
): (node: number, unit: number) => number {
  const columns = new Int16Array(0x80).fill(-1);
  let width = 0;
  for (const key of children.keys()) {
    const unit = key % 0x10000;
    if (unit < 0x80 && columns[unit] === -1) columns[unit] = width++;
  }
  const fromMap = (node: number, unit: number) => children.get(node * 0x10000 + unit) ?? -1;
  if (nodes * width > most || width === 0) return fromMap;
  const cells = new Int32Array(nodes * width);
  for (const [key, child] of children) {
    const unit = key % 0x10000;
    if (unit < 0x80) cells[Math.floor(key / 0x10000) * width + columns[unit]!] = child + 1;
  }
  return (node, unit) => {
    if (unit >= 0x80) return fromMap(node, unit);
    const column = columns[unit]!;
    return column < 0 ? -1 : cells[node * width + column]! - 1;
  };
}
