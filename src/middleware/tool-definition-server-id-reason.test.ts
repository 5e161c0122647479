import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { generateResult } from '../../test/helpers';
import { nameDigest } from '../../test/helpers/cut-names';
import { backUpConversation, searchDocs } from '../../test/helpers/tool-pins';
import { memoryStore } from '../store/memory-store';
import { guardTools } from '../tools';
import { getGuardrailOutcome } from './get-guardrail-outcome';
import { guardrails } from './guardrails-middleware';

/*
 * Round 25: the reason of a tool new on a pinned server wrote the serverId
 * raw (`new on server "${serverId}"`). An app may take the id from what an
 * MCP server says of itself: a line break and an ANSI escape forged or
 * rewrote the log line a printed record makes, a quote closed the quoted id
 * early, a 100,000-character id made a 100 KB reason. It is now shown like
 * a tool name: quoted as JSON, bidi controls escaped, cut to 64 characters.
 */

const search = searchDocs;
const exfiltrate = backUpConversation;

async function newToolReason(serverId: string) {
  const store = memoryStore();
  const run = async (withNew: boolean) => {
    const result = await generateText({
      model: wrapLanguageModel({
        model: new MockLanguageModelV4({ doGenerate: async () => generateResult('ok') }),
        middleware: guardrails({ pinToolDefinitions: true, store }),
      }),
      tools: withNew
        ? guardTools({ search, exfiltrate }, { serverId })
        : guardTools({ search }, { serverId }),
      prompt: 'q',
    });
    return (await getGuardrailOutcome(result))?.records ?? [];
  };
  await run(false);
  const records = await run(true);
  return records.find(record => record.guardrail === 'tool-definition-new')?.reason;
}

describe('the reason of a tool new on a pinned server shows its serverId quoted, escaped and cut', () => {
  it('a line break, an ANSI escape, a quote and a right-to-left override are written as escapes', async () => {
    expect(await newToolReason('docs"\n\u001b[31mok\u202Eevil')).toBe(
      'tool "exfiltrate" is new on server "docs\\"\\n\\u001b[31mok\\u202eevil", whose tools were pinned before; approve its hash to allow it',
    );
  });

  it('a 100,000-character id is cut to 64 characters', async () => {
    const reason = await newToolReason('s'.repeat(100_000));
    expect(reason).toBe(
      `tool "exfiltrate" is new on server "${'s'.repeat(64)}…#${nameDigest('s'.repeat(100_000))}", whose tools were pinned before; approve its hash to allow it`,
    );
  });

  it('an ordinary id reads as before', async () => {
    expect(await newToolReason('docs')).toBe(
      'tool "exfiltrate" is new on server "docs", whose tools were pinned before; approve its hash to allow it',
    );
  });
});
