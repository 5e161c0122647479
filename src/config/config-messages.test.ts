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

  it("a guardrails() option written as in code names the file's key for it, not the nearest spelling", async () => {
    const issuesOf = async (yaml: string) => {
      const error = await loadGuardrailsConfig(yaml).catch((failure: unknown) => failure);
      return (error as GuardrailConfigError).issues.map(({ path, expected }) => ({
        path,
        expected: expected.slice(0, expected.indexOf(' known:')),
      }));
    };
    expect(
      await issuesOf(
        'stream:\n  mode: window\noutput:\n  - type: pii\ntoolOutputs:\n  - type: prompt-injection\n',
      ),
    ).toEqual([
      { path: 'stream', expected: "no such option (did you mean 'stream_mode'?" },
      // Not tool_output (the nearest spelling): that is guardTools' list, not the middleware's toolOutputs.
      { path: 'toolOutputs', expected: "no such option (did you mean 'prompt_tool_outputs'?" },
    ]);
    expect(await issuesOf('tool_outputs:\n  - type: pii\n')).toEqual([
      { path: 'tool_outputs', expected: "no such option (did you mean 'prompt_tool_outputs'?" },
    ]);
  });

  it('a missing required option says it is missing, not only the type it should have', async () => {
    expect(await messageOf('output:\n  - type: llm-judge\n    policy: No medical advice.\n')).toBe(
      'Invalid guardrail configuration at output[0].model: expected a string or an object (a required option, missing here), received undefined',
    );
  });

  it('reading the middleware off the promise (await forgotten, JavaScript) throws instead of giving undefined', async () => {
    const loading = loadGuardrailsConfig('input:\n  - type: pii\n');
    // biome-ignore lint/suspicious/noExplicitAny: what a JavaScript caller can write
    const destructure = () => (loading as any).middleware;
    expect(destructure).toThrow(GuardrailConfigError);
    expect(destructure).toThrow(
      'Invalid guardrail configuration at middleware: expected the result of await loadGuardrailsConfig(...): it returns a Promise, read middleware from what it resolves to, received "a Promise"',
    );
    // Awaited, it is the configuration as ever.
    expect(Object.keys(await loading)).toEqual(['middleware', 'guardrails', 'guardTools']);
  });

  it("a guardrails() option the file sets, given in the loader's middleware option, says where it goes", async () => {
    const error = await loadGuardrailsConfig('output:\n  - type: pii\n', {
      // biome-ignore lint/suspicious/noExplicitAny: what a JavaScript caller (or a cast) can pass
      middleware: { stream: { mode: 'window' }, onTrip: 'throw' } as any,
    }).catch((failure: unknown) => failure);
    expect((error as GuardrailConfigError).issues).toEqual([
      {
        path: 'options.middleware.stream',
        value: { mode: 'window' },
        expected:
          "no such option here: it is set by the file's stream_mode (and streamWindow here)",
      },
      {
        path: 'options.middleware.onTrip',
        value: 'throw',
        expected: "no such option here: it is set by the file's on_trip",
      },
    ]);
  });
});

describe('a model or store named like what every object inherits', () => {
  it('`constructor`, `toString` and `__proto__` are unknown names, not a function received', async () => {
    for (const name of ['constructor', 'toString', '__proto__']) {
      expect(
        await messageOf(`output:\n  - type: llm-judge\n    model: ${name}\n    policy: x\n`),
      ).toBe(
        `Invalid guardrail configuration at output[0].model: expected a model name given in options.models (none were given), received "${name}"`,
      );
      const error = await loadGuardrailsConfig(
        `input:\n  - type: rate-limit\n    limit: 5\n    windowMs: 1000\n    store: ${name}\n`,
        { stores: {} },
      ).catch((failure: unknown) => failure);
      expect((error as GuardrailConfigError).message).toBe(
        `Invalid guardrail configuration at input[0].store: expected a store name given in options.stores (none were given), received "${name}"`,
      );
    }
  });
});

describe('a value under a secret-named key is not echoed (round 37)', () => {
  it('an unknown password / apiKey / token option names its path, never its value', async () => {
    expect(await messageOf('input:\n  - type: pii\n    password: hunter2xyz\n')).toBe(
      'Invalid guardrail configuration at input[0].password: expected no such option (known: action, entities, custom, defaultRegion, phoneRegions, obfuscatedEmails, placeholder, store, ttlMs, toolRestore, message, name), received "[redacted]"',
    );
    const nested = await messageOf(
      'input:\n  - type: llm-judge\n    model: {provider: openai, model: gpt, apiKey: hunter2xyz}\n    policy: x\n',
    );
    expect(nested).toContain(
      'input[0].model.apiKey: expected no such option, received "[redacted]"',
    );
    expect(nested).not.toContain('hunter2');
    expect(await messageOf('token: hunter2xyz\ninput: []\n')).not.toContain('hunter2');
    // Any other option still says what it received.
    expect(await messageOf('input:\n  - type: invisible-text\n    action: 3\n')).toContain(
      'received 3',
    );
  });
});
