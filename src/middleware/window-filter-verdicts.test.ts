import { describe, expect, it } from 'vitest';
import { bareCallGuard } from '../../test/helpers/window';
import { allow, defineGuardrail, modify } from '../core/define-guardrail';
import { HELD, type ProcessorStep, type StreamPart } from './stream-processor';
import { windowProcessor } from './window-processor';

/**
 * A check whose text some filter may match asks each filter once about it
 * (round 39): the check that follows reads the verdicts the window asked
 * for, instead of asking every filter again (twice a check before).
 */

/** A guardrail whose filter says `verdict` about every text, counting the texts it is asked about. */
function counted(name: string, verdict: (text: string) => boolean, asked: string[]) {
  return defineGuardrail({
    name,
    streamSafe: true,
    maxMatchLength: 16,
    potentialMatchStart: text => text.length,
    mayMatch: text => {
      asked.push(text);
      return verdict(text);
    },
    check: content =>
      content.includes('secret') ? modify(content.replaceAll('secret', '[gone]')) : allow(),
  });
}

async function stream(processor: ReturnType<typeof windowProcessor>, text: string) {
  const released: string[] = [];
  const take = async (step: ProcessorStep | Promise<ProcessorStep>) => {
    if (step === HELD) return;
    for (const part of (await step).parts)
      if (part.type === 'text-delta') released.push(part.delta);
  };
  await take(processor.push({ type: 'text-start', id: 't' }));
  for (let at = 0; at < text.length; at += 4) {
    await take(processor.push({ type: 'text-delta', id: 't', delta: text.slice(at, at + 4) }));
  }
  await take(processor.push({ type: 'text-end', id: 't' } as StreamPart));
  return released.join('');
}

describe('window mode asks each filter once per checked text', () => {
  const text = `${'plain words here and there '.repeat(6)}a secret word ${'more plain words '.repeat(4)}`;

  it('every checked text is asked about once by each filter, and the text is judged as before', async () => {
    const first: string[] = [];
    const second: string[] = [];
    const processor = windowProcessor(
      bareCallGuard(),
      [counted('never', () => false, first), counted('always', () => true, second)],
      64,
      () => true,
    );
    const released = await stream(processor, text);
    expect(released).toBe(text.replace('secret', '[gone]'));
    // Each filter saw the same texts, each once: the ruled-out one is not asked
    // again inside the check (before round 39 it was, so every text twice).
    expect(first.length).toBeGreaterThan(0);
    expect(first).toEqual(second);
    expect(new Set(first).size).toBe(first.length);
  });

  it('a filter after a guardrail that changed the text is asked about the changed text', async () => {
    const asked: string[] = [];
    const processor = windowProcessor(
      bareCallGuard(),
      [counted('changes', () => true, []), counted('after', text => text.includes('['), asked)],
      64,
      () => true,
    );
    const released = await stream(processor, text);
    expect(released).toBe(text.replace('secret', '[gone]'));
    // The window stops at the first filter that may match, so this one is
    // asked only inside the check, about the text the one before changed.
    expect(asked.filter(seen => seen.includes('[gone]')).length).toBeGreaterThan(0);
    expect(asked.filter(seen => seen.includes('secret'))).toEqual([]);
  });
});
