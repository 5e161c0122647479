import { describe, expect, it } from 'vitest';
import { allow, defineGuardrail } from '../src/core/define-guardrail';
import { guardrails } from '../src/middleware/guardrails-middleware';

/*
 * Round 36: `guardrails()` took the stream window as
 * `Math.max(...output.map(...))`, one argument per output guardrail, so a
 * list of 300,000 (a generated configuration file, which `check-config`
 * reads) threw "Maximum call stack size exceeded" instead of being built.
 */
describe('guardrails() with a very long list', () => {
  it('builds a middleware of 300,000 output guardrails', () => {
    const guardrail = defineGuardrail({ name: 'x', maxMatchLength: 7, check: () => allow() });
    const middleware = guardrails({ output: Array(300_000).fill(guardrail) });
    expect(typeof middleware.wrapGenerate).toBe('function');
    expect(typeof middleware.wrapStream).toBe('function');
  });
});
