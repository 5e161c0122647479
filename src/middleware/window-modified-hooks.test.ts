import { describe, expect, it } from 'vitest';
import { cut } from '../../test/helpers';
import { generated, randomSizes, streamed } from '../../test/helpers/window';
import { contentFilter } from '../guards/content-filter/content-filter';
import { invisibleText } from '../guards/invisible-text/invisible-text';
import { urlFilter } from '../guards/url-filter/url-filter';
import { guardrails } from './guardrails-middleware';

// Round 25: the window asked the hooks about the raw text only, but a
// guardrail judges the text those before it changed. `invisibleText`
// strips the fillers of `kㅤㅤㅤiㅤㅤㅤl…`, so `contentFilter` after it
// reads `kil`, the start of an entry, where its hook (on the raw text, a
// spaced-out run not yet four letters long) saw none: `Then kil` went out
// before the block. The hooks now also judge the text as the chain changed it.

const FILLERS = ['\u3164', '\uffa0', '\u115f', '\u1160', '\u200b', '\u2060', '\u00ad', '\u034f'];

function spread(value: string, filler: string, count: number): string {
  return [...value].join(filler.repeat(count));
}

const PROSE = 'Here is the summary of what you asked for, ok. Then ';

describe('window mode: hooks judge the text as the guardrails before them changed it', () => {
  it('a blocklist phrase with fillers between its letters, after invisibleText: blocked, none of it released', async () => {
    const failures: string[] = [];
    for (const filler of FILLERS) {
      for (const count of [1, 3, 40]) {
        const value = spread('kill yourself', filler, count);
        const text = `${PROSE}${value} and some more words after it, to end.`;
        const middleware = guardrails({
          output: [
            invisibleText(),
            contentFilter({ blocklist: ['kill yourself'], categories: {} }),
          ],
          stream: { mode: 'window' },
          blockedMessage: 'BLOCKED',
        });
        expect(await generated(middleware, text)).toBe('BLOCKED');
        for (const sizes of [[1], [4], [13], [text.length], randomSizes(count)]) {
          const deltas = await streamed(middleware, text, cut(text, sizes));
          const released = deltas.slice(0, -1).join('');
          if (deltas.at(-1) !== 'BLOCKED' || released.length > PROSE.length) {
            failures.push(
              `${JSON.stringify(filler)} x${count} [${sizes[0]}]: ${JSON.stringify(deltas)}`,
            );
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('the 4-character stream of the filler case: nothing of the phrase (before: "Then kil")', async () => {
    const text = `${PROSE}${spread('kill yourself', '\u3164', 3)} and more.`;
    const middleware = guardrails({
      output: [invisibleText(), contentFilter({ blocklist: ['kill yourself'], categories: {} })],
      stream: { mode: 'window' },
      blockedMessage: 'BLOCKED',
    });
    expect(await streamed(middleware, text, cut(text, [4]))).toEqual([
      'Here is the summary of what you ',
      'asked for, ok. Then ',
      'BLOCKED',
    ]);
  });

  it('a denied URL with junk in its host, after invisibleText: redacted as generate does, never released raw', async () => {
    const failures: string[] = [];
    for (const filler of FILLERS) {
      for (const count of [1, 3, 40]) {
        const text = `${PROSE}https://${spread('evil.com', filler, count)}/x and some more words after it, to end.`;
        const middleware = guardrails({
          output: [invisibleText(), urlFilter({ deny: ['evil.com'], action: 'redact' })],
          stream: { mode: 'window' },
        });
        const expected = await generated(middleware, text);
        expect(expected).not.toContain('evil');
        for (const sizes of [[1], [4], [13], [text.length], randomSizes(count)]) {
          const out = (await streamed(middleware, text, cut(text, sizes))).join('');
          if (out !== expected)
            failures.push(
              `${JSON.stringify(filler)} x${count} [${sizes[0]}]: ${JSON.stringify(out)}`,
            );
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
