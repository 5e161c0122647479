import { generateText, isStepCount, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import * as ai6 from 'ai-v6';
import * as ai6Test from 'ai-v6/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pngHolding, pseudoRandomBytes } from '../../../test/helpers/binary-heads';
import { getGuardrailOutcome } from '../../middleware/get-guardrail-outcome';
import { guardrails } from '../../middleware/guardrails-middleware';
import { tokenBudget } from './token-budget';

/*
 * Round 25: a tool result's `content` output was counted as the JSON text of
 * the whole output, its base64 media included: a 100 KB screenshot counted
 * as tens of thousands of tokens, and the step reading it was blocked. Its
 * media parts are now estimated like file parts of the prompt (an image
 * `imageTokens`, another file by size); a part of no known shape is still
 * counted as its JSON text.
 */

/** A 100 KB PNG (noise: base64 of it is no run the tokenizer folds). */
const SCREENSHOT = Buffer.from(pngHolding(pseudoRandomBytes(75_000))).toString('base64');
const CAPTION = 'Screenshot of example.com';
/** Characters as tokens: the counts below are the lengths of the texts counted. */
const byLength = (text: string) => text.length;

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 3, text: 3, reasoning: undefined },
};

/** A model that calls `screenshot` once, then answers "done". */
function screenshotThenDone(supportedUrls: Record<string, RegExp[]> = { 'image/*': [/^https:/] }) {
  let calls = 0;
  return new MockLanguageModelV4({
    // The model takes images by URL: the SDK does not download them.
    supportedUrls,
    doGenerate: async () => ({
      content:
        calls++ === 0
          ? [{ type: 'tool-call', toolCallId: 'c1', toolName: 'screenshot', input: '{}' }]
          : [{ type: 'text', text: 'done' }],
      finishReason: { unified: calls === 1 ? 'tool-calls' : 'stop', raw: undefined },
      usage,
      warnings: [],
    }),
  });
}

type Content = Array<Record<string, unknown>>;

/** The tokens the first record of a call's guardrails metadata counted. */
function tokensOf(providerMetadata: unknown): number | undefined {
  const records = (
    providerMetadata as { guardrails?: { records?: Array<{ info?: { tokens?: number } }> } }
  )?.guardrails?.records;
  return records?.[0]?.info?.tokens;
}

async function run(
  value: Content,
  options: Parameters<typeof tokenBudget>[0],
  supportedUrls?: Record<string, RegExp[]>,
) {
  const mock = screenshotThenDone(supportedUrls);
  const result = await generateText({
    model: wrapLanguageModel({
      model: mock,
      middleware: guardrails({ input: [tokenBudget(options)] }),
    }),
    tools: {
      screenshot: tool({
        inputSchema: z.object({}),
        execute: async () => 'taken',
        toModelOutput: () => ({ type: 'content', value }) as never,
      }),
    },
    prompt: 'Take a screenshot.',
    stopWhen: isStepCount(3),
  });
  const tokens = await Promise.all(
    result.steps.map(async step => {
      const record = (await getGuardrailOutcome(step))?.records[0];
      return { status: record?.status, tokens: (record?.info as { tokens?: number })?.tokens };
    }),
  );
  // What the first call was counted at: the tool definition and the question.
  const [first] = mock.doGenerateCalls;
  const definition = first?.tools?.[0] as { name: string; inputSchema: unknown } | undefined;
  const firstTokens =
    (definition?.name.length ?? 0) +
    1 +
    JSON.stringify(definition?.inputSchema).length +
    1 +
    'Take a screenshot.'.length;
  return { result, mock, tokens, firstTokens };
}

describe('tokenBudget counts media in a tool result like file parts (round 25)', () => {
  it('a 100 KB screenshot is one image: the next step runs (default tokenizer, cap 5,000)', async () => {
    const { result, mock, tokens } = await run(
      [
        { type: 'text', text: CAPTION },
        { type: 'file', mediaType: 'image/png', data: { type: 'data', data: SCREENSHOT } },
      ],
      { maxInputTokens: 5_000 },
    );
    expect(SCREENSHOT.length).toBeGreaterThan(100_000);
    expect(result.finishReason).toBe('stop');
    expect(result.text).toBe('done');
    expect(mock.doGenerateCalls).toHaveLength(2);
    expect(tokens.map(t => t.status)).toEqual(['passed', 'passed']);
  });

  it.each([
    // The question, the call's arguments ({}), the caption; the image 1,600.
    ['an image (AI SDK 7 file part)', { type: 'data', data: SCREENSHOT }, 'image/png', 1_600],
    // A PDF by size: ceil(bytes / 4).
    [
      'a PDF by size',
      { type: 'data', data: 'QUJDREVGR0g=' },
      'application/pdf',
      Math.ceil(Math.floor((12 * 3) / 4) / 4),
    ],
    ['an image by URL', { type: 'url', url: 'https://example.com/a.png' }, 'image/png', 1_600],
    [
      'a file by provider reference',
      { type: 'reference', reference: { openai: 'file-1' } },
      'application/pdf',
      1_600,
    ],
  ])('exact count: %s', async (_, data, mediaType, media) => {
    const { tokens, firstTokens } = await run(
      [
        { type: 'text', text: CAPTION },
        { type: 'file', mediaType, data },
      ],
      { maxInputTokens: 100_000, countTokens: byLength },
    );
    expect(tokens).toEqual([
      { status: 'passed', tokens: firstTokens },
      {
        status: 'passed',
        tokens: firstTokens + `\n{}\n${CAPTION}`.length + media,
      },
    ]);
  });

  // Round 26: a model that takes `data:` URLs gets them as they are, inline
  // (the SDK decodes them, and a URL object, only for a model that does
  // not): each was counted
  // as a referenced file, 1,600 tokens whatever its size.
  it('a PDF as a data: URL is counted by its size', async () => {
    const pdf = Buffer.from(pseudoRandomBytes(300_000)).toString('base64');
    const dataUrl = `data:application/pdf;base64,${pdf}`;
    const { tokens, firstTokens, mock } = await run(
      [{ type: 'file', mediaType: 'application/pdf', data: { type: 'url', url: dataUrl } }],
      { maxInputTokens: 100_000, countTokens: byLength },
      { '*/*': [/^data:/] },
    );
    // The provider is sent the URL itself.
    const toolMessage = mock.doGenerateCalls[1]?.prompt.at(-1);
    expect(JSON.stringify(toolMessage)).toContain(`"url":"${dataUrl.slice(0, 60)}`);
    expect(tokens).toEqual([
      { status: 'passed', tokens: firstTokens },
      { status: 'passed', tokens: firstTokens + '\n{}'.length + Math.ceil(300_000 / 4) },
    ]);
    // Over a cap it blocks, as the same bytes inline do.
    const capped = await run(
      [{ type: 'file', mediaType: 'application/pdf', data: { type: 'url', url: dataUrl } }],
      { maxInputTokens: 50_000 },
      { '*/*': [/^data:/] },
    );
    expect(capped.tokens[1]?.status).toBe('blocked');
    expect(capped.result.finishReason).toBe('content-filter');
  });

  it("counts a media part's filename and provider options as text", async () => {
    const { tokens, firstTokens } = await run(
      [
        {
          type: 'file',
          mediaType: 'image/png',
          filename: 'shot.png',
          data: { type: 'data', data: SCREENSHOT },
          providerOptions: { anthropic: { title: 'word' } },
        },
      ],
      { maxInputTokens: 100_000, countTokens: byLength },
    );
    const options = JSON.stringify({ anthropic: { title: 'word' } });
    expect(tokens[1]).toEqual({
      status: 'passed',
      tokens: firstTokens + `\n{}\nshot.png\n${options}`.length + 1_600,
    });
  });

  it('a screenshot over a cap of 1,000 still blocks at 1,600 (an image is not free)', async () => {
    const { result, tokens } = await run(
      [{ type: 'file', mediaType: 'image/png', data: { type: 'data', data: SCREENSHOT } }],
      { maxInputTokens: 1_000 },
    );
    expect(result.finishReason).toBe('content-filter');
    expect(tokens[1]?.status).toBe('blocked');
    expect(tokens[1]?.tokens).toBeGreaterThan(1_600);
    expect(tokens[1]?.tokens).toBeLessThan(1_700);
  });

  it('a malformed media part is counted as its JSON text, as before (fails closed)', async () => {
    // No media type: no provider could send it as a file; counted whole.
    const malformed = { type: 'file', data: { type: 'data', data: 'QUJD'.repeat(1_000) } };
    const budget = tokenBudget({ maxInputTokens: 100_000, countTokens: byLength });
    const model = wrapLanguageModel({
      model: screenshotThenDone(),
      middleware: guardrails({ input: [budget] }),
    });
    const result = await model.doGenerate({
      prompt: [
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c1',
              toolName: 'screenshot',
              output: { type: 'content', value: [malformed as never] },
            },
          ],
        },
      ],
    });
    expect(tokensOf(result.providerMetadata)).toBe(JSON.stringify(malformed).length);
  });
});

describe('tokenBudget counts AI SDK 6 tool-result media (spec v3)', () => {
  it('image-data of a 100 KB screenshot counts 1,600, through ai@6 generateText', async () => {
    let calls = 0;
    const model = new ai6Test.MockLanguageModelV3({
      doGenerate: async () => ({
        content:
          calls++ === 0
            ? [{ type: 'tool-call', toolCallId: 'c1', toolName: 'screenshot', input: '{}' }]
            : [{ type: 'text', text: 'done' }],
        finishReason: { unified: calls === 1 ? 'tool-calls' : 'stop', raw: undefined },
        usage,
        warnings: [],
      }),
    });
    const result = await ai6.generateText({
      model: ai6.wrapLanguageModel({
        model,
        middleware: guardrails({
          input: [tokenBudget({ maxInputTokens: 100_000, countTokens: byLength })],
          specificationVersion: 'v3',
        }),
      }),
      tools: {
        screenshot: ai6.tool({
          inputSchema: z.object({}),
          execute: async () => 'taken',
          toModelOutput: () => ({
            type: 'content',
            value: [
              { type: 'text', text: CAPTION },
              { type: 'image-data', data: SCREENSHOT, mediaType: 'image/png' },
              { type: 'file-data', data: 'QUJDREVGR0g=', mediaType: 'application/pdf' },
            ],
          }),
        }),
      },
      prompt: 'Take a screenshot.',
      stopWhen: ai6.stepCountIs(3),
    });
    expect(result.text).toBe('done');
    const [first, second] = result.steps.map(step => tokensOf(step.providerMetadata) ?? 0);
    // The image 1,600; the 9-byte PDF ceil(9 / 4) = 3.
    expect(second).toBe((first ?? 0) + `\n{}\n${CAPTION}`.length + 1_600 + 3);
  });
});
