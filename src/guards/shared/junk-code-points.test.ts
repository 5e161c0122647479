import { generateText, isStepCount, streamText, tool, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { modelFor, promptSentWithRecords, windowAndGenerateTexts } from '../../../test/helpers';
import { turnsModel } from '../../../test/helpers/turns-model';
import { guardrails } from '../../middleware/guardrails-middleware';
import { guardTools } from '../../tools/guard-tool';
import { invisibleText } from '../invisible-text/invisible-text';
import { pii } from '../pii/pii';
import { secrets } from '../secrets/secrets';
import { isInvisibleCodePoint } from './normalize-text';

/*
 * Round 23: code points that stand for no character (U+FFFD, U+FFFC, lone
 * surrogates, noncharacters) were not read through by the normaliser, so
 * `4\uFFFD1\uFFFD1…` was no card and a token with lone surrogates between
 * its characters no token, in prompts, answers and tool calls.
 */

const CARD = '4111111111111111';
const GITHUB = 'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';
const spaced = (value: string, junk: string) => value.split('').join(junk);

describe('junk code points inside a value are read through', () => {
  it('generateText: a card with U+FFFD between its digits is redacted whole, junk included', async () => {
    const text = `Card ${spaced(CARD, '\uFFFD')} ok`;
    const { sent, records } = await promptSentWithRecords(pii(), text);
    expect(sent).toBe('Card [CREDIT_CARD] ok');
    expect(records).toEqual([
      {
        guardrail: 'pii',
        kind: 'input',
        status: 'modified',
        info: { types: ['CREDIT_CARD'], spans: [{ type: 'CREDIT_CARD', start: 5, end: 36 }] },
      },
    ]);
  });

  it('generateText: a token with lone surrogates of both halves between its characters', async () => {
    const token = GITHUB.split('')
      .map((char, at) => char + (at % 2 ? '\uD800' : '\uDFFF'))
      .join('')
      .slice(0, -1);
    const { sent, records } = await promptSentWithRecords(
      secrets({ action: 'redact' }),
      `use ${token} now`,
    );
    expect(sent).toBe('use [GITHUB_TOKEN] now');
    expect(records).toEqual([
      {
        guardrail: 'secrets',
        kind: 'input',
        status: 'modified',
        info: { types: ['GITHUB_TOKEN'], spans: [{ type: 'GITHUB_TOKEN', start: 4, end: 83 }] },
      },
    ]);
  });

  it('noncharacters (U+FDD0, U+FFFE, U+1FFFF) and U+FFFC inside an address', async () => {
    const { sent } = await promptSentWithRecords(
      pii(),
      'Mail ja\uFDD0ne.d\uFFFEoe@co\u{1FFFF}rp\uFFFC.io today.',
    );
    expect(sent).toBe('Mail [EMAIL_ADDRESS] today.');
  });

  it('junk beside a value stays outside the redaction, as it was written', async () => {
    const { sent } = await promptSentWithRecords(
      pii(),
      `x \uD83D${spaced(CARD, '\uFFFD')}\uDE00 y \u{1F600}${CARD}\u{1F600}`,
    );
    expect(sent).toBe('x \uD83D[CREDIT_CARD]\uDE00 y \u{1F600}[CREDIT_CARD]\u{1F600}');
  });

  it('private-use characters are not removed by the normaliser (icon fonts draw them); pii reads through them in a second reading (round 24)', async () => {
    const text = `Card ${spaced(CARD, '\uE000')} ok`;
    expect(await promptSentWithRecords(pii(), text)).toEqual({
      sent: 'Card [CREDIT_CARD] ok',
      records: [
        {
          guardrail: 'pii',
          kind: 'input',
          status: 'modified',
          info: { types: ['CREDIT_CARD'], spans: [{ type: 'CREDIT_CARD', start: 5, end: 36 }] },
        },
      ],
    });
    expect([0xe000, 0xf8ff, 0xf0000].some(isInvisibleCodePoint)).toBe(false);
    expect(
      [0xfffd, 0xfffc, 0xd800, 0xdfff, 0xfdd0, 0xfdef, 0xfffe, 0x10ffff].every(
        isInvisibleCodePoint,
      ),
    ).toBe(true);
  });

  it('invisibleText reports none of them (its own list, unchanged)', async () => {
    const text = `a\uFFFD\uD800\uFDD0\uFFFE\uFFFCb`;
    expect(await promptSentWithRecords(invisibleText(), text)).toEqual({
      sent: text,
      records: [{ guardrail: 'invisible-text', kind: 'input', status: 'passed' }],
    });
  });

  it('window streaming ends as generate does, at every cut', async () => {
    const answer = `Pay ${spaced(CARD, '\uFFFD')}\u{1F600}, key ${spaced(GITHUB, '\uDBFF')} \uD800end.`;
    const chunkings = [[1], [2], [3], [5], [7], [1, 4, 2]];
    for (const check of [pii(), secrets({ action: 'redact' })]) {
      const { generated, streamed } = await windowAndGenerateTexts(check, answer, chunkings);
      expect(streamed).toEqual(chunkings.map(() => generated));
    }
    expect((await windowAndGenerateTexts(pii(), answer, [])).generated).toBe(
      `Pay [CREDIT_CARD]\u{1F600}, key ${spaced(GITHUB, '\uDBFF')} \uD800end.`,
    );
    expect(
      (await windowAndGenerateTexts(secrets({ action: 'redact' }), answer, [])).generated,
    ).toBe(`Pay ${spaced(CARD, '\uFFFD')}\u{1F600}, key [GITHUB_TOKEN] \uD800end.`);
  });
  it('a delta ending in the first half of a pair (a lone surrogate until the next) changes nothing', async () => {
    const answer = `Pay ${spaced(CARD, '\uFFFD')}\u{1F600} and ${GITHUB}\u{1F600}.`;
    const split = answer.indexOf('\uDE00');
    const deltas = [answer.slice(0, split), answer.slice(split, -3), answer.slice(-3)];
    expect(deltas[0]!.endsWith('\uD83D')).toBe(true);
    const model = (chunks: string[]) =>
      wrapLanguageModel({
        model: modelFor(answer, chunks),
        middleware: guardrails({
          output: [pii(), secrets({ action: 'redact' })],
          stream: { mode: 'window' },
        }),
      });
    const expected = 'Pay [CREDIT_CARD]\u{1F600} and [GITHUB_TOKEN]\u{1F600}.';
    expect((await generateText({ model: model([answer]), prompt: 'hi' })).text).toBe(expected);
    expect(await streamText({ model: model(deltas), prompt: 'hi' }).text).toBe(expected);
  });
});

describe('guardTools', () => {
  it('a card with U+FFFD in a tool argument reaches execute redacted; a token in the result is redacted', async () => {
    const received: unknown[] = [];
    const model = turnsModel([
      {
        toolCalls: [
          { toolCallId: 'c1', toolName: 'save', input: { note: `card ${spaced(CARD, '\uFFFD')}` } },
        ],
      },
      { text: 'Saved.' },
    ]);
    const tools = guardTools(
      {
        save: tool({
          inputSchema: z.object({ note: z.string() }),
          execute: async input => {
            received.push(input);
            return { token: spaced(GITHUB, '\uDC00') };
          },
        }),
      },
      { input: [pii()], output: [secrets({ action: 'redact' })] },
    );
    const result = await generateText({
      model,
      tools,
      prompt: 'Save it',
      stopWhen: isStepCount(3),
    });
    expect(received).toEqual([{ note: 'card [CREDIT_CARD]' }]);
    expect(result.steps[0]!.toolResults[0]!.output).toEqual({ token: '[GITHUB_TOKEN]' });
  });
});
