import { GuardrailConfigError } from '../core/errors';
import { nonEmptyString, storeTtl, validateOptions } from '../core/options';
import { sha256Hex } from '../core/sha256-hex';
import type { Store } from '../store/store';
import { StoreListError } from '../store/store-list-error';
import { overListBytes, pushedList, stringsOfList } from '../store/string-list';

/** Name of the record of a pinned tool whose definition changed. */
export const TOOL_DEFINITION_CHANGED = 'tool-definition-changed';
/** Name of the record of a pin that could not be checked (the store failed). */
export const TOOL_DEFINITION_PIN = 'tool-definition-pin';
/** Name of the record of a tool held because it is new on a server whose tools were pinned before. */
export const TOOL_DEFINITION_NEW = 'tool-definition-new';

/** A definition approved ahead of time, in code or configuration. */
export interface ApprovedToolDefinition {
  /** The tool's name. */
  name: string;
  /** Its definition hash (`toolDefinitionHash`, or `info.definitionHash` of a `tool-definition-changed` record). */
  hash: string;
  /** The `serverId` its tools were guarded with, for MCP tools. */
  serverId?: string;
}

/** Options of `pinToolDefinitions`. */
export interface PinToolDefinitionsOptions {
  /**
   * Pins are kept per scope and tool name: give each application (or
   * tenant) sharing a store its own scope. Tools guarded with a `serverId`
   * are pinned in `"<scope>:<serverId>"`, so a scope may not hold `:`
   * (a `GuardrailConfigError`: it would spell another scope's server).
   * Default `'default'`.
   */
  scope?: string;
  /**
   * Definitions approved in code or configuration. A tool with an entry
   * here is pinned to the listed hashes (and those approved in the store)
   * from its first sight on: a definition that differs is never pinned by
   * being seen first.
   */
  approved?: readonly ApprovedToolDefinition[];
  /**
   * How long a pin lives in the store without being seen. Seeing it again
   * renews it (at most once a day per process). Default 365 days.
   */
  ttlMs?: number;
  /**
   * A tool that appears on a server (tools guarded with a `serverId`) after
   * that server's tools were first pinned: `'hold'` (default) keeps it from
   * the model, as a changed definition, with a `tool-definition-new` record,
   * until its hash is approved (`approveToolDefinition`, or `approved`);
   * `'pin'` pins it on first sight and gives it to the model at once (the
   * behaviour before round 22). The tools a server has when it is first
   * seen (all those `guardTools` wrapped with its `serverId`, active in the
   * call or not) are pinned on sight. Tools without a `serverId` are yours,
   * shipped in code: always pinned on first sight.
   */
  newTools?: 'hold' | 'pin';
}

const PIN_PREFIX = 'ai-guardrails:tool-pin:';
/**
 * Hashes approved by `approveToolDefinition`, apart from first-sight pins
 * (round 24): a pin is what some instance saw first, which must not count
 * as a review. A tool that only an approval may let through (new on a
 * server with `newTools: 'hold'`, or listed in `approved`) reads these only.
 */
const APPROVAL_PREFIX = 'ai-guardrails:tool-approved:';
/**
 * Tools whose name or serverId has the shape of a record's cut (round 30),
 * marked when the middleware checks them: such a name is a real one, which
 * `approveToolDefinition` and `forgetToolDefinitionPin` take.
 */
const CUT_SHAPED_PREFIX = 'ai-guardrails:tool-cut-shaped:';
/** The tools a server had when it was first seen (tags of their names), per pin scope. */
const SERVER_PREFIX = 'ai-guardrails:tool-pin-server:';
/** Most tool names a server's first sight lists; the rest are pinned on that sight all the same. */
const MAX_SERVER_TOOLS = 4_096;
/** Hex characters of a name's tag in a server's list (96 bits). */
const NAME_TAG_LENGTH = 24;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Default life of a pin that is not seen again. */
export const DEFAULT_PIN_TTL_MS = 365 * DAY_MS;
/** Most hashes kept approved per tool: the oldest approvals go first. */
const MAX_APPROVED_HASHES = 16;
const HASH_PATTERN = /^[0-9a-f]{64}$/;

/** The scope pins of a tool live in: the middleware's scope, and the tool's server. */
export function pinScopeOf(scope: string, serverId: string | undefined): string {
  return serverId === undefined ? scope : `${scope}:${serverId}`;
}

async function pinKey(scope: string, name: string): Promise<string> {
  // Hashed: a server chooses its tool names, and they need not be short or printable.
  return `${PIN_PREFIX}${await sha256Hex(JSON.stringify([scope, name]))}`;
}

/** Name tags computed lately: a server's whole list is tagged on every call. */
const nameTags = new Map<string, string>();

/** A tool name as a server's list holds it: a prefix of its pin key's hash. */
async function nameTag(scope: string, name: string): Promise<string> {
  const id = JSON.stringify([scope, name]);
  const known = nameTags.get(id);
  if (known !== undefined) return known;
  const tag = (await sha256Hex(id)).slice(0, NAME_TAG_LENGTH);
  // A server chooses its names: long ones are not kept.
  if (id.length > 1_000) return tag;
  if (nameTags.size >= 10_000) nameTags.clear();
  nameTags.set(id, tag);
  return tag;
}

async function approvalKey(scope: string, name: string): Promise<string> {
  return `${APPROVAL_PREFIX}${await sha256Hex(JSON.stringify([scope, name]))}`;
}

/** The key of a server's list: of its unnamed groups, or of one named group. */
async function serverKey(scope: string, group?: string): Promise<string> {
  const id = group === undefined ? [scope] : [scope, group];
  return `${SERVER_PREFIX}${await sha256Hex(JSON.stringify(id))}`;
}

/**
 * A stored list of hashes or tags; a corrupt one approves (or lists)
 * nothing: every definition is a change until approved again. A text over
 * `MAX_LIST_BYTES` is a `StoreListError`, on every store (round 30): the
 * list stores refused it since round 29, but these reads (and the read and
 * write of a custom store without `pushToList` / `addToList`) parsed a
 * 10 MB list another client wrote, on every call.
 */
function parseHashes(raw: string | undefined, operation: string): string[] {
  if (raw !== undefined && overListBytes(raw)) {
    throw new StoreListError({ store: 'tool pins', operation, reason: 'too-long', stored: true });
  }
  return stringsOfList(raw);
}

function checkHashArguments(
  scope: unknown,
  name: unknown,
  hash: unknown,
  path: string,
  checkHash = true,
): void {
  const issues = [];
  if (typeof scope !== 'string' || scope === '') {
    issues.push({ path: `${path}.scope`, value: scope, expected: 'a non-empty string' });
  }
  if (typeof name !== 'string' || name === '') {
    issues.push({ path: `${path}.name`, value: name, expected: 'a non-empty string' });
  }
  if (checkHash && (typeof hash !== 'string' || !HASH_PATTERN.test(hash))) {
    issues.push({
      path: `${path}.hash`,
      value: hash,
      expected: 'a SHA-256 hex digest (64 lowercase hex characters) from toolDefinitionHash',
    });
  }
  if (issues.length > 0) throw new GuardrailConfigError(issues);
}

/** The options of `approveToolDefinition` and `forgetToolDefinitionPin`. */
const pinOptionShape = { ttlMs: storeTtl, serverGroup: nonEmptyString };

/**
 * A pin function's options read once and checked (`validateOptions`):
 * destructured from the caller's object, a getter that threw went out raw.
 */
function pinOptions(
  options: { ttlMs?: number; serverGroup?: string } | undefined,
  path: 'approveToolDefinition' | 'forgetToolDefinitionPin',
): { ttlMs?: number; serverGroup?: string } {
  const shape = path === 'approveToolDefinition' ? { ttlMs: pinOptionShape.ttlMs } : pinOptionShape;
  return validateOptions(options, { prefix: `${path}.options`, root: `${path}.options`, shape });
}

/**
 * Whether `value` reads as a record's cut of a longer one: records cut tool
 * names and serverIds over 64 characters to 64 (63 before half of a
 * surrogate pair), `…#` and 12 hex digits of a digest (round 28; before,
 * `…` alone). Approving with the cut approved nothing, silently (round
 * 26). A whole name or serverId of that shape is refused too.
 */
function looksCut(value: string): boolean {
  if ((value.length === 65 || value.length === 64) && value.endsWith('…')) return true;
  return (value.length === 78 || value.length === 77) && /…#[0-9a-f]{12}$/.test(value);
}

/** Whether a pin scope's serverId or a tool name has the shape of a record's cut. */
function cutShaped(scope: string, name: string): boolean {
  const colon = scope.indexOf(':');
  return (colon !== -1 && looksCut(scope.slice(colon + 1))) || looksCut(name);
}

async function cutShapedKey(scope: string, name: string): Promise<string> {
  return `${CUT_SHAPED_PREFIX}${await sha256Hex(JSON.stringify([scope, name]))}`;
}

/**
 * A `GuardrailConfigError` for a scope or name as a record cut it:
 * approving (or forgetting) with it would touch nothing. A tool whose real
 * name or serverId has that shape (a legal MCP name, 77 characters ending
 * `…#` and 12 hex digits) is taken once the middleware has checked it
 * (round 30: it was refused, and the tool could never be approved).
 */
async function checkNotCut(store: Store, scope: string, name: string, path: string) {
  if (!cutShaped(scope, name)) return;
  if ((await store.get(await cutShapedKey(scope, name))) !== undefined) return;
  const issues = [];
  const colon = scope.indexOf(':');
  if (colon !== -1 && looksCut(scope.slice(colon + 1))) {
    issues.push({
      path: `${path}.scope`,
      value: scope,
      expected:
        'the whole pin scope, "<scope>:<serverId>" with the serverId the tools were guarded with: a record\'s info.scope cuts a serverId over 64 characters to 64, "…#" and a digest, and no pin lives there',
    });
  }
  if (looksCut(name)) {
    issues.push({
      path: `${path}.name`,
      value: name,
      expected:
        'the whole tool name: a record\'s toolName cuts a name over 64 characters to 64, "…#" and a digest, and no pin lives there',
    });
  }
  if (issues.length > 0) throw new GuardrailConfigError(issues);
}

/**
 * Approves a tool definition: calls whose definition of tool `name` in
 * `scope` has this hash pass the pin from now on, on every instance sharing
 * `store`, next to the hashes approved before (up to 16 per tool, the
 * oldest dropped first). Approvals are kept apart from first-sight pins
 * (round 24): a tool new on a server, or listed in `approved`, passes
 * with an approval only, never with what some instance saw first. `scope` is the `info.scope` of the
 * `tool-definition-changed` record (the middleware's pin scope, with
 * `":<serverId>"` for tools guarded with a `serverId`); `hash` is its
 * `info.definitionHash`, or `toolDefinitionHash(definition)` of the
 * definition you reviewed.
 *
 * One atomic step with `store.pushToList` (both stores here have it; round
 * 26: a read and a write, so two approvals of one tool at once kept one).
 * A custom store without it is read and written: two approvals of the
 * same tool at the same moment may keep only one; approve again if a
 * definition still trips.
 *
 * @throws GuardrailConfigError for an empty scope or name, a hash that is
 * not a SHA-256 hex digest, or a name or serverId as a record cuts it (64
 * characters, `…#` and 12 hex digits: pass the whole one).
 */
export async function approveToolDefinition(
  store: Store,
  scope: string,
  name: string,
  hash: string,
  options?: { ttlMs?: number },
): Promise<void> {
  checkHashArguments(scope, name, hash, 'approveToolDefinition');
  const { ttlMs = DEFAULT_PIN_TTL_MS } = pinOptions(options, 'approveToolDefinition');
  await checkNotCut(store, scope, name, 'approveToolDefinition');
  const key = await approvalKey(scope, name);
  if (store.pushToList) {
    await store.pushToList(key, hash, MAX_APPROVED_HASHES, ttlMs);
    return;
  }
  const hashes = pushedList(
    parseHashes(await store.get(key), 'approveToolDefinition'),
    hash,
    MAX_APPROVED_HASHES,
  );
  await store.set(key, JSON.stringify(hashes), ttlMs);
}

/**
 * Forgets the pin and the approvals of tool `name` in `scope`: the next definition seen is
 * pinned as if for the first time (on a server's scope too: the name joins
 * the tools the server is known to have, so it is not held as new). For a
 * tool that was retired or renamed. The name joins the list atomically with
 * `store.addToList` (both stores here have it; a custom store without it
 * is read and written, and two forgets of one group at once may keep one
 * name). A list of 4,096 names takes no more: the tool is held as new
 * until approved. A name or serverId as a record cuts it (64 characters,
 * `…#` and 12 hex digits) is a `GuardrailConfigError`: pass the whole one.
 */
export async function forgetToolDefinitionPin(
  store: Store,
  scope: string,
  name: string,
  options?: {
    ttlMs?: number;
    /** The tool's `guardTools` `serverGroup`, if it has one: its name joins that group's list. */
    serverGroup?: string;
  },
): Promise<void> {
  checkHashArguments(scope, name, undefined, 'forgetToolDefinitionPin', false);
  const { ttlMs = DEFAULT_PIN_TTL_MS, serverGroup } = pinOptions(
    options,
    'forgetToolDefinitionPin',
  );
  await checkNotCut(store, scope, name, 'forgetToolDefinitionPin');
  const key = await serverKey(scope, serverGroup);
  const tag = await nameTag(scope, name);
  if (store.addToList) {
    // One atomic step (round 25: two forgets of one group, each a read and
    // a write, kept one name: the other tool was held as new).
    await store.addToList(key, tag, MAX_SERVER_TOOLS, ttlMs);
  } else {
    // A custom store without `addToList`: a read and a write, as before.
    const listed = await store.get(key);
    if (listed !== undefined) {
      const tags = parseHashes(listed, 'forgetToolDefinitionPin');
      if (!tags.includes(tag) && tags.length < MAX_SERVER_TOOLS) {
        tags.push(tag);
        await store.set(key, JSON.stringify(tags), ttlMs);
      }
    }
  }
  await store.delete(await pinKey(scope, name));
  await store.delete(await approvalKey(scope, name));
}

/** What checking one definition against its pin found. */
export type PinCheck =
  | { status: 'pinned' | 'match' | 'new'; scope: string }
  | { status: 'changed'; scope: string; pinned: string[] };

/** The tools a server was first seen with (tags of their names), or undefined when new tools are pinned on sight. */
export type ServerSight = ReadonlySet<string> | undefined;

/**
 * The pins of one middleware: `check` pins a definition hash the first time
 * a tool is seen (atomically: `setIfAbsent`, so of two instances seeing two
 * different definitions first, one wins and the other's is a change) and
 * says whether a later definition matches an approved hash.
 */
export function toolDefinitionPins({
  store,
  scope = 'default',
  approved = [],
  ttlMs = DEFAULT_PIN_TTL_MS,
  newTools = 'hold',
}: PinToolDefinitionsOptions & { store: Store }) {
  const approvedByTool = new Map<string, Set<string>>();
  for (const entry of approved) {
    const key = JSON.stringify([pinScopeOf(scope, entry.serverId), entry.name]);
    let hashes = approvedByTool.get(key);
    if (!hashes) {
      hashes = new Set();
      approvedByTool.set(key, hashes);
    }
    hashes.add(entry.hash);
  }
  // When each pin was last renewed by this process; bounded, cleared when full.
  const renewed = new Map<string, number>();
  const renewEveryMs = Math.min(DAY_MS, ttlMs / 2);

  async function renew(key: string, value: string): Promise<void> {
    const now = Date.now();
    if ((renewed.get(key) ?? 0) + renewEveryMs > now) return;
    if (renewed.size >= 10_000) renewed.clear();
    renewed.set(key, now);
    await store.touch(key, value, ttlMs);
  }

  // The `guardTools` listings whose tools were pinned as listed (`pinListed`), by their serverTools array.
  const pinnedListings = new WeakSet<object>();
  // Definitions this process pinned as listed (scope, name, hash): an app
  // that lists a server's tools on every request pins each unchanged one
  // once, not once a request. Bounded, cleared when full.
  const pinnedAsListed = new Set<string>();

  return {
    /** Whether the tools of this listing were pinned as listed already. */
    listingPinned(listing: object): boolean {
      return pinnedListings.has(listing);
    },

    /**
     * Pins the definitions a server listed (`guardTools` was given them)
     * that a call does not offer the model: each `setIfAbsent`, so a tool
     * is pinned as the server listed it, and a definition that differs when
     * a call first offers the tool is a change. A tool new on the server
     * (not in `listed`, its first sight) or pinned by configuration is not
     * pinned here. Once per listing; rejects when the store fails (the
     * listing is tried again by the next call).
     */
    async pinListed(
      listing: object,
      serverId: string,
      definitions: readonly { name: string; hash: string }[],
      listed: ServerSight,
    ): Promise<void> {
      if (pinnedListings.has(listing)) return;
      const pinScope = pinScopeOf(scope, serverId);
      await Promise.all(
        definitions.map(async ({ name, hash }) => {
          if (approvedByTool.has(JSON.stringify([pinScope, name]))) return;
          if (listed !== undefined && !listed.has(await nameTag(pinScope, name))) return;
          const key = await pinKey(pinScope, name);
          if (pinnedAsListed.has(`${key}:${hash}`)) return;
          await store.setIfAbsent(key, JSON.stringify([hash]), ttlMs);
          if (pinnedAsListed.size >= 10_000) pinnedAsListed.clear();
          pinnedAsListed.add(`${key}:${hash}`);
        }),
      );
      pinnedListings.add(listing);
    },

    /**
     * The tools server `serverId` had when it was first seen (tags of their
     * names): on its first sight, `names` (atomically: `setIfAbsent`, so of
     * two instances one list wins); after it, the list stored then. With a
     * `group` (`guardTools`' `serverGroup`), the first sight of that group
     * of the server's tools, apart from the others: a group the app names is
     * first seen when it is first offered, whenever that is (round 24: a
     * group made after the server's first sight was held as new). Undefined
     * with `newTools: 'pin'`. Rejects when the store fails.
     */
    async server(serverId: string, names: readonly string[], group?: string): Promise<ServerSight> {
      if (newTools === 'pin') return undefined;
      const pinScope = pinScopeOf(scope, serverId);
      const key = await serverKey(pinScope, group);
      const tags = await Promise.all(
        [...new Set(names)].slice(0, MAX_SERVER_TOOLS).map(name => nameTag(pinScope, name)),
      );
      const first = JSON.stringify(tags.sort());
      const stored = await store.setIfAbsent(key, first, ttlMs);
      if (stored !== first) await renew(key, stored);
      // A corrupt list holds nothing: every tool not pinned yet is held.
      return new Set(parseHashes(stored, 'server'));
    },

    /**
     * Checks (and on first sight records) the definition hash of tool
     * `name`; rejects when the store fails. With `listed` (a server's
     * `server()` answer), a tool the server did not have at its first sight
     * and that has no pin is `new`: nothing is recorded for it.
     */
    async check(
      name: string,
      serverId: string | undefined,
      hash: string,
      listed?: ServerSight,
    ): Promise<PinCheck> {
      const pinScope = pinScopeOf(scope, serverId);
      const key = await pinKey(pinScope, name);
      if (cutShaped(pinScope, name)) {
        // Rare: marks the name as a real one, for approveToolDefinition.
        await store.setIfAbsent(await cutShapedKey(pinScope, name), '1', ttlMs);
      }
      /** The store's approvals of this tool: a match, or the hashes approved. */
      const approvals = async (): Promise<PinCheck | string[]> => {
        const approvedKey = await approvalKey(pinScope, name);
        const stored = await store.get(approvedKey);
        const hashes = parseHashes(stored, 'check');
        if (!hashes.includes(hash)) return hashes;
        await renew(approvedKey, stored!);
        return { status: 'match', scope: pinScope };
      };
      const configured = approvedByTool.get(JSON.stringify([pinScope, name]));
      if (configured) {
        if (configured.has(hash)) return { status: 'match', scope: pinScope };
        // Pinned by configuration: only the store's approvals may add to it,
        // never a first sight (this instance's, or one of another instance
        // without this configuration).
        const approved = await approvals();
        if (!Array.isArray(approved)) return approved;
        return { status: 'changed', scope: pinScope, pinned: [...configured, ...approved] };
      }
      if (listed !== undefined && !listed.has(await nameTag(pinScope, name))) {
        // New on a server seen before: only an approval lets it through,
        // never a sight (round 24: a `newTools: 'pin'` instance's first-sight
        // pin read as an approval here).
        const approved = await approvals();
        if (!Array.isArray(approved)) return approved;
        if (approved.length === 0) return { status: 'new', scope: pinScope };
        return { status: 'changed', scope: pinScope, pinned: approved };
      }
      const first = JSON.stringify([hash]);
      const stored = await store.setIfAbsent(key, first, ttlMs);
      if (stored === first) return { status: 'pinned', scope: pinScope };
      const hashes = parseHashes(stored, 'check');
      if (hashes.includes(hash)) {
        await renew(key, stored);
        return { status: 'match', scope: pinScope };
      }
      const approved = await approvals();
      if (!Array.isArray(approved)) return approved;
      return { status: 'changed', scope: pinScope, pinned: [...hashes, ...approved] };
    },
  };
}

/** The pins of one middleware, as `toolDefinitionPins` builds them. */
export type ToolDefinitionPins = ReturnType<typeof toolDefinitionPins>;
