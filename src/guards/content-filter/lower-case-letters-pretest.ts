/**
 * A pre-test of `contentFilter`'s check for text of lower-case ASCII
 * letters and spaces only (`q x b a …`, the spaced letters a window checks
 * over and over: round 42, issue 16), which rules out a match without
 * folding the text.
 *
 * Why it is sound. On such a text `T` (every unit in `[a-z ]`) the check
 * finds what its matcher finds in `foldText(T)`, and nothing else:
 * - folding changes only spelled-out runs and blanks there. No step before
 *   the runs are joined has a character of `T` to work on: `T` is its own
 *   NFKC form, lower case, and holds no invisible, leet, look-alike,
 *   small-capital, accented, enclosed, filler, private-use, turned or
 *   override character (each step first searches for its characters, none
 *   of which is an ASCII letter or the space; `foldWords` reads only words
 *   with a leet or non-ASCII character, so no leet character is read and
 *   the second reading, `plain`, is the first); so `foldText(T)` is
 *   `joinSpacedRuns(T)` with its blanks collapsed (and trailing ones
 *   dropped), and `F = foldText(T)` is again in `[a-z ]`;
 * - `joinSpacedRuns` replaces a run of at least four letters one separator
 *   apart (in `T` the only separator is the space) by its letters joined,
 *   each break of two or three blanks in it by one space (`joinSpaced`:
 *   no leet unit, so no word is read otherwise); a run starts after no
 *   letter and ends before none;
 * - the check's other readings add nothing: `F` has no joiner
 *   (`withJoinersBlank` leaves it), `T` no Markdown marker
 *   (`withoutEmphasis` leaves it), and no backslash, so no JSON escape to
 *   decode (`decodedJson` gives nothing to read again);
 * - round 44: the check also reads an entry inside a joined run
 *   (`spelled-run-entries.ts`): an entry of one word at any letter of one
 *   of the run's words, an entry of several words with its blanks dropped
 *   at any letter of the run, across its word breaks. Each letter of a run
 *   in `T` is the text's first unit or follows a space, and the run's next
 *   letter is one space on, or two or three (a word break).
 * So each word of `F` is read from `T` starting at a letter that is the
 * text's first unit or follows a space, each next letter of the word being
 * the unit after the last one read or the one after a single space (inside
 * a run), and each space of `F` is one or more spaces of `T`. A match of an
 * entry in `F` starts at a word start (no letter or digit before it), and
 * one inside a run at a letter of the run, so it is spelled in `T` along
 * such a walk: from a letter at a word start, each next letter of the
 * entry one unit on or over one to three spaces, each blank of the entry
 * over one or more spaces (an entry's blank dropped inside a run is one of
 * those two: its next letter is over one to three spaces). When no walk
 * spells a whole entry (an entry with a unit outside `[a-z ]` spells
 * nothing in `F`), the check passes the text: the pre-test says so, and the
 * check is not run. Every other text, and a walk past its step budget,
 * gets the check.
 *
 * Linear: at each unit at most one walk starts, and each walk takes at
 * most `WALK_STEPS` steps. `lower-case-letters-pretest.test.ts` compares
 * it with the check on many texts.
 */

/** Steps of one walk before the pre-test gives up (the check then runs). */
const WALK_STEPS = 64;

/** Most trie nodes (27 ints each: 1.7 MB at most); a longer list gets no pre-test. */
const MAX_NODES = 16_384;

const SPACE = 32;
const LOWER_A = 97;
/** The 27 units of the trie: `a`–`z` as 0–25, the space as 26. */
const SPACE_SLOT = 26;

/** A unit outside `[a-z ]`: the pre-test does not apply. */
const OUTSIDE = /[^a-z ]/;

function isLower(code: number): boolean {
  return code >= LOWER_A && code <= 122;
}

/**
 * The pre-test of `terms` (folded, blanks single): a function that is true
 * only when `text` is made of `[a-z ]` and the check of these terms
 * cannot match it (see above), or `undefined` when the list is too large.
 */
export function lowerCaseLettersCannotMatch(
  terms: readonly string[],
): ((text: string) => boolean) | undefined {
  const mayMatchFrom = lowerCaseLettersWalk(terms);
  if (mayMatchFrom === undefined) return undefined;
  return (text: string): boolean => {
    if (OUTSIDE.test(text)) return false;
    const length = text.length;
    for (let at = 0; at < length; at++) {
      if (!isLower(text.charCodeAt(at))) continue;
      if (at > 0 && text.charCodeAt(at - 1) !== SPACE) continue;
      if (mayMatchFrom(text, at)) return false;
    }
    return true;
  };
}

/**
 * The walk above from the letter at `start` of any text: true when it may
 * spell an entry of `terms` (or ran past its budget). A unit outside
 * `[a-z ]` ends the walk there (no entry is spelled through it), so on any
 * text it reads only `[a-z ]` from `start`, at most `2 × longest entry`
 * characters on (a run of spaces counting as one), and one unit more.
 * Undefined when the list is too large (as above). contentFilter's filter
 * walks so around spelled-out runs (`contentFilterMayMatch`, round 43).
 */
export function lowerCaseLettersWalk(
  terms: readonly string[],
): ((text: string, start: number) => boolean) | undefined {
  // Terms with a unit outside `[a-z ]` never match a folded text of such units.
  const spellable = terms.filter(term => !OUTSIDE.test(term));
  const total = spellable.reduce((sum, term) => sum + term.length, 0);
  if (total + 1 > MAX_NODES) return undefined;
  // children[node * 27 + slot] = child + 1 (0: none); ends: a term ends at the node.
  const children = new Int32Array((total + 1) * 27);
  const ends = new Uint8Array(total + 1);
  let nodes = 1;
  for (const term of spellable) {
    let node = 0;
    for (let at = 0; at < term.length; at++) {
      const code = term.charCodeAt(at);
      const slot = node * 27 + (code === SPACE ? SPACE_SLOT : code - LOWER_A);
      if (children[slot] === 0) children[slot] = ++nodes;
      node = children[slot]! - 1;
    }
    ends[node] = 1;
  }
  const child = (node: number, code: number): number =>
    code === SPACE
      ? children[node * 27 + SPACE_SLOT]! - 1
      : isLower(code)
        ? children[node * 27 + code - LOWER_A]! - 1
        : -1;
  // The walk's pending states (node, position of the letter last read): at
  // most two are pushed a step, and a walk takes WALK_STEPS steps.
  const stackNodes = new Int32Array(2 * WALK_STEPS + 2);
  const stackAt = new Int32Array(2 * WALK_STEPS + 2);

  /** True when a walk from the letter at `start` may spell an entry (or ran past its budget). */
  const mayMatchFrom = (text: string, start: number): boolean => {
    const first = child(0, text.charCodeAt(start));
    if (first < 0) return false;
    let size = 0;
    stackNodes[size] = first;
    stackAt[size++] = start;
    let steps = 0;
    const length = text.length;
    while (size > 0) {
      if (++steps > WALK_STEPS) return true;
      const node = stackNodes[--size]!;
      const at = stackAt[size]!;
      if (ends[node] === 1) return true;
      if (at + 1 >= length) continue;
      const next = text.charCodeAt(at + 1);
      if (next !== SPACE) {
        // The word's next letter, the unit after.
        const to = child(node, next);
        if (to >= 0) {
          stackNodes[size] = to;
          stackAt[size++] = at + 1;
        }
        continue;
      }
      let after = at + 1;
      while (after < length && text.charCodeAt(after) === SPACE) after++;
      if (after >= length) continue;
      // Over one to three spaces: the next letter of a spelled-out run
      // (over a word break of the run too: round 44, an entry of several
      // words read with the run's breaks dropped) ...
      if (after - at <= 4) {
        const to = child(node, text.charCodeAt(after));
        if (to >= 0) {
          stackNodes[size] = to;
          stackAt[size++] = after;
        }
      }
      // ... or a blank of the entry, over every space.
      const blank = child(node, SPACE);
      if (blank < 0) continue;
      const to = child(blank, text.charCodeAt(after));
      if (to >= 0) {
        stackNodes[size] = to;
        stackAt[size++] = after;
      }
    }
    return false;
  };
  return mayMatchFrom;
}
