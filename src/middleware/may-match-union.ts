import { buildAsciiAutomaton } from '../core/ascii-automaton';
import type { FilterTriggers } from '../core/filtered-hooks';

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
 *
 * `mayMatchAny(text, memory, from)`: the same answer (or maybe more often)
 * reading only `text.slice(from)`, when `text.slice(0, from)` is the end of
 * the text the scan that last wrote `memory` read and said false about
 * (window mode's next check: the tail it keeps and the text received
 * since); see `UnionMemory`. Without a valid memory, or `from` below 2, it
 * reads the whole text. Either way it writes `memory` for the next.
 */
export type UnionScan = (text: string, memory?: UnionMemory, from?: number) => boolean;

/** See `UnionScan`. */
export function mayMatchUnion(triggers: readonly FilterTriggers[]): UnionScan | undefined {
  // Built once per chain, not per stream (the automaton takes a few milliseconds).
  let node: UnionCache = unions;
  for (const declared of triggers) {
    let child = node.next.get(declared);
    if (child === undefined) {
      child = { next: new WeakMap() };
      node.next.set(declared, child);
    }
    node = child;
  }
  if (!('union' in node)) node.union = buildUnion(triggers);
  return node.union;
}

/** Unions built so far, by their chain's triggers in order (weakly: a chain let go frees its union). */
interface UnionCache {
  next: WeakMap<FilterTriggers, UnionCache>;
  union?: UnionScan | undefined;
}
const unions: UnionCache = { next: new WeakMap() };

function buildUnion(triggers: readonly FilterTriggers[]): UnionScan | undefined {
  const classes = new Uint16Array(128);
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
    if (declared.near) {
      const { test } = declared.near;
      for (const code of asciiCodes(declared.near.characters)) {
        // The scan asks at characters that end a letter run: a letter here is flagged instead (never less).
        classes[code]! |= (classes[code]! & LETTER) !== 0 ? FLAGGED : NEAR;
        nearTests[code] = [...(nearTests[code] ?? []), test];
      }
    }
    if (declared.singleLetter) singleTests.push(declared.singleLetter);
    literals.push(...declared.literals);
  }
  if (run) for (const code of asciiCodes(run.characters)) classes[code]! |= RUN;
  const runLength = run ? Math.max(1, run.length) : Number.POSITIVE_INFINITY;
  const { rows, found, columns, columnOf } = literalAutomaton(literals);
  // Each character's column of the automaton's rows, above its class bits.
  for (let code = 0; code < 128; code++) classes[code]! |= columnOf[code]! << COLUMN_SHIFT;
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
  /** The test of a site a scan remembers (`UnionMemory`), asked again about `text`. */
  const site = (kind: number, arg: number, text: string, at: number) =>
    kind === SITE_LITERAL
      ? confirmed(found[arg / columns]!, text, at)
      : kind === SITE_NEAR
        ? near(arg, text, at)
        : singleLetter(text, at);

  /** The same scan, resumed at `from` when `memory` allows, writing `memory` (see `UnionScan`). */
  const scanOn = (text: string, memory: UnionMemory, from: number) => {
    let row = 0;
    let runs = 0;
    let letters = 0;
    // Sites kept in `memory` (compacted to its front, then the new ones).
    let kept = 0;
    let start = 0;
    const resumable = memory.valid && from >= 2 && from <= text.length;
    memory.valid = false;
    if (resumable) {
      // What a scan of `text` from its start would ask before `from`: the
      // sites of the text scanned before that fall in `text` (a scan from
      // its start meets fewer, never others: see `UnionMemory`)...
      const { kinds, ats, args, count } = memory;
      for (let index = 0; index < count; index++) {
        const at = from + ats[index]!;
        if (at < 0) continue;
        const kind = kinds[index]!;
        const arg = args[index]!;
        if (site(kind, arg, text, at)) return true;
        kinds[kept] = kind;
        ats[kept] = at;
        args[kept] = arg;
        kept++;
      }
      // ...and a letter at its start standing alone there (its left is cut off).
      if (anySingle && isAsciiLetter(text.charCodeAt(0)) && !isAsciiLetter(text.charCodeAt(1))) {
        if (singleLetter(text, 0)) return true;
      }
      ({ row, runs, letters } = memory);
      start = from;
    }
    for (let at = start; at < text.length; at++) {
      const code = text.charCodeAt(at);
      if (code >= 128) return true;
      const kind = classes[code]!;
      if ((kind & FLAGGED) !== 0) return true;
      if ((kind & RUN) === 0) runs = 0;
      else if (++runs >= runLength) return true;
      if ((kind & LETTER) !== 0) letters++;
      else {
        if (letters === 1 && anySingle) {
          if (singleLetter(text, at - 1)) return true;
          kept = remember(memory, kept, SITE_SINGLE, at - 1, 0);
        }
        letters = 0;
        if ((kind & NEAR) !== 0) {
          if (near(code, text, at)) return true;
          kept = remember(memory, kept, SITE_NEAR, at, code);
        }
      }
      row = rows[row + (kind >> COLUMN_SHIFT)]!;
      if (row < 0) {
        row = -row;
        if (confirmed(found[row / columns]!, text, at + 1)) return true;
        kept = remember(memory, kept, SITE_LITERAL, at + 1, row);
      }
    }
    if (letters === 1 && anySingle && singleLetter(text, text.length - 1)) return true;
    // Positions from the end; sites further back than `keep` are let go.
    const { kinds, ats, args, keep } = memory;
    let count = 0;
    for (let index = 0; index < kept; index++) {
      const at = ats[index]! - text.length;
      if (at < -keep) continue;
      kinds[count] = kinds[index]!;
      ats[count] = at;
      args[count] = args[index]!;
      count++;
    }
    memory.count = count;
    memory.row = row;
    memory.runs = runs;
    memory.letters = letters;
    memory.valid = true;
    return false;
  };

  // Without a memory, the whole text (one kept here, remembering nothing).
  const none = unionMemory(0);
  return (text, memory, from = 0) => scanOn(text, memory ?? none, memory ? from : 0);
}

/**
 * What a scan that said false leaves for the next scan of a text that
 * continues it (`UnionScan`'s `memory`): the scan's state at the end of its
 * text, and its sites, the positions where it asked a test and heard false
 * (a literal's confirmation, a rare character's test, a letter standing
 * alone), counted back from the end, the last `keep` characters' only.
 *
 * A scan of `text` resumed at `from` (`text.slice(0, from)` is the end of
 * the text scanned before) gives what a scan of `text` from its start gives
 * or says maybe more often: from `from` on, its state has read more text
 * than `text` holds (the automaton is in a deeper state, whose literals
 * include the shallower one's; the run and letter counts are as long or
 * longer, and equal wherever a letter stands alone after its second
 * character), and before `from` a scan from the start meets no character
 * the scan before did not pass, and asks its tests only at sites the scan
 * before met (or at a letter standing alone at the very start, whose left
 * is cut off), which are asked again about `text`, since what follows them
 * has changed.
 */
export interface UnionMemory {
  /** True when the last scan said false (its state and sites are below). */
  valid: boolean;
  row: number;
  runs: number;
  letters: number;
  /** The sites: `count` of each of these (kind, position from the end, the automaton's row or the character). */
  count: number;
  kinds: number[];
  ats: number[];
  args: number[];
  keep: number;
}

/** A memory for scans that continue each other, keeping sites in the last `keep` characters. */
export function unionMemory(keep: number): UnionMemory {
  return {
    valid: false,
    row: 0,
    runs: 0,
    letters: 0,
    count: 0,
    kinds: [],
    ats: [],
    args: [],
    keep,
  };
}

function remember(memory: UnionMemory, kept: number, kind: number, at: number, arg: number) {
  memory.kinds[kept] = kind;
  memory.ats[kept] = at;
  memory.args[kept] = arg;
  return kept + 1;
}

const isAsciiLetter = (code: number) => (code | 0x20) >= 97 && (code | 0x20) <= 122;

// Sites a scan remembers.
const SITE_SINGLE = 0;
const SITE_NEAR = 1;
const SITE_LITERAL = 2;

// Character classes of the scan's table.
const FLAGGED = 1;
const RUN = 2;
const NEAR = 4;
const LETTER = 8;
/** Where a character's column of the automaton starts in its class. */
const COLUMN_SHIFT = 4;

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
  // One column per folded character the literals hold, and column 0 for
  // every other (which leads back to the root from any state): a table a
  // few times smaller than one of 128 columns, so the rows a scan of prose
  // visits stay in the processor's cache between checks.
  const columnOf = new Uint8Array(128);
  const codeOf = [0];
  for (const { codes } of needles) {
    for (const code of codes) {
      if (columnOf[code] === 0) {
        columnOf[code] = codeOf.length;
        codeOf.push(code);
      }
    }
  }
  for (let code = 0; code < 128; code++) columnOf[code] = columnOf[fold(code)]!;
  const columns = codeOf.length;
  const rows = new Int32Array(states * columns);
  for (let state = 0; state < states; state++) {
    for (let column = 1; column < columns; column++) {
      const folded = codeOf[column]!;
      // A blank after a blank: the run reads as one.
      const to = folded === 32 && lastCode[state] === 32 ? state : next[state * 128 + folded]!;
      rows[state * columns + column] = ends[to]!.length > 0 ? -to * columns : to * columns;
    }
  }
  return { rows, found: ends, columns, columnOf };
}
