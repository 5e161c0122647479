import { describe, expect, it } from 'vitest';
import { GuardrailConfigError } from '../core/errors';
import { buildGuardrailsConfig } from './load-guardrails-config';

/** The error `buildGuardrailsConfig` throws (fails the test when it returns or throws anything else). */
function errorOf(source: unknown, options?: unknown): GuardrailConfigError {
  let thrown: unknown;
  try {
    buildGuardrailsConfig(source as never, options as never);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(GuardrailConfigError);
  return thrown as GuardrailConfigError;
}

/** An object with `count` unknown keys `unknown_0`, `unknown_1`, ... besides `base`. */
function withUnknownKeys(count: number, base: Record<string, unknown> = {}) {
  const object: Record<string, unknown> = { ...base };
  for (let index = 0; index < count; index++) object[`unknown_${index}`] = index;
  return object;
}

describe('a config error is bounded, whatever the number of problems', () => {
  it('the message shows the first 50 problems and says how many more error.issues holds', () => {
    const error = errorOf(withUnknownKeys(10_000, { input: [] }));
    expect(error.issues).toHaveLength(10_000);
    const lines = error.message.split('\n');
    expect(lines[0]).toBe('Invalid guardrail configuration (10000 problems):');
    expect(lines).toHaveLength(52);
    expect(lines[51]).toBe('- ... and 9950 more problems (every one is in error.issues)');
    expect(lines[50]).toBe(
      '- unknown_49: expected no such option (known: as for unknown_0), received 49',
    );
    expect(error.message.length).toBeLessThan(6_000);
  });

  it('names the known keys once: the first problem lists them, the others refer to it', () => {
    const error = errorOf({ input: [withUnknownKeys(3, { type: 'pii', acton: 'block' })] });
    const lines = error.message.split('\n');
    expect(lines[0]).toBe('Invalid guardrail configuration (4 problems):');
    expect(lines[1]).toMatch(
      /^- input\[0\]\.acton: expected no such option \(did you mean 'action'\? known: action, [A-Za-z_, ]+\), received "block"$/,
    );
    expect(lines.slice(2)).toEqual([
      '- input[0].unknown_0: expected no such option (known: as for input[0].acton), received 0',
      '- input[0].unknown_1: expected no such option (known: as for input[0].acton), received 1',
      '- input[0].unknown_2: expected no such option (known: as for input[0].acton), received 2',
    ]);
    // Each issue keeps its whole text, for a program that reads error.issues.
    expect(error.issues[3]!.expected).toBe(error.issues[1]!.expected);
    expect(error.issues[3]!.expected).toMatch(/^no such option \(known: action, /);
  });

  it('a few problems are all shown, as before', () => {
    const error = errorOf(withUnknownKeys(50, { input: [] }));
    const lines = error.message.split('\n');
    expect(lines).toHaveLength(51);
    expect(lines[0]).toBe('Invalid guardrail configuration (50 problems):');
    expect(lines[50]).toBe(
      '- unknown_49: expected no such option (known: as for unknown_0), received 49',
    );
  });
});
