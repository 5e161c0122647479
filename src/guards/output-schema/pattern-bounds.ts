import { RE2JS, RE2JSException } from 're2js';
import { lineEndsOf, re2LineEnds, re2Source } from '../shared/re2-regexp';

/** A user's `RegExp`, compiled for RE2 (linear time), with what window streams need to know of it. */
export interface CompiledPattern {
  /** The pattern as the user gave it (for reasons and errors). */
  source: RegExp;
  /** The same pattern on RE2: a search costs time linear in the text. */
  re2: RE2JS;
  /**
   * The longest text (UTF-16 code units) a match can span; `Infinity` when
   * the pattern repeats without bound (`*`, `+`, `{n,}`).
   */
  maxMatchLength: number;
  /** True when the pattern asserts the start or end of the text or a line (`^`, `$`). */
  anchored: boolean;
  /** Whether the text matches, as the JavaScript pattern matches it (its `m` line ends included). */
  test(text: string): boolean;
}

// RE2's program instructions (re2js `Inst`).
const ALT = 1;
const ALT_MATCH = 2;
const CAPTURE = 3;
const EMPTY_WIDTH = 4;
const FAIL = 5;
const MATCH = 6;
const NOP = 7;
const RUNE = 8;
const RUNE1 = 9;
const RUNE_ANY = 10;
const RUNE_ANY_NOT_NL = 11;
/** `EMPTY_WIDTH` flags for `^` and `$` (line and text); word boundaries are not anchors. */
const LINE_OR_TEXT_EDGE = 1 | 2 | 4 | 8;

interface Inst {
  op: number;
  out: number;
  arg: number;
  runes: ArrayLike<number>;
}

/** UTF-16 code units one rune instruction consumes at most: 2 when it can match outside the BMP. */
function runeUnits(inst: Inst): number {
  if (inst.op === RUNE_ANY || inst.op === RUNE_ANY_NOT_NL) return 2;
  for (let i = 0; i < inst.runes.length; i++) if (inst.runes[i]! > 0xffff) return 2;
  return 1;
}

/**
 * The longest match of a compiled RE2 program, in UTF-16 code units, and
 * whether it asserts a line or text edge: the longest path from the start
 * to a `MATCH` instruction, each rune instruction counting 1 or 2. A cycle
 * (a repetition without bound) makes it `Infinity`. An instruction it does
 * not know (a future re2js) also gives `Infinity`: the caller then treats
 * the pattern as unbounded, which fails closed.
 */
function programBounds(prog: { inst: Inst[]; start: number }): {
  maxMatchLength: number;
  anchored: boolean;
} {
  const { inst } = prog;
  const longest = new Array<number>(inst.length);
  // 0 unvisited, 1 on the path being explored, 2 done.
  const state = new Uint8Array(inst.length);
  let anchored = false;
  let unbounded = false;
  const successors = (node: Inst): number[] => {
    switch (node.op) {
      case ALT:
      case ALT_MATCH:
        return [node.out, node.arg];
      case CAPTURE:
      case EMPTY_WIDTH:
      case NOP:
      case RUNE:
      case RUNE1:
      case RUNE_ANY:
      case RUNE_ANY_NOT_NL:
        return [node.out];
      default:
        return [];
    }
  };
  // Iterative depth-first search (a long literal is a long chain of instructions).
  const stack: Array<{ pc: number; next: number; succ: number[] }> = [];
  const enter = (pc: number) => {
    state[pc] = 1;
    stack.push({ pc, next: 0, succ: successors(inst[pc]!) });
  };
  enter(prog.start);
  while (stack.length > 0 && !unbounded) {
    const frame = stack[stack.length - 1]!;
    if (frame.next < frame.succ.length) {
      const pc = frame.succ[frame.next++]!;
      if (pc < 0 || pc >= inst.length) unbounded = true;
      else if (state[pc] === 1)
        unbounded = true; // a cycle: repeats without bound
      else if (state[pc] === 0) enter(pc);
      continue;
    }
    const node = inst[frame.pc]!;
    let best = Number.NEGATIVE_INFINITY; // no way to a match from here
    if (node.op === MATCH) best = 0;
    else if (node.op === FAIL) best = Number.NEGATIVE_INFINITY;
    else if (successors(node).length === 0) unbounded = true; // an instruction this code does not know
    for (const pc of frame.succ) best = Math.max(best, longest[pc]!);
    if (node.op >= RUNE && node.op <= RUNE_ANY_NOT_NL) best += runeUnits(node);
    if (node.op === EMPTY_WIDTH && (node.arg & LINE_OR_TEXT_EDGE) !== 0) anchored = true;
    longest[frame.pc] = best;
    state[frame.pc] = 2;
    stack.pop();
  }
  if (unbounded) {
    // Still report anchors seen anywhere in the program.
    anchored ||= inst.some(node => node.op === EMPTY_WIDTH && (node.arg & LINE_OR_TEXT_EDGE) !== 0);
    return { maxMatchLength: Number.POSITIVE_INFINITY, anchored };
  }
  return { maxMatchLength: Math.max(0, longest[prog.start]!), anchored };
}

/**
 * Compiles a user's `RegExp` for RE2 (its `i`, `m` and `s` flags kept; `g`
 * and `y` mean nothing to a test), or returns why it cannot be: RE2 has no
 * lookaround and no backreferences, which is what makes it linear.
 */
export function compilePattern(pattern: RegExp): CompiledPattern | string {
  let re2: RE2JS;
  const source = re2Source(pattern);
  if (typeof source !== 'string') return source.problem;
  try {
    re2 = RE2JS.compile(source);
  } catch (error) {
    const detail = error instanceof RE2JSException ? error.message : String(error);
    return `a pattern RE2 can run in linear time (no lookaround, no backreferences): ${detail}`;
  }
  const lineEnds = lineEndsOf(pattern);
  if (typeof lineEnds !== 'boolean') return lineEnds.problem;
  const prog = (re2 as unknown as { re2Input?: { prog?: { inst?: unknown; start?: unknown } } })
    .re2Input?.prog;
  const bounds =
    prog && Array.isArray(prog.inst) && typeof prog.start === 'number'
      ? programBounds(prog as { inst: Inst[]; start: number })
      : { maxMatchLength: Number.POSITIVE_INFINITY, anchored: true };
  const test = lineEnds
    ? (text: string) => re2.test(re2LineEnds(text))
    : (text: string) => re2.test(text);
  return { source: pattern, re2, ...bounds, test };
}
