import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pii } from '../../src/guards/pii/pii';
import { storeVault } from '../../src/guards/pii/pseudonym-vault';
import { guardrails } from '../../src/middleware/guardrails-middleware';
import { redisStore } from '../../src/redis';
import { memoryStore } from '../../src/store/memory-store';
import type { Store } from '../../src/store/store';
import { generateResult } from '../helpers';
import { runVaultScenario, vaultSteps } from '../helpers/vault-scenario';
import {
  advanceServerClock,
  announceSkip,
  keysWithTtl,
  REDIS_URL,
  uniquePrefix,
  useRedisClients,
} from './redis-helpers';

announceSkip('vault');

/** The property's time limit, and how close to expiry a key counts as expired. */
const TIME_LIMIT_MS = 60_000;

/** The text of the user messages a model received. */
function userText(call: LanguageModelV4CallOptions | undefined): string {
  return (call?.prompt ?? [])
    .filter(message => message.role === 'user')
    .flatMap(message => (Array.isArray(message.content) ? message.content : []))
    .map(part => (part.type === 'text' ? part.text : ''))
    .join('\n');
}

/** A server instance: its own middleware and model, pseudonymising with `store`. */
function instance(store: Store, answer: string) {
  const vault = pii({ action: 'pseudonymize', store });
  const model = new MockLanguageModelV4({ doGenerate: async () => generateResult(answer) });
  return {
    model,
    guarded: wrapLanguageModel({
      model,
      middleware: guardrails({ input: [vault], output: [vault] }),
    }),
  };
}

describe.skipIf(!REDIS_URL)('pii pseudonym vault shared through Redis', () => {
  const clients = useRedisClients();

  it('instance B restores the pseudonyms instance A made, in the same conversation', async () => {
    const prefix = uniquePrefix('vault');
    const session = { guardrails: { sessionId: 'chat-42' } };

    // Turn 1 lands on instance A: the model only ever sees the pseudonym.
    const a = instance(
      redisStore(clients.nodeRedis, { prefix, timeoutMs: 10_000 }),
      'Noted, <EMAIL_ADDRESS_1>.',
    );
    const first = await generateText({
      model: a.guarded,
      prompt: 'Please write to me at jane.doe@example.com about the order.',
      providerOptions: session,
    });
    expect(userText(a.model.doGenerateCalls[0])).toBe(
      'Please write to me at <EMAIL_ADDRESS_1> about the order.',
    );
    expect(first.text).toBe('Noted, jane.doe@example.com.');

    // Turn 2 lands on instance B, which never saw the address. The client
    // sends its history, as `useChat` does, with a new address written
    // before the old one: B alone would number them in that order, but
    // through Redis it keeps A's `<EMAIL_ADDRESS_1>` for the old address, and
    // restores the answer's placeholder to it. (An answer restores only the
    // placeholders its own prompt carried, since round 36: a history without
    // the address gets `<EMAIL_ADDRESS_1>` back as written.)
    const b = instance(
      redisStore(clients.ioredis, { prefix, timeoutMs: 10_000 }),
      'I will write to <EMAIL_ADDRESS_1> today.',
    );
    const second = await generateText({
      model: b.guarded,
      prompt: 'Send the confirmation to bob@example.com, not jane.doe@example.com.',
      providerOptions: session,
    });
    expect(userText(b.model.doGenerateCalls[0])).toBe(
      'Send the confirmation to <EMAIL_ADDRESS_2>, not <EMAIL_ADDRESS_1>.',
    );
    expect(second.text).toBe('I will write to jane.doe@example.com today.');

    // The vault is one key, prefixed, with a TTL.
    // Two addresses: the counter, each placeholder's original, and each placeholder (keyed by a hash).
    const keys = await keysWithTtl(clients.ioredis, prefix);
    expect(
      keys.map(k => k.key.slice(prefix.length).replace(/[0-9a-f]{64}$/, '<sha256>')).sort(),
    ).toEqual([
      'pii-vault:pii:chat-42:counter:EMAIL_ADDRESS',
      'pii-vault:pii:chat-42:token:<EMAIL_ADDRESS_1>',
      'pii-vault:pii:chat-42:token:<EMAIL_ADDRESS_2>',
      'pii-vault:pii:chat-42:value:EMAIL_ADDRESS:<sha256>',
      'pii-vault:pii:chat-42:value:EMAIL_ADDRESS:<sha256>',
    ]);
    expect(keys.every(k => k.pttl > 0)).toBe(true);
    // The original appears in no key name.
    expect(keys.some(k => k.key.includes('@'))).toBe(false);
  });

  it('without the shared store, instance B numbers the addresses itself (the control)', async () => {
    const session = { guardrails: { sessionId: 'chat-43' } };
    const a = instance(memoryStore(), 'Noted.');
    await generateText({
      model: a.guarded,
      prompt: 'My address is jane.doe@example.com.',
      providerOptions: session,
    });
    const b = instance(memoryStore(), 'I will write to <EMAIL_ADDRESS_1> today.');
    const second = await generateText({
      model: b.guarded,
      prompt: 'Send the confirmation to bob@example.com, not jane.doe@example.com.',
      providerOptions: session,
    });
    expect(userText(b.model.doGenerateCalls[0])).toBe(
      'Send the confirmation to <EMAIL_ADDRESS_1>, not <EMAIL_ADDRESS_2>.',
    );
    expect(second.text).toBe('I will write to bob@example.com today.');
  });

  it('keeps originals with lone surrogates exact, apart from their U+FFFD lookalikes, as a memory store does', async () => {
    // Redis keeps UTF-8, which writes a lone surrogate as U+FFFD: the vault
    // read back another original than it wrote, every allocation looked
    // taken, and the call failed closed ("no free placeholder").
    // The junk stands inside the badge: the finders read through it (round
    // 23), so at the end it would be outside the value.
    const badge = 'EMP-4\uD8002';
    const lookalike = 'EMP-4\uFFFD2';
    const prefix = uniquePrefix('vault-surrogates');
    const shared = memoryStore();
    const stores: Record<string, [Store, Store]> = {
      memory: [shared, shared],
      redis: [
        redisStore(clients.nodeRedis, { prefix, timeoutMs: 10_000 }),
        redisStore(clients.ioredis, { prefix, timeoutMs: 10_000 }),
      ],
    };
    for (const [name, [storeA, storeB]] of Object.entries(stores)) {
      const turn = async (store: Store, prompt: string, answer: string) => {
        const vault = pii({
          action: 'pseudonymize',
          store,
          custom: [{ type: 'EMPLOYEE_ID', pattern: /EMP-[^\s.,]+/g }],
        });
        const model = new MockLanguageModelV4({ doGenerate: async () => generateResult(answer) });
        const result = await generateText({
          model: wrapLanguageModel({
            model,
            middleware: guardrails({ input: [vault], output: [vault] }),
          }),
          prompt,
          providerOptions: { guardrails: { sessionId: 'chat-44' } },
        });
        return { sent: userText(model.doGenerateCalls[0]), text: result.text };
      };
      const first = await turn(
        storeA,
        `Badges ${badge} and ${lookalike}.`,
        'Swapped: <EMPLOYEE_ID_2>, <EMPLOYEE_ID_1>.',
      );
      expect({ name, ...first }).toEqual({
        name,
        sent: 'Badges <EMPLOYEE_ID_1> and <EMPLOYEE_ID_2>.',
        text: `Swapped: ${lookalike}, ${badge}.`,
      });
      // Another instance finds the same placeholder and restores the exact original.
      const second = await turn(storeB, `Again ${badge}.`, 'Yes, <EMPLOYEE_ID_1>.');
      expect({ name, ...second }).toEqual({
        name,
        sent: 'Again <EMPLOYEE_ID_1>.',
        text: `Yes, ${badge}.`,
      });
    }
  });

  it(
    'never maps two values to one placeholder nor restores a value the user did not write, across expiries and data loss (property)',
    async () => {
      // A real server on a clock the test moves: keys live for an hour, and
      // `advance` takes time off every key's expiry (advanceServerClock). Real
      // time never expires a key mid-turn (the margin is longer than the test
      // may run), so a slow round trip on a loaded machine cannot fail it, and
      // expiries still land anywhere in a conversation, up to two TTLs apart.
      // 100 runs (about 2 s): a vault whose setIfAbsent overwrote was caught on
      // 20 of 20 seeds, against 17 of 20 for the old 20 runs on real 150 ms TTLs.
      const ttlMs = 60 * 60 * 1000;
      await fc.assert(
        fc.asyncProperty(vaultSteps(2 * ttlMs, 10), async steps => {
          const prefix = uniquePrefix('vault-property');
          const error = await runVaultScenario(steps, {
            store: redisStore(clients.ioredis, { prefix, timeoutMs: 10_000 }),
            ttlMs,
            advance: ms => advanceServerClock(clients.ioredis, prefix, ms, TIME_LIMIT_MS),
            async wipe(keep) {
              const keys = (await keysWithTtl(clients.ioredis, prefix)).map(({ key }) => key);
              const lost = keep === 0 ? keys : keys.filter((_, i) => i % 3 !== keep - 1);
              if (lost.length > 0) await clients.ioredis.del(...lost);
            },
          });
          expect(error).toBeUndefined();
        }),
        { numRuns: 100 },
      );
    },
    TIME_LIMIT_MS,
  );

  it('restores nothing from an entry another client wrote that it does not read, and refuses an original over 1 MiB as JSON (round 33)', async () => {
    const prefix = uniquePrefix('vault-foreign');
    const store = redisStore(clients.ioredis, { prefix, timeoutMs: 10_000 });
    const vault = storeVault(store, 'base', 60_000);
    const longest = 'v'.repeat(1_048_574);
    expect(await vault.tokenFor('NAME', longest)).toBe('<NAME_1>');
    expect(await vault.valueOf('<NAME_1>')).toBe(longest);
    await expect(vault.tokenFor('NAME', `${longest}v`)).rejects.toThrow(
      'pseudonym vault: a NAME of 1048575 characters is over what the vault stores (1048576 characters as JSON); not pseudonymized',
    );
    const foreign = [`"${'v'.repeat(2_000_000)}"`, '"\\u0041', '["a"]'];
    for (const [index, raw] of foreign.entries()) {
      const token = `<EMAIL_${index + 1}>`;
      await clients.ioredis.set(`${prefix}base:token:${token}`, raw, 'PX', 60_000);
      expect(await vault.valueOf(token)).toBe(undefined);
    }
    // 1 and 3 are taken (foreign): 7 is the first free number.
    expect(await vault.tokenFor('EMAIL', 'a@example.com')).toBe('<EMAIL_7>');
    expect(await vault.valueOf('<EMAIL_7>')).toBe('a@example.com');
    expect(await clients.ioredis.get(`${prefix}base:token:<EMAIL_1>`)).toBe(foreign[0]);
  });
});
