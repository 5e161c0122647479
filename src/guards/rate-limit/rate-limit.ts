import { stringFromCallback } from '../../core/callback-result';
import { allow, block, defineGuardrail } from '../../core/define-guardrail';
import { GuardrailConfigError } from '../../core/errors';
import { validateFactoryOptions } from '../../core/options';
import type { Guardrail, GuardrailContext } from '../../core/types';
import { checkedCappedIncrement } from '../../store/checked-counts';
import { memoryStore } from '../../store/memory-store';
import type { Store } from '../../store/store';
import { rateLimitOptionShape } from './rate-limit-options';

/** Options of `rateLimit`. */
export interface RateLimitOptions {
  /** Most checks one key may pass per window. */
  limit: number;
  /** Length of the window in milliseconds, from the key's first counted check. */
  windowMs: number;
  /**
   * Who is limited: a function of the call returning the key (a user id, a
   * session id, an IP address...). Default: `ctx.metadata.userId`, else
   * `ctx.metadata.sessionId` (counted apart from user ids, as
   * `session:<sessionId>`). When it returns `undefined` the check is not
   * limited (return a constant string for one global limit). A key is
   * counted as written (no case folding or Unicode normalisation: do that
   * in the function if two spellings are one caller); an empty or blank one
   * is an error (the check's `error` record, blocked unless `onError:
   * 'allow'`).
   */
  key?: (ctx: GuardrailContext) => string | undefined;
  /** Where the counts live. Default: a `memoryStore()` of this guardrail (one process only). */
  store?: Store;
  /**
   * When the store fails or exceeds `timeoutMs`: `'block'` (default, fail
   * closed: status `error`) or `'allow'`.
   */
  onError?: 'block' | 'allow';
  /** Fail (status `error`, then `onError` applies) after this many milliseconds. */
  timeoutMs?: number;
  /** User-facing message of a block. Default: "Too many requests: try again in 45 s." (the wait of this key). */
  message?: string;
  /** Guardrail name in records; also the prefix of its store keys. Default `'rate-limit'`. */
  name?: string;
}

/** The prefixes of a default key that is not a user id as given (see {@link defaultKey}). */
const SESSION_PREFIX = 'session:';
const USER_PREFIX = 'user:';

/**
 * `metadata.userId`, else `session:` and `metadata.sessionId`. A session's
 * count is apart from every user's (round 35): both were the id alone, and
 * an anonymous client, whose session id is its own to choose, sent another
 * user's id as its session id and used up that user's limit. A user id
 * that starts with `session:` or `user:` is written `user:<userId>`
 * (round 36: the user `session:alice` was counted as the session `alice`);
 * every other user id is its own key, as before, so the mapping is
 * one-to-one. A blank id stays blank, for the check to refuse (a blank
 * session id made `session:`, one count for every such client).
 */
function defaultKey(ctx: GuardrailContext): string | undefined {
  const { userId, sessionId } = ctx.metadata;
  if (typeof userId === 'string' || typeof userId === 'number') {
    const id = String(userId);
    return id.startsWith(SESSION_PREFIX) || id.startsWith(USER_PREFIX) ? USER_PREFIX + id : id;
  }
  if (typeof sessionId === 'string' || typeof sessionId === 'number') {
    const id = String(sessionId);
    return id.trim() === '' ? id : SESSION_PREFIX + id;
  }
  return undefined;
}

/**
 * The key a call is counted under, checked. A function that is not
 * synchronous or returns no string is an error (`stringFromCallback`); so
 * is an empty or blank key (round 36): it names no caller, and every call
 * it came from shared one count (`rate-limit:`), so one caller used up the
 * limit of all. Blank is what `String.prototype.trim` removes (spaces, tabs,
 * line ends, no-break and ideographic spaces); the key is not echoed.
 */
function subjectOf(value: unknown, name: string): string | undefined {
  const path = `${name}.key`;
  const subject = stringFromCallback(value, {
    path,
    expected: 'a function returning a string or undefined, synchronously',
    optional: true,
  });
  if (subject === undefined || subject.trim() !== '') return subject;
  throw new GuardrailConfigError({
    path,
    value: subject === '' ? '(an empty string)' : '(a blank string)',
    expected: 'a function returning a non-blank string or undefined, synchronously',
  });
}

/** A wait in words: seconds under two minutes, else minutes (rounded up). */
function waitText(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return seconds < 120 ? `${seconds} s` : `${Math.ceil(seconds / 60)} min`;
}

/**
 * Limits how many checks one key (user, session, IP...) may pass per window,
 * counted in a `Store` so that many server instances share one limit.
 *
 * Fixed window: a key's window starts at its first counted check and lasts
 * `windowMs` (the store's key expiry); then the count starts again from 0.
 * Each check is one atomic `incrByCapped` round trip, so under any
 * concurrency exactly `limit` checks pass per window, and a refused check is
 * not counted. Like every fixed window it can let up to 2 × `limit` through
 * around a window's end; pick `windowMs` with that in mind.
 *
 * As an input guardrail it is per-call: it counts model calls, one per call
 * whatever the prompt holds (each step of a tool loop is a call); as a
 * `tool_input` guardrail it counts tool calls. One instance is one counter:
 * give separate limits separate names. A block carries
 * `info: { limit, count, retryAfterMs }`; when the store fails the record is
 * an `error` that blocks, unless `onError: 'allow'`.
 *
 * A call without a key is not limited (`info: { limited: false }`). With the
 * default key, the first such call logs one warning per instance: a limit
 * that never limits because no call carries a user or session id is a setup
 * mistake (no `context`, or a misspelt `providerOptions.guardrails`), not a
 * choice.
 *
 * @example
 * const perUser = rateLimit({
 *   limit: 20,
 *   windowMs: 60_000,
 *   key: ({ metadata }) => (typeof metadata.userId === 'string' ? metadata.userId : undefined),
 *   store: redisStore(client),
 * });
 * guardrails({ input: [perUser] });
 */
export function rateLimit(options: RateLimitOptions): Guardrail {
  const {
    limit,
    windowMs,
    key = defaultKey,
    store = memoryStore(),
    onError = 'block',
    timeoutMs,
    message,
    name = 'rate-limit',
  } = validateFactoryOptions(options, 'rate-limit', rateLimitOptionShape);
  let warnedUnkeyed = false;
  return defineGuardrail({
    name,
    perCall: true,
    onError,
    timeoutMs,
    async check(_content, ctx) {
      // An async or blank key put every caller under one count: checked, fails closed.
      const subject = subjectOf(key(ctx), name);
      if (subject === undefined) {
        if (key === defaultKey && !warnedUnkeyed) {
          warnedUnkeyed = true;
          console.warn(
            `[ai-guardrails] ${name}: a call without metadata.userId or metadata.sessionId is not limited; pass one in the call's providerOptions.guardrails or with guardrails({ context }), or give rateLimit a key.`,
          );
        }
        return allow({ limited: false });
      }
      const { applied, value, resetInMs } = checkedCappedIncrement(
        await store.incrByCapped(`${name}:${subject}`, 1, limit, windowMs),
      );
      if (!applied) {
        return block({
          message: message ?? `Too many requests: try again in ${waitText(resetInMs)}.`,
          reason: `more than ${limit} checks in ${windowMs} ms for this key; retry in ${resetInMs} ms`,
          severity: 'warning',
          info: { limit, count: value, retryAfterMs: resetInMs },
        });
      }
      return allow({ limit, count: value, remaining: limit - value });
    },
  });
}
