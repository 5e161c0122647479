import type { JSONValue } from '@ai-sdk/provider';
import { readCallerObject } from './caller-values';
import { defineGuardrailOptionShape } from './define-guardrail-options';
import { GuardrailConfigError, type GuardrailConfigIssue } from './errors';
import { optionsFingerprint } from './fingerprint';
import { optionsAsRead, validateNamedOptions } from './options';
import type {
  AllowVerdict,
  BlockVerdict,
  Guardrail,
  GuardrailCachePolicy,
  GuardrailContext,
  GuardrailRetryable,
  ModifyVerdict,
  Verdict,
} from './types';

/** An allow verdict, with optional `info` for the record. */
export function allow(info?: JSONValue): AllowVerdict {
  return info === undefined ? { action: 'allow' } : { action: 'allow', info };
}

/**
 * A block verdict. Pass a string for the user-facing message, or an object
 * with `message`, `reason`, `severity` and `info`.
 */
export function block(details: string | Omit<BlockVerdict, 'action'> = {}): BlockVerdict {
  if (typeof details === 'string') return { action: 'block', message: details };
  if (details === null || typeof details !== 'object') return { action: 'block' };
  // Each field read once: a getter (or Proxy trap) that throws is a
  // GuardrailConfigError naming its error by class, which a chain turns
  // into an `error` record that blocks even with `onError: 'allow'` (the
  // guardrail meant to block). Spreading `details` rethrew the caller's
  // error, message and all, and `onError: 'allow'` let the text through
  // (round 39).
  const issues: GuardrailConfigIssue[] = [];
  const fields = readCallerObject(details, 'block', issues);
  if (fields === undefined) throw new UnreadableBlockError(issues);
  return { action: 'block', ...fields };
}

/**
 * What `block()` throws for details it cannot read: a
 * `GuardrailConfigError`, which a chain treats as a malformed block verdict.
 */
export class UnreadableBlockError extends GuardrailConfigError {}

/** A modify verdict: `content` replaces what the guardrail saw. */
export function modify(content: string, info?: JSONValue): ModifyVerdict {
  return info === undefined ? { action: 'modify', content } : { action: 'modify', content, info };
}

/** Options of `defineGuardrail`: the `Guardrail` fields, validated. */
export interface DefineGuardrailOptions {
  /** Unique, stable name; reported in records and events. */
  name: string;
  /** Judges `content`. A throw or rejection fails closed unless `onError: 'allow'`. */
  check: (content: string, ctx: GuardrailContext) => Verdict | PromiseLike<Verdict>;
  /** True when the guardrail may judge a text from a bounded window. Default false. */
  streamSafe?: boolean;
  /** The longest text the guardrail must see whole, for stream windows. */
  maxMatchLength?: number;
  /**
   * Stream-safe guardrails, optional: lets `window` mode release text early.
   * Given the unreleased text of a streamed answer, returns the earliest
   * index at which more text could still create or change a match (the
   * start of a trailing run of characters that could belong to one), or
   * `text.length` when nothing at its end can. Text before it is released as
   * soon as it is judged. Be conservative (a class of characters, not one
   * pattern): an index too late lets text out before its match is complete.
   * Without it, the window holds back `maxMatchLength` characters.
   */
  potentialMatchStart?: (text: string) => number;
  /**
   * Stream-safe guardrails, optional: false only when `check` would surely
   * allow the text unchanged and report nothing; `window` mode then skips
   * the check. Be conservative: true runs the check.
   */
  mayMatch?: (text: string) => boolean;
  /**
   * Optional, with `mayMatch`: how far its decision reads (see
   * `Guardrail.mayMatchReach`); lets `window` mode filter only new text.
   */
  mayMatchReach?: number;
  /**
   * Fail (status `error`) after this many milliseconds. Default: the
   * middleware's or tool wrapper's `defaultTimeoutMs` (30 seconds).
   */
  timeoutMs?: number;
  /** `'block'` (default: fail closed) or `'allow'` on error or timeout. */
  onError?: 'block' | 'allow';
  /**
   * Input guardrails only: run concurrently with the model call. Default
   * false. In any other list (`output`, `toolDefinitions`, `toolOutputs`,
   * `guardTools`' `input` and `output`) it is a `GuardrailConfigError`.
   */
  parallel?: boolean;
  /**
   * Input guardrails only: what the verdict depends on, so the middleware
   * knows whether it may remember it. `'content'` (default): the text alone;
   * `{ metadata: ['userId'] }`: the text and these metadata keys; `'none'`:
   * never remembered (time, counters, the rest of the prompt).
   */
  cache?: GuardrailCachePolicy;
  /**
   * What identifies this guardrail's behaviour in the verdict cache besides
   * its name: typically its options object. Any value; it is reduced to a
   * short hash (`optionsFingerprint`), so no option value is kept. Default:
   * none (the name alone identifies the guardrail).
   */
  fingerprint?: unknown;
  /**
   * Input guardrails only: run once per model call, whatever the prompt holds,
   * never cached (rate limits, budgets). Default false.
   */
  perCall?: boolean;
  /**
   * Output guardrails only: `false` when the middleware's `retry` must not
   * ask the model again after a block of this guardrail; `'without-answer'`
   * when it may, with the feedback only (never the blocked answer). Default
   * true.
   */
  retryable?: GuardrailRetryable;
}

/**
 * Builds a guardrail from a check function, validating its options.
 *
 * @example
 * const noSwearing = defineGuardrail({
 *   name: 'no-swearing',
 *   check: text => (/\bdarn\b/i.test(text) ? block('Please keep it civil.') : allow()),
 * });
 */
export function defineGuardrail(options: DefineGuardrailOptions): Guardrail {
  const {
    name,
    check,
    streamSafe = false,
    maxMatchLength,
    potentialMatchStart,
    mayMatch,
    mayMatchReach,
    timeoutMs,
    onError = 'block',
    parallel = false,
    cache = 'content',
    fingerprint,
    perCall = false,
    retryable,
  } = validateNamedOptions(options, '', {
    // Paths start with the name when it is usable (`no-swearing.timeoutMs`).
    root: 'defineGuardrail',
    shape: defineGuardrailOptionShape,
  });
  const guardrail: Guardrail = {
    name,
    check,
    streamSafe,
    maxMatchLength,
    timeoutMs,
    onError,
    parallel,
    cache,
    perCall,
  };
  if (potentialMatchStart !== undefined) guardrail.potentialMatchStart = potentialMatchStart;
  if (mayMatch !== undefined) guardrail.mayMatch = mayMatch;
  if (mayMatchReach !== undefined) guardrail.mayMatchReach = mayMatchReach;
  // A factory's options as it read them (`optionsAsRead`), not a second read of the caller's object.
  if (fingerprint !== undefined)
    guardrail.fingerprint = optionsFingerprint(optionsAsRead(fingerprint));
  if (retryable === false || retryable === 'without-answer') guardrail.retryable = retryable;
  return guardrail;
}
