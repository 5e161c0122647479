import type { GuardrailConfigIssue } from './errors';
import { escapeUnprintable } from './escape-unprintable';
import { NotShown, redactSecretsInText } from './redact-secrets';

/*
 * The rule for values a caller hands the library (options, guardrails, tool
 * sets, block() details, context metadata), in one place:
 *
 * - Read once. Each field is read one time, where the value is taken (a
 *   factory, `guardrails()`, `guardTools`, `block()`, a `context` hook); a
 *   getter or a Proxy trap that throws becomes an issue of a
 *   `GuardrailConfigError` (`notReadIssue`), and what was read is what the
 *   library uses afterwards (`readCallerObject`, `readGuardrailLists`).
 * - Never quoted. An issue names what the caller's code threw by its class
 *   (`thrownKind`), shows a value by its type and length
 *   (`shownConfigValue`) and a long key by its start and length
 *   (`shownPath`): a message or a value may hold anything the caller held.
 */

/** A class name shown as such: `TypeError`, `AI_APICallError`, `ThresholdError`, `DOMException`. */
const errorClassName = /^[A-Z][A-Za-z0-9_]{0,60}(?:Error|Exception)$/;

/** True for an Error, also one of another realm; false when asking throws (a Proxy). */
function isError(value: object): boolean {
  try {
    return value instanceof Error || Object.prototype.toString.call(value) === '[object Error]';
  } catch {
    return false;
  }
}

/**
 * What a config error says of what a caller's code threw (a getter, a Proxy
 * trap, a factory, a model resolver): its class or its type, never its
 * message or value. A message may quote anything the code held: redacting
 * it hid a URL's password or an `sk-` key but kept `pw=hunter2`,
 * `password: hunter2` and `token hunter2` (round 37). The class is named only
 * when its name reads as one (`TypeError`, `ThresholdError`: capitalised,
 * ending in `Error` or `Exception`); any other name is "an Error". Never throws.
 */
export function thrownKind(error: unknown): string {
  if (error === null || error === undefined) return String(error);
  if (typeof error !== 'object' && typeof error !== 'function')
    return `a ${typeof error}, not shown`;
  if (!isError(error))
    return typeof error === 'function' ? 'a function, not shown' : 'an object, not shown';
  let name = 'Error';
  try {
    const given: unknown = (error as { name?: unknown }).name;
    if (typeof given === 'string' && errorClassName.test(given)) name = given;
  } catch {
    // A `name` getter that throws: the class stays unnamed.
  }
  return `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}, its message not shown`;
}

/** How many characters of a key a path shows: keys are names, but a 10 MB key is no name. */
const LONGEST_SHOWN_KEY = 64;

/**
 * What an option check writes in place of a long string: `shownValue`'s
 * start and length (core/options), content-filter's `(N characters)`. The
 * loader says the length of the whole string.
 */
const cutString = /^(?:[\s\S]{0,16}… )?\((\d{1,16}) characters\)$/;

/**
 * What `kindOf` (core/callback-result) writes in place of what a caller's
 * function returned: the library's own words, which name a kind and no value.
 */
const kindWords =
  /^\((?:undefined|null|an array|an object|an empty string|a blank string|a (?:string|boolean|bigint|symbol|function)|the number (?:NaN|-?Infinity|-?[\d.e+-]{1,24})|a Promise: [A-Za-z]{1,40} must be synchronous)\)$/;

/**
 * What the library writes in place of a value it did not read (a getter that
 * threw) or of a config text (`config-source`): its own words.
 */
const ownWords = /^(?:\(not read\)|\d{1,16} characters of text \(not shown\))$/;

/** What output-schema writes in place of a schema too deep: the loader's own words. */
const tooDeep = /^\(a schema nested \d{1,6} levels deep at this point\)$/;

/** A built guardrail (a `name` and a `check`): an error names it, never shows its fields. */
function isGuardrail(value: unknown): boolean {
  const { name, check } = value as { name?: unknown; check?: unknown };
  return typeof name === 'string' && typeof check === 'function';
}

/** True for an array or an object whose prototype is `Object.prototype` or `null`: data. */
function isData(value: object): boolean {
  if (Array.isArray(value)) return !value.every(isGuardrail);
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && !isGuardrail(value);
}

/**
 * What an issue of the loader shows of a value the file (or the caller) gave.
 * The loader cannot tell a secret from a typo: `pasword: hunter2`,
 * `tokn: hunter2` and `{ api_kee: 'hunter2' }` were echoed whole under an
 * unknown key, as was any value of a wrong type or not in its list
 * (round 39). So a string, a number or a plain object or array is never
 * quoted (but a number out of its option's range, marked by
 * `configIssuesFromZod`), only its type (and a string's or an array's length), unless it is
 * a word of `known` (a guardrail type the loader checked it against).
 * What says nothing more than its type stays (`undefined`, `null`, a
 * boolean, NaN, an infinity), and so does what the error names without its
 * data: a function, a built guardrail, a class instance (by its class; a
 * Date, a RegExp or a Promise as such), and what the loader wrote itself.
 * A getter that throws while telling a guardrail from data hides the value too.
 */
export function shownConfigValue(value: unknown, known: ReadonlySet<string>): unknown {
  switch (typeof value) {
    case 'string': {
      if (
        known.has(value) ||
        tooDeep.test(value) ||
        kindWords.test(value) ||
        ownWords.test(value)
      ) {
        return value;
      }
      // An option check's cut of a long string (`shownValue`): the length is the whole string's.
      const length = Number(cutString.exec(value)?.[1] ?? value.length);
      return new NotShown(`a string of ${length} character${length === 1 ? '' : 's'} (not shown)`);
    }
    case 'number':
      return Number.isFinite(value) ? new NotShown('a number (not shown)') : value;
    case 'bigint':
      return new NotShown('a bigint (not shown)');
    case 'object':
      if (value === null) return value;
      try {
        if (!isData(value)) return value;
      } catch {
        return new NotShown('an object (not shown)');
      }
      return Array.isArray(value)
        ? new NotShown(`an array of ${value.length} item(s) (not shown)`)
        : new NotShown('an object (not shown)');
    default:
      return value;
  }
}

/**
 * A name the library already cut (a tool's: its first 63 characters, `…`
 * and a hash, JSON-escaped): no more of it than a key's 64 characters, and
 * the hash tells two cut names apart.
 */
const cutName = /^[^"]{1,160}…#[0-9a-f]{12}$/;

/** Characters that end a key in a formatted path. */
const KEY_ENDS = new Set(['.', '[', ']', '"']);

/**
 * A path with each key longer than 64 characters cut to its first 16 (after
 * credentials in it are redacted, so the cut never keeps the start of one)
 * and its length. Keys stay quoted otherwise: a key is the name of the option
 * the author meant, which fixing the file needs (`did you mean`); a secret is
 * written as a value, and a pasted line (`sk-...`, `password: x`) parses as
 * one. Escaped as `escapeUnprintable` does. One pass (a regular expression of `{65,}` overflowed V8's stack on a
 * 10 MB key).
 */
export function shownPath(path: string): string {
  // A key's bidirectional and C1 controls went to the terminal as written (JSON escapes C0 only).
  if (path.length <= LONGEST_SHOWN_KEY) return escapeUnprintable(path);
  let shown = '';
  let start = 0;
  for (let index = 0; index <= path.length; index++) {
    if (index < path.length && !KEY_ENDS.has(path[index]!)) continue;
    const key = path.slice(start, index);
    if (key.length > LONGEST_SHOWN_KEY && !cutName.test(key)) {
      const redacted = redactSecretsInText(key.slice(0, 4_096));
      shown += `${redacted.slice(0, 16)}… (${key.length} characters)`;
    } else shown += key;
    shown += path[index] ?? '';
    start = index + 1;
  }
  return escapeUnprintable(shown);
}

/** `path.key`, or `path["odd key"]` for keys that are not plain names. */
export function childPath(path: string, key: string): string {
  if (/^[A-Za-z_$][\w$-]*$/.test(key)) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

/** What an issue shows of a value whose reading threw. */
const notRead = new NotShown('(not read)');

/**
 * Adds the issue of a value at `path` whose reading threw `error`: named by
 * kind only (`thrownKind`), never its message.
 */
export function notReadIssue(issues: GuardrailConfigIssue[], path: string, error: unknown): void {
  issues.push({
    path,
    value: notRead,
    expected: `a value that can be read (reading it threw ${thrownKind(error)})`,
  });
}

/** How `readCallerObject` reads. */
export interface ReadCallerObjectOptions {
  /** The path of a key's issue; by default `childPath(path, key)`. */
  pathOf?: (key: string) => string;
  /**
   * Fields read too, inherited ones included (a class's method, a tool's
   * `execute`), after the own enumerable ones: the result holds each that
   * is not `undefined`.
   */
  fields?: readonly string[];
}

/** Sets `key` on `entries` as a key (a `__proto__` key, which JSON.parse makes, too). */
export function setEntry(entries: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(entries, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else entries[key] = value;
}

/**
 * The entry point of the rule "read once, never quote": the own enumerable
 * values of `object` (and its `fields`), each read once into a plain
 * object; `undefined` when a getter or a Proxy trap threw, with an issue at
 * its key naming what it threw by kind only (`thrownKind`): the caller's
 * error, message and all, went out of the factory raw (round 39). The
 * factories' and wrappers' option checks, `guardTools`' tool sets, `block()`,
 * `metadataObject` and the guardrail copies (`readGuardrailLists`) read
 * through it.
 */
export function readCallerObject(
  object: object,
  path: string,
  issues: GuardrailConfigIssue[],
  options?: ReadCallerObjectOptions,
): Record<string, unknown> | undefined {
  let keys: string[];
  try {
    keys = Object.keys(object);
  } catch (error) {
    issues.push({
      path,
      value: notRead,
      expected: `an object whose keys can be listed (listing threw ${thrownKind(error)})`,
    });
    return undefined;
  }
  // Loops without closures: `validateOptionsOnce` reads each object of an options list per call.
  const entries: Record<string, unknown> = {};
  let read = true;
  for (const key of keys) {
    try {
      setEntry(entries, key, (object as Record<string, unknown>)[key]);
    } catch (error) {
      read = false;
      notReadIssue(issues, options?.pathOf?.(key) ?? childPath(path, key), error);
    }
  }
  if (!read) return undefined;
  for (const field of options?.fields ?? []) {
    if (Object.hasOwn(entries, field)) continue;
    try {
      const value = (object as Record<string, unknown>)[field];
      if (value !== undefined) setEntry(entries, field, value);
    } catch (error) {
      read = false;
      notReadIssue(issues, options?.pathOf?.(field) ?? childPath(path, field), error);
    }
  }
  return read ? entries : undefined;
}

/**
 * True for a caller's plain object (not an array; its prototype
 * `Object.prototype` or `null`), false for anything else; `undefined`, with
 * an issue at `path` naming what it threw by kind only, when asking threw (a
 * Proxy's `getPrototypeOf` trap, a revoked Proxy): the one way an options
 * object's kind is read. `Array.isArray` and `Object.getPrototypeOf` threw
 * the caller's error raw out of every factory and `guardrails()` (round 40).
 */
export function isPlainCallerObject(
  value: unknown,
  path: string,
  issues: GuardrailConfigIssue[],
): boolean | undefined {
  if (value === null || typeof value !== 'object') return false;
  try {
    if (Array.isArray(value)) return false;
    const prototype = Object.getPrototypeOf(value);
    return prototype === Object.prototype || prototype === null;
  } catch (error) {
    notReadIssue(issues, path, error);
    return undefined;
  }
}

/**
 * What a list holds in place of a guardrail whose reading threw: its issue
 * is already reported, so the list's rules and checks pass over it (it is
 * no guardrail: no `check`).
 */
const unreadGuardrail: object = Object.freeze({});

/** True for the entry `readGuardrailLists` put in place of a guardrail it could not read. */
export function isUnreadGuardrail(value: unknown): boolean {
  return value === unreadGuardrail;
}

/**
 * What an option check puts in place of a list or an object inside the
 * options whose reading threw (`readOptions`): its issue is reported where
 * it was read, and every rule passes over it (`isUnreadGuardrail`).
 */
export const unreadCallerValue: object = unreadGuardrail;

/**
 * Every field of `Guardrail` (core/types) and of the library's own kinds
 * of guardrail (`OutputSideGuardrail`, `StreamWatchingGuardrail`) that the
 * middleware and the tool wrappers read: copied even when inherited (a
 * class's `check` method).
 */
const guardrailFields = [
  'name',
  'check',
  'streamSafe',
  'maxMatchLength',
  'potentialMatchStart',
  'mayMatch',
  'mayMatchReach',
  'timeoutMs',
  'onError',
  'parallel',
  'cache',
  'fingerprint',
  'perCall',
  'retryable',
  'undoneInOutputOnlyByItself',
  'conversationFromMetadata',
  'watchStream',
  'notStreamSafeBecause',
];

/**
 * A frozen copy of a guardrail, its fields read once (`readCallerObject`):
 * `guardrails()` and the tool wrappers read `check`, `name` and the rest
 * from the copy on every call, so a getter that throws is a config issue
 * at construction (it went out raw, its message and all, on the option
 * checks and on every check) and one that answers differently later
 * cannot swap the check. A plain object's functions are copied as they are
 * (the built-ins mark theirs by identity); a class instance's (or a Proxy
 * of one) are called on the instance, as `this` was before.
 */
function readGuardrail(value: object, path: string, issues: GuardrailConfigIssue[]): object {
  const found: GuardrailConfigIssue[] = [];
  const fields = readCallerObject(value, path, found, { fields: guardrailFields });
  const plain = fields !== undefined && isPlainCallerObject(value, path, found) === true;
  if (fields === undefined || found.length > 0) {
    issues.push(...found);
    return unreadGuardrail;
  }
  if (!plain) {
    for (const field of guardrailFields) {
      const method = fields[field];
      if (typeof method !== 'function') continue;
      fields[field] = (...args: unknown[]) => Reflect.apply(method, value, args);
    }
  }
  return Object.freeze(fields);
}

/**
 * One guardrail a caller's code made (a custom type's factory, in the
 * loader) as `readGuardrailLists` copies each of a list: a frozen copy of
 * its fields read once, or `undefined` with its issues at `path`. The loader
 * read such a guardrail's `streamSafe` and `parallel` itself before
 * `guardrails()` copied it, and a throwing getter went out raw (round 40).
 */
export function readCallerGuardrail(
  value: object,
  path: string,
  issues: GuardrailConfigIssue[],
): object | undefined {
  const copy = readGuardrail(value, path, issues);
  return copy === unreadGuardrail ? undefined : copy;
}

/**
 * The items of a list, each read once (one that throws is `unreadGuardrail`,
 * with its issue); `undefined` (with an issue) when its length cannot be read.
 */
function readItems(
  list: readonly unknown[],
  path: string,
  issues: GuardrailConfigIssue[],
): unknown[] | undefined {
  let length: number;
  try {
    length = list.length;
  } catch (error) {
    notReadIssue(issues, path, error);
    return undefined;
  }
  const items: unknown[] = [];
  for (let index = 0; index < length; index++) {
    try {
      items.push(list[index]);
    } catch (error) {
      items.push(unreadGuardrail);
      notReadIssue(issues, `${path}[${index}]`, error);
    }
  }
  return items;
}

/**
 * Replaces each guardrail list of `entries` (an options object as
 * `readCallerObject` read it) named in `keys` with a copy: its items read
 * once, each guardrail as a frozen copy (`readGuardrail`), the same copy
 * for the same guardrail in two lists (a pseudonymising `pii` is found in
 * `output` by identity). A value that is not an array, and an item that is
 * not an object, stay as they are for the list's rule to report.
 */
export function readGuardrailLists(
  entries: Record<string, unknown>,
  keys: readonly string[],
  prefix: string,
  issues: GuardrailConfigIssue[],
): void {
  const copies = new Map<object, object>();
  for (const key of keys) {
    const list = entries[key];
    const path = childPath(prefix, key);
    let isList: boolean;
    try {
      isList = Array.isArray(list);
    } catch (error) {
      // A revoked Proxy.
      notReadIssue(issues, path, error);
      entries[key] = undefined;
      continue;
    }
    if (!isList) continue;
    const items = readItems(list as unknown[], path, issues);
    entries[key] = items?.map((item, index) => {
      if (item === null || typeof item !== 'object' || item === unreadGuardrail) return item;
      let copy = copies.get(item);
      if (copy === undefined) {
        copy = readGuardrail(item, `${path}[${index}]`, issues);
        copies.set(item, copy);
      }
      return copy;
    });
  }
}

/**
 * What an argument's error says it was given: its type (`null`, `an array`,
 * `an object`, `a number`...), never its value. Runs none of the caller's
 * code (no getter, no trap, no `toString`).
 */
export function argumentKind(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'object') {
    try {
      if (Array.isArray(value)) return 'an array';
    } catch {
      // A revoked Proxy: an object.
    }
    return 'an object';
  }
  return `a ${typeof value}`;
}

/** The errors `callerArgument` and `readingCallerArgument` made: `readingCallerArgument` passes them on as they are. */
const argumentErrors = new WeakSet<object>();

/**
 * The `TypeError` of a public function's wrong argument: `where: what must
 * be expected, received its kind` (`argumentKind`); never its value.
 */
export function argumentError(
  where: string,
  what: string,
  expected: string,
  value: unknown,
): TypeError {
  const error = new TypeError(
    `${where}: ${what} must be ${expected}, received ${argumentKind(value)}`,
  );
  argumentErrors.add(error);
  return error;
}

/**
 * A text (or number) argument of a public function (`findPii(text)`,
 * `isInvisibleCodePoint(codePoint)`): the primitive as it is; anything
 * else an `argumentError`, never converted. A String object's `toString`,
 * a `Symbol.toPrimitive` or a Proxy's trap is the caller's code, and what
 * it threw went out raw, its message and all (round 41).
 */
export function callerArgument<TYPE extends 'string' | 'number'>(
  value: unknown,
  type: TYPE,
  where: string,
  what: string,
): TYPE extends 'string' ? string : number {
  if (typeof value === type) return value as TYPE extends 'string' ? string : number;
  throw argumentError(where, what, `a ${type}`, value);
}

/**
 * The error of a record argument (a step, a tool definition, a judge
 * template's input) whose reading threw: a `TypeError` naming the function,
 * the argument and what was thrown by kind only (`thrownKind`).
 */
function unreadArgument(where: string, what: string, error: unknown): unknown {
  if (error !== null && typeof error === 'object' && argumentErrors.has(error)) return error;
  const unread = new TypeError(
    `${where}: ${what} could not be read (reading it threw ${thrownKind(error)})`,
  );
  argumentErrors.add(unread);
  return unread;
}

/**
 * `read()`, the reading of a record argument (a step, an outcome, a tool
 * definition, a record): what a getter or a Proxy trap of it throws
 * becomes a `TypeError` naming the argument, and the error by kind only;
 * the library's own argument errors pass as they are. A record is data the
 * function walks (a run's steps, a schema's tree): one guard around the
 * walk, not a copy of it. Synchronous: an async function guards each
 * stretch of reading between its awaits (a promise the caller gave, such
 * as a run's `steps`, rejects with the run's own error, passed on).
 */
export function readingCallerArgument<T>(where: string, what: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw unreadArgument(where, what, error);
  }
}

/**
 * A record argument (a tool definition, a step) copied once at the entry
 * point: its own enumerable fields, each read once into a plain object (a
 * getter runs once), what reading threw a `TypeError` as
 * `readingCallerArgument` makes it. The function then checks and uses the
 * copy: a getter that answers otherwise on each read made the check and the
 * use disagree (round 42: `toolDefinitionText` read a `description` getter
 * for its type and again for its text). Not an object: the value as it is.
 */
export function callerRecord<T>(where: string, what: string, value: T): T {
  if (value === null || typeof value !== 'object') return value;
  return readingCallerArgument(where, what, () => {
    if (Array.isArray(value)) return value;
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value))
      setEntry(copy, key, (value as Record<string, unknown>)[key]);
    return copy as T;
  });
}
