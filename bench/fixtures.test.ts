import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import type { GuardrailRecord } from '../src/core/types';
import { contentFilter } from '../src/index';
import type { StreamProcessor } from '../src/middleware/stream-processor';
import { windowProcessor } from '../src/middleware/window-processor';
import { outputCallGuard, releasedByProcessor } from './fixtures';

const deltas = (texts: readonly string[]): LanguageModelV4StreamPart[] =>
  texts.map(delta => ({ type: 'text-delta', id: 't', delta }));

/** `processor` with the parts pushed to it counted. */
function counted(processor: StreamProcessor) {
  const pushed: string[] = [];
  return {
    pushed,
    processor: {
      push: part => {
        pushed.push(part.type === 'text-delta' ? part.delta : part.type);
        return processor.push(part);
      },
      end: usage => processor.end(usage),
      close: () => processor.close(),
    } satisfies StreamProcessor,
  };
}

const record = { guardrail: 'stub', blocked: true } as unknown as GuardrailRecord;

/** Releases each delta as pushed; trips (report-only or not) at the delta `tripAt`. */
function tripping(tripAt: string, reportOnly: boolean): StreamProcessor {
  return {
    push: part => {
      const parts = part.type === 'text-delta' && part.delta !== tripAt ? [part] : [];
      return part.type === 'text-delta' && part.delta === tripAt
        ? { parts, trip: record, ...(reportOnly && { reportOnly }) }
        : { parts };
    },
    end: async () => ({ parts: [] }),
    close: () => [],
  };
}

describe('releasedByProcessor', () => {
  it('stops at a trip that withholds, as guardStream does', async () => {
    const { processor, pushed } = counted(tripping('cc', false));
    expect(await releasedByProcessor(processor, deltas(['a', 'bb', 'cc', 'ddd', 'e']))).toBe(3);
    expect(pushed).toEqual(['text-start', 'a', 'bb', 'cc']);
  });

  it('reads on past a report-only trip (passthrough releases everything)', async () => {
    const { processor, pushed } = counted(tripping('cc', true));
    expect(await releasedByProcessor(processor, deltas(['a', 'bb', 'cc', 'ddd', 'e']))).toBe(7);
    expect(pushed).toEqual(['text-start', 'a', 'bb', 'cc', 'ddd', 'e', 'text-end']);
  });

  it('pushes nothing after window mode trips on a listed phrase', async () => {
    const TRIP_AT = 8;
    const text = `I will kill you. ${'Then the rest of the answer goes on. '.repeat(40)}`;
    const parts: string[] = [];
    for (let at = 0; at < text.length; at += 4) parts.push(text.slice(at, at + 4));
    const { processor, pushed } = counted(
      windowProcessor(outputCallGuard(), [contentFilter()], 2048, () => true),
    );
    expect(await releasedByProcessor(processor, deltas(parts))).toBe(0);
    // The phrase ends in delta 4; the window's check that trips comes at delta 8 (it checks
    // every few deltas), long before the text's end.
    expect(pushed).toEqual(['text-start', ...parts.slice(0, TRIP_AT)]);
  });
});
