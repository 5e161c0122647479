import { generateText, stepCountIs, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { generateResult } from '../../test/helpers';
import { cutName } from '../../test/helpers/cut-names';
import { backUpConversation, searchDocs } from '../../test/helpers/tool-pins';
import { turnsModel } from '../../test/helpers/turns-model';
import { block, defineGuardrail } from '../core/define-guardrail';
import type { GuardrailEvent, GuardrailRecord } from '../core/types';
import { redisStore } from '../redis';
import { memoryStore } from '../store/memory-store';
import type { Store } from '../store/store';
import { guardTools } from '../tools';
import { getGuardrailOutcome } from './get-guardrail-outcome';
import { guardrails } from './guardrails-middleware';

/*
 * Round 26: records carried a tool's `serverId` whole (`serverId`, and
 * `info.scope` of pin records): an app may take it from what an MCP server
 * says of itself, and a 100,000-character id landed in every record and
 * event of that server's tools. Both are cut as tool names are (64
 * characters, `…#` and a digest since round 28); pins and `ctx.serverId` keep it whole. And the
 * reason of a pin the store could not check quoted the store's error
 * message (a Redis URL with its password, a key): it names the error's
 * class and code only.
 */

const LONG_ID = `docs-${'s'.repeat(100_000)}`;
const SHOWN_ID = cutName(LONG_ID);

const search = searchDocs;
const exfiltrate = backUpConversation;

const withoutTiming = (records: readonly GuardrailRecord[] | undefined) =>
  records?.map(({ durationMs: _, ...rest }) => rest);

describe('records show a long serverId cut to 64 characters', () => {
  it('tool-definition-new: serverId and info.scope cut, the reason too; the pin kept whole', async () => {
    const store = memoryStore();
    const events: GuardrailEvent[] = [];
    const model = wrapLanguageModel({
      model: new MockLanguageModelV4({ doGenerate: async () => generateResult('ok') }),
      middleware: guardrails({
        pinToolDefinitions: true,
        store,
        onEvent: event => events.push(event),
      }),
    });
    await generateText({
      model,
      tools: guardTools({ search }, { serverId: LONG_ID }),
      prompt: 'a',
    });
    const result = await generateText({
      model,
      tools: guardTools({ search, exfiltrate }, { serverId: LONG_ID }),
      prompt: 'b',
    });
    const records = withoutTiming((await getGuardrailOutcome(result))?.records);
    const hash = (records![0]!.info as { definitionHash: string }).definitionHash;
    expect(records).toEqual([
      {
        guardrail: 'tool-definition-new',
        kind: 'tool_definition',
        status: 'blocked',
        severity: 'critical',
        reason: `tool "exfiltrate" is new on server "${SHOWN_ID}", whose tools were pinned before; approve its hash to allow it`,
        toolName: 'exfiltrate',
        serverId: SHOWN_ID,
        info: { scope: `default:${SHOWN_ID}`, definitionHash: hash },
      },
    ]);
    expect(events.map(event => event.record.serverId)).toEqual([SHOWN_ID]);
    // A server whose id differs past the cut is another server: its pins are its own.
    const other = await generateText({
      model,
      tools: guardTools({ search, exfiltrate }, { serverId: `${LONG_ID}x` }),
      prompt: 'c',
    });
    expect((await getGuardrailOutcome(other))?.records).toEqual([]);
  });

  it('guardTools records: a tool_input block and its event', async () => {
    const events: GuardrailEvent[] = [];
    const refuse = defineGuardrail({
      name: 'refuse',
      check: () => block({ reason: 'no' }),
    });
    const tools = guardTools(
      { search },
      { serverId: LONG_ID, input: [refuse], onEvent: event => events.push(event) },
    );
    await generateText({
      model: turnsModel([
        { toolCalls: [{ toolCallId: 'call-1', toolName: 'search', input: { query: 'x' } }] },
        { text: 'done' },
      ]),
      tools,
      stopWhen: stepCountIs(2),
      prompt: 'q',
    });
    expect(events.map(e => [e.record.guardrail, e.record.serverId])).toEqual([
      ['refuse', SHOWN_ID],
    ]);
  });
});

describe('a pin the store could not check names the error class and code only', () => {
  async function pinReason(error: unknown, store?: Store) {
    const failing: Store = store ?? {
      ...memoryStore(),
      setIfAbsent: async () => {
        throw error;
      },
    };
    const result = await generateText({
      model: wrapLanguageModel({
        model: new MockLanguageModelV4({ doGenerate: async () => generateResult('ok') }),
        middleware: guardrails({ pinToolDefinitions: true, store: failing }),
      }),
      tools: { search },
      prompt: 'a',
    });
    return withoutTiming((await getGuardrailOutcome(result))?.records);
  }

  it('a message with a Redis URL and its password is not shown', async () => {
    const error = Object.assign(
      new Error('connect ECONNREFUSED redis://default:S3cretPassw0rd@10.0.0.5:6379'),
      { code: 'ECONNREFUSED' },
    );
    expect(await pinReason(error)).toEqual([
      {
        guardrail: 'tool-definition-pin',
        kind: 'tool_definition',
        status: 'error',
        reason:
          'the pin of tool "search" could not be checked (Error ECONNREFUSED); failing closed',
        toolName: 'search',
      },
    ]);
  });

  it('a Redis store that times out: its class', async () => {
    const silent = new Promise<never>(() => {});
    const client = { call: () => silent, evalsha: () => silent, eval: () => silent };
    const store = redisStore(client as never, { timeoutMs: 20, evictionCheck: 'off' });
    expect((await pinReason(undefined, store))?.[0]?.reason).toBe(
      'the pin of tool "search" could not be checked (AI_StoreTimeoutError); failing closed',
    );
  });

  it('a class name and code that are no plain names, and a thrown string, show as Error / string', async () => {
    class Leaky extends Error {}
    const leaky = new Leaky('value 4111 1111 1111 1111');
    Object.defineProperty(leaky, 'name', { value: 'Leaky 4111 1111 1111 1111' });
    Object.defineProperty(leaky, 'code', { value: 'card=4111111111111111' });
    const reasons = [await pinReason(leaky), await pinReason('token ghp_abc')].map(
      records => records?.[0]?.reason,
    );
    expect(reasons).toEqual([
      'the pin of tool "search" could not be checked (Error); failing closed',
      'the pin of tool "search" could not be checked (string); failing closed',
    ]);
  });
});
