import { generateText, wrapLanguageModel } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { guardContext } from '../../../test/helpers';
import {
  echoingModel,
  runVaultScenario,
  type VaultStep,
  vaultSteps,
} from '../../../test/helpers/vault-scenario';
import { guardrails } from '../../middleware/guardrails-middleware';
import { memoryStore } from '../../store/memory-store';
import type { Store } from '../../store/store';
import { pii } from './pii';
import { storeVault } from './pseudonym-vault';

const TTL = 1_000;

/**
 * A memory store on a fake clock that can lose its data: `wipe(0)` drops
 * every key, `wipe(k)` the keys whose write order % 3 is not k - 1.
 */
function clockedStore() {
  let time = 0;
  let inner = memoryStore({ now: () => time });
  const written: string[] = [];
  const wrote = (key: string) => {
    written.push(key);
    return inner;
  };
  const store: Store = {
    incrBy: (key, ...rest) => wrote(key).incrBy(key, ...rest),
    incrByCapped: (key, ...rest) => wrote(key).incrByCapped(key, ...rest),
    get: key => inner.get(key),
    set: (key, ...rest) => wrote(key).set(key, ...rest),
    setIfAbsent: (key, ...rest) => wrote(key).setIfAbsent(key, ...rest),
    touch: (key, ...rest) => inner.touch(key, ...rest),
    delete: key => inner.delete(key),
  };
  return {
    store,
    advance: (ms: number) => {
      time += ms;
    },
    async wipe(keep: 0 | 1 | 2 | 3) {
      if (keep === 0) {
        inner = memoryStore({ now: () => time });
        return;
      }
      const keys = [...new Set(written)];
      for (let i = 0; i < keys.length; i++) if (i % 3 !== keep - 1) await inner.delete(keys[i]!);
    },
  };
}

function scenario(steps: VaultStep[]) {
  const clocked = clockedStore();
  return runVaultScenario(steps, { ...clocked, ttlMs: TTL });
}

const context = (kind: 'input' | 'output', sessionId = 's') =>
  guardContext(kind, { metadata: { sessionId } });

describe('pseudonym vault', () => {
  it('does not hand a live placeholder to a new value after the counter expired', async () => {
    // The counter starts with alice (t=0) and expires at t=1000; bob's
    // placeholder, made at t=500, lives on. Carol and dave arrive at t=1100:
    // "write to carol and dave" used to come back with bob's address.
    const error = await scenario([
      { type: 'turn', instance: 0, people: [0] },
      { type: 'advance', ms: 500 },
      { type: 'turn', instance: 0, people: [1] },
      { type: 'advance', ms: 600 },
      { type: 'turn', instance: 1, people: [2, 3] },
    ]);
    expect(error).toBeUndefined();
  });

  it('does not reuse a placeholder when the store lost the counter', async () => {
    const store = memoryStore();
    const vault = pii({ action: 'pseudonymize', store, ttlMs: TTL });
    expect(await vault.check('alice@example.com', context('input'))).toMatchObject({
      content: '<EMAIL_ADDRESS_1>',
    });
    await store.delete('pii-vault:pii:s:counter:EMAIL_ADDRESS');
    const carol = await vault.check('carol@example.net', context('input'));
    expect(carol).toMatchObject({ action: 'modify' });
    const token = (carol as { content: string }).content;
    expect(token).not.toBe('<EMAIL_ADDRESS_1>');
    expect(await vault.check(`<EMAIL_ADDRESS_1> ${token}`, context('output'))).toMatchObject({
      content: 'alice@example.com carol@example.net',
    });
  });

  it('keeps a mapping alive while it is used', async () => {
    let time = 0;
    const store = memoryStore({ now: () => time });
    const vault = pii({ action: 'pseudonymize', store, ttlMs: TTL });
    await vault.check('alice@example.com', context('input'));
    time = 900;
    await vault.check('alice@example.com again', context('input'));
    time = 1_800;
    expect(await vault.check('<EMAIL_ADDRESS_1>', context('output'))).toMatchObject({
      content: 'alice@example.com',
    });
    time = 2_700; // restoring was a use too
    expect(await vault.check('<EMAIL_ADDRESS_1>', context('output'))).toMatchObject({
      content: 'alice@example.com',
    });
    time = 3_700;
    expect(await vault.check('<EMAIL_ADDRESS_1>', context('output'))).toEqual({ action: 'allow' });
  });

  it("restores what this call's prompt meant, even when the vault moved on meanwhile", async () => {
    const store = memoryStore();
    const vault = pii({ action: 'pseudonymize', store, ttlMs: TTL });
    const ctx = context('input');
    await vault.check('alice@example.com', ctx);
    // While the model runs, the mapping is lost and handed to someone else.
    await store.delete('pii-vault:pii:s:token:<EMAIL_ADDRESS_1>');
    await store.set(
      'pii-vault:pii:s:token:<EMAIL_ADDRESS_1>',
      JSON.stringify('mallory@example.com'),
      TTL,
    );
    expect(await vault.check('Hi <EMAIL_ADDRESS_1>', { ...ctx, kind: 'output' })).toMatchObject({
      content: 'Hi alice@example.com',
    });
  });

  it("never takes a pseudonym from another conversation's remembered verdict", async () => {
    const store = memoryStore();
    const vault = pii({ action: 'pseudonymize', store });
    const guarded = wrapLanguageModel({
      model: echoingModel(),
      middleware: guardrails({ input: [vault], output: [vault], store }),
    });
    const say = (sessionId: string, content: string) =>
      generateText({
        model: guarded,
        messages: [{ role: 'user', content }],
        providerOptions: { guardrails: { sessionId } },
      });
    await say('a', 'Write to alice@example.com.');
    expect((await say('a', 'Write to bob@example.org.')).text).toBe('Writing to bob@example.org.');
    await say('b', 'Write to carol@example.net, dave@example.com.');
    // The same text as in conversation a: in b, bob's placeholder is not a's <EMAIL_ADDRESS_2> (dave's here).
    expect((await say('b', 'Write to bob@example.org.')).text).toBe('Writing to bob@example.org.');
  });

  it('never maps two values to one placeholder nor restores a value the user did not write (property)', async () => {
    await fc.assert(
      fc.asyncProperty(vaultSteps(3 * TTL), async steps => {
        expect(await scenario(steps)).toBeUndefined();
      }),
      { numRuns: 100 },
    );
  });
});

describe('storeVault reading what the store holds (round 33)', () => {
  const hour = 60 * 60 * 1000;
  // 1 MiB of JSON text: a value of 1,048,574 characters and its two quotes.
  const longest = 'v'.repeat(1_048_574);

  it('restores an original up to 1 MiB as JSON, and refuses to pseudonymize a longer one', async () => {
    const store = memoryStore({ maxBytes: 64 * 1024 * 1024 });
    const vault = storeVault(store, 'base', hour);
    expect(await vault.tokenFor('NAME', longest)).toBe('<NAME_1>');
    expect(await vault.valueOf('<NAME_1>')).toBe(longest);
    await expect(vault.tokenFor('NAME', `${longest}v`)).rejects.toThrow(
      new RangeError(
        'pseudonym vault: a NAME of 1048575 characters is over what the vault stores (1048576 characters as JSON); not pseudonymized',
      ),
    );
    // Refused before any number was taken.
    expect(await store.get('base:counter:NAME')).toBe('1');
  });

  it('restores nothing from an entry it cannot read, and allocates past it', async () => {
    const store = memoryStore({ maxBytes: 64 * 1024 * 1024 });
    const vault = storeVault(store, 'base', hour);
    const foreign = [
      `"${longest}v"`, // over 1 MiB: not parsed
      '"\\u0041', // no JSON
      '["a"]', // no JSON string
    ];
    for (const [index, raw] of foreign.entries()) {
      await store.set(`base:token:<EMAIL_${index + 1}>`, raw, hour);
      expect(await vault.valueOf(`<EMAIL_${index + 1}>`)).toBe(undefined);
      expect(await store.get(`base:token:<EMAIL_${index + 1}>`)).toBe(raw);
    }
    await store.set('base:token:<EMAIL_3>', '"x"', hour);
    // Counter 1 and 3 (step 2) are taken, foreign or not: 7 (step 4) is free.
    expect(await vault.tokenFor('EMAIL', 'a@example.com')).toBe('<EMAIL_7>');
    expect(await vault.valueOf('<EMAIL_7>')).toBe('a@example.com');
    expect(await store.get('base:token:<EMAIL_1>')).toBe(foreign[0]);
  });
});
