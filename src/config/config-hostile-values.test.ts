import { describe, expect, it } from 'vitest';
import { notShownString } from '../../test/helpers';
import { GuardrailConfigError } from '../core/errors';
import { NotShown } from '../core/redact-secrets';
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
      '- unknown_49: expected no such option (known: as for unknown_0), received a number (not shown)',
    );
    expect(error.message.length).toBeLessThan(6_000);
  });

  it('names the known keys once: the first problem lists them, the others refer to it', () => {
    const error = errorOf({ input: [withUnknownKeys(3, { type: 'pii', acton: 'block' })] });
    const lines = error.message.split('\n');
    expect(lines[0]).toBe('Invalid guardrail configuration (4 problems):');
    expect(lines[1]).toMatch(
      /^- input\[0\]\.acton: expected no such option \(did you mean 'action'\? known: action, [A-Za-z_, ]+\), received a string of 5 characters \(not shown\)$/,
    );
    expect(lines.slice(2)).toEqual([
      '- input[0].unknown_0: expected no such option (known: as for input[0].acton), received a number (not shown)',
      '- input[0].unknown_1: expected no such option (known: as for input[0].acton), received a number (not shown)',
      '- input[0].unknown_2: expected no such option (known: as for input[0].acton), received a number (not shown)',
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
      '- unknown_49: expected no such option (known: as for unknown_0), received a number (not shown)',
    );
  });
});

const secret = 'redis://default:hunter2@cache.internal sk-abcdefghijklmnopqrstuvwxyz123456';

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
  expected: 'a value that can be read (reading it threw a TypeError, its message not shown)',
};

describe('a config object whose reading throws gives a typed error at its path, its message not shown', () => {
  it('a top-level getter', () => {
    const error = errorOf(throwingAt('input'));
    expect(error.issues).toEqual([{ path: 'input', ...unreadable }]);
    expect(error.message).toBe(
      `Invalid guardrail configuration at input: expected ${unreadable.expected}, received "(not read)"`,
    );
    expect(JSON.stringify(error)).not.toContain('hunter2');
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
        expected: 'a value that can be read (reading it threw an Error, its message not shown)',
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
        expected: 'a value that can be read (reading it threw a symbol, not shown)',
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

  it("a factory's or a model resolver's error is named by its class", () => {
    const factory = () => {
      throw new Error(`bad key ${secret}`);
    };
    expect(
      errorOf({ input: [{ type: 'mine' }] }, { guardrails: { mine: factory } }).issues,
    ).toEqual([
      {
        path: 'input[0]',
        value: 'mine',
        expected: 'options the mine factory accepts (it threw an Error, its message not shown)',
      },
    ]);
    // A message of any length, or one that cannot be read: never read.
    const long = () => {
      throw new Error(`line one\nline two ${'x'.repeat(300)}`);
    };
    expect(
      errorOf({ input: [{ type: 'mine' }] }, { guardrails: { mine: long } }).issues[0]!.expected,
    ).toBe('options the mine factory accepts (it threw an Error, its message not shown)');
    const unreadableError = () => {
      throw {
        get message() {
          throw new Error('no');
        },
      };
    };
    expect(
      errorOf({ input: [{ type: 'mine' }] }, { guardrails: { mine: unreadableError } }).issues[0]!
        .expected,
    ).toBe('options the mine factory accepts (it threw an object, not shown)');
    const hidden = Object.defineProperty(new Error(), 'message', {
      get() {
        throw new Error('no');
      },
    });
    expect(
      errorOf(
        { input: [{ type: 'mine' }] },
        {
          guardrails: {
            mine: () => {
              throw hidden;
            },
          },
        },
      ).issues[0]!.expected,
    ).toBe('options the mine factory accepts (it threw an Error, its message not shown)');
    const models = () => {
      throw new Error(`no model ${secret}`);
    };
    expect(
      errorOf({ input: [{ type: 'llm-judge', model: 'judge', policy: 'x' }] }, { models }).issues,
    ).toEqual([
      {
        path: 'input[0].model',
        value: notShownString('judge'),
        expected: 'a model options.models resolves (it threw an Error, its message not shown)',
      },
    ]);
  });
});

describe('wrong values given to the loader in code', () => {
  it('NaN and Infinity are named as such, not shown as null; a BigInt by its type', () => {
    expect(errorOf({ input: [{ type: 'prompt-injection', threshold: Number.NaN }] }).message).toBe(
      'Invalid guardrail configuration at input[0].threshold: expected a number, received NaN',
    );
    expect(errorOf({ input: [{ type: 'prompt-injection', threshold: 1n }] }).message).toBe(
      'Invalid guardrail configuration at input[0].threshold: expected a number, received a bigint (not shown)',
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
    // A class instance is named by its class (round 38: its fields were shown); a Date as it is.
    for (const [source, value] of [
      [new Map([['input', [{ type: 'pii' }]]]), 'a Map (not shown)'],
      [new Date(0), '1970-01-01T00:00:00.000Z'],
      [
        new (class Settings {
          input = [{ type: 'pii' }];
        })(),
        'a Settings (not shown)',
      ],
    ] as const) {
      const error = errorOf(source);
      expect(JSON.parse(JSON.stringify(error.issues))).toEqual([
        { path: '(root)', value, expected },
      ]);
    }
    // A null-prototype object is plain data.
    const bare = Object.assign(Object.create(null), { input: [{ type: 'pii' }] });
    expect(buildGuardrailsConfig(bare).guardrails.input.map(guardrail => guardrail.name)).toEqual([
      'pii',
    ]);
  });

  it('pin_tool_definitions.approved of the wrong shape is an issue, not a TypeError', () => {
    expect(errorOf({ input: [], pin_tool_definitions: { approved: {} } }).issues).toEqual([
      {
        path: 'pin_tool_definitions.approved',
        value: new NotShown('an object (not shown)'),
        expected: 'an array',
      },
    ]);
    expect(
      errorOf({ input: [], pin_tool_definitions: { approved: [null] } }).issues.map(
        issue => issue.path,
      ),
    ).toEqual(['pin_tool_definitions.approved[0]']);
  });

  it('a __proto__ key of an object source stays a key (an unknown one), not a prototype', () => {
    const error = errorOf(JSON.parse('{"input": [], "__proto__": {"input": [{"type": "pii"}]}}'));
    expect(error.issues.map(issue => [issue.path, issue.expected.slice(0, 22)])).toEqual([
      ['__proto__', 'no such option (known:'],
    ]);
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

describe("a thrown error's message is never quoted, only its class (round 38)", () => {
  // Unstructured secrets: no URL, no known key prefix, no long opaque run.
  const messages = ['pw=hunter2', 'password: hunter2', 'token hunter2', 'hunter2'];

  /** Every place a config error may show a text: its message, its issues, its JSON. */
  const shown = (error: GuardrailConfigError) =>
    `${error.message}\n${JSON.stringify(error.issues)}\n${JSON.stringify(error)}`;

  it('a getter, a Proxy trap, a factory, a model resolver and the options check: the class only', () => {
    for (const message of messages) {
      const getter = Object.defineProperty({}, 'input', {
        enumerable: true,
        get() {
          throw new TypeError(message);
        },
      });
      const trap = new Proxy(
        {},
        {
          ownKeys() {
            throw new RangeError(message);
          },
        },
      );
      const factory = () => {
        throw new Error(message);
      };
      const models = () => {
        throw new Error(message);
      };
      const errors = [
        errorOf(getter),
        errorOf({ input: [trap] }),
        errorOf({ input: [{ type: 'mine' }] }, { guardrails: { mine: factory } }),
        errorOf({ input: [{ type: 'llm-judge', model: 'judge', policy: 'x' }] }, { models }),
      ];
      for (const error of errors) expect(shown(error)).not.toContain('hunter2');
      expect(errors.map(error => error.issues[0]!.expected)).toEqual([
        'a value that can be read (reading it threw a TypeError, its message not shown)',
        'a value that can be read (reading it threw a RangeError, its message not shown)',
        'options the mine factory accepts (it threw an Error, its message not shown)',
        'a model options.models resolves (it threw an Error, its message not shown)',
      ]);
    }
  });

  it('a custom class is named by its name when it reads as one; anything else by its type only', () => {
    class ThresholdError extends Error {
      override name = 'ThresholdError';
    }
    const thrown = (value: unknown) =>
      errorOf(
        { input: [{ type: 'mine' }] },
        {
          guardrails: {
            mine: () => {
              throw value;
            },
          },
        },
      ).issues[0]!.expected.slice('options the mine factory accepts ('.length, -1);
    const named = Object.assign(new Error('x'), { name: 'hunter2' });
    expect(
      [
        new ThresholdError('hunter2'),
        named,
        'hunter2',
        Symbol('hunter2'),
        42,
        { message: 'hunter2' },
        undefined,
        null,
      ].map(thrown),
    ).toEqual([
      'it threw a ThresholdError, its message not shown',
      'it threw an Error, its message not shown',
      'it threw a string, not shown',
      'it threw a symbol, not shown',
      'it threw a number, not shown',
      'it threw an object, not shown',
      'it threw undefined',
      'it threw null',
    ]);
  });
});

describe('getters in the records of models, stores and guardrails, and Symbol keys (round 38)', () => {
  const threw = (what: string) => ({
    value: '(not read)',
    expected: `a value that can be read (${what} threw an Error, its message not shown)`,
  });
  const throwing = (key: string, rest: Record<string, unknown> = {}) =>
    Object.defineProperty({ ...rest }, key, {
      enumerable: true,
      get() {
        throw new Error('hunter2');
      },
    });

  it('a getter of a record entry is an issue at its path, not at options', () => {
    expect(errorOf({ input: [] }, { models: throwing('judge') }).issues).toEqual([
      { path: 'options.models.judge', ...threw('reading it') },
    ]);
    expect(errorOf({ input: [] }, { stores: throwing('redis') }).issues).toEqual([
      { path: 'options.stores.redis', ...threw('reading it') },
    ]);
    expect(errorOf({ input: [] }, { guardrails: throwing('mine') }).issues).toEqual([
      { path: 'options.guardrails.mine', ...threw('reading it') },
    ]);
  });

  it("a getter of a model or a store the check reads is an issue at that model's or store's path", () => {
    const store = throwing('get');
    const model = throwing('doGenerate', { provider: 'p', modelId: 'm' });
    expect(errorOf({ input: [] }, { stores: { ok: {}, redis: store } }).issues.at(-1)).toEqual({
      path: 'options.stores.redis',
      ...threw('checking it'),
    });
    expect(errorOf({ input: [] }, { models: { judge: model } }).issues).toEqual([
      { path: 'options.models.judge', ...threw('checking it') },
    ]);
  });

  it('a wrong value whose getter throws is shown as not read: the error was the raw throw', () => {
    // Not a model (no doGenerate): the issue's value is the object, whose redaction read the getter.
    const notAModel = throwing('apiKey', { provider: 'p' });
    const error = errorOf({ input: [] }, { models: { judge: notAModel } });
    // Round 39: a plain object is not shown at all, so its getters are not read.
    expect(error.issues).toEqual([
      {
        path: 'options.models.judge',
        value: new NotShown('an object (not shown)'),
        expected: 'an AI SDK language model',
      },
    ]);
    expect(error.message).toBe(
      'Invalid guardrail configuration at options.models.judge: expected an AI SDK language model, received an object (not shown)',
    );
    // A Proxy that throws only when the message asks whether it is a Promise.
    const trap = new Proxy(
      {},
      {
        get(_, key) {
          if (key === 'then') throw new Error('hunter2');
          return undefined;
        },
      },
    );
    expect(errorOf({ input: [] }, { models: { judge: trap } }).message).toBe(
      'Invalid guardrail configuration at options.models.judge: expected an AI SDK language model, received an object (not shown)',
    );
  });

  it('a Symbol key is an unknown option: in the config, an entry, the options and their records', () => {
    const key = Symbol('mode');
    const expected =
      'no such option (a Symbol key: options are named by strings, and a Symbol-keyed one was ignored)';
    expect(errorOf({ input: [], [key]: 1 }).issues).toEqual([
      { path: '["Symbol(mode)"]', value: '(not read)', expected },
    ]);
    expect(errorOf({ input: [{ type: 'pii', [key]: 'hunter2' }] }).issues).toEqual([
      { path: 'input[0]["Symbol(mode)"]', value: '(not read)', expected },
    ]);
    expect(errorOf({ input: [] }, { [key]: 1 }).issues).toEqual([
      { path: 'options["Symbol(mode)"]', value: '(not read)', expected },
    ]);
    expect(errorOf({ input: [] }, { middleware: { [key]: 1 } }).issues).toEqual([
      { path: 'options.middleware["Symbol(mode)"]', value: '(not read)', expected },
    ]);
    // A non-enumerable Symbol key is no option given (as a non-enumerable string key).
    const hidden = Object.defineProperty({ input: [] }, key, { value: 1, enumerable: false });
    expect(buildGuardrailsConfig(hidden).guardrails.input).toEqual([]);
  });
});

describe('a class instance in an issue is named by its class, never serialised (round 38)', () => {
  class Settings {
    input = [];
    password = 'hunter2';
    note = 'pw=hunter2';
  }
  class Conf {
    pw = 'hunter2';
  }

  it('as the whole config, as an option, and inside a plain value: the message, issues and JSON hold no field', () => {
    const errors = [
      errorOf(new Settings()),
      errorOf({ input: [{ type: 'pii', action: new Conf() }] }),
      errorOf({ input: [{ type: 'pii', action: { nested: new Conf() } }] }),
      errorOf({ input: [{ type: 'pii', action: [new Conf()] }] }),
    ];
    for (const error of errors) {
      expect(`${error.message}${JSON.stringify(error)}`).not.toContain('hunter2');
    }
    expect(errors.map(error => error.message.replace(/^.*, received /s, ''))).toEqual([
      'a Settings (not shown)',
      'a Conf (not shown)',
      // Round 39: plain data of a file is never shown, only its type.
      'an object (not shown)',
      'an array of 1 item(s) (not shown)',
    ]);
    expect(JSON.parse(JSON.stringify(errors[1]!.issues[0]!.value))).toBe('a Conf (not shown)');
  });

  it('a Map, an Error and an anonymous class too; a Date, a RegExp and a Promise as before', () => {
    const described = (value: unknown) =>
      errorOf({ input: [{ type: 'pii', action: value }] }).message.replace(/^.*, received /s, '');
    expect(
      [
        new Map([['pw', 'hunter2']]),
        new Error('pw=hunter2'),
        new (class {
          pw = 'hunter2';
        })(),
        new Date(0),
        /x/,
        Promise.resolve(1),
      ].map(described),
    ).toEqual([
      'a Map (not shown)',
      'an Error (not shown)',
      'an object of a class (not shown)',
      '"1970-01-01T00:00:00.000Z"',
      '/x/',
      'a Promise (an async function where a synchronous one is expected)',
    ]);
  });
});
