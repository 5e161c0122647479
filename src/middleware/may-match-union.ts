import { buildAsciiAutomaton } from '../core/ascii-automaton';
import type { FilterTriggers, HookNotes } from '../core/filtered-hooks';

/**
 * One scan for the filters of a whole chain: `window` mode asks each
 * output guardrail's `mayMatch` on every check, three passes over the same
 * text for `pii`, `secrets` and `contentFilter`. When each of them declares
 * what it looks for (`FilterTriggers`), one pass over the text answers for
 * all: a table of ASCII characters (the flagged ones, a run's, the rare
 * ones to test where they stand, letters), one Aho-Corasick automaton over
 * every literal (folded to lower case, whitespace runs read as one blank),
 * and the few tests the triggers name.
 *
 * Returns `mayMatchAny(text)`: false only for a text of printable ASCII,
 * tabs and line breaks in which no trigger of any filter occurs, where every filter says false;
 * true otherwise (the window then asks the filters one by one, as without
 * it). Undefined when the triggers cannot share one scan (two runs of
 * different characters).
 */
export function mayMatchUnion(
  triggers: readonly FilterTriggers[],
): ((text: string) => boolean) | undefined {
  const node = cacheNode(triggers, []);
  if (!('mayMatchAny' in node)) {
    const scan = unionScan(triggers, []);
    node.mayMatchAny = scan && (text => scan(text) === MAY_MATCH);
  }
  return node.mayMatchAny;
}

/** What `unionScan` returns for a text some filter may match. */
export const MAY_MATCH = -1;

/**
 * The union's scan that also answers the chain's filtered hooks (a fused
 * pass, `core/filtered-hooks`' `FusedHook`): `MAY_MATCH` where
 * `mayMatchUnion` says true; else 1 + the last index at which one of
 * `notes` stands (a character) or ends (a literal, in any case), 0 when
 * none occurs. A note is noted, never missed; the scan may note more (a
 * literal across a run of blanks, `kind :` for `kind:`), never less.
 */
export function unionScan(
  triggers: readonly FilterTriggers[],
  notes: ReadonlyArray<HookNotes | undefined>,
): ((text: string) => number) | undefined {
  const node = cacheNode(triggers, notes);
  if (!('union' in node)) node.union = buildUnion(triggers, notes)?.scan;
  return node.union;
}

/**
 * Where the chain's one scan stopped in a text, to go on in a longer one
 * (`resumableUnionScan`): the scan's own state before the character at
 * `at`, indices counted in the text it was given (`shiftScan` moves them).
 */
export interface ScanState {
  /** Where the scan goes on: the end of the text, or the first test that read past it. */
  at: number;
  /** The literal automaton's row, the run's length, the letters just read. */
  row: number;
  runs: number;
  letters: number;
  /** 1 + the index of the last note before `at`, 0: none. */
  noted: number;
}

/** A state before any character: where a scan of a new text starts. */
export const scanStart = (): ScanState => ({ at: 0, row: 0, runs: 0, letters: 0, noted: 0 });

/** The state's indices `by` characters later (a text cut at its start: negative). */
export function shiftScan(state: ScanState, by: number): void {
  state.at += by;
  // No note stays none; one cut off with the text's start is none in it.
  if (state.noted > 0) state.noted = Math.max(0, state.noted + by);
}

/** `resumableUnionScan`'s scan, and how far behind where it goes on its tests read. */
export interface ResumableScan {
  scan: (text: string, state: ScanState) => number;
  left: number;
}

/**
 * `unionScan` that resumes: `scan(text, state)` reads `text` from
 * `state.at`, as if the scan had read the characters before it in the
 * state given (a state from a scan of an earlier text of which `text` is
 * a continuation, with `left` characters or more before `state.at`), and
 * answers for all the text read so far (`MAY_MATCH`, or 1 + the index of
 * the last note in `text`, 0: none in it). When it rules a match out, it
 * leaves in `state` where to go on: the end of the text, or before the
 * first test that read past it (asked again with what follows). Each test
 * reads `left` characters behind it at most, so the text may begin there.
 *
 * The answers are the union's answers on the whole text read since the
 * first state (each character read once): every test sees all it reads
 * (`FilterTriggers.reads`). Undefined when some filter does not declare
 * how far its tests read (or no union).
 */
export function resumableUnionScan(
  triggers: readonly FilterTriggers[],
  notes: ReadonlyArray<HookNotes | undefined>,
): ResumableScan | undefined {
  const node = cacheNode(triggers, notes);
  if (!('resumable' in node)) {
    const reads = triggers.map(declared => declared.reads);
    node.resumable = undefined;
    if (reads.every(read => read !== undefined)) {
      const core = buildUnion(triggers, notes);
      if (core) {
        node.resumable = {
          scan: core.resume,
          // One more: a letter standing alone is asked about at the character after it.
          left: 1 + Math.max(0, ...reads.map(read => read!.left)),
        };
      }
    }
  }
  return node.resumable;
}

/** The cache's place for a chain's triggers and notes: built once per chain, not per stream (the automaton takes a few milliseconds). */
function cacheNode(
  triggers: readonly FilterTriggers[],
  notes: ReadonlyArray<HookNotes | undefined>,
): UnionCache {
  let node: UnionCache = unions;
  for (const declared of [...triggers, ...notes.map(noted => noted ?? NO_NOTES)]) {
    let child = node.next.get(declared);
    if (child === undefined) {
      child = { next: new WeakMap() };
      node.next.set(declared, child);
    }
    node = child;
  }
  return node;
}

const NO_NOTES: HookNotes = { characters: '', literals: [] };

/** Unions built so far, by their chain's triggers and notes in order (weakly: a chain let go frees its union). */
interface UnionCache {
  next: WeakMap<FilterTriggers | HookNotes, UnionCache>;
  union?: ((text: string) => number) | undefined;
  mayMatchAny?: ((text: string) => boolean) | undefined;
  resumable?: ResumableScan | undefined;
}
const unions: UnionCache = { next: new WeakMap() };

/** A literal the scan notes rather than confirms (see `literalAutomaton`). */
const NOTE = () => false;

function buildUnion(
  triggers: readonly FilterTriggers[],
  notes: ReadonlyArray<HookNotes | undefined>,
):
  | { scan: (text: string) => number; resume: (text: string, state: ScanState) => number }
  | undefined {
  const classes = new Uint8Array(128);
  for (let code = 0; code < 128; code++) {
    if ((code | 0x20) >= 97 && (code | 0x20) <= 122) classes[code]! |= LETTER;
    // The triggers speak of printable ASCII, tabs and line breaks (the rest
    // is no plain prose to the built-ins' filters): anything else is maybe.
    if ((code < 32 && code !== 9 && code !== 10 && code !== 13) || code === 127) {
      classes[code]! |= FLAGGED;
    }
  }
  const nearTests: Array<Array<(text: string, at: number) => boolean>> = [];
  const singleTests: Array<(text: string, at: number) => boolean> = [];
  let run: { characters: string; length: number } | undefined;
  // How far right each kind of test reads (for a resumed scan: see `resume`).
  let nearRight = 0;
  let singleRight = 0;
  let confirmRight = 0;
  const literals: Array<{ literal: string; confirm?: (text: string, end: number) => boolean }> = [];
  for (const declared of triggers) {
    for (const code of asciiCodes(declared.characters)) classes[code]! |= FLAGGED;
    if (declared.run) {
      if (run === undefined) run = { ...declared.run };
      else if (sameCharacters(run.characters, declared.run.characters)) {
        run.length = Math.min(run.length, declared.run.length);
      } else {
        return undefined;
      }
    }
    const right = declared.reads?.right ?? 0;
    if (declared.near) {
      nearRight = Math.max(nearRight, right);
      const { test } = declared.near;
      for (const code of asciiCodes(declared.near.characters)) {
        // The scan asks at characters that end a letter run: a letter here is flagged instead (never less).
        classes[code]! |= (classes[code]! & LETTER) !== 0 ? FLAGGED : NEAR;
        nearTests[code] = [...(nearTests[code] ?? []), test];
      }
    }
    if (declared.singleLetter) {
      singleRight = Math.max(singleRight, right);
      singleTests.push(declared.singleLetter);
    }
    if (declared.literals.some(literal => literal.confirm !== undefined)) {
      confirmRight = Math.max(confirmRight, right);
    }
    literals.push(...declared.literals);
  }
  if (run) for (const code of asciiCodes(run.characters)) classes[code]! |= RUN;
  for (const noted of notes) {
    if (noted === undefined) continue;
    for (const code of asciiCodes(noted.characters)) classes[code]! |= NOTED;
    for (const literal of noted.literals) {
      // Noted as read (folded): a literal with a blank or beyond ASCII could be missed, so no union.
      if (!/^[\x21-\x7e]+$/.test(literal)) return undefined;
      literals.push({ literal, confirm: NOTE });
    }
  }
  const runLength = run ? Math.max(1, run.length) : Number.POSITIVE_INFINITY;
  const { rows, found, noting } = literalAutomaton(literals);
  const singleLetter = (text: string, at: number) => {
    for (const test of singleTests) if (test(text, at)) return true;
    return false;
  };
  const near = (code: number, text: string, at: number) => {
    for (const test of nearTests[code]!) if (test(text, at)) return true;
    return false;
  };
  const confirmed = (
    hits: ReadonlyArray<((text: string, end: number) => boolean) | undefined>,
    text: string,
    end: number,
  ) => {
    for (const confirm of hits) if (confirm === undefined || confirm(text, end)) return true;
    return false;
  };
  const anySingle = singleTests.length > 0;

  // Where a resumed scan goes on (`ScanState`): before the character at
  // `at`, the state as it was then, for the first test of a scan that read
  // past the text's end (each test asks about its own character, `at - 1`
  // for a letter standing alone, and the characters after it).
  const saveAt = (
    state: ScanState,
    at: number,
    row: number,
    runs: number,
    letters: number,
    noted: number,
  ) => {
    state.at = at;
    state.row = row;
    state.runs = runs;
    state.letters = letters;
    // A note at `at` itself is noted again when the scan reads it again.
    state.noted = noted;
    return at;
  };

  // The run's and the word's counts are kept as where they began
  // (`runFrom`, `wordFrom`), so a letter that the literals do not end at
  // (nearly every character of prose) costs its automaton step alone: the
  // counts are read where a character other than such a letter stands (or
  // at the text's end), and a run long enough to flag is found there (the
  // same verdict: it flags wherever it is found).
  const counted = run !== undefined;
  // The class of a letter with nothing to test but the literals: in the run, when there is one.
  const plainLetter = counted ? LETTER | RUN : LETTER;
  const resume = (text: string, state: ScanState): number => {
    // The tables as locals: the loop reads them from registers, not from the closure.
    const kinds = classes;
    const next = rows;
    const end = text.length;
    let row = state.row;
    // Where the run of run characters and the run of letters before `at` began.
    let runFrom = state.at - state.runs;
    let wordFrom = state.at - state.letters;
    let noted = state.noted;
    // Where the next scan goes on, when a test read past the end (-1: none did).
    let again = -1;
    for (let at = state.at; at < end; at++) {
      const code = text.charCodeAt(at);
      if (code >= 128) return MAY_MATCH;
      const kind = kinds[code]!;
      if (kind === plainLetter) {
        const to = next[row + code]!;
        if (to >= 0) {
          row = to;
          continue;
        }
        // A literal ends here: asked below.
      }
      if ((kind & (FLAGGED | NOTED)) !== 0) {
        if ((kind & FLAGGED) !== 0) return MAY_MATCH;
        noted = at + 1;
      }
      // Before this character: the run's length (0 when it ends here: it starts again after it).
      let runsBefore = 0;
      if ((kind & RUN) === 0) {
        if (at - runFrom >= runLength) return MAY_MATCH;
        runFrom = at + 1;
      } else {
        runsBefore = at - runFrom;
        if (runsBefore + 1 >= runLength) return MAY_MATCH;
      }
      let lettersBefore = 0;
      if ((kind & LETTER) === 0) {
        lettersBefore = at - wordFrom;
        wordFrom = at + 1;
        if (lettersBefore === 1 && anySingle) {
          if (again < 0 && at - 1 + singleRight >= end) {
            again = saveAt(state, at, row, runsBefore, 1, noted);
          }
          if (singleLetter(text, at - 1)) return MAY_MATCH;
        }
        if ((kind & NEAR) !== 0) {
          if (again < 0 && at + nearRight >= end) {
            again = saveAt(state, at, row, runsBefore, lettersBefore, noted);
          }
          if (near(code, text, at)) return MAY_MATCH;
        }
      }
      const from = row;
      row = next[row + code]!;
      if (row < 0) {
        row = -row;
        const reached = row >> 7;
        if (noting[reached] === 1) noted = at + 1;
        const hits = found[reached]!;
        if (hits.length > 0) {
          if (again < 0 && at + confirmRight >= end) {
            const before = (kind & LETTER) !== 0 ? at - wordFrom : lettersBefore;
            again = saveAt(state, at, from, runsBefore, before, noted);
          }
          if (confirmed(hits, text, at + 1)) return MAY_MATCH;
        }
      }
    }
    if (end - runFrom >= runLength) return MAY_MATCH;
    const letters = end - wordFrom;
    if (letters === 1 && anySingle && singleLetter(text, end - 1)) return MAY_MATCH;
    if (again < 0) saveAt(state, end, row, counted ? end - runFrom : 0, letters, noted);
    return noted;
  };
  // A scan of a whole text: from its start, in a state of its own.
  const fresh = scanStart();
  const scan = (text: string) => {
    fresh.at = 0;
    fresh.row = 0;
    fresh.runs = 0;
    fresh.letters = 0;
    fresh.noted = 0;
    return resume(text, fresh);
  };
  return { scan, resume };
}

// Character classes of the scan's table.
const FLAGGED = 1;
const RUN = 2;
const NEAR = 4;
const LETTER = 8;
const NOTED = 16;

function asciiCodes(characters: string): number[] {
  const codes: number[] = [];
  for (let at = 0; at < characters.length; at++) {
    const code = characters.charCodeAt(at);
    if (code < 128) codes.push(code);
  }
  return codes;
}

function sameCharacters(a: string, b: string): boolean {
  const set = (text: string) => [...new Set(asciiCodes(text))].sort((x, y) => x - y).join();
  return set(a) === set(b);
}

const isBlank = (code: number) => code === 32 || (code >= 9 && code <= 13);
/** ASCII in lower case, any blank as a space. */
const fold = (code: number) => (isBlank(code) ? 32 : code >= 65 && code <= 90 ? code | 0x20 : code);

/**
 * Aho-Corasick over the literals, folded (`fold`), with runs of blanks read
 * as one: after a blank, another blank stays in the same state. `rows[row +
 * code]` for any ASCII `code` is the next state's row (`state * 128`),
 * negated where literals end; `found[state]` holds their `confirm` (undefined:
 * no confirmation needed). A literal beyond ASCII cannot occur in an ASCII
 * text and is left out; blanks at its ends are trimmed (it then matches
 * more, never less).
 */
function literalAutomaton(
  literals: ReadonlyArray<{ literal: string; confirm?: (text: string, end: number) => boolean }>,
) {
  type Confirm = ((text: string, end: number) => boolean) | undefined;
  const needles: Array<{ codes: number[]; value: Confirm }> = [];
  for (const { literal, confirm } of literals) {
    const codes: number[] = [];
    for (let at = 0; at < literal.length; at++) {
      const code = literal.charCodeAt(at);
      if (code >= 128) {
        codes.length = 0;
        break;
      }
      const folded = fold(code);
      if (folded === 32 && (codes.length === 0 || codes[codes.length - 1] === 32)) continue;
      codes.push(folded);
    }
    while (codes[codes.length - 1] === 32) codes.pop();
    needles.push({ codes, value: confirm });
  }
  const { next, found: ends, lastCode } = buildAsciiAutomaton(needles);
  const states = ends.length;
  const rows = new Int32Array(next.length);
  for (let state = 0; state < states; state++) {
    for (let code = 0; code < 128; code++) {
      const folded = fold(code);
      // A blank after a blank: the run reads as one.
      const to = folded === 32 && lastCode[state] === 32 ? state : next[state * 128 + folded]!;
      rows[state * 128 + code] = ends[to]!.length > 0 ? -to * 128 : to * 128;
    }
  }
  // Where noted literals end (`NOTE`): marked, and left out of the confirmations.
  const noting = new Uint8Array(states);
  const found = ends.map((hits, state) => {
    if (!hits.includes(NOTE)) return hits;
    noting[state] = 1;
    return hits.filter(hit => hit !== NOTE);
  });
  return { rows, found, noting };
}
