import { generateText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { getGuardrailOutcome } from '../../src/middleware/get-guardrail-outcome';
import { forgetToolDefinitionPin } from '../../src/middleware/tool-definition-pins';
import { redisStore } from '../../src/redis';
import { memoryStore } from '../../src/store/memory-store';
import type { Store } from '../../src/store/store';
import { guardTools } from '../../src/tools';
import { gatedReads, pinningModel } from '../helpers/tool-pins';
import { announceSkip, REDIS_URL, uniquePrefix, useRedisClients } from './redis-helpers';

announceSkip('forget-pin-race');

// Round 25: `forgetToolDefinitionPin` added a name to its server group's
// list with a `get` and a `set`: two forgets of one group at once both read
// the old list and the second write dropped the first's name, so that tool
// was held as new although it was forgotten. The list now grows with one
// atomic `store.addToList` (memory: synchronous; Redis: a Lua script).

const SERVER_LIST = 'ai-guardrails:tool-pin-server:';

function docsTool(description: string) {
  return tool({ description, inputSchema: z.object({ q: z.string() }), execute: async () => 'x' });
}

/**
 * A server first seen with `read` alone; `search` and `fetch` appear later
 * (held as new), and both are forgotten at once through `forgetStores`.
 * Returns the tools the model got after the forgets and the records of held tools.
 */
async function forgetTwoAtOnce(
  store: Store,
  forgetStores: [Store, Store],
  serverGroup?: string,
  oneAtATime = false,
) {
  const { model, seen } = pinningModel(store);
  const options = { serverId: 'docs', ...(serverGroup !== undefined && { serverGroup }) };
  const read = docsTool('Read one page.');
  const search = docsTool('Search the docs.');
  const fetchPage = docsTool('Fetch a page by URL.');
  await generateText({ model, tools: guardTools({ read }, options), prompt: 'first' });
  const all = guardTools({ read, search, fetch: fetchPage }, options);
  const before = await generateText({ model, tools: all, prompt: 'new tools' });
  const heldBefore = (await getGuardrailOutcome(before))?.records
    .filter(r => r.guardrail === 'tool-definition-new')
    .map(r => r.toolName);
  const forgets = [
    () => forgetToolDefinitionPin(forgetStores[0], 'default:docs', 'search', { serverGroup }),
    () => forgetToolDefinitionPin(forgetStores[1], 'default:docs', 'fetch', { serverGroup }),
  ];
  if (oneAtATime) for (const forget of forgets) await forget();
  else await Promise.all(forgets.map(forget => forget()));
  const after = await generateText({ model, tools: all, prompt: 'after the forgets' });
  const heldAfter = ((await getGuardrailOutcome(after))?.records ?? [])
    .filter(r => r.guardrail === 'tool-definition-new')
    .map(r => r.toolName);
  return { seen, heldBefore, heldAfter };
}

const EXPECTED = {
  seen: [['read'], ['read'], ['read', 'search', 'fetch']],
  heldBefore: ['search', 'fetch'],
  heldAfter: [],
};

describe('two forgets of one server group at once keep both names', () => {
  it.each([undefined, 'pages'])('memory store, group %s', async serverGroup => {
    const store = memoryStore();
    const gated = gatedReads(store, SERVER_LIST, 2);
    expect(await forgetTwoAtOnce(store, [gated, gated], serverGroup)).toEqual(EXPECTED);
  });

  it('a custom store without addToList still forgets, one at a time (a read and a write)', async () => {
    const { addToList: _, ...withoutAddToList } = memoryStore();
    const stores: [Store, Store] = [withoutAddToList, withoutAddToList];
    expect(await forgetTwoAtOnce(withoutAddToList, stores, undefined, true)).toEqual(EXPECTED);
  });
});

describe.skipIf(!REDIS_URL)('two forgets of one server group at once on Redis', () => {
  const clients = useRedisClients();

  it.each([undefined, 'pages'])(
    'two clients, group %s: both names join the list',
    async serverGroup => {
      const prefix = uniquePrefix('forget-race');
      const a = redisStore(clients.nodeRedis, { prefix, timeoutMs: 10_000 });
      const b = redisStore(clients.ioredis, { prefix, timeoutMs: 10_000 });
      const gate = gatedReads(a, SERVER_LIST, 2);
      const gated: [Store, Store] = [gate, { ...gatedReads(b, SERVER_LIST, 1), get: gate.get }];
      expect(await forgetTwoAtOnce(a, gated, serverGroup)).toEqual(EXPECTED);
    },
  );

  it('40 forgets of one group on two clients: the list holds every name', async () => {
    const prefix = uniquePrefix('forget-many');
    const stores = [
      redisStore(clients.nodeRedis, { prefix, timeoutMs: 10_000 }),
      redisStore(clients.ioredis, { prefix, timeoutMs: 10_000 }),
    ];
    const key = 'list-of-forgets';
    await stores[0]!.set(key, '[]', 60_000);
    const names = Array.from({ length: 40 }, (_, i) => `t${i}`);
    await Promise.all(names.map((name, i) => stores[i % 2]!.addToList!(key, name, 4_096, 60_000)));
    expect((JSON.parse((await stores[1]!.get(key))!) as string[]).sort()).toEqual(
      [...names].sort(),
    );
  });
});
