import { generateText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { getGuardrailOutcome } from '../../src/middleware/get-guardrail-outcome';
import { approveToolDefinition } from '../../src/middleware/tool-definition-pins';
import { redisStore } from '../../src/redis';
import { memoryStore } from '../../src/store/memory-store';
import type { Store } from '../../src/store/store';
import { gatedReads, pinningModel } from '../helpers/tool-pins';
import { announceSkip, REDIS_URL, uniquePrefix, useRedisClients } from './redis-helpers';

announceSkip('approve-pin-race');

// Round 26: `approveToolDefinition` read a tool's approved hashes with a
// `get` and wrote them back with a `set`: two approvals of one tool at once
// (a reviewer approving the two definitions a rolling deployment serves)
// both read the old list, and the second write dropped the first's hash,
// so that definition still tripped. The hash now joins the list with one
// atomic `store.pushToList` (memory: synchronous; Redis: a Lua script).

const APPROVALS = 'ai-guardrails:tool-approved:';

function sendTool(description: string) {
  return tool({ description, inputSchema: z.object({ to: z.string() }), execute: async () => 'x' });
}

/**
 * `send` pinned at v1; v2 and v3 (two instances' versions) trip, and both
 * are approved at once through `approveStores`. Returns what the model got
 * and the records of each call after the approvals.
 */
async function approveTwoAtOnce(store: Store, approveStores: [Store, Store], oneAtATime = false) {
  const { model, seen } = pinningModel(store);
  const versions = ['Send a message.', 'Send a message to a user.', 'Send a note.'].map(sendTool);
  await generateText({ model, tools: { send: versions[0]! }, prompt: 'v1' });
  const hashes: string[] = [];
  for (const version of versions.slice(1)) {
    const changed = await generateText({ model, tools: { send: version }, prompt: 'changed' });
    const record = (await getGuardrailOutcome(changed))!.records[0]!;
    expect(record.guardrail).toBe('tool-definition-changed');
    hashes.push((record.info as { definitionHash: string }).definitionHash);
  }
  const approvals = [
    () => approveToolDefinition(approveStores[0], 'default', 'send', hashes[0]!),
    () => approveToolDefinition(approveStores[1], 'default', 'send', hashes[1]!),
  ];
  if (oneAtATime) for (const approve of approvals) await approve();
  else await Promise.all(approvals.map(approve => approve()));
  const after = [];
  for (const version of versions) {
    const result = await generateText({ model, tools: { send: version }, prompt: 'after' });
    after.push((await getGuardrailOutcome(result))?.records.map(r => r.guardrail));
  }
  return { seen, after };
}

const EXPECTED = {
  seen: [['send'], [], [], ['send'], ['send'], ['send']],
  after: [[], [], []],
};

describe('two approvals of one tool at once keep both hashes', () => {
  it('memory store', async () => {
    const store = memoryStore();
    const gated = gatedReads(store, APPROVALS, 2);
    expect(await approveTwoAtOnce(store, [gated, gated])).toEqual(EXPECTED);
  });

  it('a custom store without pushToList approves one at a time (a read and a write)', async () => {
    const { pushToList: _, ...withoutPush } = memoryStore();
    const store = withoutPush as Store;
    expect(await approveTwoAtOnce(store, [store, store], true)).toEqual(EXPECTED);
  });
});

describe.skipIf(!REDIS_URL)('two approvals of one tool at once on Redis', () => {
  const clients = useRedisClients();

  it('two clients: both hashes are approved', async () => {
    const prefix = uniquePrefix('approve-race');
    const a = redisStore(clients.nodeRedis, { prefix, timeoutMs: 10_000 });
    const b = redisStore(clients.ioredis, { prefix, timeoutMs: 10_000 });
    const gate = gatedReads(a, APPROVALS, 2);
    const gated: [Store, Store] = [gate, { ...b, get: gate.get }];
    expect(await approveTwoAtOnce(a, gated)).toEqual(EXPECTED);
  });

  it('17 approvals of one tool on two clients keep the newest 16, the oldest gone', async () => {
    const prefix = uniquePrefix('approve-many');
    const stores = [
      redisStore(clients.nodeRedis, { prefix, timeoutMs: 10_000 }),
      redisStore(clients.ioredis, { prefix, timeoutMs: 10_000 }),
    ];
    const hashes = Array.from({ length: 17 }, (_, i) => i.toString(16).padStart(64, '0'));
    await approveToolDefinition(stores[0]!, 'default', 'send', hashes[0]!);
    await Promise.all(
      hashes
        .slice(1)
        .map((hash, i) => approveToolDefinition(stores[i % 2]!, 'default', 'send', hash)),
    );
    const keys = await clients.ioredis.keys(`${prefix}${APPROVALS}*`);
    expect(keys).toHaveLength(1);
    const stored = JSON.parse((await clients.ioredis.get(keys[0]!))!) as string[];
    expect([...stored].sort()).toEqual(hashes.slice(1));
    expect(await clients.ioredis.pttl(keys[0]!)).toBeGreaterThan(360 * 24 * 60 * 60 * 1000);
  });
});
