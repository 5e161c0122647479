import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll } from 'vitest';
import { redisStore } from '../../src/redis';
import type { Store } from '../../src/store/store';

/** The Redis server the tests use; without it the Redis tests are skipped. */
export const REDIS_URL = process.env.REDIS_URL;

/** True when a `redis-server` binary is on the PATH (the fault tests start their own). */
export const HAS_REDIS_SERVER =
  spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;

/** Prints once per test file why its Redis tests are skipped and how to run them. */
export function announceSkip(file: string) {
  if (REDIS_URL) return;
  console.warn(
    `[${file}] Redis tests skipped: REDIS_URL is not set. To run them:\n` +
      "  redis-server --port 6390 --bind 127.0.0.1 --save '' --appendonly no --daemonize yes\n" +
      '  REDIS_URL=redis://127.0.0.1:6390 npx vitest run test/redis',
  );
}

/** A prefix no other test (or earlier run) uses, so tests never see each other's keys. */
export function uniquePrefix(label: string): string {
  return `ai-guardrails-test:${label}:${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}:`;
}

/** A connected node-redis client that reconnects quickly (tests stop servers on purpose). */
export async function connectNodeRedis(url: string) {
  const client = createClient({
    url,
    socket: { reconnectStrategy: retries => Math.min(50 * (retries + 1), 200) },
  });
  client.on('error', () => {}); // reconnects are expected; errors reach the store's callers
  await client.connect();
  return client;
}

/** A connected ioredis client that reconnects quickly. */
export async function connectIORedis(url: string) {
  const client = new Redis(url, {
    lazyConnect: true,
    retryStrategy: times => Math.min(50 * times, 200),
  });
  client.on('error', () => {});
  await client.connect();
  return client;
}

/** Every key under `prefix` with its remaining time to live (-1: none, -2: gone). */
/**
 * A node-redis and an ioredis client on REDIS_URL for the enclosing
 * `describe` block: connected before its tests, closed after them.
 */
export function useRedisClients() {
  const clients = {} as {
    nodeRedis: Awaited<ReturnType<typeof connectNodeRedis>>;
    ioredis: Redis;
  };
  beforeAll(async () => {
    clients.nodeRedis = await connectNodeRedis(REDIS_URL!);
    clients.ioredis = await connectIORedis(REDIS_URL!);
  });
  afterAll(async () => {
    await clients.nodeRedis?.quit();
    await clients.ioredis?.quit();
  });
  return clients;
}

/**
 * A store of its own prefix (`label`) through each client of `useRedisClients`
 * (node-redis, then ioredis, or the `only` one), with a 10 s timeout: the
 * setup each test of bytes written by another client repeats.
 */
export function storesThrough(
  clients: ReturnType<typeof useRedisClients>,
  label: string,
  only?: 'node-redis' | 'ioredis',
): { label: string; prefix: string; store: Store }[] {
  return (
    [
      ['node-redis', clients.nodeRedis],
      ['ioredis', clients.ioredis],
    ] as const
  )
    .filter(([name]) => only === undefined || name === only)
    .map(([name, client]) => {
      const prefix = uniquePrefix(`${label}-${name}`);
      return { label: name, prefix, store: redisStore(client, { prefix, timeoutMs: 10_000 }) };
    });
}

export async function keysWithTtl(client: Redis, prefix: string) {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  const ttls = await Promise.all(keys.map(key => client.pttl(key)));
  return keys
    .map((key, i) => ({ key, pttl: ttls[i] as number }))
    .sort((a, b) => (a.key < b.key ? -1 : 1));
}

/**
 * Moves the server's clock forward by `ms` for the keys under `prefix`, and
 * for nothing else: each key's remaining time to live drops by `ms`, and a key
 * left with less than `marginMs` is deleted (it expired). Real time then only
 * counts when it exceeds `marginMs`, so a test whose TTLs are far longer than
 * its run (and whose margin is at least the run's timeout) sees expiries
 * exactly where its script puts them, however slow the machine is.
 */
export async function advanceServerClock(
  client: Redis,
  prefix: string,
  ms: number,
  marginMs: number,
): Promise<void> {
  const keys = (await keysWithTtl(client, prefix)).map(({ key }) => key);
  if (keys.length === 0) return;
  // One script: no key's expiry moves while another's is read.
  await client.eval(ADVANCE_CLOCK, keys.length, ...keys, ms, marginMs);
}

const ADVANCE_CLOCK = `
for _, key in ipairs(KEYS) do
  local left = redis.call('PTTL', key)
  if left >= 0 then
    left = left - tonumber(ARGV[1])
    if left < tonumber(ARGV[2]) then redis.call('DEL', key) else redis.call('PEXPIRE', key, left) end
  end
end
return 1
`;

/** A free loopback TCP port. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * A `redis-server` of the test's own, on its own port, that the test may
 * pause, kill and start again (the shared REDIS_URL server is never touched).
 */
export async function ownRedisServer() {
  const port = await freePort();
  let child: ChildProcess | undefined;

  async function start() {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    // Ready when it says so on stdout.
    await new Promise<void>((resolve, reject) => {
      let output = '';
      child?.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) resolve();
      });
      child?.once('exit', code => reject(new Error(`redis-server exited with ${code}: ${output}`)));
    });
  }

  async function kill() {
    if (!child || child.exitCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    start,
    kill,
    /** Freezes the server: connections stay open, nothing answers. */
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    stop: async () => {
      child?.kill('SIGCONT');
      await kill();
    },
  };
}

/** True when `redis-cli` is on the PATH too (it creates the test cluster). */
export const HAS_REDIS_CLI =
  spawnSync('redis-cli', ['--version'], { stdio: 'ignore' }).status === 0;

/**
 * A Redis Cluster of the test's own: `masters` cluster-enabled servers on
 * free ports (no replicas, slots spread by `redis-cli --cluster create`),
 * in a temporary directory for their `nodes.conf`. Takes a few seconds.
 */
export async function ownRedisCluster(masters = 3) {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const directory = mkdtempSync(join(tmpdir(), 'ai-guardrails-cluster-'));
  const ports: number[] = [];
  const children: ChildProcess[] = [];
  for (let index = 0; index < masters; index++) {
    const port = await freePort();
    ports.push(port);
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        `nodes-${port}.conf`,
        '--dir',
        directory,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(child);
    await new Promise<void>((resolve, reject) => {
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) resolve();
      });
      child.once('exit', code => reject(new Error(`redis-server exited with ${code}: ${output}`)));
    });
  }
  const created = spawnSync(
    'redis-cli',
    [
      '--cluster',
      'create',
      ...ports.map(port => `127.0.0.1:${port}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ],
    { encoding: 'utf8' },
  );
  if (created.status !== 0) throw new Error(`redis-cli --cluster create failed: ${created.stdout}`);
  // Every node agrees that every slot is served before the cluster is used.
  for (const port of ports) {
    for (let attempt = 0; ; attempt++) {
      const info = spawnSync('redis-cli', ['-p', String(port), 'cluster', 'info'], {
        encoding: 'utf8',
      });
      if (info.stdout.includes('cluster_state:ok')) break;
      if (attempt > 100) throw new Error(`cluster node ${port} not ready: ${info.stdout}`);
      await new Promise(resolve => setTimeout(resolve, 50));
    }
  }
  return {
    /** The masters' loopback ports. */
    ports,
    stop: async () => {
      await Promise.all(
        children.map(async child => {
          if (child.exitCode !== null) return;
          const exited = once(child, 'exit');
          child.kill('SIGKILL');
          await exited;
        }),
      );
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
