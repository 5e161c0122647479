import { RE2JS, RE2JSException } from 're2js';
import { keepRegExpClass } from '../../core/caller-regexp';

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
  static {
    // A guardrail rebuilds each RegExp option once (core/caller-regexp): a config pattern stays on RE2.
    keepRegExpClass(Re2RegExp);
  }

  readonly #re2: RE2JS;
  /** The pattern after any one character (`(?s:.)`), for a sticky search past 0; made when first needed. */
  #afterOne: RE2JS | undefined;
  /** The pattern with `^` never matching, for a sticky search between the halves of a surrogate pair. */
  #noCaret: RE2JS | undefined;
  /** RE2 reads the text with its line ends written `\\n` (see `lineEndsOf`). */
  #mapLineEnds = false;
  /** The last text read and what RE2 read for it, when `#mapLineEnds`. */
  #mappedFrom: string | undefined;
  #mapped = '';

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
      this.#mapLineEnds = pattern.#mapLineEnds;
      return;
    }
    const compiled = compileRe2(this);
    if (typeof compiled === 'string') throw new Re2PatternError(compiled);
    const lineEnds = lineEndsOf(this);
    if (typeof lineEnds !== 'boolean') throw new Re2PatternError(lineEnds.problem);
    this.#re2 = compiled;
    this.#mapLineEnds = lineEnds;
  }

  /** What RE2 reads for `text`: the text, or with the `m` flag its line ends written `\\n` (same offsets). */
  #read(text: string): string {
    if (!this.#mapLineEnds) return text;
    if (this.#mappedFrom !== text) {
      this.#mapped = re2LineEnds(text);
      this.#mappedFrom = text;
    }
    return this.#mapped;
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
    // RE2 reads `read`; the match and groups are cut from `text` (the same length).
    const read = this.#read(text);
    let found: number[] | null;
    let offset = 0;
    /** Where the match starts in what RE2 read, when not group 0's start (the character taken). */
    let start: number | undefined;
    if (!this.sticky) found = run(this.#re2, read, from, UNANCHORED, ngroup);
    else if (from === 0) found = run(this.#re2, read, 0, ANCHOR_START, ngroup);
    else if (isHighSurrogate(text.charCodeAt(from - 1)) && isLowSurrogate(text.charCodeAt(from))) {
      this.#noCaret ??= this.#variant(re2Source(this, NEVER));
      offset = from;
      found = run(this.#noCaret, read.slice(from), 0, ANCHOR_START, ngroup);
    } else {
      const source = re2Source(this);
      this.#afterOne ??= this.#variant(typeof source === 'string' ? `(?s:.)(?:${source})` : source);
      offset = from - 1;
      found = run(this.#afterOne, read.slice(offset), 0, ANCHOR_START, ngroup);
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
 * `m` flag see only `\\n` as a line end (the callers give RE2 the text with
 * its line ends written `\\n`: `lineEndsOf`); `i` folds case as Unicode does
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

const OTHER_LINE_ENDS = /[\r\u2028\u2029]/;

/**
 * `text` with `\r`, U+2028 and U+2029 written `\n`: what RE2 reads for a
 * pattern `lineEndsOf` maps. One pass into a `Uint16Array` (a `replace`
 * of 2,000,000 line ends in 10 MB took 4-7 s; this 0.5-1 s).
 */
export function re2LineEnds(text: string): string {
  if (!OTHER_LINE_ENDS.test(text)) return text;
  const units = new Uint16Array(text.length);
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    units[at] = code === 0x0d || code === 0x2028 || code === 0x2029 ? 0x0a : code;
  }
  let out = '';
  for (let at = 0; at < units.length; at += 8192) {
    out += String.fromCharCode.apply(null, units.subarray(at, at + 8192) as unknown as number[]);
  }
  return out;
}

/**
 * Whether RE2 must read the text with its line ends written `\n` to match
 * as JavaScript does, or why it cannot. With the `m` flag JavaScript's `^`
 * and `$` see `\n`, `\r`, U+2028 and U+2029 as line ends, RE2's only `\n`:
 * a deny `/^DROP/m` let `x\rDROP TABLE users` pass. When every character,
 * escape and class of the pattern matches all four line ends or none
 * (`\s`, `.`, `[^,]`, `\W` do; `\n`, `\r`, `[^\n]` do not), the pattern
 * matches the text as it matches the text with each line end written
 * `\n` (same length, same offsets; backreferences and lookaround, which
 * would see the difference, are refused before), and there RE2's `^` and
 * `$` are JavaScript's: true. False when nothing needs it (no `m` flag,
 * or no `^` or `$`). A problem when the pattern tells line ends apart and
 * has `m` with `^` or `$`: no text RE2 reads matches as JavaScript does.
 * One pass over the source; each escape and class is tried on the four
 * line ends with JavaScript's own engine (one character: no backtracking).
 */
export function lineEndsOf(pattern: RegExp): boolean | { problem: string } {
  if (!pattern.multiline) return false;
  const source = pattern.source;
  const unicode = pattern.unicode;
  const flags = `${pattern.ignoreCase ? 'i' : ''}${unicode ? 'u' : ''}${pattern.dotAll ? 's' : ''}`;
  let anchors = false;
  let apart: string | undefined;
  const tried = new Map<string, boolean>();
  /** Whether `atom` matches some of the four line ends but not all. */
  const tellsApart = (atom: string) => {
    let known = tried.get(atom);
    if (known === undefined) {
      try {
        const one = new RegExp(`^(?:${atom})$`, flags);
        const hits = ['\n', '\r', '\u2028', '\u2029'].filter(end => one.test(end)).length;
        known = hits !== 0 && hits !== 4;
      } catch {
        known = true; // a piece JavaScript reads only in context: assume the worst
      }
      tried.set(atom, known);
    }
    return known;
  };
  for (let at = 0; at < source.length && !(anchors && apart !== undefined); at++) {
    const char = source[at]!;
    if (char === '^' || char === '$') anchors = true;
    else if (char === '\n' || char === '\r' || char === '\u2028' || char === '\u2029')
      apart ??= char;
    else if (char === '\\') {
      const end = escapeEnd(source, at, unicode);
      const atom = source.slice(at, end);
      if (apart === undefined && escapeTellsApart(atom, tellsApart)) apart = atom;
      at = end - 1;
    } else if (char === '[') {
      let end = at + 1;
      if (source[end] === '^') end++;
      if (source[end] === ']') end++;
      else {
        while (end < source.length && source[end] !== ']') end += source[end] === '\\' ? 2 : 1;
        end++;
      }
      const atom = source.slice(at, end);
      if (apart === undefined && tellsApart(atom)) apart = atom;
      at = end - 1;
    }
  }
  if (!anchors) return false;
  if (apart === undefined) return true;
  return {
    problem: `a pattern RE2 can read as JavaScript does with the m flag (^ and $ at \\n, \\r, \\u2028 and \\u2029 alike): \`${apart}\` matches some of those line ends but not all; write [\\n\\r\\u2028\\u2029] (or [^\\n\\r\\u2028\\u2029]) for a line end, or drop the m flag`,
  };
}

/**
 * Whether the escape `atom` matches some line ends but not all: a code
 * (`\\x0d`, `\\u2028`, `\\n`) matches one character, a line end or none;
 * `\\s`, `\\S`, `\\w`, `\\W`, `\\d`, `\\D` match all or none; an escaped
 * sign is itself. The rest (`\\p{…}`, `\\cM`, `\\12`) JavaScript tries.
 */
function escapeTellsApart(atom: string, tried: (atom: string) => boolean): boolean {
  const kind = atom[1] ?? '';
  let code: number | undefined;
  if ((kind === 'x' && atom.length === 4) || (kind === 'u' && atom.length === 6))
    code = Number.parseInt(atom.slice(2), 16);
  else if (kind === 'u' && atom[2] === '{') code = Number.parseInt(atom.slice(3, -1), 16);
  else if (atom.length === 2 && !/[0-9cpPxu]/.test(kind)) {
    if (kind === 'n' || kind === 'r') return true;
    return false; // \s \S \w \W \d \D \b \B \t \v \f, or a sign or letter as itself
  }
  if (code !== undefined && !Number.isNaN(code))
    return code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029;
  return tried(atom);
}

/** Where the escape at `at` (a backslash) ends in `source`. */
function escapeEnd(source: string, at: number, unicode: boolean): number {
  const kind = source[at + 1];
  let end = at + 2;
  const hex = (count: number) => {
    let taken = 0;
    while (taken < count && /[0-9a-fA-F]/.test(source[end] ?? '')) {
      end++;
      taken++;
    }
  };
  if (kind === 'x') hex(2);
  else if (kind === 'u') {
    if (unicode && source[end] === '{') {
      const close = source.indexOf('}', end);
      end = close < 0 ? source.length : close + 1;
    } else hex(4);
  } else if (kind === 'c') {
    if (/[a-zA-Z]/.test(source[end] ?? '')) end++;
  } else if ((kind === 'p' || kind === 'P') && unicode && source[end] === '{') {
    const close = source.indexOf('}', end);
    end = close < 0 ? source.length : close + 1;
  } else if (kind !== undefined && kind >= '0' && kind <= '9') {
    while (end < source.length && source[end]! >= '0' && source[end]! <= '9') end++;
  }
  return Math.min(end, source.length);
}
