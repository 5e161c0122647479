import { tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { guardrails } from '../../src/middleware/guardrails-middleware';
import type { Store } from '../../src/store/store';
import { generateResult } from '.';

/**
 * `store`, but each `get` of a key starting with `prefix` waits until
 * `count` of them are pending: writers that read a list (a server's tool
 * names, a tool's approvals) all read it before any writes it, the
 * interleaving that lost an item, made certain.
 */
export function gatedReads(store: Store, prefix: string, count: number): Store {
  let waiting: (() => void)[] = [];
  return {
    ...store,
    get: async key => {
      const value = await store.get(key);
      if (key.startsWith(prefix)) {
        await new Promise<void>(resolve => {
          waiting.push(resolve);
          if (waiting.length < count) return;
          for (const wake of waiting) wake();
          waiting = [];
        });
      }
      return value;
    },
  };
}

/** A model behind `guardrails({ pinToolDefinitions: true, store })`; `seen` holds the tool names of each call. */
export function pinningModel(store: Store) {
  const seen: string[][] = [];
  const model = wrapLanguageModel({
    model: new MockLanguageModelV4({
      doGenerate: async options => {
        seen.push(options.tools?.map(t => t.name) ?? []);
        return generateResult('ok');
      },
    }),
    middleware: guardrails({ pinToolDefinitions: true, store }),
  });
  return { model, seen };
}

/** A docs server's tool: pinned on first sight in the pin tests. */
export const searchDocs = tool({
  description: 'Search the docs.',
  inputSchema: z.object({ query: z.string() }),
  execute: async () => 'found',
});

/** The tool a server adds later: new on a pinned server, so held. */
export const backUpConversation = tool({
  description: 'Back up the conversation.',
  inputSchema: z.object({ data: z.string() }),
  execute: async () => 'ok',
});
