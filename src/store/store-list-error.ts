import { AISDKError } from '@ai-sdk/provider';
import { MAX_LIST_BYTES } from './string-list';

const listMarker = 'ai-guardrails.error.StoreListError';
const listSymbol = Symbol.for(listMarker);

/**
 * `addToList` or `pushToList` found a list it does not read, or would have
 * stored one it does not keep (round 29), and wrote nothing:
 * - `'too-long'`: the list's JSON text, stored or to be stored, is over
 *   `MAX_LIST_BYTES` (262,144 UTF-8 bytes). Redis's scripts read, decode
 *   and re-encode a whole list on every add: a 10 MB list held the server
 *   (every other client too) for about a second per call;
 * - `'invalid-utf8'` (Redis): the stored text holds bytes that are no UTF-8,
 *   written by another client. Its items read apart: a client decodes them
 *   as U+FFFD, the script compares the bytes, so an item read as present
 *   was added again.
 *
 * A guardrail treats it as any store error (an `error` record, failing
 * closed unless built with `onError: 'allow'`). Neither the key nor the
 * list is named.
 */
export class StoreListError extends AISDKError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: the marker isInstance looks for
  private readonly [listSymbol] = true;

  /** `addToList` or `pushToList`. */
  readonly operation: string;
  /** Why the list was refused. */
  readonly reason: 'too-long' | 'invalid-utf8';

  constructor({
    store,
    operation,
    reason,
    stored,
  }: {
    /** `memory store` or `redis store`. */
    store: string;
    operation: string;
    reason: 'too-long' | 'invalid-utf8';
    /** True when the list found at the key was refused, false for the one it would store. */
    stored: boolean;
  }) {
    super({
      name: 'AI_StoreListError',
      message:
        reason === 'too-long'
          ? `${store}: ${operation} ${stored ? 'found a list' : 'would store a list'} of more than ${MAX_LIST_BYTES} bytes (UTF-8 JSON) at its key; nothing written`
          : `${store}: ${operation} found a list that is no valid UTF-8 at its key (bytes another client wrote); nothing written`,
    });
    this.operation = operation;
    this.reason = reason;
  }

  /** True for a `StoreListError`, also one from another copy of this package. */
  static override isInstance(error: unknown): error is StoreListError {
    return AISDKError.hasMarker(error, listMarker);
  }
}
