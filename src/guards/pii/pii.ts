import { allow, block, defineGuardrail, modify } from '../../core/define-guardrail';
import { validateFactoryOptions } from '../../core/options';
import type { Guardrail, GuardrailContext } from '../../core/types';
import { memoryStore } from '../../store/memory-store';
import type { Store } from '../../store/store';
import { sha256Hex } from '../shared/hash-key';
import { replaceSpans } from '../shared/spans';
import { type FindPiiOptions, findPii, type PiiSpan, piiMaxMatchLength } from './find-pii';
import { piiOptionShape } from './pii-options';

/** Options of `pii`. */
export interface PiiOptions extends FindPiiOptions {
  /**
   * - `'redact'` (default): replace each value with a typed placeholder;
   * - `'block'`: trip, reporting the entity types found (never the values);
   * - `'pseudonymize'`: replace each value with a placeholder stable within
   *   the conversation (`<EMAIL_ADDRESS_1>`); the same instance used as an
   *   output guardrail restores the originals in the answer.
   */
  action?: 'redact' | 'block' | 'pseudonymize';
  /** Placeholder for `redact`. Default `` type => `[${type}]` ``. */
  placeholder?: (type: string) => string;
  /** Guardrail name in records. Default `'pii'`. */
  name?: string;
  /** Message of a block. Default: a sentence naming the entity types. */
  message?: string;
  /** Pseudonym vault. Default a `memoryStore()` private to this guardrail. */
  store?: Store;
  /**
   * The conversation a call belongs to, for `pseudonymize`. Default: the
   * `sessionId` (else `conversationId`, `chatId`, `threadId`) from
   * `ctx.metadata`; without one, the mapping lives only for one call.
   */
  conversationId?: (ctx: GuardrailContext) => string | undefined;
  /** How long a pseudonym mapping is kept after its last use. Default 24 hours. */
  ttlMs?: number;
}

const pseudonymPattern = /<([A-Z][A-Z0-9_]*)_(\d{1,6})>/g;

function defaultConversationId(ctx: GuardrailContext): string | undefined {
  for (const key of ['sessionId', 'conversationId', 'chatId', 'threadId']) {
    const value = ctx.metadata?.[key];
    if (typeof value === 'string' || typeof value === 'number') return String(value);
  }
  return undefined;
}

/** Where pseudonyms live: one conversation's value <-> placeholder mapping. */
interface PseudonymVault {
  /** The placeholder of `value`, created (once, across instances) when new. */
  tokenFor(type: string, value: string): Promise<string>;
  /** The original behind a placeholder, when this conversation has one. */
  valueOf(token: string): Promise<string | undefined>;
}

/** A vault for one call only (no conversation id): the call's shared state. */
function callVault(state: Map<string, unknown>, stateKey: string): PseudonymVault {
  let vault = state.get(stateKey) as
    | { values: Map<string, string>; tokens: Map<string, string>; counters: Map<string, number> }
    | undefined;
  if (!vault) {
    vault = { values: new Map(), tokens: new Map(), counters: new Map() };
    state.set(stateKey, vault);
  }
  const { values, tokens, counters } = vault;
  return {
    async tokenFor(type, value) {
      let token = tokens.get(value);
      if (token === undefined) {
        const next = (counters.get(type) ?? 0) + 1;
        counters.set(type, next);
        token = `<${type}_${next}>`;
        tokens.set(value, token);
        values.set(token, value);
      }
      return token;
    },
    async valueOf(token) {
      return values.get(token);
    },
  };
}

/**
 * A conversation's vault in a `Store`, safe when several instances
 * pseudonymise turns of one conversation at once: each value's placeholder is
 * claimed with `setIfAbsent` (the first writer wins, every instance then uses
 * its placeholder), numbers come from an atomic counter, and two values never
 * share a placeholder.
 */
function storeVault(store: Store, base: string, ttlMs: number): PseudonymVault {
  return {
    async tokenFor(type, value) {
      // Keyed by a hash: key names show up in monitoring, originals must not.
      const valueKey = `${base}:value:${type}:${await sha256Hex(value)}`;
      const known = await store.get(valueKey);
      if (known !== undefined) return known;
      const next = await store.incrBy(`${base}:counter:${type}`, 1, ttlMs);
      const candidate = `<${type}_${next}>`;
      // The original is stored under the placeholder before the placeholder is
      // published, so whoever reads the placeholder can restore it.
      await store.setIfAbsent(`${base}:token:${candidate}`, value, ttlMs);
      const token = await store.setIfAbsent(valueKey, candidate, ttlMs);
      if (token !== candidate) await store.delete(`${base}:token:${candidate}`);
      return token;
    },
    async valueOf(token) {
      return store.get(`${base}:token:${token}`);
    },
  };
}

function typesOf(spans: readonly PiiSpan[]): string[] {
  return [...new Set(spans.map(span => span.type))];
}

/**
 * Keeps personal data out of prompts, answers and tool traffic. Finds it
 * with `findPii` (validated entities on normalised text, offsets into the
 * original) and redacts it, blocks, or pseudonymises it reversibly.
 * Stream-safe: `maxMatchLength` is the longest value it can match.
 *
 * @example
 * guardrails({ input: [pii({ action: 'pseudonymize' })], output: [pii(...same instance)] })
 */
export function pii(options?: PiiOptions): Guardrail {
  const {
    action = 'redact',
    placeholder = (type: string) => `[${type}]`,
    name = 'pii',
    message,
    store,
    conversationId = defaultConversationId,
    ttlMs = 24 * 60 * 60 * 1000,
    ...findOptions
  } = validateFactoryOptions(options, 'pii', piiOptionShape);
  const vaultStore = store ?? memoryStore();
  const maxMatchLength = piiMaxMatchLength(findOptions);

  function vaultOf(ctx: GuardrailContext): PseudonymVault {
    const id = conversationId(ctx);
    // Without a conversation id the call's shared state carries the mapping
    // from the input guardrail to the output guardrail of the same call.
    if (id === undefined) return callVault(ctx.state, `${name}:pii-vault`);
    return storeVault(vaultStore, `pii-vault:${name}:${id}`, ttlMs);
  }

  async function pseudonymize(content: string, ctx: GuardrailContext) {
    const vault = vaultOf(ctx);
    if (ctx.kind === 'output' || ctx.kind === 'tool_input') {
      // The model writes placeholders; the user (or the tool) gets the originals.
      const tokens = [
        ...new Set(Array.from(content.matchAll(pseudonymPattern), match => match[0])),
      ];
      if (tokens.length === 0) return allow();
      const originals = new Map<string, string>();
      for (const token of tokens) {
        const original = await vault.valueOf(token);
        if (original !== undefined) originals.set(token, original);
      }
      if (originals.size === 0) return allow();
      let restored = 0;
      const text = content.replace(pseudonymPattern, token => {
        const original = originals.get(token);
        if (original === undefined) return token;
        restored++;
        return original;
      });
      return modify(text, { restored });
    }
    const spans = findPii(content, findOptions);
    if (spans.length === 0) return allow();
    const tokens: string[] = [];
    for (const span of spans)
      tokens.push(await vault.tokenFor(span.type, content.slice(span.start, span.end)));
    let index = 0;
    const text = replaceSpans(content, spans, () => tokens[index++]!);
    return modify(text, { types: typesOf(spans), spans: spans.map(span => ({ ...span })) });
  }

  return defineGuardrail({
    name,
    streamSafe: true,
    maxMatchLength,
    async check(content, ctx) {
      if (action === 'pseudonymize') return pseudonymize(content, ctx);
      const spans = findPii(content, findOptions);
      if (spans.length === 0) return allow();
      const types = typesOf(spans);
      const info = { types, spans: spans.map(span => ({ ...span })) };
      if (action === 'block') {
        return block({
          message: message ?? `The text contains personal data (${types.join(', ')}).`,
          reason: `pii: ${types.join(', ')}`,
          severity: 'warning',
          info,
        });
      }
      return modify(
        replaceSpans(content, spans, span => placeholder(span.type)),
        info,
      );
    },
  });
}
