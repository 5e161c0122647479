import { generateText, streamText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { cut, modelFor, textModel, withoutTiming } from '../../../test/helpers';
import { getGuardrailOutcome } from '../../middleware/get-guardrail-outcome';
import { guardrails } from '../../middleware/guardrails-middleware';
import { contentFilter } from './content-filter';

/*
 * Round 22: `contentFilter` reads text lower-cased, and JavaScript lowers
 * the Turkish capital `İ` (U+0130) to `i` plus a combining dot above
 * (U+0307), which no entry holds: `KİLL YOURSELF` (read by a model as
 * "KILL YOURSELF") passed the default lists, and so did the dotless `ı`
 * (`kıll yourself`), a look-alike of `i` the homoglyph table did not have.
 */

const BLOCKED = {
  guardrail: 'content-filter',
  kind: 'output',
  status: 'blocked',
  message: 'This content is not allowed.',
  reason: 'matched self-harm entry 1',
  severity: 'warning',
  info: { category: 'self-harm', entry: 1 },
};

describe('contentFilter and the Turkish dotted and dotless i', () => {
  for (const answer of ['Just KİLL YOURSELF.', 'Just kİll yourself.', 'Just kıll yourself.']) {
    it(`blocks ${JSON.stringify(answer)} (generateText)`, async () => {
      const result = await generateText({
        model: wrapLanguageModel({
          model: textModel(answer),
          middleware: guardrails({ output: [contentFilter()] }),
        }),
        prompt: 'q',
      });
      expect(result.text).toBe('This content is not allowed.');
      expect(withoutTiming((await getGuardrailOutcome(result))?.records)).toEqual([BLOCKED]);
    });
  }

  it('holds back the entry in a window stream, one character a delta, and blocks it', async () => {
    const answer = `${'Fine words, kind words. '.repeat(6)}Then KİLL YOURSELF and be done.`;
    const model = wrapLanguageModel({
      model: modelFor(answer, cut(answer, [1])),
      middleware: guardrails({
        output: [contentFilter()],
        stream: { mode: 'window' },
        blockedMessage: 'BLOCKED',
      }),
    });
    const deltas: string[] = [];
    for await (const delta of streamText({ model, prompt: 'q' }).textStream) deltas.push(delta);
    expect(deltas.at(-1)).toBe('BLOCKED');
    const released = deltas.slice(0, -1).join('');
    expect(answer.startsWith(released)).toBe(true);
    expect(released.length).toBeLessThanOrEqual(answer.indexOf('KİLL'));
  });

  it('still allows Turkish prose that holds no entry', async () => {
    const answer = 'İstanbul’da kırmızı bir kapı var; İzmir ılık.';
    const result = await generateText({
      model: wrapLanguageModel({
        model: textModel(answer),
        middleware: guardrails({ output: [contentFilter()] }),
      }),
      prompt: 'q',
    });
    expect(result.text).toBe(answer);
  });
});
