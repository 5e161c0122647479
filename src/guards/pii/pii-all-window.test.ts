import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../bench/fixtures';
import { generated, streamed } from '../../../test/helpers/window';
import { guardrails } from '../../middleware/guardrails-middleware';
import { findPii } from './find-pii-bundled';
import { pii } from './pii';

/*
 * Window mode re-checks released (redacted) text as the left context of the
 * text it still holds, so the name tagger sees placeholders where generate
 * saw the values: names, numbers and capitalised words written against
 * phone numbers, addresses and IPs, in random deltas, must stream exactly as
 * generate redacts them, and no value generate hides may be released.
 */

const PIECES = [
  'Grace Okafor',
  'Jane Doe',
  'Doe',
  'Fax',
  'Office',
  'Unspecified',
  'Contact:',
  'and',
  'the',
  'Mr.',
  'Hi',
  'Smith',
  'Paris',
  'Acme Corp',
  '221B Baker Street',
  '555-867-5309',
  '(415) 555-0132',
  '192.168.1.20',
  'jane@example.com',
  'call',
  'from',
  'Dear',
];
const JOINS = [' ', ' ', '-', ', ', '\n', ': '];

describe("pii({ entities: 'all' }) in window mode", () => {
  it('streams what generate returns and releases no value it hides (seeded, 400 texts x 2 chunkings)', async () => {
    const next = seededRandom(20261201);
    const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
    const window = guardrails({ output: [pii({ entities: 'all' })], stream: { mode: 'window' } });
    const reference = guardrails({ output: [pii({ entities: 'all' })] });
    const failures: string[] = [];
    let hiding = 0;
    for (let i = 0; i < 400 && failures.length < 5; i++) {
      let text = '';
      for (let piece = 2 + Math.floor(next() * 10); piece > 0; piece--) {
        text += pick(PIECES) + pick(JOINS);
      }
      const expected = await generated(reference, text);
      const hidden = findPii(text, { entities: 'all' })
        .map(span => text.slice(span.start, span.end))
        .filter(value => value.length >= 4 && !expected.includes(value));
      if (hidden.length > 0) hiding++;
      for (const size of [1 + Math.floor(next() * 12), 1 + Math.floor(next() * 40)]) {
        const deltas: string[] = [];
        for (let at = 0; at < text.length; at += size) deltas.push(text.slice(at, at + size));
        const out = await streamed(window, text, deltas);
        if (out.join('') !== expected) {
          failures.push(
            `${JSON.stringify(text)} in deltas of ${size}: ${JSON.stringify(out.join(''))}`,
          );
          continue;
        }
        let released = '';
        for (const delta of out) {
          released += delta;
          const leaked = hidden.find(value => released.includes(value));
          if (leaked) {
            failures.push(`${JSON.stringify(text)} in deltas of ${size}: released ${leaked}`);
            break;
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(hiding).toBeGreaterThan(300); // the generator is not idle
  }, 120_000);
});
