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

  constructor(pattern: string | RegExp, flags?: string) {
    super(pattern, flags);
    // A copy (matchAll, replaceAll and split copy their RegExp) shares the program.
    if (
      pattern instanceof Re2RegExp &&
      pattern.ignoreCase === this.ignoreCase &&
      pattern.multiline === this.multiline &&
      pattern.dotAll === this.dotAll &&
      !this.hasIndices
    ) {
      this.#re2 = pattern.#re2;
      return;
    }
    const compiled = compileRe2(this);
    if (typeof compiled === 'string') throw new Re2PatternError(compiled);
    this.#re2 = compiled;
  }

  override exec(input: string): RegExpExecArray | null {
    const text = String(input);
    const resumes = this.global || this.sticky;
    const from = resumes ? Math.max(0, Math.trunc(Number(this.lastIndex)) || 0) : 0;
    if (from > text.length) {
      this.lastIndex = 0;
      return null;
    }
    const matcher = this.#re2.matcher(text);
    // A sticky search must match at `from`: the leftmost match from there starts there if any does.
    if (!matcher.find(from) || (this.sticky && matcher.start() !== from)) {
      if (resumes) this.lastIndex = 0;
      return null;
    }
    const result = [] as unknown as RegExpExecArray;
    for (let group = 0; group <= matcher.groupCount(); group++) {
      result.push(matcher.group(group) ?? (undefined as unknown as string));
    }
    result.index = matcher.start();
    result.input = text;
    const names = Object.keys(this.#re2.namedGroups());
    if (names.length > 0) {
      const groups: Record<string, string | undefined> = Object.create(null);
      for (const name of names) groups[name] = matcher.group(name) ?? undefined;
      result.groups = groups as Record<string, string>;
    } else {
      result.groups = undefined;
    }
    if (resumes) this.lastIndex = matcher.end();
    return result;
  }
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
  try {
    return RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch (error) {
    const detail = error instanceof RE2JSException ? error.message : String(error);
    return `a pattern RE2 can run in linear time (no lookaround, no backreferences): ${detail}`;
  }
}
