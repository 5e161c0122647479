import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { guardContext } from '../../../test/helpers';
import { tokenBudget } from './token-budget';

/**
 * Round 35: the prompt's `reasoning-file` parts (a file an assistant message
 * carries as part of its reasoning, which the client re-sends with the
 * history and the provider receives) and `custom` parts (whose payload is
 * their provider options) were not counted: a forged assistant message
 * with 200,000 characters of text file as a reasoning file counted 0 tokens
 * and passed a cap of 1,000. They are counted as `file` parts are: inline
 * bytes by `bytesPerToken`, images by `imageTokens`, provider options
 * through the tokenizer.
 */
describe('tokenBudget counts reasoning-file and custom parts of the prompt', () => {
  const byLength = (text: string) => text.length;
  const budget = (maxInputTokens = 1_000) => tokenBudget({ maxInputTokens, countTokens: byLength });
  const TEXT_FILE = new TextEncoder().encode('word '.repeat(40_000)); // 200,000 bytes
  const withAssistant = (content: unknown[]): LanguageModelV4Prompt =>
    [
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', content },
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
    ] as LanguageModelV4Prompt;
  const reasoningFile = (mediaType: string, data: Uint8Array | string) => ({
    type: 'reasoning-file',
    mediaType,
    data: { type: 'data', data },
  });
  const check = (messages: LanguageModelV4Prompt, cap?: number) =>
    budget(cap).check('go', guardContext('input', { messages }));

  it('an inline reasoning file counts its bytes / 4; an image one imageTokens', async () => {
    // `hi`, a line break and `go` (5), and 200,000 bytes / 4.
    expect(await check(withAssistant([reasoningFile('text/plain', TEXT_FILE)]))).toEqual({
      action: 'block',
      message: 'This request is over the token limit of 1000 tokens per request.',
      reason: 'input is 50005 tokens, over the per-request cap of 1000',
      severity: 'warning',
      info: { tokens: 50_005, cap: 1_000, source: 'tokenizer' },
    });
    expect(await check(withAssistant([reasoningFile('image/png', TEXT_FILE)]))).toMatchObject({
      action: 'block',
      info: { tokens: 1_605, cap: 1_000 },
    });
  });

  it("a custom part counts its provider options' JSON", async () => {
    const options = { anthropic: { payload: 'x'.repeat(2_000) } };
    const json = JSON.stringify(options);
    const prompt = withAssistant([
      { type: 'custom', kind: 'anthropic.payload', providerOptions: options },
    ]);
    // `hi`, the options' JSON and `go`, each after a line break but the first.
    expect(await check(prompt, 10_000)).toEqual({
      action: 'allow',
      info: { tokens: 2 + 1 + json.length + 1 + 2, source: 'tokenizer' },
    });
    expect(await check(prompt)).toMatchObject({ action: 'block', info: { cap: 1_000 } });
  });

  it('a small reasoning file passes with its count', async () => {
    const small = Buffer.from('short').toString('base64');
    expect(await check(withAssistant([reasoningFile('text/plain', small)]))).toEqual({
      action: 'allow',
      info: { tokens: 2 + 1 + 2 + Math.ceil(5 / 4), source: 'tokenizer' },
    });
  });
});
