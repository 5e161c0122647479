/**
 * The matcher of `contentFilter`: finds what the pattern
 * `(?<![\p{L}\p{N}])(?:t1|t2|…)(?![\p{L}\p{N}])` (flag `u`, the terms longest
 * first, each blank of a term written `\s+`) finds, without a RegExp.
 *
 * V8 compiles such an alternation in time growing with the square of the
 * list (10 entries of 9,002 characters: 4–8 s when the filter is built) and
 * runs it by trying every alternative at every position (5,000 words of 12
 * characters: 4 s for 120 KB of prose). This is an Aho–Corasick automaton
 * over the terms, built in time linear in their total length, that reads
 * the text once: each character costs the transitions it takes (amortised
 * constant) plus the terms ending there that the list makes suffixes of one
 * another.
 *
 * Same answer as the pattern: the leftmost start at which a term matches
 * with no letter or digit before its start or after its end, and at that
 * start the longest term (the first alternative). A blank of a term
 * matches a run of white space (`\s+`: terms are trimmed and their blanks
 * single, so the run is taken whole), and the text is read by code points
 * where the pattern's flag `u` does (no match starts between the halves of
 * a surrogate pair; the look-arounds read whole code points).
 */

import { isJsSpace } from '../shared/js-space';
export interface TermMatch {
  /** Index of the term in the list given. */
  term: number;
  /** Where the match starts in the text. */
  index: number;
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * Letters and digits of scripts written without blanks between words
 * (script extensions, so the Japanese prolonged sound mark counts).
 */
const UNSPACED =
  /[\p{scx=Thai}\p{scx=Lao}\p{scx=Khmr}\p{scx=Mymr}\p{scx=Tibt}\p{scx=Hani}\p{scx=Hira}\p{scx=Kana}\p{scx=Bopo}\p{scx=Yiii}\p{scx=Lana}\p{scx=Talu}\p{scx=Tale}\p{scx=Tavt}\p{scx=Java}\p{scx=Bali}]/u;

/** Whether `code` is a character of a script written without blanks between words (none below U+0E00). */
export function isUnspaced(code: number | undefined): boolean {
  return code !== undefined && code >= 0xe00 && UNSPACED.test(String.fromCodePoint(code));
}

/**
 * Whether the code points `left` and `right`, side by side, are in one
 * word: both letters or digits, and neither of a script written without
 * blanks (`isUnspaced`). `left` is only asked about when it is a letter or
 * digit; `right` is the term's edge or the text beside it.
 */
function joinsWord(left: number, right: number): boolean {
  return !isUnspaced(left) && !isUnspaced(right);
}

const SPACE = 32;

/** Most nodes for which the automaton keeps dense ASCII rows (128 ints each: 2 MB at most). */
const DENSE_NODES = 4_096;

function isLetterOrDigitCodePoint(code: number): boolean {
  if (code < 0x80) {
    return (code >= 48 && code <= 57) || ((code | 0x20) >= 97 && (code | 0x20) <= 122);
  }
  return LETTER_OR_DIGIT.test(String.fromCodePoint(code));
}

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** The code point that ends right before `at` (a surrogate pair read whole). */
function codePointEndingAt(text: string, at: number): number {
  const last = text.charCodeAt(at - 1);
  if (isLow(last) && at >= 2 && isHigh(text.charCodeAt(at - 2))) return text.codePointAt(at - 2)!;
  return last;
}

/**
 * Whether the code point that ends right before `at` is a letter or digit
 * in one word with the one starting at `at` (the look-behind).
 */
function letterOrDigitBefore(text: string, at: number): boolean {
  if (at === 0) return false;
  const before = codePointEndingAt(text, at);
  return isLetterOrDigitCodePoint(before) && joinsWord(before, text.codePointAt(at)!);
}

/**
 * Whether the code point that starts at `at` is a letter or digit in one
 * word with the one ending there (the look-ahead).
 */
function letterOrDigitAt(text: string, at: number): boolean {
  if (at >= text.length) return false;
  const after = text.codePointAt(at)!;
  return isLetterOrDigitCodePoint(after) && joinsWord(codePointEndingAt(text, at), after);
}

/** Most terms, and units of each, for which a text is first searched for their beginnings. */
const PRECHECK_TERMS = 64;
const PRECHECK_LENGTH = 16;

/** A node of the beginnings' trie: the pattern source leading to each child. */
interface BeginningNode {
  ends: boolean;
  next: Map<string, BeginningNode>;
}

/**
 * A pattern finding the beginning of some term (its first PRECHECK_LENGTH
 * units but blanks on either end, each inner blank `\s+`), or `undefined`
 * for a list too long for one. A term matches only where its beginning is
 * written, so a text without any is one the automaton need not read: V8
 * runs this pattern over prose in about 40 instructions a character, the
 * automaton in about 150. The beginnings are written as a trie (one
 * alternative per distinct next unit), and the pattern has no look-arounds
 * and at most 64 beginnings of 16 units, so it compiles in time linear in
 * the list; each `\s+` follows a unit that is no blank, so it reads a run
 * of blanks once per beginning ending there.
 */
function precheckOf(terms: readonly string[]): RegExp | undefined {
  if (terms.length > PRECHECK_TERMS) return undefined;
  const root: BeginningNode = { ends: false, next: new Map() };
  for (const term of terms) {
    let start = 0;
    while (start < term.length && isJsSpace(term.charCodeAt(start))) start++;
    let end = Math.min(term.length, start + PRECHECK_LENGTH);
    while (end > start && isJsSpace(term.charCodeAt(end - 1))) end--;
    let node = root;
    for (let at = start; at < end; at++) {
      const unit = term.charCodeAt(at);
      // The matcher reads every blank of the text as a space: a term with another blank, or two, matches nothing.
      if (isJsSpace(unit) && (unit !== SPACE || isJsSpace(term.charCodeAt(at - 1)))) {
        return undefined;
      }
      const key = unit === SPACE ? '\\s+' : term[at]!.replace(/[.*+?^${}()|[\]\\/]/, '\\$&');
      let child = node.next.get(key);
      if (child === undefined) {
        child = { ends: false, next: new Map() };
        node.next.set(key, child);
      }
      node = child;
    }
    node.ends = true;
  }
  // A beginning that ends at a node suffices for every longer one through it.
  const sourceOf = (node: BeginningNode): string => {
    if (node.ends) return '';
    const alternatives = [...node.next].map(([key, child]) => key + sourceOf(child));
    return alternatives.length === 1 ? alternatives[0]! : `(?:${alternatives.join('|')})`;
  };
  return new RegExp(sourceOf(root));
}

/**
 * The trie's edges: (node, UTF-16 unit) -> child, in one open-addressing
 * table of typed arrays (a `Map` keyed by `node * 0x10000 + unit` holds
 * keys past 2^31 as heap numbers: about 1 µs an operation, 1 s to build
 * 90,000 characters of entries).
 */
class EdgeTable {
  private readonly mask: number;
  private readonly nodes: Int32Array;
  private readonly units: Uint16Array;
  private readonly children: Int32Array;

  constructor(maxEdges: number) {
    let size = 16;
    while (size < maxEdges * 2) size *= 2;
    this.mask = size - 1;
    this.nodes = new Int32Array(size).fill(-1);
    this.units = new Uint16Array(size);
    this.children = new Int32Array(size);
  }

  private slot(node: number, unit: number): number {
    let at = (Math.imul(node, 0x9e3779b1) ^ Math.imul(unit + 1, 0x85ebca77)) & this.mask;
    while (this.nodes[at] !== -1 && (this.nodes[at] !== node || this.units[at] !== unit)) {
      at = (at + 1) & this.mask;
    }
    return at;
  }

  get(node: number, unit: number): number {
    const at = this.slot(node, unit);
    return this.nodes[at] === -1 ? -1 : this.children[at]!;
  }

  set(node: number, unit: number, child: number) {
    const at = this.slot(node, unit);
    this.nodes[at] = node;
    this.units[at] = unit;
    this.children[at] = child;
  }
}

/**
 * Builds the matcher of `terms` (folded, trimmed, blanks single, none
 * empty). Returns a function giving the pattern's first match in a text,
 * or `undefined`.
 */
export function termMatcher(terms: readonly string[]): (text: string) => TermMatch | undefined {
  // The trie, one node a character at most, in typed arrays: built in time
  // and memory linear in the list (an array per node cost 0.4 s of garbage
  // collection for 90,000 characters).
  const total = terms.reduce((sum, term) => sum + term.length, 0);
  const edges = new EdgeTable(total);
  const depth = new Int32Array(total + 1);
  /** The longest term ending at a node (its index), else -1. */
  const termAt = new Int32Array(total + 1).fill(-1);
  /** Each node's first child and next sibling (-1: none), and the unit leading to it. */
  const firstChild = new Int32Array(total + 1).fill(-1);
  const nextSibling = new Int32Array(total + 1).fill(-1);
  const unitOf = new Uint16Array(total + 1);
  let nodes = 1;
  let longest = 0;
  terms.forEach((term, index) => {
    let node = 0;
    for (let at = 0; at < term.length; at++) {
      const unit = term.charCodeAt(at);
      let next = edges.get(node, unit);
      if (next === -1) {
        next = nodes++;
        depth[next] = at + 1;
        unitOf[next] = unit;
        nextSibling[next] = firstChild[node]!;
        firstChild[node] = next;
        edges.set(node, unit, next);
      }
      node = next;
    }
    // The first of equal terms wins, as the first alternative does.
    if (termAt[node] === -1) termAt[node] = index;
    longest = Math.max(longest, term.length);
  });
  // Failure links and output links (the next node on the failure chain
  // where a term ends), breadth first.
  const fail = new Int32Array(nodes);
  const output = new Int32Array(nodes).fill(-1);
  const queue = new Int32Array(nodes);
  let head = 0;
  let tail = 0;
  for (let child = firstChild[0]!; child !== -1; child = nextSibling[child]!) queue[tail++] = child;
  while (head < tail) {
    const node = queue[head++]!;
    for (let child = firstChild[node]!; child !== -1; child = nextSibling[child]!) {
      const unit = unitOf[child]!;
      let state = fail[node]!;
      let target = edges.get(state, unit);
      while (target === -1 && state !== 0) {
        state = fail[state]!;
        target = edges.get(state, unit);
      }
      const link = target !== -1 && target !== child ? target : 0;
      fail[child] = link;
      output[child] = termAt[link] !== -1 ? link : output[link]!;
      queue[tail++] = child;
    }
  }
  /** The first node on the failure chain (itself included) where a term ends, else -1. */
  const emits = new Int32Array(nodes);
  for (let node = 0; node < nodes; node++) {
    emits[node] = termAt[node] !== -1 ? node : output[node]!;
  }
  // A small list also gets every ASCII transition at once (the automaton's
  // rows, failures resolved): prose reads mostly ASCII, one lookup a unit.
  const ascii = nodes <= DENSE_NODES ? new Int32Array(nodes * 128) : undefined;
  if (ascii) {
    for (let unit = 0; unit < 128; unit++) ascii[unit] = Math.max(0, edges.get(0, unit));
    for (let index = 0; index < tail; index++) {
      const node = queue[index]!;
      const row = node * 128;
      const failRow = fail[node]! * 128;
      for (let unit = 0; unit < 128; unit++) {
        const child = edges.get(node, unit);
        ascii[row + unit] = child === -1 ? ascii[failRow + unit]! : child;
      }
    }
  }
  // Where each of the last units read began in the text (a power of two past `longest`).
  let ringSize = 2;
  while (ringSize <= longest) ringSize *= 2;
  const ringMask = ringSize - 1;
  const startOf = new Int32Array(ringSize);
  const precheck = precheckOf(terms);

  return (text: string) => {
    if (precheck !== undefined && !precheck.test(text)) return undefined;
    // Units read: a run of white space is one blank.
    let read = 0;
    let state = 0;
    let best: TermMatch | undefined;
    let bestLength = 0;
    // Past the longest term after the best start nothing can start earlier.
    let stopAt = 0x7fffffff;
    let spaceBefore = false;
    for (let at = 0; at < text.length; at++) {
      let unit = text.charCodeAt(at);
      if (unit < 128 ? unit === SPACE || (unit <= 13 && unit >= 9) : isJsSpace(unit)) {
        if (spaceBefore) continue;
        spaceBefore = true;
        unit = SPACE;
      } else {
        spaceBefore = false;
      }
      if (read >= stopAt) break;
      startOf[read & ringMask] = at;
      read++;
      if (unit < 128 && ascii !== undefined) {
        state = ascii[(state << 7) | unit]!;
      } else {
        let next = edges.get(state, unit);
        while (next === -1 && state !== 0) {
          state = fail[state]!;
          next = edges.get(state, unit);
        }
        state = next === -1 ? 0 : next;
      }
      let node = emits[state]!;
      // Terms end with no blank: a match ends after a unit that is none.
      if (node === -1 || unit === SPACE) continue;
      // The look-ahead is the same for every term ending here; none ends
      // between the halves of a surrogate pair.
      if (letterOrDigitAt(text, at + 1)) continue;
      if (isHigh(unit) && at + 1 < text.length && isLow(text.charCodeAt(at + 1))) continue;
      // Longest first: the earliest start first.
      for (; node !== -1; node = output[node]!) {
        const length = depth[node]!;
        const startRead = read - length;
        const start = startOf[startRead & ringMask]!;
        if (best !== undefined && start > best.index) break;
        if (best !== undefined && start === best.index && length <= bestLength) break;
        if (isLow(text.charCodeAt(start)) && start > 0 && isHigh(text.charCodeAt(start - 1))) {
          continue;
        }
        if (letterOrDigitBefore(text, start)) continue;
        best = { term: termAt[node]!, index: start };
        bestLength = length;
        stopAt = startRead + longest;
        break;
      }
    }
    return best;
  };
}
