import { RE2JS, RE2JSException } from 're2js';

/**
 * A `RegExp` whose searches run on RE2 (`re2js`): time linear in the text,
 * whatever the pattern (`(\w+\s?)*$` included). The guards take it where
 * they take a `RegExp`: `exec` is overridden, and `test`, `matchAll`,
 * `replace`, `search` and `match` all search through `exec` (a subclass
 * leaves V8's built-in fast paths). The config loader builds its patterns
 * with it. Its `lastIndex`, `g` and `y` behave as a `RegExp`'s; the
 * pattern must be one RE2 can run: no lookaround, no backreferences
 * (`compileRe2` says why not).
 */
export class Re2RegExp extends RegExp {
  readonly #re2: RE2JS;
  /** The pattern after any one character (`(?s:.)`), for a sticky search past 0; made when first needed. */
  #afterOne: RE2JS | undefined;
  /** The pattern with `^` never matching, for a sticky search between the halves of a surrogate pair. */
  #noCaret: RE2JS | undefined;

  constructor(pattern: string | RegExp, flags?: string) {
    super(pattern, flags);
    // A copy (matchAll, replaceAll and split copy their RegExp) shares the programs.
    if (
      pattern instanceof Re2RegExp &&
      pattern.ignoreCase === this.ignoreCase &&
      pattern.multiline === this.multiline &&
      pattern.dotAll === this.dotAll &&
      !this.hasIndices
    ) {
      this.#re2 = pattern.#re2;
      this.#afterOne = pattern.#afterOne;
      this.#noCaret = pattern.#noCaret;
      return;
    }
    const compiled = compileRe2(this);
    if (typeof compiled === 'string') throw new Re2PatternError(compiled);
    this.#re2 = compiled;
  }

  /**
   * One RE2 run per call, its groups with it (no matcher, no second run
   * for the groups). A sticky search is an anchored one at `lastIndex`:
   * RE2 anchors only at the start of its input, so it runs on the text
   * from the character before `lastIndex` with a program that first takes
   * that character (`^` and `\\b` see it); between the halves of a
   * surrogate pair (RE2 would read them as one), on the text from
   * `lastIndex` with a program whose `^` never matches (nor does
   * JavaScript's there). Its cost is the match's, not the distance to the
   * next match: `split` (which searches sticky at each index) stays linear.
   */
  override exec(input: string): RegExpExecArray | null {
    const text = String(input);
    const resumes = this.global || this.sticky;
    const from = resumes ? Math.max(0, Math.trunc(Number(this.lastIndex)) || 0) : 0;
    if (from > text.length) {
      this.lastIndex = 0;
      return null;
    }
    const ngroup = 1 + this.#re2.groupCount();
    let found: number[] | null;
    let offset = 0;
    /** Where the match starts in what RE2 read, when not group 0's start (the character taken). */
    let start: number | undefined;
    if (!this.sticky) found = run(this.#re2, text, from, UNANCHORED, ngroup);
    else if (from === 0) found = run(this.#re2, text, 0, ANCHOR_START, ngroup);
    else if (isHighSurrogate(text.charCodeAt(from - 1)) && isLowSurrogate(text.charCodeAt(from))) {
      this.#noCaret ??= this.#variant(re2Source(this, NEVER));
      offset = from;
      found = run(this.#noCaret, text.slice(from), 0, ANCHOR_START, ngroup);
    } else {
      const source = re2Source(this);
      this.#afterOne ??= this.#variant(typeof source === 'string' ? `(?s:.)(?:${source})` : source);
      offset = from - 1;
      found = run(this.#afterOne, text.slice(offset), 0, ANCHOR_START, ngroup);
      start = 1;
    }
    if (!found) {
      if (resumes) this.lastIndex = 0;
      return null;
    }
    const result = [] as unknown as RegExpExecArray;
    for (let group = 0; group < ngroup; group++) {
      const begin = group === 0 ? (start ?? found[0]!) : found[2 * group]!;
      result.push(
        begin < 0
          ? (undefined as unknown as string)
          : text.slice(begin + offset, found[2 * group + 1]! + offset),
      );
    }
    result.index = (start ?? found[0]!) + offset;
    result.input = text;
    const names = this.#re2.namedGroups();
    let groups: Record<string, string | undefined> | undefined;
    for (const name in names) {
      groups ??= Object.create(null) as Record<string, string | undefined>;
      groups[name] = result[names[name]!];
    }
    result.groups = groups as Record<string, string> | undefined;
    if (resumes) this.lastIndex = found[1]! + offset;
    return result;
  }

  #variant(source: string | { problem: string }): RE2JS {
    // The pattern compiled, so its variants do.
    if (typeof source !== 'string') throw new Re2PatternError(source.problem);
    return RE2JS.compile(source);
  }
}

/** RE2's anchor flags (`RE2Flags`, not exported by re2js). */
const UNANCHORED = 0;
const ANCHOR_START = 1;
/** A class that matches nothing: what `^` becomes where it cannot match. */
const NEVER = '[^\\u0000-\\u{10ffff}]';
const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** The group bounds (`[start, end]` pairs, -1 when unset) of RE2's match in `text` from `from`, or null. */
function run(re2: RE2JS, text: string, from: number, anchor: number, ngroup: number) {
  const [matched, groups] = re2.re2Input.matchWithGroup(text, from, text.length, anchor, ngroup);
  return matched ? (groups as number[]) : null;
}

/** A valid JavaScript pattern RE2 cannot run; its message says what is expected. */
export class Re2PatternError extends SyntaxError {
  override name = 'Re2PatternError';
}

/**
 * The RE2 program of a JavaScript pattern (its `i`, `m` and `s` flags
 * kept), or why RE2 cannot run it: RE2 has no lookaround and no
 * backreferences, which is what makes it linear.
 */
export function compileRe2(pattern: RegExp): RE2JS | string {
  if (pattern.hasIndices) return 'a pattern without the d flag (match indices)';
  const translated = re2Source(pattern);
  if (typeof translated !== 'string') return translated.problem;
  try {
    return RE2JS.compile(translated);
  } catch (error) {
    const detail = error instanceof RE2JSException ? error.message : String(error);
    return `a pattern RE2 can run in linear time (no lookaround, no backreferences): ${detail}`;
  }
}

/**
 * The RE2 source of a JavaScript pattern that matches what the pattern
 * matches in JavaScript: `RE2JS.translateRegExp` of it (its `i`, `m` and
 * `s` flags as a leading group) after `\\s`, `\\S` and `.` are written out
 * as JavaScript reads them (see `withJavaScriptClasses`). Or why it cannot
 * be: the `v` flag (class set operations, which RE2 reads as ranges) and
 * `\\k<name>` (a backreference, which RE2 reads as the letter `k`).
 * Still different: without the `u` flag, `.` and a negated class take a
 * whole surrogate pair on RE2 (JavaScript one half); `^` and `$` with the
 * `m` flag see only `\\n` as a line end; `i` folds case as Unicode does
 * (`s` matches `ſ`). `caret` is what `^` becomes (a class matching
 * nothing where it cannot match).
 */
export function re2Source(pattern: RegExp, caret = '^'): string | { problem: string } {
  if (pattern.flags.includes('v'))
    return { problem: 'a pattern without the v flag (class set operations)' };
  const source = withJavaScriptClasses(pattern.source, pattern.dotAll, caret);
  if (source === undefined) {
    return {
      problem:
        'a pattern RE2 can run in linear time (no lookaround, no backreferences): \\k<name> is a backreference',
    };
  }
  const flags = `${pattern.ignoreCase ? 'i' : ''}${pattern.multiline ? 'm' : ''}${pattern.dotAll ? 's' : ''}`;
  const translated = RE2JS.translateRegExp(source);
  return flags ? `(?${flags})${translated}` : translated;
}

/** What `\\s` matches in JavaScript (RE2's `\\s` is `[\\t\\n\\f\\r ]`), as class ranges. */
const JS_SPACE: readonly (readonly [number, number])[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];

const escapeCode = (code: number) =>
  code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
const rangesText = (ranges: readonly (readonly [number, number])[]) =>
  ranges
    .map(([from, to]) => (from === to ? escapeCode(from) : `${escapeCode(from)}-${escapeCode(to)}`))
    .join('');
/** Class contents: JavaScript's `\\s`, its `\\S` (every other code point), its `.` without `s`. */
const SPACE = rangesText(JS_SPACE);
const NOT_SPACE = rangesText(
  JS_SPACE.map(
    ([from], index) => [index === 0 ? 0 : JS_SPACE[index - 1]![1] + 1, from - 1] as const,
  )
    .filter(([from, to]) => from <= to)
    .concat([[JS_SPACE[JS_SPACE.length - 1]![1] + 1, 0x10ffff]]),
);
const LINE_TERMINATORS = '\\n\\r\\u2028\\u2029';

/**
 * The pattern source with what RE2 reads otherwise than JavaScript written
 * out: `\\s` and `\\S` (RE2's are ASCII: `ignore\\u00a0previous` passed a
 * deny pattern `ignore\\s+previous`) and `.` without the `s` flag (RE2's
 * stops at `\\n` only: JavaScript's at `\\r`, U+2028 and U+2029 too).
 * Undefined for `\\k`, a named backreference that RE2 would read as the
 * letter `k`. One pass over the source.
 */
function withJavaScriptClasses(source: string, dotAll: boolean, caret: string): string | undefined {
  let out = '';
  let inClass = false;
  /** Where the contents of the open class start in `out` (after `[` or `[^`). */
  let classStart = 0;
  for (let at = 0; at < source.length; at++) {
    const char = source[at]!;
    if (char === '\\') {
      const next = source[at + 1];
      if (next === 'k') return undefined;
      if (next === 's' || next === 'S') {
        const set = next === 's' ? SPACE : NOT_SPACE;
        if (!inClass) out += next === 's' ? `[${SPACE}]` : `[^${SPACE}]`;
        else {
          // A '-' next to a class escape is a literal '-' in JavaScript, not a range.
          if (out.length > classStart && out.endsWith('-') && !out.endsWith('\\-')) {
            out = `${out.slice(0, -1)}\\-`;
          }
          out += set;
          if (source[at + 2] === '-' && source[at + 3] !== ']') {
            out += '\\-';
            at++;
          }
        }
        at++;
        continue;
      }
      out += char + (next ?? '');
      at++;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      out += char;
      continue;
    }
    if (char === '[') {
      inClass = true;
      out += char;
      if (source[at + 1] === '^') {
        out += '^';
        at++;
      }
      classStart = out.length;
      // `[]` and `[^]`: the empty class and any character (translateRegExp reads them).
      if (source[at + 1] === ']') {
        out += ']';
        at++;
        inClass = false;
      }
      continue;
    }
    out += char === '.' && !dotAll ? `[^${LINE_TERMINATORS}]` : char === '^' ? caret : char;
  }
  return out;
}
