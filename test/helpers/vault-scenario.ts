import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { generateText, type ModelMessage, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import fc from 'fast-check';
import { pii } from '../../src/guards/pii/pii';
import { guardrails } from '../../src/middleware/guardrails-middleware';
import type { Store } from '../../src/store/store';

/**
 * Test fixture (not exported by the package), shared by the memory and Redis
 * tests of the pseudonym vault: random conversations of one session served
 * by two middleware instances over one store, with time passing and the
 * store losing data between turns.
 */

/** The people a conversation may mention. */
export const ADDRESSES = [
  'alice@example.com',
  'bob@example.org',
  'carol@example.net',
  'dave@example.com',
  'erin@example.org',
  'frank@example.net',
];

export type VaultStep =
  | { type: 'turn'; instance: 0 | 1; people: number[] }
  /** Two turns at once, one on each instance, each extending the same history. */
  | { type: 'concurrent'; people: [number[], number[]] }
  | { type: 'advance'; ms: number }
  /** The store loses every key (`keep: 0`) or the keys whose index % 3 !== keep - 1. */
  | { type: 'wipe'; keep: 0 | 1 | 2 | 3 };

const people = fc.uniqueArray(fc.integer({ min: 0, max: ADDRESSES.length - 1 }), {
  minLength: 1,
  maxLength: 3,
});

/** Steps of a conversation; `maxAdvanceMs` is a few vault TTLs. */
export function vaultSteps(maxAdvanceMs: number, maxLength = 14) {
  return fc.array(
    fc.oneof(
      {
        weight: 5,
        arbitrary: fc.record({
          type: fc.constant('turn' as const),
          instance: fc.constantFrom(0 as const, 1 as const),
          people,
        }),
      },
      {
        weight: 2,
        arbitrary: fc.record({
          type: fc.constant('concurrent' as const),
          people: fc.tuple(people, people),
        }),
      },
      {
        weight: 3,
        arbitrary: fc.record({
          type: fc.constant('advance' as const),
          ms: fc.integer({ min: 1, max: maxAdvanceMs }),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          type: fc.constant('wipe' as const),
          keep: fc.constantFrom(0 as const, 1 as const, 2 as const, 3 as const),
        }),
      },
    ),
    { minLength: 1, maxLength },
  );
}

const placeholderPattern = /<[A-Z][A-Z0-9_]*_\d+>/g;

function userTexts(prompt: LanguageModelV4Prompt): string[] {
  return prompt.flatMap(message =>
    message.role === 'user'
      ? [message.content.map(part => (part.type === 'text' ? part.text : '')).join('')]
      : [],
  );
}

const request = (names: string[]) => `Write to ${names.join(', ')}.`;
const answer = (names: string[]) => `Writing to ${names.join(' and ')}.`;

/** A model that answers "Writing to <placeholders of the last user message, in order>." */
export function echoingModel() {
  return new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => {
      const last = userTexts(prompt).at(-1) ?? '';
      return {
        content: [{ type: 'text', text: answer(last.match(placeholderPattern) ?? []) }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 1, text: 1, reasoning: undefined },
        },
        warnings: [],
      };
    },
  });
}

/** What went wrong in a scenario, or undefined when every turn held. */
export async function runVaultScenario(
  steps: readonly VaultStep[],
  {
    store,
    ttlMs,
    advance,
    wipe,
  }: {
    store: Store;
    ttlMs: number;
    advance: (ms: number) => Promise<void> | void;
    wipe: (keep: 0 | 1 | 2 | 3) => Promise<void> | void;
  },
): Promise<string | undefined> {
  const instances = [0, 1].map(() => {
    const vault = pii({ action: 'pseudonymize', store, ttlMs });
    const mock = echoingModel();
    return {
      mock,
      guarded: wrapLanguageModel({
        model: mock,
        middleware: guardrails({ input: [vault], output: [vault] }),
      }),
    };
  });
  let history: ModelMessage[] = [];
  const said: number[][] = [];

  async function turn(
    instance: number,
    mentioned: number[],
    base: ModelMessage[],
    before: number[][],
  ) {
    const names = mentioned.map(i => ADDRESSES[i]!);
    const messages: ModelMessage[] = [...base, { role: 'user', content: request(names) }];
    const { mock, guarded } = instances[instance]!;
    const callsBefore = mock.doGenerateCalls.length;
    const result = await generateText({
      model: guarded,
      messages,
      providerOptions: { guardrails: { sessionId: 'conversation-1' } },
    });
    const prompt = mock.doGenerateCalls[callsBefore]?.prompt;
    if (!prompt) return { error: `turn on instance ${instance} did not reach the model` };
    // What the model saw: each user message in order, placeholders standing for the names said.
    const seen = userTexts(prompt);
    const written = [...before, mentioned];
    const meaning = new Map<string, string>();
    for (let m = 0; m < written.length; m++) {
      const text = seen[m] ?? '';
      for (const address of ADDRESSES) {
        if (text.includes(address)) return { error: `the model saw ${address} in "${text}"` };
      }
      const tokens = text.match(placeholderPattern) ?? [];
      if (tokens.length !== written[m]!.length) {
        return {
          error: `message ${m} "${text}" has ${tokens.length} placeholders for ${written[m]!.length} names`,
        };
      }
      for (let t = 0; t < tokens.length; t++) {
        const name = ADDRESSES[written[m]![t]!]!;
        const earlier = meaning.get(tokens[t]!);
        if (earlier !== undefined && earlier !== name) {
          return { error: `${tokens[t]} stands for both ${earlier} and ${name} in one prompt` };
        }
        meaning.set(tokens[t]!, name);
      }
    }
    if (result.text !== answer(names)) {
      return { error: `asked "${request(names)}", the user was shown "${result.text}"` };
    }
    return {
      messages: [...messages, { role: 'assistant' as const, content: 'Noted.' }],
      written,
    };
  }

  for (const step of steps) {
    if (step.type === 'advance') await advance(step.ms);
    else if (step.type === 'wipe') await wipe(step.keep);
    else if (step.type === 'turn') {
      const outcome = await turn(step.instance, step.people, history, said);
      if ('error' in outcome) return outcome.error;
      history = outcome.messages;
      said.splice(0, said.length, ...outcome.written);
    } else {
      const outcomes = await Promise.all([
        turn(0, step.people[0], history, said),
        turn(1, step.people[1], history, said),
      ]);
      for (const outcome of outcomes) if ('error' in outcome) return outcome.error;
      // The conversation goes on from the second branch.
      const last = outcomes[1] as { messages: ModelMessage[]; written: number[][] };
      history = last.messages;
      said.splice(0, said.length, ...last.written);
    }
  }
  return undefined;
}
