/**
 * Aho-Corasick over ASCII, shared by the scans that look for many literals
 * in one pass (secrets' provider literals and triggers, window mode's one
 * scan of the chain's filters). Needles are given as ASCII codes, already
 * folded as the caller reads text.
 */
export interface AsciiAutomaton<T> {
  /** `next[state * 128 + code]`: the state after reading ASCII `code` in `state` (the root is 0). */
  next: Int32Array;
  /** The values of the needles that end at each state, its failure states' included (own ones first). */
  found: T[][];
  /** The code read into each state (0 for the root). */
  lastCode: Int32Array;
}

/** Builds the automaton of `needles` (codes below 128; an empty needle is skipped). */
export function buildAsciiAutomaton<T>(
  needles: Iterable<{ codes: readonly number[]; value: T }>,
): AsciiAutomaton<T> {
  const goto: Array<Map<number, number>> = [new Map()];
  const found: T[][] = [[]];
  const lastCodes: number[] = [0];
  for (const { codes, value } of needles) {
    if (codes.length === 0) continue;
    let state = 0;
    for (const code of codes) {
      if (!(code >= 0 && code < 128)) throw new Error(`needle code beyond ASCII: ${code}`);
      let to = goto[state]!.get(code);
      if (to === undefined) {
        to = goto.length;
        goto.push(new Map());
        found.push([]);
        lastCodes.push(code);
        goto[state]!.set(code, to);
      }
      state = to;
    }
    found[state]!.push(value);
  }
  const next = new Int32Array(goto.length * 128);
  const fail = new Int32Array(goto.length);
  // Breadth first, so a state's failure state is complete before the state.
  const queue: number[] = [];
  for (let code = 0; code < 128; code++) {
    const to = goto[0]!.get(code) ?? 0;
    next[code] = to;
    if (to !== 0) queue.push(to);
  }
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head]!;
    const failed = fail[state]!;
    found[state]!.push(...found[failed]!);
    for (let code = 0; code < 128; code++) {
      const to = goto[state]!.get(code);
      if (to === undefined) {
        next[state * 128 + code] = next[failed * 128 + code]!;
      } else {
        next[state * 128 + code] = to;
        fail[to] = next[failed * 128 + code]!;
        queue.push(to);
      }
    }
  }
  return { next, found, lastCode: Int32Array.from(lastCodes) };
}
