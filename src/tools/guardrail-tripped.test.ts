import { describe, expect, it } from 'vitest';
import { GuardrailTripwireError } from '../core/errors';
import type { GuardrailRecord } from '../core/types';
import { guardrailTripped } from './guardrail-tripped';

const record: GuardrailRecord = {
  guardrail: 'g',
  kind: 'tool_output',
  status: 'blocked',
  durationMs: 0,
};

// biome-ignore lint/suspicious/noExplicitAny: steps are built by hand here
const stop = (steps: Array<{ content: unknown[] }>) => guardrailTripped()({ steps: steps as any });

describe('guardrailTripped', () => {
  it('is true when the last step has a blocked tool output', async () => {
    expect(
      await stop([
        {
          content: [
            { type: 'tool-result', output: { status: 'blocked', guardrail: record, message: 'm' } },
          ],
        },
      ]),
    ).toBe(true);
  });

  it('is true when the last step has a GuardrailTripwireError tool error (throw mode)', async () => {
    expect(
      await stop([
        { content: [{ type: 'tool-error', error: new GuardrailTripwireError({ record }) }] },
      ]),
    ).toBe(true);
  });

  it('is false for ordinary results, other errors, earlier steps and no steps', async () => {
    const blockedStep = {
      content: [
        { type: 'tool-result', output: { status: 'blocked', guardrail: record, message: 'm' } },
      ],
    };
    expect(await stop([])).toBe(false);
    expect(
      await stop([
        {
          content: [
            { type: 'tool-result', output: { ok: true } },
            { type: 'tool-error', error: new Error('x') },
          ],
        },
      ]),
    ).toBe(false);
    expect(await stop([blockedStep, { content: [{ type: 'text', text: 'done' }] }])).toBe(false);
  });
});
