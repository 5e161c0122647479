import { describe, expect, it } from 'vitest';
import { bareCallGuard } from '../../test/helpers/window';
import { allow, defineGuardrail } from '../core/define-guardrail';
import { contentFilter } from '../guards/content-filter/content-filter';
import { pii } from '../guards/pii/pii';
import { secrets } from '../guards/secrets/secrets';
import type { StreamPart } from './stream-processor';
import { endsInPunctuation, windowProcessor } from './window-processor';

/** The text each push of `deltas` released (one string per push, '' for none). */
async function releasedPerPush(deltas: readonly string[]) {
  const processor = windowProcessor(
    bareCallGuard(),
    [pii(), secrets(), contentFilter()],
    2048,
    () => true,
  );
  const texts = (parts: readonly StreamPart[]) =>
    parts.map(part => (part.type === 'text-delta' ? part.delta : '')).join('');
  await processor.push({ type: 'text-start', id: 't' });
  const out: string[] = [];
  for (const delta of deltas) {
    out.push(texts((await processor.push({ type: 'text-delta', id: 't', delta })).parts));
  }
  out.push(texts((await processor.push({ type: 'text-end', id: 't' })).parts));
  return out;
}

const deltasOf = (text: string, size: number) =>
  Array.from({ length: Math.ceil(text.length / size) }, (_, i) =>
    text.slice(i * size, i * size + size),
  );

describe('window mode: a check of text ending in punctuation waits for one more delta (round 46)', () => {
  it('tells punctuation from letters, digits and blanks', () => {
    const punctuation = ['a.', 'b-', 'c:', 'd(', 'e/', 'f"'];
    expect(punctuation.filter(endsInPunctuation)).toEqual(punctuation);
    expect(['a', 'Z', '7', 'x ', 'y\n', '', 'é'].filter(endsInPunctuation)).toEqual([]);
  });

  it('releases at the delta after the step when the step ends at a full stop', async () => {
    // 32 characters (the first step) ending in `.`: before round 46 the
    // check ran at the 8th delta, where the one scan's test at `.` says
    // maybe (a host name may follow) and each filter was asked.
    const text = 'We shipped the new builds today. The notes follow soon.';
    expect(text.slice(0, 32)).toBe('We shipped the new builds today.');
    const out = await releasedPerPush(deltasOf(text, 4));
    expect(out).toEqual([
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      'We shipped the new builds ',
      '',
      '',
      '',
      '',
      '',
      'today. The notes follow soon.',
    ]);
  });

  it('waits once a step: deltas that all end in punctuation still release every step, a delta late', async () => {
    // A guardrail that holds nothing back: each check releases all it saw.
    const open = defineGuardrail({
      name: 'open',
      streamSafe: true,
      maxMatchLength: 16,
      potentialMatchStart: text => text.length,
      check: () => allow(),
    });
    const releases = async (text: string) => {
      const processor = windowProcessor(bareCallGuard(), [open], 2048, () => true);
      await processor.push({ type: 'text-start', id: 't' });
      const out: number[] = [];
      for (let at = 0; at < text.length; at += 4) {
        const step = await processor.push({
          type: 'text-delta',
          id: 't',
          delta: text.slice(at, at + 4),
        });
        const released = step.parts.filter(part => part.type === 'text-delta');
        if (released.length > 0) out.push(at + 4);
      }
      return out;
    };
    // 1,600 characters in 400 deltas: each ends in `;`, or in a letter.
    const late = await releases(' so;'.repeat(400));
    const plain = await releases(' sod'.repeat(400));
    // Every 32 characters while under 512 released, then every 72: each a delta later.
    expect(plain.slice(0, 3)).toEqual([32, 64, 96]);
    expect(late.slice(0, 3)).toEqual([36, 72, 108]);
    expect(plain.slice(-2)).toEqual([1520, 1592]);
    expect(late.slice(-2)).toEqual([1452, 1528]);
    expect([plain.length, late.length]).toEqual([31, 28]);
  });
});
