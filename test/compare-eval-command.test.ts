import { describe, expect, it } from 'vitest';
import { evalCommand } from '../scripts/compare/worker';

describe("benchmarks.md's cross-check names the eval command that reproduces it", () => {
  it('gives the options the comparison ran with (pii: every entity type), none when there are none', () => {
    expect(evalCommand('pii', { entities: 'all' })).toBe(
      `ai-guardrails eval --guardrail pii --options '{"entities":"all"}'`,
    );
    expect(evalCommand('secrets', {})).toBe('ai-guardrails eval --guardrail secrets');
  });
});
