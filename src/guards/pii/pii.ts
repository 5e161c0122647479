import { allow, block, defineGuardrail, modify } from '../../core/define-guardrail';
import { GuardrailConfigError } from '../../core/errors';
import type { Guardrail, GuardrailContext } from '../../core/types';
import { memoryStore } from '../../store/memory-store';
import type { Store } from '../../store/store';
import { replaceSpans } from '../shared/spans';
import {
  type FindPiiOptions,
  findPii,
  type PiiSpan,
  piiMaxMatchLength,
  validatePiiOptions,
} from './find-pii';

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

interface Vault {
  /** placeholder -> original */
  values: Record<string, string>;
  /** type -> next index */
  counters: Record<string, number>;
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
export function pii({
  action = 'redact',
  placeholder = type => `[${type}]`,
  name = 'pii',
  message,
  store,
  conversationId = defaultConversationId,
  ttlMs = 24 * 60 * 60 * 1000,
  ...findOptions
}: PiiOptions = {}): Guardrail {
  if (action !== 'redact' && action !== 'block' && action !== 'pseudonymize') {
    throw new GuardrailConfigError({
      path: `${name}.action`,
      value: action,
      expected: "'redact', 'block' or 'pseudonymize'",
    });
  }
  if (typeof placeholder !== 'function') {
    throw new GuardrailConfigError({
      path: `${name}.placeholder`,
      value: placeholder,
      expected: 'a function (type) => string',
    });
  }
  validatePiiOptions(findOptions);
  const vaultStore = store ?? memoryStore();
  const maxMatchLength = piiMaxMatchLength(findOptions);

  const vaultKey = (ctx: GuardrailContext) => {
    const id = conversationId(ctx);
    return id === undefined ? undefined : `ai-guardrails:pii-vault:${name}:${id}`;
  };

  async function loadVault(ctx: GuardrailContext): Promise<Vault> {
    const key = vaultKey(ctx);
    // Without a conversation id the call's shared state carries the mapping
    // from the input guardrail to the output guardrail of the same call.
    if (key === undefined) {
      const stateKey = `${name}:pii-vault`;
      let vault = ctx.state.get(stateKey) as Vault | undefined;
      if (!vault) {
        vault = { values: {}, counters: {} };
        ctx.state.set(stateKey, vault);
      }
      return vault;
    }
    const stored = await vaultStore.get(key);
    return stored ? (JSON.parse(stored) as Vault) : { values: {}, counters: {} };
  }

  async function saveVault(ctx: GuardrailContext, vault: Vault) {
    const key = vaultKey(ctx);
    if (key !== undefined) await vaultStore.set(key, JSON.stringify(vault), ttlMs);
  }

  async function pseudonymize(content: string, ctx: GuardrailContext) {
    const vault = await loadVault(ctx);
    if (ctx.kind === 'output' || ctx.kind === 'tool_input') {
      // The model writes placeholders; the user (or the tool) gets the originals.
      let restored = 0;
      const text = content.replace(pseudonymPattern, token => {
        const original = vault.values[token];
        if (original === undefined) return token;
        restored++;
        return original;
      });
      return restored > 0 ? modify(text, { restored }) : allow();
    }
    const spans = findPii(content, findOptions);
    if (spans.length === 0) return allow();
    const byValue = new Map(Object.entries(vault.values).map(([token, value]) => [value, token]));
    let changed = false;
    const text = replaceSpans(content, spans, (span, value) => {
      let token = byValue.get(value);
      if (!token) {
        const next = (vault.counters[span.type] ?? 0) + 1;
        vault.counters[span.type] = next;
        token = `<${span.type}_${next}>`;
        vault.values[token] = value;
        byValue.set(value, token);
        changed = true;
      }
      return token;
    });
    if (changed) await saveVault(ctx, vault);
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
