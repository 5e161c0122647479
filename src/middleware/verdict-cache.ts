import type { JSONValue } from '@ai-sdk/provider';
import { sha256Hex } from '../core/sha256-hex';
import type { Guardrail, GuardrailKind, GuardrailMetadata, GuardrailRecord } from '../core/types';
import type { Store } from '../store/store';
import { MAX_STORED_JSON_CHARS, readStoredJson } from '../store/stored-json';

/** A remembered verdict: what the guardrail decided about one text. */
export type CachedVerdict =
  | { action: 'allow' }
  | { action: 'modify'; content: string }
  | {
      action: 'block';
      message?: string;
      reason?: string;
      severity?: string;
      info?: JSONValue;
    };

/** Where a guardrail's verdict on a text is remembered, when it may be. */
export interface VerdictSlot {
  key: string;
}

/** Options of `verdictCache`. */
export interface VerdictCacheOptions {
  /** Where verdicts live. */
  store: Store;
  /** How long a verdict is remembered. */
  ttlMs: number;
  /** Prefix of the store keys. */
  prefix?: string;
  /**
   * The guardrails whose verdicts this cache keeps, in declared order. Two
   * different guardrails with one name and fingerprint (a custom guardrail
   * built twice with different settings and no `fingerprint`) get their own
   * slots, in that order: otherwise the second would take the first's
   * verdict and never judge.
   */
  guardrails?: readonly Guardrail[];
}

/**
 * What a text was judged as, in the key: a verdict on a user text is not one
 * on the same words in an assistant turn or a tool call (a guardrail may read
 * `ctx.role` and `ctx.part`). User texts (and tool results, whose cache is
 * apart) keep `u`, so keys written before stay valid; a user's text after an
 * assistant message is `U` (round 49: before, `u`, so such entries written
 * before are misses and judged again, which is safe). A form not listed
 * (a part type added later) gets `?<form>`: never the user slot.
 */
const FORM_KEYS: Record<string, string> = {
  system: 's',
  'assistant-text': 'a',
  'assistant-reasoning': 'r',
  'assistant-tool-call': 'c',
  'tool-tool-approval-response': 'p',
  'user-file': 'f',
  'assistant-file': 'F',
  user: 'u',
  // A user's text after an assistant message (round 49): a verdict may read
  // the conversation before it (`promptInjection()` does), so not the slot of
  // the same text as a first message.
  'user-after-assistant': 'U',
  tool_output: 'u',
  tool_definition: 'u',
};

/** The key letter of a form; a form the table does not list gets a slot of its own, never another form's. */
function formKey(form: string): string {
  return Object.hasOwn(FORM_KEYS, form) ? FORM_KEYS[form]! : `?${form}`;
}

/**
 * The store's answer, checked: a value someone else wrote must not be trusted
 * blindly. Read bounded (`readStoredJson`: at most `MAX_STORED_JSON_CHARS`,
 * 1,000 levels deep), and only in the shape `set` writes: a block's message,
 * reason and severity strings or absent, a modification's text a string of
 * at most `MAX_CACHED_MODIFIED_LENGTH` characters. Anything else is a miss:
 * the text is judged again, which is safe. Only the known fields are kept.
 */
function parseVerdict(raw: string | undefined): CachedVerdict | undefined {
  const value = readStoredJson(raw, MAX_STORED_JSON_CHARS);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const entry = value as Record<string, unknown>;
  if (entry.action === 'allow') return { action: 'allow' };
  if (entry.action === 'modify') {
    const { content } = entry;
    return typeof content === 'string' && content.length <= MAX_CACHED_MODIFIED_LENGTH
      ? { action: 'modify', content }
      : undefined;
  }
  if (entry.action !== 'block') return undefined;
  const verdict: Extract<CachedVerdict, { action: 'block' }> = { action: 'block' };
  for (const field of ['message', 'reason', 'severity'] as const) {
    const text = entry[field];
    if (text === undefined) continue;
    if (typeof text !== 'string') return undefined;
    verdict[field] = text;
  }
  if (entry.info !== undefined) verdict.info = entry.info as JSONValue;
  return verdict;
}

/**
 * Remembers input verdicts by content hash, per guardrail identity (its name
 * and a hash of its `fingerprint`) and, for guardrails whose verdict depends
 * on metadata, per value of the metadata keys they read. Keys are SHA-256
 * hashes, so the store never sees a judged text; a `modify` verdict stores
 * the modified text (what the model is sent), so that history is redacted
 * the same way on every call and every instance.
 *
 * Store failures are misses (the text is judged again) and lost writes are
 * ignored: the cache can only save work, never let a text through unjudged.
 */
export function verdictCache({
  store,
  ttlMs,
  prefix = 'ai-guardrails:verdict:',
  guardrails = [],
}: VerdictCacheOptions) {
  const identities = new WeakMap<Guardrail, Promise<string>>();
  const baseIdentity = (guardrail: Guardrail) =>
    `${guardrail.name}\u0000${guardrail.fingerprint ?? ''}`;
  // The n-th distinct guardrail object with an identity already taken gets `#n`
  // (the first keeps the plain identity, so existing keys stay valid). The
  // same object listed twice is one guardrail and shares its verdicts.
  const occurrences = new Map<Guardrail, number>();
  const taken = new Map<string, number>();
  for (const guardrail of guardrails) {
    if (occurrences.has(guardrail)) continue;
    const base = baseIdentity(guardrail);
    const count = taken.get(base) ?? 0;
    occurrences.set(guardrail, count);
    taken.set(base, count + 1);
  }

  function identityOf(guardrail: Guardrail): Promise<string> {
    let identity = identities.get(guardrail);
    if (!identity) {
      const occurrence = occurrences.get(guardrail) ?? 0;
      identity = sha256Hex(
        `${baseIdentity(guardrail)}${occurrence === 0 ? '' : `\u0000#${occurrence}`}`,
      );
      identities.set(guardrail, identity);
    }
    return identity;
  }

  return {
    /**
     * The slot of `guardrail`'s verdict on `text`, or `undefined` when it may
     * not be cached (`cache: 'none'`, per-call guardrails).
     */
    async slot(
      guardrail: Guardrail,
      /** SHA-256 of the text (hashed once by the caller, however many guardrails look it up). */
      contentHash: string,
      /** What the text is: `'user'`, `'system'`, `'<role>-<part>'` of an assistant or tool message's text. */
      role: string,
      metadata: GuardrailMetadata,
    ): Promise<VerdictSlot | undefined> {
      const policy = guardrail.cache ?? 'content';
      if (policy === 'none' || guardrail.perCall) return undefined;
      // The parts are hashes already: joined, not hashed again (one digest
      // fewer per guardrail and text). Only the content and metadata parts
      // come from the client; they keep all 256 bits.
      const identity = (await identityOf(guardrail)).slice(0, 16);
      let scope = '';
      if (typeof policy === 'object') {
        const read = policy.metadata.map(key => [key, metadata[key] ?? null]);
        scope = `${await sha256Hex(JSON.stringify(read))}:`;
      }
      return {
        key: `${prefix}${identity}:${scope}${formKey(role)}:${contentHash}`,
      };
    },

    async get(slot: VerdictSlot): Promise<CachedVerdict | undefined> {
      try {
        return parseVerdict(await store.get(slot.key));
      } catch {
        return undefined;
      }
    },

    async set(slot: VerdictSlot, verdict: CachedVerdict): Promise<void> {
      try {
        const text = JSON.stringify(verdict);
        // What would not be read back is not written (a block's huge info).
        if (text.length > MAX_STORED_JSON_CHARS) return;
        await store.set(slot.key, text, ttlMs);
      } catch {
        // Not remembered: the text is judged again next time, which is safe.
      }
    },
  };
}

/** A verdict cache, as `verdictCache` builds it. */
export type VerdictCache = ReturnType<typeof verdictCache>;

/**
 * Longest modified text the cache keeps. A modification of a longer text is
 * not remembered (the text is judged again next time) so that a client
 * sending huge texts cannot fill the store with their redacted copies.
 */
const MAX_CACHED_MODIFIED_LENGTH = 100_000;

/**
 * What the cache keeps of a guardrail's record on one text (`content`: the
 * text after it): a pass, a block with its message, reason, severity and
 * info, or a modification (unless longer than 100,000 characters). An
 * `error` is never remembered: the next call tries again.
 */
export function toCachedVerdict(
  record: GuardrailRecord,
  content: string,
): CachedVerdict | undefined {
  switch (record.status) {
    case 'passed':
      return { action: 'allow' };
    case 'modified':
      return content.length > MAX_CACHED_MODIFIED_LENGTH
        ? undefined
        : { action: 'modify', content };
    case 'blocked': {
      const { message, reason, severity, info } = record;
      return { action: 'block', message, reason, severity, info };
    }
    default:
      return undefined;
  }
}

/**
 * The record of a remembered block: it trips again without judging,
 * `cached: true`, with the remembered message, reason, severity and info
 * (and `fields`, such as the tool name and call id of a tool result, or
 * the role and part of an input text that is not a user's).
 */
export function cachedBlockRecord(
  guardrail: Guardrail,
  verdict: Extract<CachedVerdict, { action: 'block' }>,
  kind: GuardrailKind,
  fields: Pick<GuardrailRecord, 'toolName' | 'toolCallId' | 'serverId' | 'role' | 'part'> = {},
): GuardrailRecord {
  const record: GuardrailRecord = {
    guardrail: guardrail.name,
    kind,
    status: 'blocked',
    durationMs: 0,
    cached: true,
    ...fields,
  };
  if (verdict.message !== undefined) record.message = verdict.message;
  if (verdict.reason !== undefined) record.reason = verdict.reason;
  if (verdict.severity !== undefined) record.severity = verdict.severity;
  if (verdict.info !== undefined) record.info = verdict.info;
  return record;
}
