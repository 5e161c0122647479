import { escapeUnprintable } from './escape-unprintable';

/**
 * Hides what looks like a credential in text an error message or a record is
 * about to echo: the user info of URLs (`redis://default:hunter2@host` →
 * `redis://[redacted]@host`), secret-named query parameters (`?token=…`),
 * `Bearer` tokens, API keys with a known prefix (`sk-…`, `ghp_…`, `xoxb-…`,
 * `AKIA…`, `AIza…`, `glpat-…`, JWTs) and long opaque runs of letters and
 * digits. Linear in the length of the text. Meant for echoes of values in
 * messages (what was wrong, for a human), not as a secret scanner: use
 * `findSecrets` for that.
 */
export function redactSecretsInText(text: string): string {
  return text
    .replace(userInfo, '$1[redacted]@')
    .replace(secretParameter, '$1[redacted]')
    .replace(bearer, '$1[redacted]')
    .replace(prefixedKey, '[redacted]')
    .replace(opaqueRun, run => (/\d/.test(run) && /[A-Za-z]/.test(run) ? '[redacted]' : run));
}

/** Matches `scheme://user:password@` (the part between `//` and `@` cannot hold `/`, so scans stay short). */
const userInfo = /\b([a-z][a-z0-9+.-]{0,31}:\/\/)[^\s/?#@"'<>\\]+@/gi;
const secretParameter =
  /([?&;#][a-z0-9_.-]{0,40}(?:token|key|secret|passw(?:or)?d|pwd|sig|signature|auth|credential|session|code)[a-z0-9_.-]{0,40}=)[^&#\s"'<>\\]+/gi;
const bearer = /(\b(?:bearer|basic|token)\s+)[A-Za-z0-9._~+/=-]{8,}/gi;
const prefixedKey =
  /\b(?:(?:sk|pk|rk)-[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|xox[abposr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,}|glpat-[A-Za-z0-9_-]{20,}|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*)/g;
const opaqueRun = /[A-Za-z0-9_+/=-]{32,}/g;

/** Option and field names whose values are credentials whatever they look like. */
const secretName =
  /passw(?:or)?d|passphrase|secret|token|api[-_]?key|auth|credential|private[-_]?key|cookie/i;

/**
 * `redactSecretsInValue(value)`, and `[redacted]` for a string or number
 * at a path whose last key is secret-sounding (`input[0].password`,
 * `model.apiKey`; not a count of `…tokens`): an issue about such an option showed its value whole
 * (round 37), though the same value inside an object was hidden.
 */
export function redactSecretsAtPath(path: string, value: unknown): unknown {
  const key = path.slice(Math.max(path.lastIndexOf('.'), path.lastIndexOf('[')) + 1);
  // Counts of a model's tokens (`maxTokens`, `stream_buffer_tokens`, `countTokens`) are no secrets.
  const named = secretName.test(key.replace(/tokens/gi, ''));
  if (named && (typeof value === 'string' || typeof value === 'number')) {
    return '[redacted]';
  }
  return redactSecretsInValue(value);
}

/**
 * A copy of `value` safe to echo: strings pass through `redactSecretsInText`,
 * values under secret-sounding keys (`password`, `apiKey`, `token`, …) are
 * replaced whole, class instances named by their class (`NotShown`; a Date,
 * a RegExp, a Promise and a guardrail stay). Returns `value` itself when
 * nothing needed hiding; functions stay as they are.
 */
export function redactSecretsInValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') {
    // Only the start of a huge value is ever echoed: redact what may be shown, linearly.
    const shown = value.length > 4_096 ? value.slice(0, 4_096) : value;
    const redacted = redactSecretsInText(shown);
    return redacted === shown && shown === value ? value : redacted;
  }
  if (value == null || typeof value !== 'object' || depth > 8) return value;
  // What a caller already wrote in place of a value (`a string of 7 characters (not shown)`).
  if (value instanceof NotShown) return value;
  if (value instanceof URL) {
    const redacted = redactSecretsInText(value.href);
    return redacted === value.href ? value : redacted;
  }
  if (Array.isArray(value)) {
    let changed = false;
    const copy = value.slice(0, 1_000).map(item => {
      const redacted = redactSecretsInValue(item, depth + 1);
      if (redacted !== item) changed = true;
      return redacted;
    });
    return changed ? copy : value;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return classInstance(value);
  let changed = false;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value).slice(0, 1_000)) {
    const redacted =
      secretName.test(key) && (typeof item === 'string' || typeof item === 'number')
        ? '[redacted]'
        : redactSecretsInValue(item, depth + 1);
    if (redacted !== item) changed = true;
    copy[key] = redacted;
  }
  return changed ? copy : value;
}

/**
 * A class instance an error names instead of showing it: its JSON and its
 * text are the description (`a Conf (not shown)`).
 */
export class NotShown {
  constructor(readonly description: string) {}
  toJSON(): string {
    return this.description;
  }
  toString(): string {
    return this.description;
  }
}

/**
 * What an error shows of a class instance: a Date, a RegExp, a Promise (a
 * thenable) and a built guardrail (`name` and `check`) as they are, which
 * the message names or shows without their fields; any other by its class,
 * never its fields. A class instance in an issue was written as its JSON,
 * fields and all (`{"password":"hunter2"}`, round 38): redaction walks plain
 * objects only.
 */
function classInstance(value: object): unknown {
  const { then, name, check } = value as { then?: unknown; name?: unknown; check?: unknown };
  if (value instanceof Date || value instanceof RegExp || typeof then === 'function') return value;
  if (typeof name === 'string' && typeof check === 'function') return value;
  let className: unknown;
  try {
    className = (value as { constructor?: { name?: unknown } }).constructor?.name;
  } catch {
    className = undefined;
  }
  if (typeof className !== 'string' || !/^[A-Za-z_$][\w$]{0,40}$/.test(className)) {
    return new NotShown('an object of a class (not shown)');
  }
  return new NotShown(`${/^[AEIOU]/i.test(className) ? 'an' : 'a'} ${className} (not shown)`);
}

/**
 * What a `JSON.parse` error may tell a report: where the text broke, never
 * the text itself (V8's messages quote its start, e.g.
 * `Unexpected token 'c', "canary.per"... is not valid JSON`).
 */
export function jsonErrorDetail(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const position = /\bposition (\d+)/.exec(message)?.[1];
  if (position !== undefined) return `at position ${position}`;
  if (/end of (?:JSON )?input|unterminated/i.test(message)) return 'it ends too early';
  if (/unexpected token/i.test(message)) return 'unexpected character';
  return 'syntax error';
}

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
