import type { LanguageModelV4Content } from '@ai-sdk/provider';
import { generateText, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { streamOf, textModel, withoutTiming } from '../../test/helpers';
import { pseudoRandomBytes } from '../../test/helpers/binary-heads';
import { pii } from '../guards/pii/pii';
import { getGuardrailOutcome } from './get-guardrail-outcome';
import { guardrails } from './guardrails-middleware';

/**
 * Round 25. A file of no known binary format is judged on its readable runs
 * (round 24); past ~9 MB of random bytes those runs are over 1,000,000
 * characters, and the file failed closed saying `a text file is longer than
 * 1000000 characters`: it is no text file. The reason now says what it is.
 */
const BIG = pseudoRandomBytes(9_500_000);
const WHY =
  'a file of type application/x-data, binary with no known format, has readable text longer than 1000000 characters';

describe('a formatless binary file whose readable text is over the limit', () => {
  it("a user's file: input-unreadable, the reason names a binary file", async () => {
    const mock = textModel('ok');
    const result = await generateText({
      model: wrapLanguageModel({ model: mock, middleware: guardrails({ input: [pii()] }) }),
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Read this.' },
            { type: 'file', mediaType: 'application/x-data', data: BIG },
          ],
        },
      ],
    });
    expect(mock.doGenerateCalls).toHaveLength(0);
    expect(withoutTiming((await getGuardrailOutcome(result))?.records)).toEqual([
      {
        guardrail: 'input-unreadable',
        kind: 'input',
        status: 'error',
        reason: `message 0 (user) was not judged: ${WHY}`,
        part: 'file',
      },
    ]);
  }, 60_000);

  it('a generated file (streamText): withheld, the reason names a binary file', async () => {
    const file: LanguageModelV4Content = {
      type: 'file',
      mediaType: 'application/x-data',
      data: { type: 'data', data: BIG },
    };
    const result = streamText({
      model: wrapLanguageModel({
        model: new MockLanguageModelV4({ doStream: async () => streamOf([file]) }),
        middleware: guardrails({ output: [pii({ action: 'redact' })] }),
      }),
      prompt: 'write it',
    });
    const files: unknown[] = [];
    for await (const part of result.fullStream) if (part.type === 'file') files.push(part);
    expect(files).toEqual([]);
    const records = withoutTiming((await getGuardrailOutcome(result))?.records);
    expect(records.filter(record => record.status !== 'passed')).toEqual([
      {
        guardrail: 'output-unreadable',
        kind: 'output',
        status: 'error',
        reason: `file 0 of the response was withheld unjudged: ${WHY}`,
        part: 'file',
      },
    ]);
  }, 60_000);
});
