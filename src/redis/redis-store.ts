import { AISDKError } from '@ai-sdk/provider';
import { notReadIssue } from '../core/caller-values';
import { GuardrailConfigError } from '../core/errors';
import { readOptions } from '../core/options';
import { NotShown } from '../core/redact-secrets';
import type { CappedIncrement, Store } from '../store/store';
import { storeKeyOf, withoutHashTag } from '../store/store-key';
import { StoreListError } from '../store/store-list-error';
import { checkStoreTtl } from '../store/store-ttl';
import { checkListArguments, stringsOfList } from '../store/string-list';
import { redisStoreOptionShape } from './redis-store-options';
import * as scripts from './scripts';

/** The part of a node-redis (v4 and newer) client or cluster the store uses. */
export interface NodeRedisLike {
  evalSha(sha1: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/** The part of an ioredis client (`Redis` or `Cluster`) the store uses. */
export interface IORedisLike {
  call(command: string, ...args: string[]): Promise<unknown>;
  evalsha(sha1: string, numkeys: number, ...keysAndArgs: string[]): Promise<unknown>;
  eval(script: string, numkeys: number, ...keysAndArgs: string[]): Promise<unknown>;
}

/**
 * The part of an `@upstash/redis` (HTTP) client the store uses. Create it with
 * `automaticDeserialization: false`: stored values must come back as the
 * strings that were written.
 */
export interface UpstashRedisLike {
  evalsha(sha1: string, keys: string[], args: string[]): Promise<unknown>;
  eval(script: string, keys: string[], args: string[]): Promise<unknown>;
}

/** A Redis client `redisStore` accepts: node-redis, ioredis or `@upstash/redis`. */
export type RedisClientLike = NodeRedisLike | IORedisLike | UpstashRedisLike;

/** Options of `redisStore`. */
export interface RedisStoreOptions {
  /**
   * Put before every key, so guardrail state is easy to find, scan and drop
   * (and cannot collide with the application's keys). Default `'ai-guardrails:'`.
   */
  prefix?: string;
  /**
   * Each operation rejects with a `StoreTimeoutError` after this many
   * milliseconds (slow or unreachable server), so a guarded call never hangs:
   * the guardrail records an `error` and fails closed, or allows with
   * `onError: 'allow'`. Default 1000.
   */
  timeoutMs?: number;
  /**
   * What the store does when the server may evict its keys: `maxmemory` set
   * and a `maxmemory-policy` other than `noeviction` (every key of this store
   * has an expiry, so `volatile-*` policies may evict them as well as
   * `allkeys-*`). An evicted rate-limit counter, token budget or pin resets
   * its limit silently. Read from `INFO memory` on first use; with a cluster
   * client, on every master (keys live on all of them).
   * - `'refuse'` (default): every operation rejects with a
   *   `GuardrailConfigError` naming the policy (guardrails record an `error`
   *   and fail closed), until the server is fixed (checked again each time);
   * - `'warn'`: `console.warn` once, then work;
   * - `'off'`: do not look (a server that refuses `INFO` in scripts).
   * A server whose `INFO` cannot be read is warned about once and used.
   */
  evictionCheck?: 'refuse' | 'warn' | 'off';
}

const timeoutMarker = 'ai-guardrails.error.StoreTimeoutError';
const timeoutSymbol = Symbol.for(timeoutMarker);

/** A store operation did not answer within the store's `timeoutMs`. */
export class StoreTimeoutError extends AISDKError {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: the marker isInstance looks for
  private readonly [timeoutSymbol] = true;

  /** The operation that timed out, e.g. `incrBy`. */
  readonly operation: string;
  /** The limit that was exceeded. */
  readonly timeoutMs: number;

  constructor({ operation, timeoutMs }: { operation: string; timeoutMs: number }) {
    super({
      name: 'AI_StoreTimeoutError',
      message: `redis store: ${operation} did not answer within ${timeoutMs} ms`,
    });
    this.operation = operation;
    this.timeoutMs = timeoutMs;
  }

  /** True for a `StoreTimeoutError`, also one from another copy of this package. */
  static override isInstance(error: unknown): error is StoreTimeoutError {
    return AISDKError.hasMarker(error, timeoutMarker);
  }
}

type Evaluate = (
  mode: 'evalsha' | 'eval',
  shaOrScript: string,
  key: string,
  args: string[],
) => Promise<unknown>;

function hasMethod(client: unknown, name: string): boolean {
  return (
    client != null &&
    (typeof client === 'object' || typeof client === 'function') &&
    typeof (client as Record<string, unknown>)[name] === 'function'
  );
}

/** Picks the calling convention by the client's shape, so neither package is a dependency. */
function evaluatorFor(client: unknown): Evaluate | undefined {
  if (hasMethod(client, 'evalSha') && hasMethod(client, 'eval')) {
    const nodeRedis = client as NodeRedisLike;
    // A single node-redis client: `sendCommand` with the raw arguments costs a
    // third of `evalSha` per call (measured, node-redis 6). A cluster's
    // `sendCommand` takes routing arguments first, so it keeps `evalSha`.
    if (hasMethod(client, 'sendCommand') && !('masters' in (client as object))) {
      const sendCommand = (
        client as { sendCommand(args: string[]): Promise<unknown> }
      ).sendCommand.bind(client);
      return (mode, shaOrScript, key, args) =>
        sendCommand([mode === 'evalsha' ? 'EVALSHA' : 'EVAL', shaOrScript, '1', key, ...args]);
    }
    return (mode, shaOrScript, key, args) => {
      const options = { keys: [key], arguments: args };
      return mode === 'evalsha'
        ? nodeRedis.evalSha(shaOrScript, options)
        : nodeRedis.eval(shaOrScript, options);
    };
  }
  if (hasMethod(client, 'call') && hasMethod(client, 'evalsha') && hasMethod(client, 'eval')) {
    const ioredis = client as IORedisLike;
    return (mode, shaOrScript, key, args) =>
      mode === 'evalsha'
        ? ioredis.evalsha(shaOrScript, 1, key, ...args)
        : ioredis.eval(shaOrScript, 1, key, ...args);
  }
  if (hasMethod(client, 'evalsha') && hasMethod(client, 'eval')) {
    const upstash = client as UpstashRedisLike;
    return (mode, shaOrScript, key, args) =>
      mode === 'evalsha'
        ? upstash.evalsha(shaOrScript, [key], args)
        : upstash.eval(shaOrScript, [key], args);
  }
  return undefined;
}

/** A server the eviction check reads: a cluster master (named by its address) or the client's server. */
interface EvictionCheckTarget {
  address?: string;
  /** Runs `MEMORY_INFO` on this server alone. */
  memoryInfo(): Promise<unknown>;
}

/**
 * The masters of a cluster client, each with a way to run a script on it
 * alone (no key: `EVAL script 0` on that node's own connection); `undefined`
 * for a client of one server. ioredis' `Cluster` (`isCluster`, `nodes('master')`)
 * and node-redis' `createCluster()` (`masters`, `nodeClient(master)`) are
 * recognised by their shape, as the clients are.
 */
async function clusterMastersOf(client: unknown): Promise<EvictionCheckTarget[] | undefined> {
  const script = scripts.MEMORY_INFO;
  if (hasMethod(client, 'nodes') && (client as { isCluster?: unknown }).isCluster === true) {
    const nodes = (client as { nodes(role: string): unknown[] }).nodes('master');
    return nodes.map(node => {
      const { host, port } =
        (node as { options?: { host?: unknown; port?: unknown } }).options ?? {};
      return {
        address: `${String(host)}:${String(port)}`,
        memoryInfo: () => (node as IORedisLike).eval(script, 0),
      };
    });
  }
  if (hasMethod(client, 'nodeClient') && 'masters' in (client as object)) {
    const cluster = client as {
      masters: Array<{ host?: unknown; port?: unknown }>;
      nodeClient(master: unknown): unknown;
    };
    return cluster.masters.map(master => ({
      address: `${String(master.host)}:${String(master.port)}`,
      memoryInfo: async () => {
        const node = (await cluster.nodeClient(master)) as NodeRedisLike;
        return node.eval(script, { keys: [], arguments: [] });
      },
    }));
  }
  return undefined;
}

async function sha1Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-1', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), byte => byte.toString(16).padStart(2, '0')).join('');
}

function isNoScript(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return message.startsWith('NOSCRIPT') || message.includes('NOSCRIPT ');
}

/**
 * What an error says of a reply it did not expect: its type and length,
 * never the reply. Its JSON was the message, which a guardrail's `error`
 * record carries as its reason: a server answering garbage (a proxy,
 * another service on the port) put what it answered, a stored pseudonym
 * original or a 10 MB string, in every record and log (round 39).
 */
function describeReply(reply: unknown): string {
  if (typeof reply === 'string') return `a string of ${reply.length} characters`;
  if (reply instanceof Uint8Array) return `${reply.length} bytes`;
  if (Array.isArray(reply)) return `an array of ${reply.length} item(s)`;
  if (reply === null || reply === undefined) return String(reply);
  return typeof reply === 'object' ? 'an object' : `a ${typeof reply}`;
}

function toInteger(reply: unknown, operation: string): number {
  const value = typeof reply === 'number' ? reply : Number(reply);
  if (!Number.isFinite(value)) {
    throw new Error(`redis store: ${operation} returned ${describeReply(reply)}, not a number`);
  }
  return value;
}

function toOptionalString(reply: unknown, operation: string): string | undefined {
  if (reply == null) return undefined;
  if (typeof reply === 'string') return reply;
  if (reply instanceof Uint8Array) return new TextDecoder().decode(reply);
  throw new Error(
    `redis store: ${operation} returned a ${typeof reply}, not the string that was stored ` +
      '(for @upstash/redis, create the client with automaticDeserialization: false)',
  );
}

/**
 * The JSON text a list script answered (`undefined` for a missing key), or
 * the `StoreListError` of its refusal: `[1, stored]` a list over
 * `MAX_LIST_BYTES`, `[2, 1]` a stored list that is no UTF-8.
 */
function listReply(reply: unknown, operation: 'addToList' | 'pushToList'): string | undefined {
  if (Array.isArray(reply) && reply.length === 2) {
    const [code, stored] = reply.map(Number);
    if ((code === 1 || code === 2) && (stored === 0 || stored === 1)) {
      throw new StoreListError({
        store: 'redis store',
        operation,
        reason: code === 1 ? 'too-long' : 'invalid-utf8',
        stored: stored === 1,
      });
    }
  }
  return toOptionalString(reply, operation);
}

/**
 * The value `get` or `setIfAbsent` answered, or an error for `{ 2, 1 }`: a
 * stored value that is no UTF-8 (round 30; a client read it as U+FFFD
 * silently, so a value read back differed from the one stored, as list
 * reads refuse since round 29). Neither the key nor the value is named.
 */
function valueReply(reply: unknown, operation: 'get' | 'setIfAbsent'): string | undefined {
  if (Array.isArray(reply) && reply.length === 2 && Number(reply[0]) === 2) {
    throw new Error(
      `redis store: ${operation} found a value that is no valid UTF-8 at its key (bytes another client wrote); not read`,
    );
  }
  return toOptionalString(reply, operation);
}

function checkInteger(value: number, name: string, operation: string) {
  if (!Number.isSafeInteger(value)) {
    throw new TypeError(`redis store: ${operation} needs an integer ${name}, received ${value}`);
  }
}

function ttlArgument(ttlMs: number, operation: string): string {
  checkStoreTtl(ttlMs, 'redis store', operation);
  return String(Math.ceil(ttlMs));
}

/**
 * A `Store` in Redis, for state shared by many server instances (serverless
 * functions, several Node processes): session token budgets, rate limits,
 * judge caches, pseudonym vaults.
 *
 * Takes a connected client you own: node-redis v4+ (`createClient()` /
 * `createCluster()`), ioredis (`new Redis()` / `new Cluster()`), or
 * `@upstash/redis` created with `automaticDeserialization: false`. The kind is
 * recognised by its methods; neither package is a dependency of this one.
 *
 * Every operation is one Lua script (`EVALSHA`, falling back to `EVAL` once
 * when the server does not have it cached), so a read-modify-write such as
 * `incrByCapped` is atomic across instances and costs one round trip. Every
 * key gets `prefix` and an expiry. Every operation rejects with a
 * `StoreTimeoutError` after `timeoutMs`, so a slow or unreachable Redis makes
 * guardrails fail closed (or allow, with `onError: 'allow'`) instead of hanging.
 *
 * @example
 * import { createClient } from 'redis';
 * import { redisStore } from 'ai-guardrails/redis';
 *
 * const client = await createClient({ url: process.env.REDIS_URL }).connect();
 * const store = redisStore(client, { prefix: 'my-app:guardrails:', timeoutMs: 300 });
 * const limit = rateLimit({ limit: 20, windowMs: 60_000, store });
 */
export function redisStore(client: RedisClientLike, options?: RedisStoreOptions): Store {
  const { issues, read } = readOptions(options, {
    prefix: 'redisStore',
    root: 'redisStore.options',
    shape: redisStoreOptionShape,
  });
  let detected: Evaluate | undefined;
  let clientRead = true;
  try {
    detected = evaluatorFor(client);
  } catch (error) {
    // A getter or a Proxy trap of the client: named by kind, never its message.
    clientRead = false;
    notReadIssue(issues, 'redisStore.client', error);
  }
  if (!detected && clientRead) {
    issues.unshift({
      path: 'redisStore.client',
      // Described, never echoed: a client object can hold its connection URL and password.
      value: client == null ? client : new NotShown(`(${typeof client} without eval and evalsha)`),
      expected:
        'a node-redis (v4+) client, an ioredis client or an @upstash/redis client (with eval and evalsha)',
    });
  }
  if (!detected || issues.length > 0 || read === undefined) throw new GuardrailConfigError(issues);
  const {
    prefix = 'ai-guardrails:',
    timeoutMs = 1_000,
    evictionCheck = 'refuse',
  } = read as RedisStoreOptions;

  const evaluate: Evaluate = detected;
  // Hashes are computed once, lazily (Web Crypto: no node: import, edge-safe).
  const shas = new Map<string, Promise<string>>();
  function shaOf(script: string): Promise<string> {
    let sha = shas.get(script);
    if (!sha) {
      sha = sha1Hex(script);
      shas.set(script, sha);
    }
    return sha;
  }

  async function runScript(script: string, key: string, args: string[]): Promise<unknown> {
    // A key past MAX_STORE_KEY_CHARS (an id the client chose) is kept under a digest.
    // No hash tag a client wrote: Redis Cluster hashes the whole key.
    const prefixed = prefix + withoutHashTag(await storeKeyOf(key));
    const sha = await shaOf(script);
    try {
      return await evaluate('evalsha', sha, prefixed, args);
    } catch (error) {
      if (!isNoScript(error)) throw error;
      return evaluate('eval', script, prefixed, args);
    }
  }

  function run(operation: string, script: string, key: string, args: string[]): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new StoreTimeoutError({ operation, timeoutMs })),
        timeoutMs,
      );
      (evictionSafe
        ? runScript(script, key, args)
        : checkEviction().then(() => runScript(script, key, args))
      ).then(
        value => {
          clearTimeout(timer);
          resolve(value);
        },
        error => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }

  /** True once the server is known not to evict (or the check is off or was warned about). */
  let evictionSafe = evictionCheck === 'off';
  let pendingCheck: Promise<void> | undefined;

  /**
   * Reads `maxmemory` and `maxmemory-policy` before the first operation (one
   * check at a time, inside the operation's `timeoutMs`; a refusal is not
   * remembered, so fixing the server takes effect on the next operation).
   */
  function checkEviction(): Promise<void> {
    pendingCheck ??= (async () => {
      try {
        // A cluster keeps this store's keys on every master: each one is read.
        let servers: EvictionCheckTarget[] | undefined;
        try {
          servers = await clusterMastersOf(client);
        } catch {
          return; // a cluster that cannot list its masters now decides nothing (as a lost connection)
        }
        if (servers?.length === 0) {
          // A cluster client lists its masters once it is ready (an ioredis
          // Cluster's first operation often comes before): a keyed command
          // waits for that, then the masters are read. Read from the one
          // master of that key, a cluster whose others evict passed for good.
          try {
            await runScript(scripts.MEMORY_INFO, 'eviction-check', []);
            servers = await clusterMastersOf(client);
          } catch {
            return; // decides nothing, as above
          }
          if (!servers || servers.length === 0) return;
        }
        if (!servers) {
          servers = [{ memoryInfo: () => runScript(scripts.MEMORY_INFO, 'eviction-check', []) }];
        }
        const readings: Array<{ address?: string; info: string | undefined }> = [];
        for (const server of servers) {
          let info: string | undefined;
          try {
            info = toOptionalString(await server.memoryInfo(), 'evictionCheck');
          } catch (error) {
            // A server that forbids INFO in scripts cannot tell (warned about
            // below): a command disabled or renamed, or an ACL without INFO
            // (`-@dangerous`: "The user executing the script can't run this
            // command"). Any other failure (a lost connection) decides nothing:
            // the operation runs and meets it, and the next one checks again.
            const message = error instanceof Error ? error.message : String(error);
            if (
              !/not allowed|unknown command|NOPERM|no permissions|can't run this command|disabled/i.test(
                message,
              )
            ) {
              return;
            }
          }
          readings.push({ ...(server.address !== undefined && { address: server.address }), info });
        }
        let evicting: { address?: string; policy: string; maxmemory: number } | undefined;
        // Every master is read before a verdict: one that cannot tell must not
        // pass a cluster whose next master evicts.
        let unreadable = false;
        for (const { address, info } of readings) {
          const policy = info?.match(/^maxmemory_policy:(\S+)/m)?.[1];
          const maxmemory = Number(info?.match(/^maxmemory:(\d+)/m)?.[1]);
          if (policy === undefined || !Number.isFinite(maxmemory)) unreadable = true;
          else if (maxmemory !== 0 && policy !== 'noeviction') {
            evicting ??= { ...(address !== undefined && { address }), policy, maxmemory };
          }
        }
        if (!evicting) {
          if (unreadable) {
            console.warn(
              "ai-guardrails redisStore: could not read the server's maxmemory-policy (INFO memory); make sure it is noeviction, or Redis may evict counters and budgets under memory pressure.",
            );
          }
          evictionSafe = true;
          return;
        }
        const { address, policy, maxmemory } = evicting;
        if (evictionCheck === 'warn') {
          console.warn(
            address === undefined
              ? `ai-guardrails redisStore: the server's maxmemory-policy is ${policy} with maxmemory set (${maxmemory} bytes): Redis may evict this store's keys (counters, budgets, pins), which resets limits silently. Use noeviction.`
              : `ai-guardrails redisStore: the maxmemory-policy of cluster master ${address} is ${policy} with maxmemory set (${maxmemory} bytes): Redis may evict this store's keys (counters, budgets, pins), which resets limits silently. Use noeviction on every master.`,
          );
          evictionSafe = true;
          return;
        }
        throw new GuardrailConfigError({
          path: 'redisStore (server maxmemory-policy)',
          value: policy,
          expected:
            address === undefined
              ? `noeviction, or maxmemory 0: with maxmemory set (${maxmemory} bytes) Redis may evict this store's keys (counters, budgets, pins), which resets limits silently; or redisStore({ evictionCheck: 'warn' | 'off' })`
              : `noeviction, or maxmemory 0, on every cluster master: master ${address} has maxmemory set (${maxmemory} bytes), so Redis may evict this store's keys (counters, budgets, pins), which resets limits silently; or redisStore({ evictionCheck: 'warn' | 'off' })`,
        });
      } finally {
        pendingCheck = undefined;
      }
    })();
    return pendingCheck;
  }

  return {
    async incrBy(key, amount, ttlMs) {
      checkInteger(amount, 'amount', 'incrBy');
      const ttl = ttlArgument(ttlMs, 'incrBy');
      return toInteger(await run('incrBy', scripts.INCR_BY, key, [String(amount), ttl]), 'incrBy');
    },
    async incrByCapped(key, amount, cap, ttlMs): Promise<CappedIncrement> {
      checkInteger(amount, 'amount', 'incrByCapped');
      checkInteger(cap, 'cap', 'incrByCapped');
      const ttl = ttlArgument(ttlMs, 'incrByCapped');
      const reply = await run('incrByCapped', scripts.INCR_BY_CAPPED, key, [
        String(amount),
        String(cap),
        ttl,
      ]);
      if (!Array.isArray(reply) || reply.length !== 3) {
        throw new Error(
          `redis store: incrByCapped returned ${describeReply(reply)}, not [applied, value, resetInMs]`,
        );
      }
      return {
        applied: toInteger(reply[0], 'incrByCapped') === 1,
        value: toInteger(reply[1], 'incrByCapped'),
        resetInMs: toInteger(reply[2], 'incrByCapped'),
      };
    },
    async get(key) {
      return valueReply(await run('get', scripts.GET, key, []), 'get');
    },
    async set(key, value, ttlMs) {
      await run('set', scripts.SET, key, [value, ttlArgument(ttlMs, 'set')]);
    },
    async setIfAbsent(key, value, ttlMs) {
      const ttl = ttlArgument(ttlMs, 'setIfAbsent');
      const stored = valueReply(
        await run('setIfAbsent', scripts.SET_IF_ABSENT, key, [value, ttl]),
        'setIfAbsent',
      );
      return stored ?? value;
    },
    async touch(key, value, ttlMs) {
      const ttl = ttlArgument(ttlMs, 'touch');
      return toInteger(await run('touch', scripts.TOUCH, key, [value, ttl]), 'touch') === 1;
    },
    async addToList(key, item, maxItems, ttlMs) {
      checkListArguments(item, maxItems, 'redis store');
      const ttl = ttlArgument(ttlMs, 'addToList');
      const stored = listReply(
        await run('addToList', scripts.ADD_TO_LIST, key, [item, String(maxItems), ttl]),
        'addToList',
      );
      return stored === undefined ? undefined : stringsOfList(stored);
    },
    async pushToList(key, item, maxItems, ttlMs) {
      checkListArguments(item, maxItems, 'redis store', 'pushToList');
      const ttl = ttlArgument(ttlMs, 'pushToList');
      const stored = listReply(
        await run('pushToList', scripts.PUSH_TO_LIST, key, [item, String(maxItems), ttl]),
        'pushToList',
      );
      return stringsOfList(stored);
    },
    async delete(key) {
      await run('delete', scripts.DELETE, key, []);
    },
  };
}
