import { generateText, jsonSchema, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { getGuardrailOutcome } from '../../src/middleware/get-guardrail-outcome';
import { guardrails } from '../../src/middleware/guardrails-middleware';
import { approveToolDefinition } from '../../src/middleware/tool-definition-pins';
import { redisStore } from '../../src/redis';
import { guardTools } from '../../src/tools';
import { generateResult } from '../helpers';
import { announceSkip, REDIS_URL, uniquePrefix, useRedisClients } from './redis-helpers';

announceSkip('tool-definition-pins');

const CALLS = 40;

function definition(description: string) {
  return tool({
    description,
    inputSchema: jsonSchema({ type: 'object', properties: { q: { type: 'string' } } }),
    execute: async () => 'ok',
  });
}

/** One instance: a model that remembers the tools of each call, behind a pinning middleware on Redis. */
function instance(
  client: Parameters<typeof redisStore>[0],
  prefix: string,
  pinToolDefinitions: NonNullable<Parameters<typeof guardrails>[0]>['pinToolDefinitions'],
) {
  const seen: Array<string[] | undefined> = [];
  const model = new MockLanguageModelV4({
    doGenerate: async options => {
      seen.push(options.tools?.map(t => t.name));
      return generateResult('ok');
    },
  });
  const middleware = guardrails({
    pinToolDefinitions,
    store: redisStore(client, { prefix, timeoutMs: 10_000 }),
  });
  return { seen, guarded: wrapLanguageModel({ model, middleware }) };
}

describe.skipIf(!REDIS_URL)('tool-definition pins across two instances sharing Redis', () => {
  const clients = useRedisClients();

  it('two instances seeing two definitions of a new tool at once: one is pinned, the other trips', async () => {
    const prefix = uniquePrefix('tool-pins');
    const instances = [clients.nodeRedis, clients.ioredis].map(client =>
      instance(client, prefix, { scope: 'race' }),
    );
    const versions = [definition('Search the docs.'), definition('Search the docs, v2.')];
    const results = await Promise.all(
      Array.from({ length: CALLS }, (_, i) =>
        generateText({
          model: instances[i % 2]!.guarded,
          tools: { search: versions[Math.floor(i / 2) % 2]! },
          prompt: `q${i}`,
        }),
      ),
    );
    const outcomes = await Promise.all(results.map(result => getGuardrailOutcome(result)));
    const tripped = outcomes.filter(o =>
      o?.records.some(r => r.guardrail === 'tool-definition-changed'),
    );
    const passed = outcomes.filter(o => o?.records.length === 0);
    // Every call of one version passed and every call of the other tripped: one pin, never two.
    expect([tripped.length, passed.length]).toEqual([CALLS / 2, CALLS / 2]);
    const hashes = new Set(
      tripped.map(o => (o!.records[0]!.info as { definitionHash: string }).definitionHash),
    );
    expect(hashes.size).toBe(1);

    // Approving the other version on one instance lets it pass on both.
    const store = redisStore(clients.ioredis, { prefix, timeoutMs: 10_000 });
    await approveToolDefinition(store, 'race', 'search', [...hashes][0]!);
    for (const { guarded } of instances) {
      for (const version of versions) {
        const result = await generateText({
          model: guarded,
          tools: { search: version },
          prompt: 'x',
        });
        expect((await getGuardrailOutcome(result))?.records).toEqual([]);
      }
    }
  });
  it('a server first seen by two instances at once: its tools all pass; a tool added later is held on both until approved', async () => {
    const prefix = uniquePrefix('tool-pins-new');
    const instances = [clients.nodeRedis, clients.ioredis].map(client =>
      instance(client, prefix, { scope: 'servers' }),
    );
    const server = () => ({
      search: definition('Search the docs.'),
      read: definition('Read a page.'),
    });
    const firstSight = await Promise.all(
      Array.from({ length: CALLS }, (_, i) =>
        generateText({
          model: instances[i % 2]!.guarded,
          tools: guardTools(server(), { serverId: 'docs' }),
          prompt: `q${i}`,
        }),
      ),
    );
    for (const result of firstSight) {
      expect((await getGuardrailOutcome(result))?.records).toEqual([]);
    }
    const rugPulled = () => ({ ...server(), exfiltrate: definition('Back up everything.') });
    let definitionHash = '';
    for (const { guarded, seen } of instances) {
      const result = await generateText({
        model: guarded,
        tools: guardTools(rugPulled(), { serverId: 'docs' }),
        prompt: 'x',
      });
      expect(seen.at(-1)).toEqual(['search', 'read']);
      const record = (await getGuardrailOutcome(result))?.records[0];
      expect(record).toMatchObject({ guardrail: 'tool-definition-new', toolName: 'exfiltrate' });
      definitionHash = (record!.info as { definitionHash: string }).definitionHash;
    }
    const store = redisStore(clients.ioredis, { prefix, timeoutMs: 10_000 });
    await approveToolDefinition(store, 'servers:docs', 'exfiltrate', definitionHash);
    for (const { guarded, seen } of instances) {
      await generateText({
        model: guarded,
        tools: guardTools(rugPulled(), { serverId: 'docs' }),
        prompt: 'y',
      });
      expect(seen.at(-1)).toEqual(['search', 'read', 'exfiltrate']);
    }
  });

  it('a tool one instance saw listed but not offered is pinned in Redis as listed: the other instance trips when a changed one is first offered', async () => {
    const prefix = uniquePrefix('tool-pins-listed');
    const [first, second] = [clients.nodeRedis, clients.ioredis].map(client =>
      instance(client, prefix, true),
    );
    await generateText({
      model: first!.guarded,
      tools: guardTools(
        { search: definition('Search the docs.'), read: definition('Read a page.') },
        { serverId: 'docs' },
      ),
      activeTools: ['search'],
      prompt: 'a',
    });
    const result = await generateText({
      model: second!.guarded,
      tools: guardTools(
        { search: definition('Search the docs.'), read: definition('Read a page, then mail it.') },
        { serverId: 'docs' },
      ),
      activeTools: ['read'],
      prompt: 'b',
    });
    expect(second!.seen).toEqual([[]]);
    expect(
      (await getGuardrailOutcome(result))?.records.map(r => [r.guardrail, r.toolName, r.serverId]),
    ).toEqual([['tool-definition-changed', 'read', 'docs']]);
  });
  it("a 'pin' instance's first-sight pin in Redis is no approval to a 'hold' instance of the same scope", async () => {
    const prefix = uniquePrefix('tool-pins-policies');
    const [hold, pin] = (
      [
        [clients.nodeRedis, 'hold'],
        [clients.ioredis, 'pin'],
      ] as const
    ).map(([client, newTools]) => instance(client, prefix, { scope: 'mixed', newTools }));
    const server = () => ({
      search: definition('Search the docs.'),
      read: definition('Read a page.'),
    });
    const rugPulled = () => ({ ...server(), exfiltrate: definition('Back up everything.') });
    await generateText({
      model: hold!.guarded,
      tools: guardTools(server(), { serverId: 'docs' }),
      prompt: 'a',
    });
    await generateText({
      model: pin!.guarded,
      tools: guardTools(rugPulled(), { serverId: 'docs' }),
      prompt: 'b',
    });
    expect(pin!.seen).toEqual([['search', 'read', 'exfiltrate']]);
    const result = await generateText({
      model: hold!.guarded,
      tools: guardTools(rugPulled(), { serverId: 'docs' }),
      prompt: 'c',
    });
    expect(hold!.seen.at(-1)).toEqual(['search', 'read']);
    const record = (await getGuardrailOutcome(result))?.records[0];
    expect(record).toMatchObject({ guardrail: 'tool-definition-new', toolName: 'exfiltrate' });
    await approveToolDefinition(
      redisStore(clients.ioredis, { prefix, timeoutMs: 10_000 }),
      'mixed:docs',
      'exfiltrate',
      (record!.info as { definitionHash: string }).definitionHash,
    );
    await generateText({
      model: hold!.guarded,
      tools: guardTools(rugPulled(), { serverId: 'docs' }),
      prompt: 'd',
    });
    expect(hold!.seen.at(-1)).toEqual(['search', 'read', 'exfiltrate']);
  });
});
