import { MAX_STORE_TTL_MS } from '../store/store-ttl';
import { callerRegExpCopy, isRegExpOption } from './caller-regexp';
import {
  childPath,
  isPlainCallerObject,
  isUnreadGuardrail,
  notReadIssue,
  readCallerObject,
  readGuardrailLists,
  setEntry,
  unreadCallerValue,
} from './caller-values';
import { GuardrailConfigError, type GuardrailConfigIssue } from './errors';
import { NotShown, redactSecretsInText } from './redact-secrets';

export { childPath };

/*
 * One way to check options, shared by `guardrails()`, the tool wrappers and
 * every built-in factory: each option has a rule; a rule adds an issue (path,
 * value, what was expected) per problem; all issues of one call are thrown
 * together as a `GuardrailConfigError`. Conventions, the same everywhere:
 *
 * - `undefined` means "not given" (the default applies); `null` is an error,
 *   as it is in the config loader's schemas.
 * - A list option wants an array: a single string is an error, never a set
 *   of letters and never silently wrapped.
 * - An unknown key is an error (a typo such as `categores` must not turn a
 *   default off).
 */

/**
 * Checks the value found at `path`, pushing one issue per problem. `required`
 * rules report a missing (`undefined`) value; the others skip it.
 */
export interface OptionRule {
  (value: unknown, path: string, issues: GuardrailConfigIssue[]): void;
  /** The option must be given. */
  readonly required?: boolean;
  /** What the rule is built from, so tests can compare it with the config schemas. */
  readonly parts?: {
    shape?: OptionShape;
    item?: OptionRule;
    alternatives?: readonly OptionRule[];
    /**
     * The value as the options keep it, made once where they are read
     * (`readNested`), before any rule checks it: a caller's RegExp rebuilt
     * (`callerRegExpCopy`). Issues go to `issues`.
     */
    copy?: (value: unknown, path: string, issues: GuardrailConfigIssue[]) => unknown;
  };
}

/** The rules of an options object, by key: also its list of known keys. */
export type OptionShape = Readonly<Record<string, OptionRule>>;

const LONGEST_SHOWN_STRING = 64;

/**
 * The value an issue carries: long strings are cut (after credentials in
 * them are redacted, so a cut never keeps the start of a key), so that an
 * error never echoes a whole prompt, key or document passed by mistake.
 */
export function shownValue(value: unknown): unknown {
  if (typeof value === 'string' && value.length > LONGEST_SHOWN_STRING) {
    const redacted = redactSecretsInText(value.slice(0, 4_096));
    return `${redacted.slice(0, 16)}… (${value.length} characters)`;
  }
  return value;
}

/** Adds one issue at `path`. */
export function addIssue(
  issues: GuardrailConfigIssue[],
  path: string,
  value: unknown,
  expected: string,
): void {
  issues.push({ path, value: shownValue(value), expected });
}

/** A rule from a test: one issue saying `expected` when `test` fails. */
export function rule(test: (value: unknown) => boolean, expected: string): OptionRule {
  return (value, path, issues) => {
    if (value !== undefined && !test(value)) addIssue(issues, path, value, expected);
  };
}

/**
 * `rule` for a number option: a number that fails is of the right type, out
 * of range, and is quoted (`received 0` for `a positive integer`), as the
 * loader quotes a number out of its option's range; any other value is
 * shown as its type only (GuardrailConfigError).
 */
export function numberRule(test: (value: unknown) => boolean, expected: string): OptionRule {
  return (value, path, issues) => {
    if (value === undefined || test(value)) return;
    addIssue(
      issues,
      path,
      typeof value === 'number' ? new NotShown(String(value)) : value,
      expected,
    );
  };
}

/** Marks a rule as required: a missing value is an issue too. */
export function required(inner: OptionRule, expected = 'a value'): OptionRule {
  const check: OptionRule = (value, path, issues) => {
    if (value === undefined) addIssue(issues, path, value, expected);
    else inner(value, path, issues);
  };
  return Object.assign(check, { required: true, parts: inner.parts });
}

function quote(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : String(value);
}

/** Lists alternatives in words: `'a', 'b' or 'c'`. */
function alternatives(values: readonly unknown[]): string {
  const quoted = values.map(quote);
  return quoted.length <= 1
    ? (quoted[0] ?? 'nothing')
    : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

/** One of the listed values (compared with `===`). */
export function oneOf(values: readonly unknown[]): OptionRule {
  return rule(value => values.includes(value), alternatives(values));
}

/** A positive safe integer. */
export const positiveInt: OptionRule = numberRule(
  value => Number.isSafeInteger(value) && (value as number) > 0,
  'a positive integer',
);

/** A non-negative safe integer. */
export const nonNegativeInt: OptionRule = numberRule(
  value => Number.isSafeInteger(value) && (value as number) >= 0,
  'a non-negative integer',
);

/** A finite number above 0 (NaN and Infinity are not). */
export function positiveNumber(expected = 'a positive number'): OptionRule {
  return numberRule(
    value => typeof value === 'number' && Number.isFinite(value) && value > 0,
    expected,
  );
}

/** A duration: a finite number of milliseconds above 0. */
export const milliseconds: OptionRule = positiveNumber('a positive number of milliseconds');

/** How long a store keeps a key: above 0 and at most `MAX_STORE_TTL_MS`, as every store takes it. */
export const storeTtl: OptionRule = numberRule(
  value => typeof value === 'number' && value > 0 && value <= MAX_STORE_TTL_MS,
  `a positive number of milliseconds up to ${MAX_STORE_TTL_MS} (the longest a store keeps a key)`,
);

/** The longest delay `setTimeout` honours; a longer one fires after 1 ms. */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * A duration a timer waits (a `timeoutMs`): above 0 and at most
 * `MAX_TIMER_MS`, since a longer timeout would fire at once (and, with
 * `onError: 'allow'`, let every check pass).
 */
export const timerMilliseconds: OptionRule = numberRule(
  value =>
    typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= MAX_TIMER_MS,
  `a positive number of milliseconds up to ${MAX_TIMER_MS} (the longest timer)`,
);

/** A finite number from `min` to `max` (`min` itself excluded with `minExclusive`). */
export function numberInRange(
  min: number,
  max: number,
  {
    minExclusive = false,
    expected = minExclusive ? `a number in (${min}, ${max}]` : `a number from ${min} to ${max}`,
  }: { minExclusive?: boolean; expected?: string } = {},
): OptionRule {
  return numberRule(
    value =>
      typeof value === 'number' &&
      Number.isFinite(value) &&
      (minExclusive ? value > min : value >= min) &&
      value <= max,
    expected,
  );
}

/** Any string (the empty one too). */
export const stringOption: OptionRule = rule(value => typeof value === 'string', 'a string');

/** A string with at least one non-space character. */
export const nonEmptyString: OptionRule = rule(
  value => typeof value === 'string' && value.trim() !== '',
  'a non-empty string',
);

/** `true` or `false`. */
export const booleanOption: OptionRule = rule(value => typeof value === 'boolean', 'true or false');

/** A function; `expected` says which (`'a function (type) => string'`). */
export function functionOption(expected = 'a function'): OptionRule {
  return rule(value => typeof value === 'function', expected);
}

/**
 * A RegExp without the `y` flag. Every pattern option is searched for
 * anywhere in a text; a sticky pattern matches only where a search starts,
 * so `toolPolicy({ deny: [/rm -rf/y] })` let `ls; rm -rf /` run and a sticky
 * `pii` custom pattern found nothing after the first character. The issue
 * is reported at the pattern's `flags` (so `anyOf` names it, not "a string
 * or a RegExp"). Where options are read, the caller's RegExp is first
 * rebuilt from its source and flags, read once (`callerRegExpCopy`, round
 * 45): the guardrail keeps and checks that copy, so a subclass's `exec`, a
 * forged match or a frozen `lastIndex` never reaches a check.
 */
const regexRule: OptionRule = (value, path, issues) => {
  // A RegExp whose reading threw is reported where it was read (`readNested`).
  if (value === undefined || isUnreadGuardrail(value)) return;
  if (!isRegExpOption(value)) addIssue(issues, path, value, 'a RegExp');
  else if (value.sticky) {
    addIssue(
      issues,
      childPath(path, 'flags'),
      value.flags,
      "flags without 'y' (a sticky pattern matches only where a search starts, so it misses a value later in the text; anchor it with ^ instead)",
    );
  }
};
export const regexOption: OptionRule = Object.assign(regexRule, {
  parts: { copy: callerRegExpCopy },
});

/**
 * Passes when any of `rules` passes; otherwise one issue naming `expected`
 * (or, when only one alternative is of the value's shape, that one's issues).
 */
export function anyOf(rules: readonly OptionRule[], expected: string): OptionRule {
  const check: OptionRule = (value, path, issues) => {
    // A value whose reading threw is reported where it was read (`readNested`).
    if (value === undefined || isUnreadGuardrail(value)) return;
    const attempts: GuardrailConfigIssue[][] = [];
    for (const candidate of rules) {
      const found: GuardrailConfigIssue[] = [];
      candidate(value, path, found);
      if (found.length === 0) return;
      attempts.push(found);
    }
    // An alternative that failed only deeper (inside the value) says more than "expected X or Y".
    const deeper = attempts.filter(found => found.every(issue => issue.path !== path));
    if (deeper.length === 1) issues.push(...deeper[0]!);
    else addIssue(issues, path, value, expected);
  };
  return Object.assign(check, { parts: { alternatives: rules } });
}

/**
 * An array whose items each pass `item`. A lone string is an error (with a
 * hint), never read as a list of its characters.
 */
export function listOf(item: OptionRule, expected: string): OptionRule {
  const check: OptionRule = (value, path, issues) => {
    // A list whose reading threw is reported where it was read (`readNested`).
    if (value === undefined || isUnreadGuardrail(value)) return;
    if (!Array.isArray(value)) {
      addIssue(
        issues,
        path,
        value,
        typeof value === 'string' ? `${expected} (wrap a single value in [ ])` : expected,
      );
      return;
    }
    // An index loop, not forEach, which skips holes: `[, pii()]` is an issue at [0].
    for (let index = 0; index < value.length; index++) {
      const entry: unknown = value[index];
      const itemPath = `${path}[${index}]`;
      if (entry === undefined) addIssue(issues, itemPath, entry, 'a value, not undefined');
      else item(entry, itemPath, issues);
    }
  };
  return Object.assign(check, { parts: { item } });
}

/**
 * `listOf` that refuses `[]` too, saying `whenEmpty`: for a list that,
 * empty, leaves the guardrail nothing to check (a silent pass).
 */
export function nonEmptyListOf(item: OptionRule, expected: string, whenEmpty: string): OptionRule {
  const list = listOf(item, expected);
  const check: OptionRule = (value, path, issues) => {
    if (Array.isArray(value) && value.length === 0) addIssue(issues, path, value, whenEmpty);
    else list(value, path, issues);
  };
  return Object.assign(check, { parts: list.parts });
}

/** An array of non-empty strings. */
export const stringList: OptionRule = listOf(nonEmptyString, 'an array of strings');

/** An array of RegExps. */
export const regexList: OptionRule = listOf(regexOption, 'an array of RegExps');

const guardrailFieldRules: OptionShape = {
  streamSafe: booleanOption,
  maxMatchLength: positiveInt,
  potentialMatchStart: functionOption(),
  mayMatch: functionOption(),
  mayMatchReach: positiveInt,
  timeoutMs: timerMilliseconds,
  onError: oneOf(['block', 'allow']),
  parallel: booleanOption,
  perCall: booleanOption,
};

/**
 * A guardrail: an object with a `name` and a `check` function, whose
 * optional fields (a hand-written object's `timeoutMs: -1` too) have the
 * right types. Other fields are left alone: a guardrail may carry its own.
 */
export const guardrailOption: OptionRule = (value, path, issues) => {
  // A guardrail whose reading threw is reported where it was read (`readGuardrailLists`).
  if (value === undefined || isUnreadGuardrail(value)) return;
  const candidate = value as Record<string, unknown> | null;
  if (
    candidate === null ||
    typeof candidate !== 'object' ||
    typeof candidate.name !== 'string' ||
    candidate.name === '' ||
    typeof candidate.check !== 'function'
  ) {
    addIssue(issues, path, value, 'a guardrail (an object with a `name` and a `check` function)');
    return;
  }
  for (const [key, fieldRule] of Object.entries(guardrailFieldRules)) {
    fieldRule(candidate[key], childPath(path, key), issues);
  }
};

/** An array of guardrails. */
export const guardrailList: OptionRule = listOf(guardrailOption, 'an array of guardrails');

const storeMethods = [
  'get',
  'set',
  'setIfAbsent',
  'touch',
  'incrBy',
  'incrByCapped',
  'delete',
] as const;

/** A `Store` (`memoryStore()`, `redisStore(client)` or your own). */
export const storeOption: OptionRule = rule(
  value =>
    value !== null &&
    typeof value === 'object' &&
    storeMethods.every(method => typeof (value as Record<string, unknown>)[method] === 'function'),
  `a Store (with ${storeMethods.join(', ')})`,
);

/**
 * `isPlainCallerObject` with the issue of a value that is not a plain object
 * (`expected`): false for either, true for a plain object.
 */
function plainObjectChecked(
  value: unknown,
  path: string,
  issues: GuardrailConfigIssue[],
  expected: string,
): value is Record<string, unknown> {
  const plain = isPlainCallerObject(value, path, issues);
  if (plain === false) addIssue(issues, path, value, expected);
  return plain === true;
}

/**
 * What an unknown option name was expected to be: the known names, and the
 * one it most likely misspells (`ouput` -> `output`, `maxattempts` ->
 * `maxAttempts`), unless the caller knows which name was meant
 * (`suggestion`). Names longer than 64 characters get no suggestion (the
 * comparison is quadratic in the name's length).
 */
export function noSuchOption(
  key: string,
  known: readonly string[],
  suggestion: string | undefined = closestName(key, known),
): string {
  const hint = suggestion === undefined ? '' : `did you mean '${suggestion}'? `;
  return known.length > 0 ? `no such option (${hint}known: ${known.join(', ')})` : 'no such option';
}

function closestName(key: string, known: readonly string[]): string | undefined {
  if (key.length > 64) return undefined;
  const lower = key.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.min(2, Math.floor(key.length / 3));
  for (const name of known) {
    if (name.toLowerCase() === lower) return name;
    if (Math.abs(name.length - key.length) > bestDistance) continue;
    const distance = editDistance(lower, name.toLowerCase());
    if (distance <= bestDistance && (best === undefined || distance < bestDistance)) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance, one row at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** The issues of an options object against `shape` (unknown keys and missing required ones too). */
function objectIssues(
  object: Record<string, unknown>,
  shape: OptionShape,
  path: string,
  issues: GuardrailConfigIssue[],
): void {
  const value = readCallerObject(object, path, issues);
  if (value === undefined) return;
  const known = Object.keys(shape);
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(shape, key)) {
      addIssue(issues, childPath(path, key), value[key], noSuchOption(key, known));
    }
  }
  for (const key of known) shape[key]!(value[key], childPath(path, key), issues);
}

/** A plain object whose keys are all in `shape`, each passing its rule. */
export function objectOption(shape: OptionShape, expected = 'an object'): OptionRule {
  const check: OptionRule = (value, path, issues) => {
    // An object whose reading threw is reported where it was read (`readNested`).
    if (value === undefined || isUnreadGuardrail(value)) return;
    if (!plainObjectChecked(value, path, issues, expected)) return;
    objectIssues(value, shape, path, issues);
  };
  return Object.assign(check, { parts: { shape } });
}

/** A plain object whose every value passes `item` (any keys), e.g. word lists by category. */
export function recordOf(item: OptionRule, expected: string): OptionRule {
  const check: OptionRule = (value, path, issues) => {
    if (value === undefined || !plainObjectChecked(value, path, issues, expected)) return;
    const entries = readCallerObject(value, path, issues);
    for (const [key, entry] of Object.entries(entries ?? {})) {
      const entryPath = childPath(path, key);
      if (entry === undefined) addIssue(issues, entryPath, entry, 'a value, not undefined');
      else item(entry, entryPath, issues);
    }
  };
  return Object.assign(check, { parts: { item } });
}

/** Where `validateOptions` reports and what it checks. */
export interface ValidateOptionsSettings {
  /**
   * Put before every option's path: the guardrail's name for a factory
   * (`pii` gives `pii.entities[2]`), `''` for the middleware and tool
   * wrappers (`stream.mode`).
   */
  prefix: string;
  /** The path of a wrong options argument itself (`null`, a string...), e.g. `pii` or `guardrails`. */
  root: string;
  /** The rules, by option name. */
  shape: OptionShape;
  /**
   * Further checks across options, after the shape's. They run even when an
   * option failed its rule, so they must test the types they rely on.
   */
  refine?: (
    options: Record<string, unknown>,
    issues: GuardrailConfigIssue[],
    prefix: string,
  ) => void;
}

/** What `readOptions` found: the issues, and the options as it read them. */
export interface ReadOptions {
  issues: GuardrailConfigIssue[];
  /**
   * The options read once (a plain object; `{}` for none), each guardrail
   * list a list of frozen copies (`readGuardrailLists`), each other list
   * and object of options a copy (`readNested`); `undefined` when the
   * options could not be read.
   */
  read?: Record<string, unknown>;
}

/**
 * What one reading of an options object read (`validateOptionsOnce`): each
 * value in the order it was read, with each list's length and each object's
 * keys (`log`: two readings that log the same values read the same
 * options), and the copies it made (`made`, frozen when the reading is kept).
 */
interface Reading {
  log: unknown[];
  made: object[];
  /** The copies a rule makes of a value (`parts.copy`), made only when the reading is checked anew. */
  copies: Array<() => void>;
}

/** The `parts.copy` of `rule`, or of the first of its alternatives that has one. */
function copyPart(rule: OptionRule | undefined): NonNullable<OptionRule['parts']>['copy'] {
  const parts = rule?.parts;
  if (parts === undefined) return undefined;
  if (parts.copy !== undefined) return parts.copy;
  for (const alternative of parts.alternatives ?? []) {
    const found = copyPart(alternative);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The parts of `rule` (or of the first of its alternatives that has them)
 * that read inside a value of this kind: a list's (`listOf`; not a list of
 * guardrails, which `readGuardrailLists` copies) for an array, an object's
 * (`objectOption`) for a plain object. A record (`recordOf`) is read as
 * given: a Proxy may answer any name (the loader's `models`).
 */
function nestedParts(
  rule: OptionRule | undefined,
  array: boolean,
): OptionRule['parts'] | undefined {
  const parts = rule?.parts;
  if (parts === undefined) return undefined;
  if (parts.alternatives !== undefined) {
    for (const alternative of parts.alternatives) {
      const found = nestedParts(alternative, array);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (array) return parts.item !== undefined && parts.item !== guardrailOption ? parts : undefined;
  return parts.shape !== undefined ? parts : undefined;
}

/**
 * `value` (found at `path`) as an option check reads it: a list (or a plain
 * object) its rule reads inside, copied, its items (fields) read once and
 * each read the same way; anything else as it is. The rules then check the
 * copy and the caller's code uses it, so a getter, a Proxy trap or an
 * assignment between the check and the use changes nothing (round 43: a
 * `custom` pattern of `findPii` was checked by its fields and then read
 * again, its `pattern` a getter or replaced in place). What reading throws
 * is an issue at its path (by kind only), the value `unreadCallerValue`.
 * A value whose rule copies it (`parts.copy`: a RegExp) is that copy, set
 * in `holder` at `key` when `reading` defers it. Linear in the options'
 * size; the shapes bound the depth.
 */
function readNested(
  value: unknown,
  rule: OptionRule | undefined,
  holder: Record<string, unknown> | unknown[],
  parent: string,
  key: string | number,
  issues: GuardrailConfigIssue[],
  reading: Reading | undefined,
): unknown {
  reading?.log.push(value);
  if (value === null || typeof value !== 'object' || rule?.parts === undefined) return value;
  // The path is made for a list or an object only: a field's value is the common case.
  const path = typeof key === 'number' ? `${parent}[${key}]` : childPath(parent, key);
  const copy = copyPart(rule);
  if (copy !== undefined) {
    if (reading === undefined) return copy(value, path, issues);
    // Compared by identity first (`validateOptionsOnce`): copied only when checked anew.
    reading.copies.push(() => {
      const copied = copy(value, path, issues);
      if (typeof key === 'number') (holder as unknown[])[key] = copied;
      else setEntry(holder as Record<string, unknown>, key, copied);
    });
    return value;
  }
  let array: boolean;
  try {
    array = Array.isArray(value);
  } catch (error) {
    // A revoked Proxy.
    notReadIssue(issues, path, error);
    return unreadCallerValue;
  }
  const parts = nestedParts(rule, array);
  if (parts === undefined) return value;
  if (!array) {
    const plain = isPlainCallerObject(value, path, issues);
    if (plain === false) return value;
    const fields = plain === true ? readCallerObject(value, path, issues) : undefined;
    if (fields === undefined) return unreadCallerValue;
    readFields(fields, parts.shape!, path, issues, reading);
    return fields;
  }
  let items: unknown[];
  try {
    const list = value as readonly unknown[];
    const length = list.length;
    items = new Array(length);
    // An index loop: a hole reads as `undefined`, which `listOf` reports.
    for (let index = 0; index < length; index++) items[index] = list[index];
  } catch (error) {
    notReadIssue(issues, path, error);
    return unreadCallerValue;
  }
  reading?.log.push(items.length);
  reading?.made.push(items);
  for (let index = 0; index < items.length; index++) {
    items[index] = readNested(items[index], parts.item, items, path, index, issues, reading);
  }
  return items;
}

/** Each field of `fields` (a copy read once) read by `readNested` against its rule in `shape`, in place. */
function readFields(
  fields: Record<string, unknown>,
  shape: OptionShape,
  path: string,
  issues: GuardrailConfigIssue[],
  reading: Reading | undefined,
): void {
  const keys = Object.keys(fields);
  reading?.log.push(keys.length);
  reading?.made.push(fields);
  for (const key of keys) {
    reading?.log.push(key);
    const given = fields[key];
    const rule = Object.hasOwn(shape, key) ? shape[key] : undefined;
    const read = readNested(given, rule, fields, path, key, issues, reading);
    if (read !== given) setEntry(fields, key, read);
  }
}

/**
 * `optionIssues` and the options as it read them, for an entry point that
 * adds issues of its own (`redisStore`'s client) before it throws.
 */
export function readOptions(options: unknown, settings: ValidateOptionsSettings): ReadOptions {
  const { prefix, root, shape, refine } = settings;
  const issues: GuardrailConfigIssue[] = [];
  const requiredKeys = Object.keys(shape).filter(key => shape[key]!.required);
  if (options === undefined && requiredKeys.length === 0) {
    const read = {};
    refine?.(read, issues, prefix);
    return { issues, read };
  }
  const expected =
    requiredKeys.length > 0
      ? `an options object with ${requiredKeys.join(' and ')}`
      : 'an options object, or nothing for the defaults';
  if (!plainObjectChecked(options, root, issues, expected)) return { issues };
  const entries = readCallerObject(options, root, issues);
  if (entries === undefined) return { issues };
  readFields(entries, shape, prefix, issues, undefined);
  return checkedEntries(options, entries, settings, issues);
}

/**
 * The checks of `readOptions` on `entries`, an options object as read
 * (`options`, the caller's, is named only in the issue of a guardrail given
 * for options).
 */
function checkedEntries(
  options: unknown,
  entries: Record<string, unknown>,
  { prefix, root, shape, refine }: ValidateOptionsSettings,
  issues: GuardrailConfigIssue[],
): ReadOptions {
  // `guardrails(pii())`: one issue that says what to do, not one per field of the guardrail.
  if (
    !Object.hasOwn(shape, 'check') &&
    typeof entries.name === 'string' &&
    typeof entries.check === 'function'
  ) {
    addIssue(
      issues,
      root,
      options,
      'an options object, not a guardrail (guardrails go in its lists: { input: [...], output: [...] })',
    );
    return { issues };
  }
  // Each guardrail of a list read once, into a frozen copy the caller uses from now on.
  readGuardrailLists(
    entries,
    Object.keys(shape).filter(key => shape[key]!.parts?.item === guardrailOption),
    prefix,
    issues,
  );
  objectIssues(entries, shape, prefix, issues);
  refine?.(entries, issues, prefix);
  return { issues, read: entries };
}

/**
 * Every problem of an options argument against its shape: a `null` or
 * non-object argument (`undefined` is "no options" unless something is
 * required), unknown keys, missing required options and each option's own
 * problems, then `refine`'s (given the options as read: each value read
 * once, each guardrail list as frozen copies). Empty when the options are fine.
 */
export function optionIssues(
  options: unknown,
  settings: ValidateOptionsSettings,
): GuardrailConfigIssue[] {
  return readOptions(options, settings).issues;
}

/**
 * Checks an options argument against its shape and returns the options as
 * it read them (`{}` when it was `undefined`): each value read once, so the
 * factory that destructures the result never reads the caller's object
 * again (a getter or a Proxy `get` trap that passed the check threw its
 * error raw there, round 40); throws one `GuardrailConfigError` listing
 * every problem `optionIssues` finds.
 */
export function validateOptions<OPTIONS extends object>(
  options: OPTIONS | undefined,
  settings: ValidateOptionsSettings,
): OPTIONS {
  return validatedOptions(options, settings);
}

/**
 * `validateOptions` that returns the options as it read them, not the
 * object given: each value read once (a getter runs once), each guardrail
 * of a list (`guardrailList`) a frozen copy of its fields. For the
 * middleware and the tool wrappers, which keep the guardrails for every
 * call: a getter read there again could throw its error raw, or answer
 * with another check.
 */
export function validatedOptions<OPTIONS extends object>(
  options: OPTIONS | undefined,
  settings: ValidateOptionsSettings,
): OPTIONS {
  const { issues, read } = readOptions(options, settings);
  if (issues.length > 0 || read === undefined) throw new GuardrailConfigError(issues);
  return read as OPTIONS;
}

/**
 * What `validateOptionsOnce` read from an options object the last time it
 * checked it: the reading's log (`Reading`) and the checked copy.
 */
interface OptionsReading {
  log: readonly unknown[];
  checked: object;
}

/** By shape, each options object that passed and what it held then. */
const readingsByShape = new WeakMap<OptionShape, WeakMap<object, OptionsReading>>();

/** Each copy `validateOptionsOnce` returned, and the shape it passed: given back, it is not read again. */
const checkedCopies = new WeakMap<object, OptionShape>();

/** Whether two readings' logs read the same values (`Object.is`), in the same order. */
function sameLog(kept: readonly unknown[], log: readonly unknown[]): boolean {
  if (kept.length !== log.length) return false;
  for (let index = 0; index < log.length; index++) {
    if (!Object.is(kept[index], log[index])) return false;
  }
  return true;
}

/**
 * `validateOptions` for a function called on every check with the same
 * options object (`findPii(text, options)`): each call reads the object
 * once, as `readOptions` does (its fields, the items of its lists and the
 * fields of the objects inside, such as `findPii`'s `custom` patterns), and
 * compares what it read with what the last check of that object read;
 * while it reads the same values the checked copy is returned without
 * checking again (a lookup and a compare linear in the options' size per
 * call), anything changed is checked anew (round 42: the first call's copy
 * was kept by the object's identity, so a field assigned later was never
 * read nor checked; round 43: a `custom` pattern was compared by identity,
 * so one whose `pattern` was replaced in place, or a getter, was not
 * checked again, and the search read it once more after the check). The
 * checked copy, and each list and object in it, is frozen: what was checked
 * is what is used. A copy it returned, given back, is returned as is, so an
 * entry point reads the caller's object once and passes the copy on.
 */
export function validateOptionsOnce<OPTIONS extends object>(
  options: OPTIONS | undefined,
  settings: ValidateOptionsSettings,
): OPTIONS {
  if (options === undefined) return validateOptions<OPTIONS>(undefined, settings);
  const { shape, root, prefix } = settings;
  if (checkedCopies.get(options) === shape) return options;
  const issues: GuardrailConfigIssue[] = [];
  const entries =
    isPlainCallerObject(options, root, issues) === true
      ? readCallerObject(options, root, issues)
      : undefined;
  if (issues.length > 0) throw new GuardrailConfigError(issues);
  // Not a plain object: `validateOptions` says what was expected.
  if (entries === undefined) return validateOptions(options, settings);
  const reading: Reading = { log: [], made: [], copies: [] };
  readFields(entries, shape, prefix, issues, reading);
  if (issues.length > 0) throw new GuardrailConfigError(issues);
  let readings = readingsByShape.get(shape);
  const kept = readings?.get(options);
  if (kept !== undefined && sameLog(kept.log, reading.log)) return kept.checked as OPTIONS;
  for (const copy of reading.copies) copy();
  if (issues.length > 0) throw new GuardrailConfigError(issues);
  const { read } = checkedEntries(options, entries, settings, issues);
  if (issues.length > 0 || read === undefined) throw new GuardrailConfigError(issues);
  for (const copy of reading.made) Object.freeze(copy);
  checkedCopies.set(read, shape);
  if (!readings) {
    readings = new WeakMap();
    readingsByShape.set(shape, readings);
  }
  readings.set(options, { log: reading.log, checked: read });
  return read as OPTIONS;
}

/**
 * Each options object a factory read (`validateNamedOptions`) and the copy
 * it was read into, until `optionsAsRead` takes it.
 */
const readCopies = new WeakMap<object, Record<string, unknown>>();

/**
 * The copy `validateNamedOptions` last read `value` into (taken: a second
 * ask gives `value`), or `value` itself when no factory read it. A
 * factory's `defineGuardrail({ fingerprint: options })` hashes the options
 * as the factory read them: hashing the caller's object read every getter
 * a second time (round 42: each built-in factory ran a `name` getter
 * twice), and one that answered otherwise the second time gave the
 * guardrail the fingerprint of options it does not use, so verdicts
 * remembered for other options applied to it.
 */
export function optionsAsRead(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const copy = readCopies.get(value);
  if (copy === undefined) return value;
  readCopies.delete(value);
  return copy;
}

/**
 * `validateOptions` whose paths start with the options' `name` when that is
 * a usable name, else `defaultName` (so a bad `name` is reported once,
 * under the default). The name is read from the copy the options are read
 * into once (`readCallerObject`): a `name` getter ran twice, once for the
 * prefix before the copy was made, and could answer differently. The
 * options as read (what the factory uses: its lists copied, its RegExps
 * rebuilt) are kept for `optionsAsRead`.
 */
export function validateNamedOptions<OPTIONS extends object>(
  options: OPTIONS | undefined,
  defaultName: string,
  settings: Omit<ValidateOptionsSettings, 'prefix' | 'root'> & { root?: string },
): OPTIONS {
  const issues: GuardrailConfigIssue[] = [];
  const root = settings.root ?? defaultName;
  const copy =
    isPlainCallerObject(options, root, issues) === true
      ? readCallerObject(options as object, root, issues)
      : undefined;
  if (issues.length > 0) throw new GuardrailConfigError(issues);
  const given = copy ?? options;
  const name = copy?.name;
  const prefix = typeof name === 'string' && name.trim() !== '' ? name : defaultName;
  const read = validateOptions(given as OPTIONS | undefined, {
    ...settings,
    prefix,
    root: settings.root ?? prefix,
  });
  // What the factory uses, its RegExps the copies (round 45: the fingerprint read the caller's again).
  if (copy !== undefined) readCopies.set(options as object, read as Record<string, unknown>);
  return read;
}

/** `validateOptions` for a guardrail factory: paths start with the guardrail's name. */
export function validateFactoryOptions<OPTIONS extends object>(
  options: OPTIONS | undefined,
  defaultName: string,
  shape: OptionShape,
  refine?: ValidateOptionsSettings['refine'],
): OPTIONS {
  return validateNamedOptions(options, defaultName, { shape, refine });
}
