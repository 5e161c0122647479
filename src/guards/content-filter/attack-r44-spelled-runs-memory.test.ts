import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { streamText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { cut, modelFor } from '../../../test/helpers';
import { guardrails } from '../../middleware/guardrails-middleware';
import { contentFilter } from './content-filter';

/*
 * Round 44, an attacker's read of round 43's spelled-runs window filter
 * (`spelledRunsMayMatch`, potential-start.ts): its two position tables
 * (`counted`, `starts`) are kept from call to call and grown to twice the
 * longest text it was asked about, so one large delta of spaced letters
 * in window mode leaves the guardrail holding 16 bytes per character for
 * as long as it lives (guardrails are usually made once per process):
 * 16.8 MB after one 1 MB delta, none with the same
 * text in 64-character deltas or through `generateText`. Bounded work,
 * unbounded memory kept. Found at bbe5b0ee; at 8302f965 (before the
 * filter) nothing is kept: new in round 43. The fix is
 * in potential-start.ts (hC's lane this round: keep small tables only, or
 * drop grown ones after the call): it.fails.
 */

setFlagsFromString('--expose_gc');
const collect = runInNewContext('gc') as () => void;

/** ArrayBuffer bytes still held after `run`, garbage collected before and after. */
async function bytesKept(run: () => Promise<unknown>): Promise<number> {
  collect();
  const before = process.memoryUsage().arrayBuffers;
  await run();
  collect();
  collect();
  return process.memoryUsage().arrayBuffers - before;
}

const answer = 'q x b a '.repeat(1 << 16); // 512 KB of spaced letters

async function streamed(deltas: string[]) {
  const guard = contentFilter({ blocklist: ['kill yourself'], categories: [] });
  const model = wrapLanguageModel({
    model: modelFor(answer, deltas),
    middleware: guardrails({ output: [guard], stream: { mode: 'window' } }),
  });
  const kept = await bytesKept(async () => {
    expect(await streamText({ model, prompt: 'hi' }).text).toBe(answer);
  });
  // The guardrail is still referenced here, as an application's module-level one is.
  expect(guard.name).toBe('content-filter');
  return kept;
}

describe('memory a contentFilter keeps after window mode', () => {
  it('after small deltas: under 1 MB (the baseline)', async () => {
    expect(await streamed(cut(answer, [64]))).toBeLessThan(1 << 20);
  });

  // At bbe5b0ee: about 16 bytes a character kept (8 MB). Since round 45 the
  // filter keeps a ring of `2L + 8` match positions, whatever the text's length.
  it('after one 512 KB delta: under 1 MB', async () => {
    expect(await streamed([answer])).toBeLessThan(1 << 20);
  });
});
