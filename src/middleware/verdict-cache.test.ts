import { describe, expect, it } from 'vitest';
import { allow, defineGuardrail } from '../core/define-guardrail';
import { memoryStore } from '../store/memory-store';
import { verdictCache } from './verdict-cache';

describe('verdictCache slots', () => {
  const guardrail = defineGuardrail({ name: 'seen', check: () => allow() });
  const cache = verdictCache({ store: memoryStore(), ttlMs: 60_000, guardrails: [guardrail] });
  const keyOf = async (form: string) => (await cache.slot(guardrail, 'h', form, {}))!.key;

  it('keeps the form of a text in the key, and a form it does not list apart from every other', async () => {
    const keys = await Promise.all(
      ['user', 'system', 'assistant-text', 'user-file', 'assistant-custom', 'tool-custom'].map(
        keyOf,
      ),
    );
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys[0]).toMatch(/:u:h$/);
    expect(keys[4]).toMatch(/:\?assistant-custom:h$/);
    // Tool results and definitions have caches of their own and keep the user letter (keys written before stay valid).
    expect(await keyOf('tool_output')).toBe(keys[0]);
    expect(await keyOf('tool_definition')).toBe(keys[0]);
  });
});

describe('verdictCache reading what the store holds (round 33)', () => {
  const guardrail = defineGuardrail({ name: 'seen', check: () => allow() });
  const setUp = async () => {
    const store = memoryStore();
    const cache = verdictCache({ store, ttlMs: 60_000, guardrails: [guardrail] });
    const slot = (await cache.slot(guardrail, 'h', 'user', {}))!;
    const read = async (raw: string) => {
      await store.set(slot.key, raw, 60_000);
      return cache.get(slot);
    };
    return { store, cache, slot, read };
  };

  it('reads a verdict in the shape it writes, keeping only its known fields', async () => {
    const { read } = await setUp();
    expect(await read('{"action":"allow","extra":[1]}')).toEqual({ action: 'allow' });
    expect(await read('{"action":"modify","content":"a <EMAIL>","x":1}')).toEqual({
      action: 'modify',
      content: 'a <EMAIL>',
    });
    expect(
      await read(
        '{"action":"block","message":"No.","reason":"r","severity":"high","info":{"n":[1,"\\ud800"]},"x":2}',
      ),
    ).toEqual({
      action: 'block',
      message: 'No.',
      reason: 'r',
      severity: 'high',
      info: { n: [1, '\ud800'] },
    });
    expect(await read('{"action":"block"}')).toEqual({ action: 'block' });
    expect(await read(`{"action":"modify","content":"${'a'.repeat(100_000)}"}`)).toEqual({
      action: 'modify',
      content: 'a'.repeat(100_000),
    });
  });

  it('is a miss (the text is judged again) for a value it did not write', async () => {
    const { read } = await setUp();
    const deep = `${'['.repeat(1_001)}${']'.repeat(1_001)}`;
    for (const raw of [
      'not json',
      'null',
      '"allow"',
      '[{"action":"allow"}]',
      '{"action":"pass"}',
      '{"action":"modify"}',
      '{"action":"modify","content":7}',
      // Longer than any modification the cache keeps.
      `{"action":"modify","content":"${'a'.repeat(100_001)}"}`,
      '{"action":"block","message":{"text":"No."}}',
      '{"action":"block","reason":["r"]}',
      '{"action":"block","severity":3}',
      // Nested past 1,000 levels, and over 1 MiB: not parsed.
      `{"action":"allow","x":${deep}}`,
      `{"action":"allow","x":"${'a'.repeat(1_048_576)}"}`,
    ]) {
      expect(await read(raw), raw.slice(0, 60)).toBe(undefined);
    }
  });

  it('does not write a verdict it would not read back', async () => {
    const { store, cache, slot } = await setUp();
    const info = 'i'.repeat(1_048_576);
    await cache.set(slot, { action: 'block', info });
    expect(await store.get(slot.key)).toBe(undefined);
    await cache.set(slot, { action: 'block', info: 'i'.repeat(1_000) });
    expect(await cache.get(slot)).toEqual({ action: 'block', info: 'i'.repeat(1_000) });
  });
});
