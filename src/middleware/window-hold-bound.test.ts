import { streamText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { cut, modelFor, withoutTiming } from '../../test/helpers';
import { SELF_HARM_BLOCKED } from '../../test/helpers/content-filter-cases';
import { generatedText } from '../../test/helpers/window';
import { contentFilter } from '../guards/content-filter/content-filter';
import { pii } from '../guards/pii/pii';
import { secrets } from '../guards/secrets/secrets';
import { getGuardrailOutcome } from './get-guardrail-outcome';
import { guardrails } from './guardrails-middleware';

// Round 29: the window's hooks hold a right-to-left override (or any
// bidirectional entry) still open, and a PEM private key block without its
// END line, from their start until they end, since no bounded check can
// judge what follows them as generate does. Before, such a hold had no
// bound: an RLO early in a long line, or a BEGIN line with no END, held the
// rest of the part to its end (window mode turned into hold mode, the whole
// answer in memory). Past 2 × window + 2 × TURNED_REACH characters read
// (2,112 for this chain), and never less than MIN_HOLD_BOUND (16,384: a
// 4096-bit RSA key streams), the window now judges what is held and fails
// closed.

const RLO = '\u202e';

const middleware = (window?: number) =>
  guardrails({
    output: [pii({ action: 'redact' }), secrets({ action: 'redact' }), contentFilter()],
    stream: { mode: 'window', ...(window !== undefined && { window }) },
    blockedMessage: 'BLOCKED',
  });

/** `streamText`'s text parts and finish reason for `answer` in `size`-character deltas, and its records. */
async function streamed(answer: string, size: number, window?: number) {
  const result = streamText({
    model: wrapLanguageModel({
      model: modelFor(answer, cut(answer, [size])),
      middleware: middleware(window),
    }),
    prompt: 'q',
  });
  const parts: string[] = [];
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') parts.push(`delta:${part.text}`);
    else if (part.type === 'text-start' || part.type === 'text-end') parts.push(part.type);
    else if (part.type === 'finish') parts.push(`finish:${part.finishReason}`);
  }
  return { parts, records: withoutTiming((await getGuardrailOutcome(result))?.records) };
}

const bounded = (guardrail: string, heldBack: number) => ({
  guardrail,
  kind: 'output',
  status: 'blocked',
  reason:
    "window mode: more than 16384 characters held back by a match that does not end (an open bidirectional override, a PEM block without its END line); stream such answers in 'hold' mode or with a larger stream.window",
  info: { heldBack, bound: 16384 },
});

const passed = (guardrail: string) => ({ guardrail, kind: 'output', status: 'passed' });

const pemLines = (count: number) =>
  Array.from(
    { length: count },
    (_, i) => `MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC${String(i).padStart(2, '0')}xyz`,
  ).join('\n');

describe('window mode: a hold with no end of its own fails closed past its bound', () => {
  it('an RLO early in a long line: the text before it, then the block (before: all of it at the end)', async () => {
    const answer = `Intro words. ${RLO}${'olleh dlrow '.repeat(4_000)}`;
    expect(await generatedText(middleware(), answer)).toBe(answer);
    const { parts, records } = await streamed(answer, 4);
    expect(parts).toEqual([
      'text-start',
      'delta:Intro words. ',
      'text-end',
      'text-start',
      'delta:BLOCKED',
      'text-end',
      'finish:content-filter',
    ]);
    expect(records).toEqual([passed('pii'), passed('secrets'), bounded('content-filter', 26238)]);
  });

  it('a PEM block with no END line: the text before it, then the block; no key text in any record', async () => {
    // 46,000 characters: past the bound (checks run at 1.5 times the last
    // pending length, so a hold is judged somewhere past 16,384 and 24,576).
    const answer = `Here is the key:\n-----BEGIN RSA PRIVATE KEY-----\n${pemLines(800)}\n`;
    expect(await generatedText(middleware(), answer)).toMatch(/^Here is the key:\n\[PRIVATE_KEY\]/);
    const { parts, records } = await streamed(answer, 4);
    expect(parts).toEqual([
      'text-start',
      'delta:Here is the ',
      'text-end',
      'text-start',
      'delta:BLOCKED',
      'text-end',
      'finish:content-filter',
    ]);
    expect(records).toEqual([passed('pii'), passed('content-filter'), bounded('secrets', 24980)]);
    expect(JSON.stringify(records)).not.toContain('MIIE');
  });

  it('what is held is judged first: an entry inside it blocks with its own record', async () => {
    const answer = `Intro words. ${RLO}${'olleh dlrow '.repeat(100)}flesruoy llik ${'olleh dlrow '.repeat(1_500)}`;
    const { parts, records } = await streamed(answer, 4);
    expect(parts.slice(0, 2)).toEqual(['text-start', 'delta:Intro words. ']);
    expect(parts.slice(-3)).toEqual(['delta:BLOCKED', 'text-end', 'finish:content-filter']);
    expect(records).toEqual([passed('pii'), passed('secrets'), SELF_HARM_BLOCKED]);
  });

  it('within the bound nothing changes: a closed PEM block and a short open override stream as generate', async () => {
    for (const answer of [
      `Key:\n-----BEGIN RSA PRIVATE KEY-----\n${pemLines(25)}\n-----END RSA PRIVATE KEY-----\nThat was the key, now some more words to stream.`,
      `Intro words. ${RLO}${'olleh dlrow '.repeat(150)}`,
      // A 4096-bit RSA key's length (about 3,300 characters): past 2,112, within 16,384.
      `Key:\n-----BEGIN RSA PRIVATE KEY-----\n${pemLines(60)}\n-----END RSA PRIVATE KEY-----\nThat was the key.`,
      `Intro words. ${RLO}${'olleh dlrow '.repeat(400)}`,
    ]) {
      const expected = await generatedText(middleware(), answer);
      const { parts } = await streamed(answer, 4);
      expect(parts.at(-1)).toBe('finish:stop');
      expect(
        parts
          .filter(part => part.startsWith('delta:'))
          .map(part => part.slice(6))
          .join(''),
      ).toBe(expected);
    }
  });

  it('a larger stream.window raises the bound: the long override streams as generate', async () => {
    const answer = `Intro words. ${RLO}${'olleh dlrow '.repeat(2_000)}`;
    const { parts } = await streamed(answer, 4, 16_384);
    expect(parts).toEqual([
      'text-start',
      'delta:Intro words. ',
      `delta:${answer.slice('Intro words. '.length)}`,
      'text-end',
      'finish:stop',
    ]);
  });
});
