import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../bench/fixtures';
import { generated, streamed } from '../../test/helpers/window';
import { pii } from '../guards/pii/pii';
import { secrets } from '../guards/secrets/secrets';
import { guardrails } from './guardrails-middleware';

// Round 24: the window's hold-back counted one skipped character per
// visible one (pii and secrets hold back twice their longest match). A
// card or key with 2 or more invisible or junk characters between its
// characters (which the detectors read through) was longer than that, so
// its first characters went out before the rest made it a match. Now the
// bound counts only the characters the detectors read.

const CARD = '4111111111111111';
const OPENAI = `sk-proj-${'Tq7vR2mX9pLw4ZcB8nYd3HsK6fJg1QaE5uVo0iWt'.repeat(4)}`;
const JUNK = ['\u200b', '\ufffd', '\u2060', '\u00ad', '\ufeff', '\u200d'];

/** `value` with `count` junk characters (picked by `next`) after each of its characters but the last. */
function spread(value: string, count: number, next: () => number): string {
  let out = '';
  for (let at = 0; at < value.length; at++) {
    out += value[at];
    if (at < value.length - 1) {
      for (let j = 0; j < count; j++) out += JUNK[Math.floor(next() * JUNK.length)];
    }
  }
  return out;
}

/** Deltas of random sizes 1-40. */
function chunks(text: string, next: () => number): string[] {
  const deltas: string[] = [];
  for (let at = 0; at < text.length; ) {
    const size = 1 + Math.floor(next() * 40);
    deltas.push(text.slice(at, at + size));
    at += size;
  }
  return deltas;
}

const PROSE = 'Here is the summary of what you asked for, with the details below. ';

describe('window mode: values with several junk characters between their characters', () => {
  const chains = {
    default: () => [pii({ action: 'redact' }), secrets({ action: 'redact' })],
    cards: () => [pii({ action: 'redact', entities: ['CREDIT_CARD'] })],
    ssn: () => [pii({ action: 'redact', entities: ['US_SSN', 'PHONE_NUMBER'] })],
    // A custom pattern: no hook, the window holds back its bound.
    custom: () => [
      pii({
        action: 'redact',
        entities: ['CREDIT_CARD'],
        custom: [{ type: 'EMPLOYEE_ID', pattern: /EMP-\d{6}/, maxLength: 10 }],
      }),
    ],
  };
  for (const count of [2, 3, 8, 40]) {
    for (const [name, value, placeholder, chainName] of [
      ['card', CARD, '[CREDIT_CARD]', 'default'],
      ['card', CARD, '[CREDIT_CARD]', 'cards'],
      ['card', CARD, '[CREDIT_CARD]', 'custom'],
      ['employee id', 'EMP-123456', '[EMPLOYEE_ID]', 'custom'],
      ['SSN', '536-22-1234', '[US_SSN]', 'ssn'],
      ['OpenAI key', OPENAI, '[OPENAI_API_KEY]', 'default'],
    ] as const) {
      const chain = chains[chainName];
      const window = guardrails({ output: chain(), stream: { mode: 'window' } });
      const reference = guardrails({ output: chain() });
      it(`a ${name} with ${count} junk characters between its characters (${chainName}): stream == generate`, async () => {
        const next = seededRandom(1000 * count + value.length);
        const failures: string[] = [];
        for (let run = 0; run < 12; run++) {
          const text = `${PROSE.repeat(1 + (run % 4))}Use ${spread(value, count, next)} today. ${PROSE}`;
          const expected = await generated(reference, text);
          expect(expected).toContain(placeholder);
          const deltas = run === 0 ? [text] : chunks(text, next);
          const out = (await streamed(window, text, deltas)).join('');
          // Every released prefix is one of `expected`, which holds no character of the value.
          if (out !== expected) failures.push(`run ${run}: ${JSON.stringify(out.slice(0, 600))}`);
        }
        expect(failures).toEqual([]);
      });
    }
  }
});
