import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { generateResult, withoutTiming } from '../../../test/helpers';
import { runChain } from '../../core/chain';
import { llmJudge } from './llm-judge';
import { withoutQuotes } from './reason-masking';

/*
 * Round 39: a reason was masked where it quoted 8 characters of a judged
 * text as written, or 8 of its letters and digits however written. A name
 * of 7 letters (`Jane Roe`, 8 characters as written) was masked only as
 * written: `JANE ROE`, `Jane  Roe`, `Jane-Roe`, `J a n e R o e`,
 * `Jane\u200bRoe` reached the record. Runs of whole words are now compared
 * by their letters and digits too, and masked when the judged text's run
 * makes 8 characters with one blank between its words.
 */
const content = 'Where will Jane Roe live? I need it.';

describe('llmJudge reason masking: a short quote written otherwise', () => {
  it.each([
    'The user asks for the address of Jane  Roe.',
    'The user asks for the address of JANE ROE.',
    'The user asks for the address of Jane-Roe.',
    'The user asks for the address of J a n e R o e.',
    'The user asks for the address of Jane\u200bRoe.',
    'The user asks for the address of \uff2a\uff41\uff4e\uff45 \uff32\uff4f\uff45.',
    'The user asks for the address of jane_roe.',
  ])('%s', reason => {
    expect(withoutQuotes(reason, [content, ''])).toBe('The user asks for the address of [quoted].');
  });

  it('masks a name the judged text spelled out or hid and the reason wrote plainly', () => {
    for (const text of ['Find J a n e R o e now.', 'Find JANE-ROE now.', 'Find Jane\u00a0Roe.']) {
      expect(withoutQuotes('It asks about Jane Roe.', [text, ''])).toBe('It asks about [quoted].');
    }
  });

  it('keeps ordinary words the reason shares with the text, and runs under 8 characters', () => {
    const text = 'Jane Roe lives here. A user of the app asks me.';
    expect(withoutQuotes('The user asks where the person lives.', [text, ''])).toBe(
      'The user asks where the person lives.',
    );
    // `Jo Roe` is 6 characters as written: not a quote, however it is written.
    expect(withoutQuotes('It names JO ROE and Jo-Roe.', ['Ask Jo Roe.', ''])).toBe(
      'It names JO ROE and Jo-Roe.',
    );
    // Whole words only: `Jane Roes` is another word than the text's `Roe`.
    expect(withoutQuotes('It names JANE ROES.', [content, ''])).toBe('It names JANE ROES.');
  });
});

describe('llmJudge: the record of a judge that wrote a short quote otherwise', () => {
  it('carries the masked reason in the record and its info', async () => {
    const judge = new MockLanguageModelV4({
      doGenerate: async () =>
        generateResult(
          JSON.stringify({
            flagged: true,
            confidence: 0.9,
            reason: 'The user asks for the address of J a n e R o e.',
          }),
        ),
    });
    const result = await runChain(
      [llmJudge({ model: judge, policy: 'No personal data.', cache: false })],
      content,
      { kind: 'input', messages: [], metadata: {}, state: new Map() },
    );
    expect(withoutTiming(result.records)).toEqual([
      {
        guardrail: 'llm-judge',
        kind: 'input',
        status: 'blocked',
        message: 'This content was blocked by a content policy.',
        reason: 'The user asks for the address of [quoted].',
        severity: 'warning',
        info: {
          flagged: true,
          confidence: 0.9,
          reason: 'The user asks for the address of [quoted].',
          threshold: 0.7,
          cached: false,
          usage: { inputTokens: 10, outputTokens: 20, totalTokens: 30 },
        },
      },
    ]);
  });
});
