import { AISDKError } from '@ai-sdk/provider';
import { shownConfigValue, shownPath } from './caller-values';
import { escapeUnprintable } from './escape-unprintable';
import { NotShown, redactSecretsAtPath, redactSecretsInText } from './redact-secrets';
import type { GuardrailRecord } from './types';

const tripwireMarker = 'ai-guardrails.error.GuardrailTripwireError';
const tripwireSymbol = Symbol.for(tripwireMarker);

/**
 * Thrown (generate) or streamed as an `error` part (stream) when a guardrail
 * trips and the middleware or tool wrapper was built with `onTrip: 'throw'`.
 * Carries the record of the guardrail that tripped and every record so far.
 */
export class GuardrailTripwireError extends AISDKError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: the marker isInstance looks for
  private readonly [tripwireSymbol] = true;

  /** The record of the guardrail that tripped (status `blocked` or `error`). */
  readonly record: GuardrailRecord;
  /** Every record of the call up to and including the trip. */
  readonly records: GuardrailRecord[];

  constructor({
    record,
    records = [record],
    message = `Guardrail "${record.guardrail}" tripped on ${record.kind}${
      record.reason ? `: ${record.reason}` : ''
    }`,
  }: {
    record: GuardrailRecord;
    records?: GuardrailRecord[];
    message?: string;
  }) {
    super({ name: 'AI_GuardrailTripwireError', message });
    this.record = record;
    this.records = records;
  }

  /** True for a `GuardrailTripwireError`, also one from another copy of this package. */
  static override isInstance(error: unknown): error is GuardrailTripwireError {
    return AISDKError.hasMarker(error, tripwireMarker);
  }

  /** Serialisable form, so that the error survives `JSON.stringify` in logs and streams. */
  toJSON() {
    return { name: this.name, message: this.message, record: this.record, records: this.records };
  }
}

/** One problem with a guardrail's options or a configuration file. */
export interface GuardrailConfigIssue {
  /** Where the problem is, e.g. `output[2].threshold`. */
  path: string;
  /** The value that was wrong. */
  value: unknown;
  /** What was expected instead. */
  expected: string;
}

/** Nothing the caller gave is quoted: no word is known to the core's option checks. */
const noKnownWords: ReadonlySet<string> = new Set();

/**
 * An issue's value as the loader shows it (`shownConfigValue`: a string, a
 * number or plain data as its type and length only, never quoted), then
 * redacted; `(not read)` when either threw (a getter or a Proxy trap of the
 * wrong value): the constructor threw that error instead, raw (round 38).
 * Factories called in code echoed what they were given (`pii({ pasword:
 * 'hunter2' })`, `secrets({ action: 'hunter2' })`: round 39): a caller that
 * builds options from user or environment data logs these errors.
 */
function shownOrNotRead(path: string, value: unknown, known: ReadonlySet<string>): unknown {
  try {
    return redactSecretsAtPath(path, shownConfigValue(value, known));
  } catch {
    return '(not read)';
  }
}

const configMarker = 'ai-guardrails.error.GuardrailConfigError';
const configSymbol = Symbol.for(configMarker);

/** A built guardrail (`pii()`, `defineGuardrail(...)`): named, not dumped field by field. */
function guardrailName(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const { name, check } = value as { name?: unknown; check?: unknown };
  return typeof name === 'string' && typeof check === 'function' ? name : undefined;
}

function describeValue(value: unknown): string {
  if (typeof value === 'function') {
    // `input: [pii]` for `input: [pii()]` is the usual slip: name the factory
    // (a factory takes one options object: length at most 1; a check takes two).
    return value.length <= 1 && /^[A-Za-z_$][\w$]{0,40}$/.test(value.name)
      ? `the function ${value.name} (not called: ${value.name}(...)?)`
      : 'a function';
  }
  if (value instanceof RegExp || value instanceof NotShown) return String(value);
  // JSON shows NaN and Infinity as null ("expected a number, received null"), and throws on a BigInt (shown as 1 for 1n).
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (typeof value === 'bigint') return `${value}n`;
  // JSON shows a Promise as {}: an async function given where a synchronous one is expected.
  if (typeof (value as { then?: unknown } | null)?.then === 'function') {
    return 'a Promise (an async function where a synchronous one is expected)';
  }
  const name = guardrailName(value);
  if (name !== undefined) return `the guardrail ${JSON.stringify(name.slice(0, 60))}`;
  if (Array.isArray(value) && value.length > 0 && value.every(item => guardrailName(item))) {
    const names = value.slice(0, 5).map(item => JSON.stringify(guardrailName(item)!.slice(0, 60)));
    return `the guardrails [${names.join(', ')}${value.length > 5 ? ', ...' : ''}]`;
  }
  try {
    const json = JSON.stringify(value);
    if (json === undefined) return String(value);
    return escapeUnprintable(json.length > 80 ? `${json.slice(0, 77)}...` : json);
  } catch {
    return String(value);
  }
}

/** `describeValue`, never throwing: a Proxy's trap or a `then` or `toString` getter may. */
function describeSafely(value: unknown): string {
  try {
    return describeValue(value);
  } catch {
    return 'a value that cannot be shown';
  }
}

/** Problems the message shows; `issues` holds every one (the CLI's check-config prints as many). */
const shownProblems = 50;

/** `known: a, b, c)` at the end of a "no such option" text. */
const knownList = /known: ([^()]*)\)$/;

/**
 * The message's lines: the first 50 problems, then how many more. A list of
 * known options already shown is referred to by the path it was shown at:
 * a file with 10,000 unknown keys gave a 3.8 MB message listing the known
 * keys 10,000 times (round 37).
 */
function messageLines(issues: readonly GuardrailConfigIssue[]): string[] {
  const shownAt = new Map<string, string>();
  const lines = issues.slice(0, shownProblems).map(({ path, value, expected }) => {
    const known = knownList.exec(expected)?.[1];
    const first = known === undefined ? undefined : shownAt.get(known);
    if (known !== undefined && first === undefined) shownAt.set(known, path);
    const text =
      first === undefined
        ? expected
        : `${expected.slice(0, expected.length - known!.length - 1)}as for ${first})`;
    return `${path}: expected ${text}, received ${describeSafely(value)}`;
  });
  const more = issues.length - lines.length;
  if (more > 0) lines.push(`... and ${more} more problems (every one is in error.issues)`);
  return lines;
}

/**
 * Bad options: names each path, the value found there and what was expected.
 * Thrown at construction, never in the middle of a call. What looks like a
 * credential in a value or path (a URL's password, a secret query parameter,
 * an API key, anything under a key such as `password` or `apiKey`) is
 * replaced with `[redacted]`, in the message and in `issues` alike: errors
 * end up in logs. The message lists the first 50 problems and how many more
 * there are; `issues` holds every one.
 */
export class GuardrailConfigError extends AISDKError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: the marker isInstance looks for
  private readonly [configSymbol] = true;

  /** Every problem found (all at once, not only the first). */
  readonly issues: GuardrailConfigIssue[];

  /**
   * `known`: words a value may be shown as (the loader's guardrail types);
   * any other string, number or plain object or array is shown as its type
   * and length, and what the library wrote itself is passed as a `NotShown`.
   */
  constructor(
    issueOrIssues: GuardrailConfigIssue | GuardrailConfigIssue[],
    known: ReadonlySet<string> = noKnownWords,
  ) {
    const issues = (Array.isArray(issueOrIssues) ? issueOrIssues : [issueOrIssues]).map(
      ({ path, value, expected }) => ({
        path: shownPath(redactSecretsInText(path)),
        value: shownOrNotRead(path, value, known),
        expected,
      }),
    );
    const lines = messageLines(issues);
    super({
      name: 'AI_GuardrailConfigError',
      message:
        issues.length === 1
          ? `Invalid guardrail configuration at ${lines[0]}`
          : `Invalid guardrail configuration (${issues.length} problems):\n- ${lines.join('\n- ')}`,
    });
    this.issues = issues;
  }

  /** True for a `GuardrailConfigError`, also one from another copy of this package. */
  static override isInstance(error: unknown): error is GuardrailConfigError {
    return AISDKError.hasMarker(error, configMarker);
  }

  /** Serialisable form (message and issues, already redacted), for logs. */
  toJSON() {
    return { name: this.name, message: this.message, issues: this.issues };
  }
}
