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

describe('wrong values given to the loader in code', () => {
  it('NaN, Infinity and a BigInt are named as such, not shown as null or a number', () => {
    expect(errorOf({ input: [{ type: 'prompt-injection', threshold: Number.NaN }] }).message).toBe(
      'Invalid guardrail configuration at input[0].threshold: expected a number, received NaN',
    );
    expect(errorOf({ input: [{ type: 'prompt-injection', threshold: 1n }] }).message).toBe(
      'Invalid guardrail configuration at input[0].threshold: expected a number, received 1n',
    );
    expect(
      errorOf({ input: [] }, { middleware: { streamWindow: Number.NEGATIVE_INFINITY } }).message,
    ).toBe(
      'Invalid guardrail configuration at options.middleware.streamWindow: expected a positive integer, received -Infinity',
    );
  });

  it('an object that is not plain data (a Map, a Date, a class instance) is no configuration', () => {
    const expected =
      'a plain object with input, output, tool_input, tool_output, tool_definitions, prompt_tool_outputs and tool_calls lists (a Map, a class instance or any object with another prototype is read as no lists at all)';
    for (const source of [
      new Map([['input', [{ type: 'pii' }]]]),
      new Date(0),
      new (class Settings {
        input = [{ type: 'pii' }];
      })(),
    ]) {
      const error = errorOf(source);
      expect(error.issues).toEqual([{ path: '(root)', value: source, expected }]);
    }
    // A null-prototype object is plain data.
    const bare = Object.assign(Object.create(null), { input: [{ type: 'pii' }] });
    expect(buildGuardrailsConfig(bare).guardrails.input.map(guardrail => guardrail.name)).toEqual([
      'pii',
    ]);
  });

  it('pin_tool_definitions.approved of the wrong shape is an issue, not a TypeError', () => {
    expect(errorOf({ input: [], pin_tool_definitions: { approved: {} } }).issues).toEqual([
      { path: 'pin_tool_definitions.approved', value: {}, expected: 'an array' },
    ]);
    expect(
      errorOf({ input: [], pin_tool_definitions: { approved: [null] } }).issues.map(
        issue => issue.path,
      ),
    ).toEqual(['pin_tool_definitions.approved[0]']);
  });

  it('each value is read once: a getter cannot pass validation with one value and build with another', () => {
    let reads = 0;
    const entry = {
      type: 'prompt-injection',
      get threshold() {
        reads++;
        return reads === 1 ? 0.5 : Number.NaN;
      },
    };
    const { guardrails } = buildGuardrailsConfig({ input: [entry] });
    expect(reads).toBe(1);
    expect(guardrails.input.map(guardrail => guardrail.name)).toEqual(['prompt-injection']);
  });
});
