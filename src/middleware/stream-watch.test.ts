import { streamText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { withoutTiming } from '../../test/helpers';
import { allow, block, defineGuardrail } from '../core/define-guardrail';
import type { StreamWatchingGuardrail } from '../core/stream-watch';
import { scriptedModel } from '../testing/scripted-model';
import { getGuardrailOutcome } from './get-guardrail-outcome';
import { guardrails } from './guardrails-middleware';

/** The docs' example (docs/streaming.md): at most 5 lines per answer. */
function maxLines(onError?: 'allow') {
  const guard: StreamWatchingGuardrail = defineGuardrail({
    name: 'max-lines',
    streamSafe: true,
    ...(onError && { onError }),
    check: text => (text.split('\n').length > 5 ? block('Too long.') : allow()),
  });
  guard.watchStream = () => {
    let lines = 1;
    return {
      delta: delta => {
        lines += delta.split('\n').length - 1;
        return lines > 5 ? block('Too long.') : undefined;
      },
    };
  };
  return guard;
}

async function stream(guard: StreamWatchingGuardrail, answer: string) {
  const result = streamText({
    model: wrapLanguageModel({
      model: scriptedModel({ respond: () => answer, chunkSize: 3 }),
      middleware: guardrails({ output: [guard], stream: { mode: 'window' } }),
    }),
    prompt: 'List.',
  });
  return {
    text: await result.text,
    records: withoutTiming((await getGuardrailOutcome(result))!.records),
  };
}

const lines = (count: number) =>
  Array.from({ length: count }, (_, index) => `item ${index + 1}`).join('\n');

describe('watchStream: a custom whole-answer rule in window streams', () => {
  it('trips at the delta that starts the sixth line, whatever each window saw', async () => {
    const result = await stream(maxLines(), lines(40));
    expect(result.text.endsWith('Too long.')).toBe(true);
    expect(lines(40).startsWith(result.text.slice(0, -'Too long.'.length))).toBe(true);
    expect(result.text.slice(0, -'Too long.'.length).split('\n').length).toBeLessThanOrEqual(5);
    expect(result.records).toEqual([
      { guardrail: 'max-lines', kind: 'output', status: 'blocked', message: 'Too long.' },
    ]);
  });

  it('lets an answer within the rule stream whole, with one passing record', async () => {
    const result = await stream(maxLines(), lines(5));
    expect(result).toEqual({
      text: lines(5),
      records: [{ guardrail: 'max-lines', kind: 'output', status: 'passed' }],
    });
  });

  it('fails closed when a watcher throws, unless the guardrail allows errors', async () => {
    const broken = (onError?: 'allow') => {
      const guard = maxLines(onError);
      guard.watchStream = () => ({
        delta: () => {
          throw new Error('watcher bug');
        },
      });
      return guard;
    };
    const closed = await stream(broken(), lines(3));
    expect(closed.records).toEqual([
      { guardrail: 'max-lines', kind: 'output', status: 'error', reason: 'watcher bug' },
    ]);
    expect(closed.text).not.toContain('item');
    const open = await stream(broken('allow'), lines(3));
    expect(open.text).toBe(lines(3));
  });
});
