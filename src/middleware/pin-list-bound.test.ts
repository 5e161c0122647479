import { createHash } from 'node:crypto';
import { generateText } from 'ai';
import { describe, expect, it } from 'vitest';
import { pinningModel, searchDocs } from '../../test/helpers/tool-pins';
import { memoryStore } from '../store/memory-store';
import type { Store } from '../store/store';
import { StoreListError } from '../store/store-list-error';
import { getGuardrailOutcome } from './get-guardrail-outcome';
import { approveToolDefinition } from './tool-definition-pins';

/*
 * Round 30: the 262,144-byte bound of a stored list (round 29) held for the
 * stores' list operations only. A custom store without `pushToList`
 * had its approvals list read whole and written back, and the pins read
 * every list with `get` / `setIfAbsent` whatever its size: a list of
 * 300,000 bytes another client wrote was parsed on every call.
 */
const approvalKey = (scope: string, name: string) =>
  `ai-guardrails:tool-approved:${createHash('sha256')
    .update(JSON.stringify([scope, name]))
    .digest('hex')}`;
const HUGE = JSON.stringify(Array.from({ length: 5_000 }, (_, i) => `${i}`.padStart(64, 'a')));

/** A store without list operations, whose list at `key` is `HUGE`; `written` holds the keys set. */
function customStore(key: string) {
  const { addToList: _a, pushToList: _p, ...rest } = memoryStore();
  const written: string[] = [];
  const store: Store = {
    ...rest,
    get: async k => (k === key ? HUGE : rest.get(k)),
    set: async (k, value, ttlMs) => {
      written.push(k);
      await rest.set(k, value, ttlMs);
    },
  };
  return { store, written };
}

describe('a stored list over 262,144 bytes, on a store without list operations', () => {
  it('approveToolDefinition refuses it and writes nothing', async () => {
    expect(HUGE.length).toBeGreaterThan(262_144);
    const { store, written } = customStore(approvalKey('default', 'search'));
    const refused = await approveToolDefinition(store, 'default', 'search', 'b'.repeat(64)).catch(
      (error: unknown) => error,
    );
    expect(StoreListError.isInstance(refused)).toBe(true);
    expect((refused as StoreListError).message).toBe(
      'tool pins: approveToolDefinition found a list of more than 262144 bytes (UTF-8 JSON) at its key; nothing written',
    );
    expect(written).toEqual([]);
  });

  it('the pins refuse it when they read the approvals: the changed tool is held, with an error record', async () => {
    const { store } = customStore(approvalKey('default', 'search'));
    const { model, seen } = pinningModel(store);
    await generateText({ model, tools: { search: searchDocs }, prompt: 'a' });
    const changed = {
      ...searchDocs,
      description: 'Search the docs, and more.',
    } as typeof searchDocs;
    const result = await generateText({ model, tools: { search: changed }, prompt: 'b' });
    const records = (await getGuardrailOutcome(result))?.records ?? [];
    expect(
      records.map(({ guardrail, status, toolName }) => ({ guardrail, status, toolName })),
    ).toEqual([{ guardrail: 'tool-definition-pin', status: 'error', toolName: 'search' }]);
    expect(seen).toEqual([['search'], []]);
  });
});
