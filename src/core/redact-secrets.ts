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
