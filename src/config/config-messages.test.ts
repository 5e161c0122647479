import { describe, expect, it } from 'vitest';
import { GuardrailConfigError } from '../core/errors';
import { loadGuardrailsConfig } from './load-guardrails-config';

/** The message a newcomer reads for a file with one slip. */
async function messageOf(yaml: string): Promise<string> {
  const error = await loadGuardrailsConfig(yaml).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(GuardrailConfigError.isInstance(error)).toBe(true);
  return (error as GuardrailConfigError).message;
}

describe('config file messages a newcomer meets', () => {
  it('a misspelt list or option names the one it misspells', async () => {
    expect(await messageOf('outptu:\n  - type: pii\n')).toMatch(
      /^Invalid guardrail configuration at outptu: expected no such option \(did you mean 'output'\? known: input, output, /,
    );
    expect(await messageOf('output:\n  - type: pii\n    acton: redact\n')).toMatch(
      /^Invalid guardrail configuration at output\[0\]\.acton: expected no such option \(did you mean 'action'\? known: action, /,
    );
  });

  it('a missing required option says it is missing, not only the type it should have', async () => {
    expect(await messageOf('output:\n  - type: llm-judge\n    policy: No medical advice.\n')).toBe(
      'Invalid guardrail configuration at output[0].model: expected a string or an object (a required option, missing here), received undefined',
    );
  });
});
