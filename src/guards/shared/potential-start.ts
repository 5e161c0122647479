/**
 * Building blocks for `Guardrail.potentialMatchStart`: where, in the
 * unreleased text of a streamed answer, a match could still begin or grow.
 *
 * They work on classes of characters and tokens (whitespace-separated runs),
 * not on any one detector's patterns, so a new pattern of the same kind
 * (another phone format, another key prefix) stays covered: a detector that
 * matches across whitespace names the tokens that can chain (`joinable`) and
 * the tokens that glue their neighbours together (`marker`).
 */

const WHITESPACE = /\s/;

/** `\s` at `at`, without a regex for ASCII (the hooks run on every check of a stream). */
export function isWhitespaceAt(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code < 0x80) return code === 32 || (code >= 9 && code <= 13);
  return WHITESPACE.test(text[at]!);
}

/** Token classes for `trailingChainStart`. */
export interface ChainClasses {
  /** A token that can sit beside another joinable token inside one match (`4111`, `WEST`, `(415)`). */
  joinable: (token: string) => boolean;
  /** A token that joins whatever is on either side of it into one match (`[at]`, `=`). */
  marker?: (token: string) => boolean;
  /** The longest whitespace run inside a match. Default 3. */
  maxGap?: number;
}

/**
 * The start of the trailing chain of tokens that could still belong to one
 * match. The last token always belongs to it: it may still grow, and when
 * the text ends in whitespace the next token, unseen yet, may join it. Each
 * earlier token joins while it and the token after it are both joinable, or
 * either is a marker, with at most `maxGap` whitespace between them. Returns
 * `text.length` for text that is only whitespace (nothing in it can grow).
 */
export function trailingChainStart(
  text: string,
  { joinable, marker = () => false, maxGap = 3 }: ChainClasses,
): number {
  let end = text.length;
  while (end > 0 && isWhitespaceAt(text, end - 1)) end--;
  if (end === 0) return text.length;
  const growing = end === text.length;
  let start = end;
  while (start > 0 && !isWhitespaceAt(text, start - 1)) start--;
  let next = text.slice(start, end);
  // A last token that may still grow can become any joinable token. After
  // whitespace the last token is complete: it is held because an unseen
  // next token may join it, and links to earlier tokens as what it is.
  let nextIsWildcard = growing;
  for (;;) {
    let gapStart = start;
    while (gapStart > 0 && isWhitespaceAt(text, gapStart - 1)) gapStart--;
    if (gapStart === 0 || start - gapStart > maxGap) return start;
    let previousStart = gapStart;
    while (previousStart > 0 && !isWhitespaceAt(text, previousStart - 1)) previousStart--;
    const previous = text.slice(previousStart, gapStart);
    const links = nextIsWildcard
      ? joinable(previous) || marker(previous) || marker(next)
      : (joinable(previous) && joinable(next)) || marker(previous) || marker(next);
    if (!links) return start;
    start = previousStart;
    next = previous;
    nextIsWildcard = false;
  }
}

/** The start of the trailing run of non-whitespace characters (`text.length` after whitespace). */
export function trailingTokenStart(text: string): number {
  let start = text.length;
  while (start > 0 && !isWhitespaceAt(text, start - 1)) start--;
  return start;
}

/** The start of the last `count` whitespace-separated tokens (with the whitespace after them). */
export function lastTokensStart(text: string, count: number): number {
  let at = text.length;
  for (let seen = 0; seen < count && at > 0; seen++) {
    while (at > 0 && isWhitespaceAt(text, at - 1)) at--;
    while (at > 0 && !isWhitespaceAt(text, at - 1)) at--;
  }
  return at;
}

/**
 * `hook` run on the last `maxLength` characters only: what it holds back
 * never exceeds the longest match, and its scan costs at most that much.
 */
export function withinLast(
  maxLength: number,
  hook: (text: string) => number,
): (text: string) => number {
  return text => {
    if (text.length <= maxLength) return hook(text);
    const offset = text.length - maxLength;
    return offset + hook(text.slice(offset));
  };
}

// Characters whose normalised form (`normalizeText`: NFKC, invisible
// characters removed, dashes folded) is known without running it: printable
// ASCII and line breaks (unchanged), the no-break space (a space), the
// Latin-1 letters (unchanged: they have no compatibility decomposition), the
// curly quotes (unchanged), the Unicode hyphens and dashes ('-') and the
// ellipsis ('...'). Anything else (digits of other scripts, full-width
// forms, invisible characters, combining marks, other scripts) may change.
const OUTSIDE_PLAIN =
  /[^\t\n\r\x20-\x7e\u00a0\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u00ff\u2010-\u2015\u2018-\u201f\u2026]/;
const FOLDED_PLAIN = /[\u00a0\u2010-\u2015\u2026]/;

/**
 * For `mayMatch` hooks: the text as `normalizeText` would make it, when it
 * holds only characters whose normal form is known (printable ASCII, line
 * breaks, Latin-1 letters, curly quotes, dashes, the ellipsis and the
 * no-break space: ordinary prose), else undefined (the caller then says a
 * match is possible). A hook tests its detector's necessary characters on
 * this view, so it sees what the detector sees.
 */
export function plainView(text: string): string | undefined {
  // The guardrails of a chain are asked about the same text in turn.
  if (text === lastText) return lastView;
  lastText = text;
  lastView = OUTSIDE_PLAIN.test(text)
    ? undefined
    : FOLDED_PLAIN.test(text)
      ? text
          .replace(/\u00a0/g, ' ')
          .replace(/[\u2010-\u2015]/g, '-')
          .replace(/\u2026/g, '...')
      : text;
  return lastView;
}
let lastText: string | undefined;
let lastView: string | undefined;

/**
 * For `mayMatchScanner`s: the code `plainView` maps the character `code` to
 * (a no-break space to a space, a Unicode dash to `-`), or -1 for a
 * character outside ordinary prose, and for the ellipsis, which `plainView`
 * turns into three characters (a scanner counts it as a possible match, so
 * its offsets stay those of the text).
 */
export function plainCode(code: number): number {
  if (code < 0x80) return code >= 0x20 ? (code === 0x7f ? -1 : code) : PLAIN_CONTROL[code]!;
  if (code >= 0xc0 && code <= 0xff) return code === 0xd7 || code === 0xf7 ? -1 : code;
  if (code === 0xa0) return 0x20;
  if (code >= 0x2010 && code <= 0x2015) return 0x2d;
  if (code >= 0x2018 && code <= 0x201f) return code;
  return -1;
}
/** `text` with each character as `plainCode` maps it (a blank for one outside prose): same offsets. */
export function plainMapped(text: string): string {
  let mapped = '';
  let from = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    const plain = plainCode(code);
    if (plain === code) continue;
    mapped += text.slice(from, at) + String.fromCharCode(plain < 0 ? 0x20 : plain);
    from = at + 1;
  }
  return from === 0 ? text : mapped + text.slice(from);
}

/** Tab, line feed and carriage return are prose; other control characters are not. */
const PLAIN_CONTROL = Int8Array.from({ length: 32 }, (_, code) =>
  code === 9 || code === 10 || code === 13 ? code : -1,
);

/**
 * Where a `mayMatchScanner` saw something its `mayMatch` flags, in offsets
 * of the text read: `hit(end)` for a match ending at `end` (any text from
 * an offset before `end` may contain it), `edge(at)` for a match that only
 * a text starting exactly at `at` has (the character before `at` rules it
 * out, as a boundary).
 */
export class ScanHits {
  private end = 0;
  private readonly edges: number[] = [];
  /** Edge matches before this offset were forgotten (the list is bounded): any `from` before it may match. */
  private forgottenBefore = 0;

  hit(end: number): void {
    if (end > this.end) this.end = end;
  }

  edge(at: number): void {
    if (this.edges.length === 64) this.forgottenBefore = this.edges.shift()! + 1;
    this.edges.push(at);
  }

  mayMatchFrom(from: number): boolean {
    if (from < this.end || from < this.forgottenBefore) return true;
    for (let i = this.edges.length - 1; i >= 0 && this.edges[i]! >= from; i--) {
      if (this.edges[i] === from) return true;
    }
    return false;
  }
}

/**
 * An automaton's transitions on the characters its words use only:
 * `next[(state << shift) | classOf[code]]` is the state after the ASCII
 * character `code`, where `classOf` maps each character (after `fold`) to
 * its column, 0 for a character no word has (which leads every state back
 * to the root). A table of a few dozen columns instead of 128 stays in the
 * processor's cache while a scan reads every character of a stream.
 */
export interface CompactAutomaton {
  next: Int32Array;
  shift: number;
  classOf: Uint8Array;
}

export function compactAutomaton(
  full: Int32Array,
  fold: (code: number) => number = code => code,
): CompactAutomaton {
  const states = full.length / 128;
  const used = new Set<number>();
  for (let state = 0; state < states; state++) {
    for (let code = 0; code < 128; code++) if (full[state * 128 + code] !== 0) used.add(code);
  }
  const columns = [...used].sort((a, b) => a - b);
  const columnOf = new Map(columns.map((code, index) => [code, index + 1]));
  const shift = Math.max(1, Math.ceil(Math.log2(columns.length + 1)));
  const next = new Int32Array(states << shift);
  for (let state = 0; state < states; state++) {
    for (const [code, column] of columnOf)
      next[(state << shift) | column] = full[state * 128 + code]!;
  }
  const classOf = Uint8Array.from({ length: 128 }, (_, code) => columnOf.get(fold(code)) ?? 0);
  return { next, shift, classOf };
}

/**
 * A minimal Aho-Corasick automaton over ASCII `words` (matched as given):
 * `next[state * 128 + code]` is the state after `code`, `accepts[state]` is
 * 1 where a word ends.
 */
export function asciiAutomaton(words: readonly string[]): {
  next: Int32Array;
  accepts: Uint8Array;
} {
  const goto: Array<Map<number, number>> = [new Map()];
  const accepting: boolean[] = [false];
  for (const word of words) {
    let state = 0;
    for (let at = 0; at < word.length; at++) {
      const code = word.charCodeAt(at);
      if (code >= 128) throw new Error(`word beyond ASCII: ${word}`);
      let to = goto[state]!.get(code);
      if (to === undefined) {
        to = goto.length;
        goto.push(new Map());
        accepting.push(false);
        goto[state]!.set(code, to);
      }
      state = to;
    }
    accepting[state] = true;
  }
  const next = new Int32Array(goto.length * 128);
  const fail = new Int32Array(goto.length);
  const queue: number[] = [];
  for (let code = 0; code < 128; code++) {
    const to = goto[0]!.get(code) ?? 0;
    next[code] = to;
    if (to !== 0) queue.push(to);
  }
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head]!;
    const failed = fail[state]!;
    if (accepting[failed]) accepting[state] = true;
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
  return { next, accepts: Uint8Array.from(accepting, accept => (accept ? 1 : 0)) };
}
