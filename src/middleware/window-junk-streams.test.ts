import { describe, expect, it } from 'vitest';
import { prose } from '../../bench/fixtures';
import { cut } from '../../test/helpers/index';
import { generatedText, randomSizes, streamedTextDeltas } from '../../test/helpers/window';
import type { Guardrail } from '../core/types';
import { contentFilter } from '../guards/content-filter/content-filter';
import { pii } from '../guards/pii/pii';
import { secrets } from '../guards/secrets/secrets';
import { guardrails } from './guardrails-middleware';

// Round 27 (issue 16): prose with junk between its letters (a ZWSP flood,
// combining marks, selectors, tags, bidi controls, soft hyphens) barely
// streamed in window mode: `secrets`' hook took every token holding a
// character that is no letter for a key-like one, so the window held back
// its whole bound (2,048 characters read, about 100,000 code units of
// such text) and each check re-read it all; and checks ran every 72 code
// units however few of them a detector reads.

const ZWSP50 = '\u200b'.repeat(50);
const JUNK: Record<string, string> = {
  'ZWSP x50': ZWSP50,
  'combining marks': '\u0301\u0302\u0303\u0304\u0305\u0306\u0307\u0308'.repeat(3),
  'variation selectors': '\ufe0f'.repeat(20),
  'tag characters': '\u{E0041}'.repeat(20),
  'bidi marks': '\u200e\u200f'.repeat(10),
  'soft hyphens': '\u00ad'.repeat(30),
};

/** `text` with `junk` after each of its characters but the last. */
function withJunk(text: string, junk: string): string {
  return [...text].join(junk);
}

/** The chain of the issue, each guardrail's checked text counted in `checked`. */
function countedChain(checked: { characters: number; checks: number }): Guardrail[] {
  return [pii({ action: 'redact' }), secrets({ action: 'redact' }), contentFilter()].map(
    guardrail => ({
      ...guardrail,
      check: (text, ctx) => {
        checked.characters += text.length;
        checked.checks++;
        return guardrail.check(text, ctx);
      },
    }),
  );
}

const middleware = (output: Guardrail[]) =>
  guardrails({ output, stream: { mode: 'window' }, blockedMessage: 'BLOCKED' });
const chain = () => [pii({ action: 'redact' }), secrets({ action: 'redact' }), contentFilter()];

describe('window mode: junk-heavy streams', () => {
  it('prose with 50 ZWSP between every two characters streams, each check reading about its new text', async () => {
    const answer = withJunk(prose(1_500), ZWSP50); // ~75,000 code units
    const checked = { characters: 0, checks: 0 };
    const deltas = await streamedTextDeltas(
      middleware(countedChain(checked)),
      answer,
      cut(answer, [64]),
    );
    expect(deltas.join('')).toBe(answer);
    expect(await generatedText(middleware(chain()), answer)).toBe(answer);
    // A release every 72 characters read (32 at first): about 20 deltas.
    // Before, 2: the window held back its whole bound.
    expect(deltas.length).toBeGreaterThanOrEqual(15);
    // Each of the 3 guardrails read the answer under twice in all (1.72x
    // measured: each check reads its step, 72 characters read, and 48 of
    // left context, counted in characters read since round 28, about 2,450
    // code units of this text; 1.09x when the context was 48 code units);
    // before round 27, 3.1x, in checks over tens of thousands of units.
    expect(checked.characters / 3).toBeLessThan(1.8 * answer.length);
    expect(checked.checks / 3).toBeLessThanOrEqual(30);
  });

  for (const [name, junk] of Object.entries(JUNK)) {
    it(`prose with ${name} after every character streams, as generate returns it`, async () => {
      const answer = withJunk(prose(600), junk);
      const expected = await generatedText(middleware(chain()), answer);
      expect(expected).toBe(answer);
      for (const sizes of [[7], randomSizes(27)]) {
        const deltas = await streamedTextDeltas(middleware(chain()), answer, cut(answer, sizes));
        expect(deltas.join('')).toBe(expected);
        expect(deltas.length).toBeGreaterThanOrEqual(5);
      }
    });
  }

  it('an e-mail address and a key with ZWSP inside, among junk, are redacted as generate does', async () => {
    const key = `sk-proj-${'Tq7vR2mX9pLw4ZcB8nYd3HsK6fJg1QaE5uVo0iWt'.repeat(2)}`;
    const answer = [
      withJunk(prose(300), ZWSP50),
      ' Write to jane\u200b.doe@\u200bexample.com and use ',
      withJunk(key, '\u200b'),
      ' today. ',
      withJunk(prose(300), ZWSP50),
    ].join('');
    const expected = await generatedText(middleware(chain()), answer);
    expect(expected).toContain('Write to [EMAIL_ADDRESS] and use [OPENAI_API_KEY] today.');
    for (const sizes of [[3], [64], randomSizes(3), randomSizes(4)]) {
      const deltas = await streamedTextDeltas(middleware(chain()), answer, cut(answer, sizes));
      expect(deltas.join('')).toBe(expected);
      expect(deltas.length).toBeGreaterThanOrEqual(5);
    }
  });

  it('a blocked phrase with junk between its letters, among junk, is blocked; none of it goes out', async () => {
    const before = withJunk(prose(300), ZWSP50);
    const answer = `${before} ${withJunk('kill yourself', ZWSP50)} ${withJunk(prose(100), ZWSP50)}`;
    expect(await generatedText(middleware(chain()), answer)).toBe('BLOCKED');
    for (const sizes of [[3], [64], randomSizes(5)]) {
      const deltas = await streamedTextDeltas(middleware(chain()), answer, cut(answer, sizes));
      expect(deltas.at(-1)).toBe('BLOCKED');
      const released = deltas.slice(0, -1).join('');
      // Only text before the phrase went out (most of it: the answer streamed).
      expect(before.startsWith(released) || `${before} `.startsWith(released)).toBe(true);
      expect(released.length).toBeGreaterThan(before.length / 2);
    }
  });
});
