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

const secret = 'redis://default:hunter2@cache.internal sk-abcdefghijklmnopqrstuvwxyz123456';
const redacted = 'redis://[redacted]@cache.internal [redacted]';

/** An object whose `key` getter throws an Error carrying a secret. */
function throwingAt(key: string, rest: Record<string, unknown> = {}): Record<string, unknown> {
  const object = { ...rest };
  Object.defineProperty(object, key, {
    enumerable: true,
    get() {
      throw new TypeError(`cannot read ${secret}`);
    },
  });
  return object;
}

const unreadable = {
  value: '(not read)',
  expected: `a value that can be read (reading it threw: cannot read ${redacted})`,
};

describe('a config object whose reading throws gives a typed error at its path, redacted', () => {
  it('a top-level getter', () => {
    const error = errorOf(throwingAt('input'));
    expect(error.issues).toEqual([{ path: 'input', ...unreadable }]);
    expect(error.message).toBe(
      `Invalid guardrail configuration at input: expected ${unreadable.expected}, received "(not read)"`,
    );
    expect(error.message).not.toContain('hunter2');
  });

  it("an entry's option and a list item", () => {
    const item = Object.defineProperty([{ type: 'pii' }], 1, {
      enumerable: true,
      get() {
        throw new TypeError(`cannot read ${secret}`);
      },
    });
    const error = errorOf({
      input: [throwingAt('threshold', { type: 'prompt-injection' })],
      output: item,
    });
    expect(error.issues).toEqual([
      { path: 'input[0].threshold', ...unreadable },
      { path: 'output[1]', ...unreadable },
    ]);
  });

  it('a Proxy whose ownKeys trap throws, and a thrown non-Error', () => {
    const proxy = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error(`no keys ${secret}`);
        },
      },
    );
    expect(errorOf({ input: [proxy] }).issues).toEqual([
      {
        path: 'input[0]',
        value: '(not read)',
        expected: `a value that can be read (reading it threw: no keys ${redacted})`,
      },
    ]);
    const odd = {};
    Object.defineProperty(odd, 'input', {
      enumerable: true,
      get() {
        throw Symbol('odd');
      },
    });
    expect(errorOf(odd).issues).toEqual([
      {
        path: 'input',
        value: '(not read)',
        expected: 'a value that can be read (reading it threw: Symbol(odd))',
      },
    ]);
  });

  it("the loader's options and their middleware options", () => {
    expect(errorOf({ input: [] }, throwingAt('models')).issues).toEqual([
      { path: 'options.models', ...unreadable },
    ]);
    expect(errorOf({ input: [] }, { middleware: throwingAt('inputScope') }).issues).toEqual([
      { path: 'options.middleware.inputScope', ...unreadable },
    ]);
  });

  it("a factory's or a model resolver's error message is redacted", () => {
    const factory = () => {
      throw new Error(`bad key ${secret}`);
    };
    expect(
      errorOf({ input: [{ type: 'mine' }] }, { guardrails: { mine: factory } }).issues,
    ).toEqual([
      {
        path: 'input[0]',
        value: 'mine',
        expected: `options the mine factory accepts (bad key ${redacted})`,
      },
    ]);
    const models = () => {
      throw new Error(`no model ${secret}`);
    };
    expect(
      errorOf({ input: [{ type: 'llm-judge', model: 'judge', policy: 'x' }] }, { models }).issues,
    ).toEqual([
      {
        path: 'input[0].model',
        value: 'judge',
        expected: `a model options.models resolves (it threw: no model ${redacted})`,
      },
    ]);
  });
});
