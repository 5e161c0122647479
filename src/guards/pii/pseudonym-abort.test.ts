import { describe, expect, it } from 'vitest';
import { guardContext } from '../../../test/helpers';
import { memoryStore } from '../../store/memory-store';
import type { Store } from '../../store/store';
import { pii } from './pii';

/*
 * Round 36: pseudonymising reads and writes the vault a few times per value,
 * one after another. A text of many addresses on a remote store outlives
 * the check's time limit, and the check went on after its signal aborted:
 * the call was blocked at 30 s, and its store traffic went on for minutes
 * (10 MB of addresses: ~500,000 values, ~2,000,000 round trips), as many
 * times over as a client sent such texts.
 */

/** A memory store that counts its operations and aborts `controller` at the `abortAt`-th. */
function countingStore(controller: AbortController, abortAt: number) {
  const inner = memoryStore();
  let operations = 0;
  const counted =
    <A extends unknown[], R>(run: (...args: A) => R) =>
    (...args: A): R => {
      if (++operations === abortAt) controller.abort(new Error('time limit'));
      return run(...args);
    };
  const store: Store = {
    get: counted(key => inner.get(key)),
    set: counted((key, value, ttl) => inner.set(key, value, ttl)),
    setIfAbsent: counted((key, value, ttl) => inner.setIfAbsent(key, value, ttl)),
    incrBy: counted((key, by, ttl) => inner.incrBy(key, by, ttl)),
    incrByCapped: counted((key, by, cap, ttl) => inner.incrByCapped(key, by, cap, ttl)),
    touch: counted((key, value, ttl) => inner.touch(key, value, ttl)),
    delete: counted(key => inner.delete(key)),
  };
  return { store, operations: () => operations };
}

describe('pseudonymize stops using the vault once its signal aborts', () => {
  const text = Array.from({ length: 1_000 }, (_, index) => `user${index}@example.com`).join(' ');

  it('input: no vault operation after the one that saw the abort (a value takes a few)', async () => {
    const controller = new AbortController();
    const { store, operations } = countingStore(controller, 40);
    const guard = pii({ action: 'pseudonymize', store });
    const ctx = guardContext('input', {
      metadata: { sessionId: 's' },
      abortSignal: controller.signal,
    });
    await expect(guard.check(text, ctx)).rejects.toThrow('time limit');
    // 40 operations, then at most the rest of the value being allocated.
    expect(operations()).toBeLessThanOrEqual(44);
  });

  it('output without a prompt of its own (a tool call): no lookup after the abort', async () => {
    const controller = new AbortController();
    const { store, operations } = countingStore(controller, 10);
    const guard = pii({ action: 'pseudonymize', store });
    const answer = Array.from({ length: 1_000 }, (_, index) => `<EMAIL_ADDRESS_${index + 1}>`);
    const ctx = guardContext('tool_input', {
      metadata: { sessionId: 's' },
      abortSignal: controller.signal,
    });
    await expect(guard.check(answer.join(' '), ctx)).rejects.toThrow('time limit');
    expect(operations()).toBe(10);
  });
});
