import { notReadIssue, thrownKind, unreadCallerValue } from './caller-values';
import type { GuardrailConfigIssue } from './errors';
import { NotShown } from './redact-secrets';

/*
 * A caller's RegExp is the caller's code as much as its data: a subclass (or
 * an instance with its own `exec`, `Symbol.replace` or `constructor`) runs
 * that code on every search, may answer a search otherwise the next time,
 * forge a match, throw, or keep state between calls; a frozen one makes
 * `lastIndex = 0` throw. So each RegExp an option takes is read once where
 * the options are read, its `source` and its `flags` one time each, and
 * rebuilt from them: the guardrail searches with its own plain RegExp.
 */

/** A RegExp class that builds its instances from a source and flags. */
type RegExpClass = new (source: string, flags: string) => RegExp;

/** The library's own RegExp classes (`Re2RegExp`), whose instances stay of their class when copied. */
const ownClasses: RegExpClass[] = [];

/**
 * Marks `regExpClass` as one of the library's own (`Re2RegExp`, the config
 * loader's linear-time patterns): a copy of an instance of it (or of a
 * subclass) is built with it, so a config pattern stays on RE2 without
 * `src/core` importing it (an edge bundle of `pii()` leaves re2js out).
 */
export function keepRegExpClass(regExpClass: RegExpClass): void {
  if (!ownClasses.includes(regExpClass)) ownClasses.push(regExpClass);
}

/** How many prototypes `callerRegExpCopy` walks before it calls a value no RegExp (a chain of Proxies has no end). */
const MAX_PROTOTYPES = 64;

/** Each copy `callerRegExpCopy` made: the library's own, checked as RegExps without asking again. */
const copies = new WeakSet<RegExp>();

/**
 * The class a copy of `value` is built with: the library's own class it is
 * an instance of, else `RegExp`; `undefined` for a value that is no RegExp
 * (no `RegExp.prototype` within `MAX_PROTOTYPES` steps). Throws what a
 * Proxy's `getPrototypeOf` trap throws.
 */
function copyClassOf(value: object): RegExpClass | undefined {
  let own: RegExpClass | undefined;
  let prototype: object | null = Object.getPrototypeOf(value);
  for (let depth = 0; prototype !== null && depth < MAX_PROTOTYPES; depth++) {
    if (prototype === RegExp.prototype) return own ?? RegExp;
    own ??= ownClasses.find(regExpClass => regExpClass.prototype === prototype);
    prototype = Object.getPrototypeOf(prototype);
  }
  return undefined;
}

/**
 * True for a RegExp as a pattern option takes it: one of
 * `callerRegExpCopy`'s copies, or a value with `RegExp.prototype` in its
 * prototype chain (walked at most `MAX_PROTOTYPES` steps; false when a
 * Proxy's trap throws).
 */
export function isRegExpOption(value: unknown): value is RegExp {
  if (value === null || typeof value !== 'object') return false;
  if (copies.has(value as RegExp)) return true;
  try {
    return copyClassOf(value) !== undefined;
  } catch {
    return false;
  }
}

/** What an issue shows of a RegExp whose source and flags were read but build none: not what they said. */
const shownRegExp = new NotShown('(a RegExp, not shown)');

/**
 * A caller's RegExp at `path`, copied: its `source` and `flags` read once
 * each (a subclass's getters run once, here) and a new RegExp built from
 * them, of the library's class when it is one of its own (`keepRegExpClass`).
 * The copy runs none of the caller's code: no `exec`, no `Symbol.replace`,
 * no `lastIndex` left by the caller. A getter or a Proxy trap that throws,
 * a `source` or `flags` that is no string, or a pair no RegExp is built from
 * is an issue at `path` (what was thrown named by kind only), and the value
 * `unreadCallerValue`, which every rule passes over. A value that is no
 * RegExp (a string, `{}`) is returned as it is, for its rule to report.
 */
export function callerRegExpCopy(
  value: unknown,
  path: string,
  issues: GuardrailConfigIssue[],
): unknown {
  if (value === null || typeof value !== 'object' || copies.has(value as RegExp)) return value;
  let copyClass: RegExpClass | undefined;
  let source: unknown;
  let flags: unknown;
  try {
    copyClass = copyClassOf(value);
    if (copyClass === undefined) return value;
    source = (value as RegExp).source;
    flags = (value as RegExp).flags;
  } catch (error) {
    notReadIssue(issues, path, error);
    return unreadCallerValue;
  }
  if (typeof source !== 'string' || typeof flags !== 'string') {
    issues.push({
      path,
      value: shownRegExp,
      expected: 'a RegExp whose source and flags are strings',
    });
    return unreadCallerValue;
  }
  let copy: RegExp;
  try {
    copy = new copyClass(source, flags);
  } catch (error) {
    issues.push({
      path,
      value: shownRegExp,
      expected: `a RegExp whose source and flags build one (building it threw ${thrownKind(error)})`,
    });
    return unreadCallerValue;
  }
  copies.add(copy);
  return copy;
}
