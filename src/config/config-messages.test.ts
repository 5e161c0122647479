import { describe, expect, it } from 'vitest';
import { notShownString } from '../../test/helpers';
import { GuardrailConfigError } from '../core/errors';
import { NotShown } from '../core/redact-secrets';
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
      'Invalid guardrail configuration at middleware: expected the result of await loadGuardrailsConfig(...): it returns a Promise, read middleware from what it resolves to, received a Promise',
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
        value: new NotShown('an object (not shown)'),
        expected:
          "no such option here: it is set by the file's stream_mode (and streamWindow here)",
      },
      {
        path: 'options.middleware.onTrip',
        value: notShownString('throw'),
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
        `Invalid guardrail configuration at output[0].model: expected a model name given in options.models (none were given), received a string of ${name.length} characters (not shown)`,
      );
      const error = await loadGuardrailsConfig(
        `input:\n  - type: rate-limit\n    limit: 5\n    windowMs: 1000\n    store: ${name}\n`,
        { stores: {} },
      ).catch((failure: unknown) => failure);
      expect((error as GuardrailConfigError).message).toBe(
        `Invalid guardrail configuration at input[0].store: expected a store name given in options.stores (none were given), received a string of ${name.length} characters (not shown)`,
      );
    }
  });
});

describe('a value under a secret-named key is not echoed (round 37)', () => {
  it('an unknown password / apiKey / token option names its path, never its value', async () => {
    expect(await messageOf('input:\n  - type: pii\n    password: hunter2xyz\n')).toBe(
      'Invalid guardrail configuration at input[0].password: expected no such option (known: action, entities, custom, defaultRegion, phoneRegions, obfuscatedEmails, placeholder, store, ttlMs, toolRestore, message, name), received a string of 10 characters (not shown)',
    );
    const nested = await messageOf(
      'input:\n  - type: llm-judge\n    model: {provider: openai, model: gpt, apiKey: hunter2xyz}\n    policy: x\n',
    );
    expect(nested).toContain(
      'input[0].model.apiKey: expected no such option, received a string of 10 characters (not shown)',
    );
    expect(nested).not.toContain('hunter2');
    expect(await messageOf('token: hunter2xyz\ninput: []\n')).not.toContain('hunter2');
    // Round 39: no other option says what it received either, only its type.
    expect(await messageOf('input:\n  - type: invisible-text\n    action: 3\n')).toContain(
      'received a number (not shown)',
    );
  });
});

describe('no value of a file is quoted, whatever its key (round 39)', () => {
  /** The error of a source given as YAML text or as an object. */
  async function errorOf(source: string | Record<string, unknown>, options = {}) {
    const error = await loadGuardrailsConfig(source, options).catch((failure: unknown) => failure);
    expect(GuardrailConfigError.isInstance(error)).toBe(true);
    return error as GuardrailConfigError;
  }

  /** Each case: the path reported, then the file with `/` for its line breaks. */
  const cases = `
    pasword: pasword: hunter2/input: []
    input[0].tokn: input:/  - type: pii/    tokn: hunter2
    input[0].action: input:/  - type: pii/    action: hunter2
    output[0].threshold: output:/  - type: prompt-injection/    threshold: hunter2
    input[0].type: input:/  - type: hunter2
    input[0].use: input:/  - use: hunter2
    output[0].model: output:/  - type: llm-judge/    model: hunter2/    policy: x
    stream_mode: stream_mode: hunter2/input: []
    input[0].entities[0]: input:/  - type: pii/    entities: [hunter2]
    input[0]: input:/  - hunter2
    input: input: hunter2
    input[0].enabled: input:/  - type: pii/    enabled: hunter2
    input[0].pasword: input:/  - use: a/    pasword: hunter2`
    .trim()
    .split('\n')
    .map(line => {
      const [path, file] = line.trim().split(/: (.*)/s) as [string, string];
      return [path, `${file.replaceAll('/', '\n')}\n`];
    });

  it.each(cases)('%s: its path and its type and length, never "hunter2"', async (path, yaml) => {
    const error = await errorOf(yaml);
    expect(`${error.message}${JSON.stringify(error)}`).not.toContain('hunter2');
    expect(error.issues.find(issue => issue.path === path)?.value).toEqual(
      notShownString('hunter2'),
    );
    expect(error.message).toContain(`${path}: expected `);
  });

  it('an object given in code: an unknown key, a number, an object, an array and a duplicate id', async () => {
    const error = await errorOf({
      input: [
        { type: 'pii', api_kee: 'hunter2', placeholder: { pin: 'hunter2' }, id: 'hunter2' },
        { type: 'pii', id: 'hunter2', pin: 123456 },
      ],
      blocked_message: ['hunter2', 'x'],
    });
    expect(`${error.message}${JSON.stringify(error)}`).not.toMatch(/hunter2|123456/);
    expect(error.issues.map(({ path, value }) => [path, String(value)])).toEqual([
      ['blocked_message', 'an array of 2 item(s) (not shown)'],
      ['input[0].placeholder', 'an object (not shown)'],
      ['input[0].api_kee', 'a string of 7 characters (not shown)'],
      ['input[1].id', 'a string of 7 characters (not shown)'],
    ]);
  });

  it('what the loader checked against its own list is still quoted: a type in the wrong place, a number out of range', async () => {
    const error = await errorOf(
      'stream_mode: window\noutput:\n  - type: output-schema\n    schema: {type: object}\n  - type: prompt-injection\n    threshold: 2\n',
    );
    expect(error.message).toContain('output[1].threshold: expected a number <= 1, received 2');
    expect(error.message).toMatch(
      /output\[0\]: expected a stream-safe guardrail .*, received "output-schema"/,
    );
  });

  it('a 10 MB key is cut in the path; a key that is an API key is redacted, as before', async () => {
    const key = `k${'x'.repeat(10_000_000)}`;
    const error = await errorOf({ input: [], [key]: 1, 'sk-abcdefghijklmnopqrstuvwxyz0123': 1 });
    expect(error.issues.map(issue => issue.path)).toEqual([
      'kxxxxxxxxxxxxxxx… (10000001 characters)',
      '[redacted]',
    ]);
    expect(error.message.length).toBeLessThan(2_000);
  });
});
