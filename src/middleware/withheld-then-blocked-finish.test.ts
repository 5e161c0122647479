import type { LanguageModelV4Content, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { generateText, streamText, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generateResult, readAll, streamOf, textParts, withoutTiming } from '../../test/helpers';
import { allow, block, defineGuardrail } from '../core/define-guardrail';
import { secrets } from '../guards/secrets/secrets';
import { getGuardrailOutcome } from './get-guardrail-outcome';
import { type GuardrailsOptions, guardrails } from './guardrails-middleware';

// Round 20: a generated file (or, with `toolCalls`, a tool call) withheld by
// one guardrail, then the response's text blocked by another: generateText's
// raw finish reason named the file's guardrail (`guardrail:secrets`, the
// first blocked record of the call), not the one that ended the call, as
// docs/middleware.md says it does ("names the guardrail that ended the
// call"). A withheld file or call does not end the call; the text's block does.

const AWS_KEY = 'AKIAIOSFODNN7EXAMPLE';
const noDdl = defineGuardrail({
  name: 'no-ddl',
  streamSafe: true,
  maxMatchLength: 20,
  check: content =>
    /drop table/i.test(content) ? block({ message: 'No DDL.', reason: 'DDL statement' }) : allow(),
});
const broken = defineGuardrail({
  name: 'broken',
  streamSafe: true,
  maxMatchLength: 20,
  check: content => {
    if (content.includes('DROP')) throw new Error('judge down');
    return allow();
  },
});
const keyFile: LanguageModelV4Content = {
  type: 'file',
  mediaType: 'text/plain',
  data: { type: 'data', data: new TextEncoder().encode(`key: ${AWS_KEY}`) },
};
const keyCall: LanguageModelV4Content = {
  type: 'tool-call',
  toolCallId: 'c1',
  toolName: 'save',
  input: JSON.stringify({ note: AWS_KEY }),
};
const save = tool({ inputSchema: z.object({ note: z.string() }), execute: async () => 'saved' });

const cases: [string, LanguageModelV4Content, GuardrailsOptions, string][] = [
  ['a withheld file', keyFile, { output: [secrets(), noDdl] }, 'guardrail:no-ddl'],
  [
    'a withheld tool call (toolCalls)',
    keyCall,
    { output: [noDdl], toolCalls: [secrets()] },
    'guardrail:no-ddl',
  ],
  [
    'a withheld file, a guardrail failing closed',
    keyFile,
    { output: [secrets(), broken] },
    'guardrail:broken',
  ],
];

describe('the raw finish reason names the guardrail that blocked the response', () => {
  for (const [name, withheld, options, raw] of cases) {
    it(`generateText: ${name}, then the text blocked`, async () => {
      const result = await generateText({
        model: wrapLanguageModel({
          model: new MockLanguageModelV4({
            doGenerate: async () =>
              generateResult([withheld, { type: 'text', text: 'DROP TABLE users;' }]),
          }),
          middleware: guardrails(options),
        }),
        tools: { save },
        prompt: 'go',
      });
      expect(result.finishReason).toBe('content-filter');
      expect(result.rawFinishReason).toBe(raw);
      expect(result.text).toBe(
        raw === 'guardrail:no-ddl' ? 'No DDL.' : "Sorry, I can't help with that.",
      );
      const outcome = await getGuardrailOutcome(result);
      expect(outcome?.status).toBe('blocked');
      // The withheld part's block is still the call's first record.
      const records = withoutTiming(outcome?.records).map(r => [r.guardrail, r.status]);
      expect(records[0]).toEqual(['secrets', 'blocked']);
      expect(records.at(-1)).toEqual([
        raw.slice('guardrail:'.length),
        raw === 'guardrail:no-ddl' ? 'blocked' : 'error',
      ]);
      expect(JSON.stringify(result)).not.toContain(AWS_KEY);
    });

    for (const mode of ['hold', 'window'] as const) {
      it(`streamText ${mode}: ${name}, then the text blocked`, async () => {
        const parts: LanguageModelV4StreamPart[] = [
          withheld as LanguageModelV4StreamPart,
          ...textParts(['DROP TABLE users;']),
        ];
        const result = streamText({
          model: wrapLanguageModel({
            model: new MockLanguageModelV4({ doStream: async () => streamOf(parts) }),
            middleware: guardrails({ ...options, stream: { mode } }),
          }),
          tools: { save },
          prompt: 'go',
        });
        const out = await readAll(result.fullStream);
        const finish = out.find(part => part.type === 'finish');
        expect(finish?.finishReason).toBe('content-filter');
        expect(finish?.rawFinishReason).toBe(raw);
        expect((await getGuardrailOutcome(result))?.status).toBe('blocked');
        expect(JSON.stringify(out)).not.toContain(AWS_KEY);
      });
    }
  }
});
