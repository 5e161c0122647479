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
