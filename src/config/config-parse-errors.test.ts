import { afterEach, describe, expect, it, vi } from 'vitest';
import { GuardrailConfigError } from '../core/errors';
import { buildGuardrailsConfig, loadGuardrailsConfig } from './load-guardrails-config';

/*
 * Round 25: a YAML / JSON config that did not parse, or held no document,
 * was reported with its first 40 characters as the value, and yaml's own
 * message (whose pretty form quotes the line). A config's text holds the
 * secrets it is given: a key cut to 40 characters is not recognised by the
 * redaction of errors, and reached logs. The text is not shown now: its
 * length, yaml's error code, line and column. yaml's warnings (which quote
 * the line) are not printed.
 */

const KEY = 'sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78St90Uv12Wx34';

async function errorOf(source: string): Promise<GuardrailConfigError> {
  const error = await loadGuardrailsConfig(source).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(GuardrailConfigError.isInstance(error)).toBe(true);
  return error as GuardrailConfigError;
}

/** No stretch of 6 characters of the key, anywhere in the error. */
function expectNoPartOf(error: GuardrailConfigError, secret: string) {
  const shown = `${error.message}\n${JSON.stringify(error.issues)}`;
  for (let i = 0; i + 6 <= secret.length; i++) {
    expect(shown).not.toContain(secret.slice(i, i + 6));
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('config parse errors show no config text', () => {
  // The first 40 characters of each were shown with the secret cut short:
  // the password of the Redis URL (no `@` left) and the AWS secret key were
  // not recognised by the redaction of errors.
  it.each([
    [
      'a Redis URL with its password',
      'store: redis://default:Xy9Pq2Lm7Rt4Vb8Nc3Kd6Fg1Hj5@redis.example.com:6379',
      'Xy9Pq2Lm7Rt4Vb8Nc3Kd6Fg1Hj5',
    ],
    [
      'an AWS key pair',
      'note: AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    ],
    ['an OpenAI key', `note: ${KEY}`, KEY],
  ])(
    'a config whose first line holds %s and that does not parse: line and column only',
    async (_, line, secret) => {
      const source = `${line}\noutput: [\n  - type: pii\n`;
      const error = await errorOf(source);
      expect(error.issues).toEqual([
        {
          path: '(source)',
          value: `${source.length} characters of text (not shown)`,
          expected: 'valid YAML or JSON (BLOCK_IN_FLOW at line 3, column 3)',
        },
      ]);
      expectNoPartOf(error, secret);
    },
  );

  it('an unresolved alias named after the key: the alias is not quoted', async () => {
    const source = `output: *${KEY}\n`;
    const error = await errorOf(source);
    expect(error.issues).toEqual([
      {
        path: '(source)',
        value: `${source.length} characters of text (not shown)`,
        expected: 'valid YAML or JSON (ReferenceError)',
      },
    ]);
    expectNoPartOf(error, KEY);
  });

  it('a document of comments only, one holding the key: its length only', async () => {
    const source = `# judge key: ${KEY}\n`;
    const error = await errorOf(source);
    expect(error.issues).toEqual([
      {
        path: '(source)',
        value: `${source.length} characters of text (not shown)`,
        expected:
          'a configuration: an empty document (no text, or comments only) declares no guardrails; write input: [] for none on purpose',
      },
    ]);
    expectNoPartOf(error, KEY);
  });

  it("yaml's warning about an unresolved tag (which quotes the line) is not printed", async () => {
    const emitted = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { guardrails } = await loadGuardrailsConfig(`input: !${KEY} []\n`);
    expect(guardrails.input).toEqual([]);
    const printed = [...emitted.mock.calls, ...warned.mock.calls].map(call => String(call[0]));
    expect(printed).toEqual([]);
  });
});

/*
 * Round 36: `buildGuardrailsConfig('guardrails.yaml')` parsed the path as
 * YAML (one string) and said "expected an object ..." with the string as
 * the value and no hint that a file is read by `loadGuardrailsConfig`. A
 * one-line text can be a secret pasted by mistake: its length only.
 */
describe('a text that is one value, not a configuration', () => {
  const LISTS =
    'an object with input, output, tool_input, tool_output, tool_definitions, prompt_tool_outputs and tool_calls lists';
  const HINT = `${LISTS}; the text is one string, not a configuration: to read a file, await loadGuardrailsConfig(path) from 'ai-guardrails/config' (on Node, a path ending in .yaml, .yml or .json); buildGuardrailsConfig takes the YAML or JSON text itself, or its parsed object`;

  function buildErrorOf(source: string): GuardrailConfigError {
    try {
      buildGuardrailsConfig(source);
    } catch (error) {
      expect(GuardrailConfigError.isInstance(error)).toBe(true);
      return error as GuardrailConfigError;
    }
    throw new Error('expected a GuardrailConfigError');
  }

  it('a file path given to buildGuardrailsConfig names loadGuardrailsConfig', () => {
    const error = buildErrorOf('guardrails.yaml');
    expect(error.issues).toEqual([
      { path: '(root)', value: '15 characters of text (not shown)', expected: HINT },
    ]);
    expect(error.message).toBe(
      `Invalid guardrail configuration at (root): expected ${HINT}, received "15 characters of text (not shown)"`,
    );
  });

  it('a key pasted as the text: its length only, in every case', async () => {
    const error = buildErrorOf(KEY);
    expect(error.issues).toEqual([
      { path: '(root)', value: `${KEY.length} characters of text (not shown)`, expected: HINT },
    ]);
    expectNoPartOf(error, KEY);
    // loadGuardrailsConfig takes a string without a file extension as text.
    expectNoPartOf(await errorOf(KEY), KEY);
    const list = buildErrorOf(`- ${KEY}\n`);
    expect(list.issues).toEqual([
      {
        path: '(root)',
        value: `${KEY.length + 3} characters of text (not shown)`,
        expected: LISTS,
      },
    ]);
    expectNoPartOf(list, KEY);
  });
});
