import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { generateText, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import {
  configIssuesOf,
  generateResult,
  notShownString,
  streamOf,
  textParts,
} from '../../../test/helpers';
import { buildGuardrailsConfig } from '../../config/load-guardrails-config';
import { guardrails } from '../../middleware/guardrails-middleware';
import { pii } from './pii';

const userText =
  'Please write to jane.doe@example.com and call +44 20 7946 0958 about card 4111 1111 1111 1111.';
const maskedUserText =
  'Please write to <EMAIL_ADDRESS_1> and call <PHONE_NUMBER_1> about card <CREDIT_CARD_1>.';
/** What the model answers: it only ever saw the placeholders, so it writes them back. */
const modelAnswer = 'Done: I wrote to <EMAIL_ADDRESS_1> and will call <PHONE_NUMBER_1> tomorrow.';
const userAnswer = 'Done: I wrote to jane.doe@example.com and will call +44 20 7946 0958 tomorrow.';

/** The user-message text of the prompt the model received. */
function promptText(prompt: LanguageModelV4CallOptions['prompt']): string {
  return prompt
    .flatMap(message =>
      message.role === 'user'
        ? message.content.flatMap(part => (part.type === 'text' ? [part.text] : []))
        : [],
    )
    .join('\n');
}

function pseudonymizing(model: MockLanguageModelV4, mode?: 'hold' | 'window') {
  const p = pii({ action: 'pseudonymize' });
  return wrapLanguageModel({
    model,
    middleware: guardrails({ input: [p], output: [p], ...(mode && { stream: { mode } }) }),
  });
}

describe('pii pseudonymize through the middleware', () => {
  it('generateText: the model sees placeholders, the user sees the originals', async () => {
    const model = new MockLanguageModelV4({ doGenerate: async () => generateResult(modelAnswer) });
    const result = await generateText({ model: pseudonymizing(model), prompt: userText });
    expect(promptText(model.doGenerateCalls[0]!.prompt)).toBe(maskedUserText);
    expect(result.text).toBe(userAnswer);
  });

  for (const mode of ['hold', 'window'] as const) {
    it(`streamText (${mode}): placeholders split across deltas are restored`, async () => {
      // Cut inside every placeholder: "<EMAIL_" + "ADDRESS_1>", "<PHONE_NUMBER" + "_1>".
      const deltas = [
        'Done: I wrote to <EMAIL_',
        'ADDRESS_1> and will call <',
        'PHONE_NUMBER',
        '_1> tomorrow.',
      ];
      expect(deltas.join('')).toBe(modelAnswer);
      const model = new MockLanguageModelV4({ doStream: async () => streamOf(textParts(deltas)) });
      const result = streamText({ model: pseudonymizing(model, mode), prompt: userText });
      expect(await result.text).toBe(userAnswer);
      expect(promptText(model.doStreamCalls[0]!.prompt)).toBe(maskedUserText);
    });
  }

  // Regression: the window's left context used to be the raw released text, so a placeholder
  // released (restored) earlier was restored again as context and shifted the released slice.
  it('streamText (window): restores placeholders in a long answer cut into 1-character deltas', async () => {
    // Longer than several windows, so restored placeholders also sit in the left context of later checks.
    const filler = 'Some filler text that keeps the answer going. '.repeat(60);
    const answer = `${filler}${modelAnswer} ${filler}Again <EMAIL_ADDRESS_1>. ${filler}`;
    const model = new MockLanguageModelV4({
      doStream: async () => streamOf(textParts([...answer])),
    });
    const result = streamText({ model: pseudonymizing(model, 'window'), prompt: userText });
    expect(await result.text).toBe(
      `${filler}${userAnswer} ${filler}Again jane.doe@example.com. ${filler}`,
    );
  });

  it('keeps the mapping for the conversation: a later turn reuses the same placeholder', async () => {
    const p = pii({ action: 'pseudonymize' });
    const model = new MockLanguageModelV4({
      doGenerate: async () => generateResult('Noted <EMAIL_ADDRESS_1>.'),
    });
    const wrapped = wrapLanguageModel({
      model,
      middleware: guardrails({ input: [p], output: [p] }),
    });
    const providerOptions = { guardrails: { sessionId: 'chat-42' } };
    await generateText({ model: wrapped, prompt: 'I am jane.doe@example.com', providerOptions });
    const second = await generateText({
      model: wrapped,
      prompt: 'Again, jane.doe@example.com here.',
      providerOptions,
    });
    expect(promptText(model.doGenerateCalls[1]!.prompt)).toBe('Again, <EMAIL_ADDRESS_1> here.');
    expect(second.text).toBe('Noted jane.doe@example.com.');
  });
});

describe('pii pseudonymize without its output side', () => {
  // Only the instance that made the placeholders can turn them back: without
  // it in output, the user read "<EMAIL_ADDRESS_1>" in every answer, silently.
  const expected = (path: string) => ({
    path,
    value: notShownString('pii'),
    expected:
      'the same guardrail instance in output too ("pii" pseudonymises: the model answers with its placeholders, such as <EMAIL_ADDRESS_1>, and only this instance turns them back into the values, as an output guardrail; add it there, as in guardrails({ input: [p], output: [p] }), or use action \'redact\' if the user may see placeholders)',
  });

  it('in input (or toolOutputs) without the same instance in output is a GuardrailConfigError', () => {
    const p = pii({ action: 'pseudonymize' });
    expect(configIssuesOf(() => guardrails({ input: [p] }))).toEqual([expected('input[0]')]);
    // Another instance in output has its own vault: it cannot restore p's placeholders.
    expect(
      configIssuesOf(() => guardrails({ input: [p], output: [pii({ action: 'pseudonymize' })] })),
    ).toEqual([expected('input[0]')]);
    expect(configIssuesOf(() => guardrails({ toolOutputs: [p] }))).toEqual([
      expected('toolOutputs[0]'),
    ]);
    // With it in output, or when redacting, nothing to say.
    expect(() => guardrails({ input: [p], toolOutputs: [p], output: [p] })).not.toThrow();
    expect(() => guardrails({ input: [pii({ action: 'redact' })] })).not.toThrow();
  });

  it('a config file names the entry and says to reuse it with use', () => {
    expect(
      configIssuesOf(() =>
        buildGuardrailsConfig({
          input: [{ type: 'secrets' }, { type: 'pii', action: 'pseudonymize', id: 'vault' }],
        }),
      ),
    ).toEqual([
      {
        path: 'input[1]',
        value: 'pii',
        expected:
          'the same guardrail instance in output too ("pii" pseudonymises: the model answers with its placeholders, such as <EMAIL_ADDRESS_1>, and only this instance turns them back into the values, as an output guardrail; add { use: vault } to output (give the entry an id if it has none), or use action: redact if the user may see placeholders)',
      },
    ]);
    expect(() =>
      buildGuardrailsConfig({
        input: [{ type: 'pii', action: 'pseudonymize', id: 'vault' }],
        output: [{ use: 'vault' }],
      }),
    ).not.toThrow();
  });
});
