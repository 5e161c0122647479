import { describe, expect, it } from 'vitest';
import { guardContext } from '../../test/helpers';
import * as config from '../config';
import * as main from '../index';
import { defineGuardrail } from '../index';
import * as ner from '../ner';
import * as redis from '../redis';
import * as testing from '../testing';

/*
 * Round 41: 20 public functions rethrew a caller's own error raw where the
 * argument is a text or a record (`findPii(text)` of a String object whose
 * `toString` throws, a Proxy of a step or of a tool definition). A text that
 * is no primitive string is now a TypeError naming the argument and its
 * type; a record's reading that throws is a TypeError naming what was
 * thrown by class only (core/caller-values).
 */

const SECRET = 'hunter2';
const boom = () => {
  throw new Error(`token ${SECRET}`);
};
const traps = [
  'get',
  'has',
  'ownKeys',
  'getPrototypeOf',
  'getOwnPropertyDescriptor',
  'set',
  'defineProperty',
  'deleteProperty',
  'apply',
  'construct',
  'isExtensible',
  'preventExtensions',
  'setPrototypeOf',
] as const;
const throwingProxy = (target: object) =>
  new Proxy(target, Object.fromEntries(traps.map(trap => [trap, boom])));

/** Every kind of unreadable argument: each throws an error that quotes the secret when read. */
const unreadable: Record<string, () => unknown> = {
  'a String object whose toString throws': () =>
    Object.assign(new String('x'), { toString: boom, valueOf: boom }),
  'an object whose Symbol.toPrimitive throws': () => ({
    [Symbol.toPrimitive]: boom,
    toString: boom,
    valueOf: boom,
  }),
  'a Proxy of an object': () => throwingProxy({}),
  'a Proxy of an array': () => throwingProxy([]),
  'an object whose getters throw': () =>
    Object.defineProperties(
      {},
      Object.fromEntries(
        ['text', 'content', 'messages', 'role', 'value', 'input', 'output', 'parts', 'type', 'name']
          .concat(['prompt', 'steps', 'records', 'status', 'policy', 'reason', 'guardrail'])
          .map(key => [key, { get: boom, enumerable: true }]),
      ),
    ),
  'a revoked Proxy': () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  },
};

const entries = { main, testing, redis, ner, config } as Record<string, Record<string, unknown>>;

/** True when an error (its message, stack, JSON, cause) quotes the secret. */
function quotesSecret(error: unknown): boolean {
  if (!(error instanceof Error)) return String(error).includes(SECRET);
  const cause = (error as { cause?: { message?: unknown } }).cause;
  return `${error.message}\n${error.stack}\n${JSON.stringify(error)}\n${String(cause?.message)}`.includes(
    SECRET,
  );
}

/** Every exported function (not a class) and argument position the sweeps call, named `entry.name argument n`. */
function* sweepTargets() {
  for (const [entry, exports] of Object.entries(entries)) {
    for (const [name, value] of Object.entries(exports)) {
      if (typeof value !== 'function') continue;
      if (/^class\b/.test(Function.prototype.toString.call(value))) continue;
      const fn = value as (...args: unknown[]) => unknown;
      for (let position = 0; position <= Math.min(Math.max(fn.length, 1), 6); position++) {
        yield { where: `${entry}.${name} argument ${position}`, fn, position };
      }
    }
  }
}

/**
 * What `fn` threw (or its promise rejected with within 50 ms) called with
 * `argument` at `position`, `'text'` first and `undefined` before it.
 */
async function thrownBy(
  fn: (...args: unknown[]) => unknown,
  position: number,
  argument: unknown,
): Promise<unknown> {
  const args: unknown[] = Array.from({ length: position }, (_, i) =>
    i === 0 ? 'text' : undefined,
  );
  args[position] = argument;
  let thrown: unknown;
  try {
    const result = fn(...args);
    if (result instanceof Promise) {
      await Promise.race([
        result.catch(error => {
          thrown = error;
        }),
        new Promise(resolve => setTimeout(resolve, 50)),
      ]);
    }
  } catch (error) {
    thrown = error;
  }
  return thrown;
}

describe('every exported function, given an unreadable argument', () => {
  it('throws no caller message (the sweep: every function, argument position and kind)', async () => {
    const raw: string[] = [];
    let calls = 0;
    for (const { where, fn, position } of sweepTargets()) {
      for (const [kind, make] of Object.entries(unreadable)) {
        calls++;
        const thrown = await thrownBy(fn, position, make());
        if (thrown !== undefined && quotesSecret(thrown)) raw.push(`${where}: ${kind}`);
      }
    }
    expect(calls).toBeGreaterThan(700);
    expect(raw).toEqual([]);
  }, 60_000);
});

/** The fields the sweep's records have: what the exported functions read of their arguments. */
const recordKeys = Object.keys(unreadable['an object whose getters throw']!() as object);

/**
 * A record whose every field (of `keys`) is a getter that counts its reads
 * and answers `first` the first time, then something else: a function that
 * checks a field and reads it again to use it would use what it never checked.
 */
function changingRecord(keys: readonly string[], first: unknown) {
  const reads = new Map<string, number>();
  const record = Object.defineProperties(
    {},
    Object.fromEntries(
      keys.map(key => [
        key,
        {
          enumerable: true,
          get() {
            const count = (reads.get(key) ?? 0) + 1;
            reads.set(key, count);
            return count === 1 ? first : `changed ${SECRET}`;
          },
        },
      ]),
    ),
  );
  return {
    record,
    readTwice: () => [...reads].filter(([, count]) => count > 1).map(([key]) => key),
  };
}

describe('a record argument whose getters answer differently on each read (round 42)', () => {
  it('every getter runs once (the sweep: every function, argument position and answer)', async () => {
    const twice: string[] = [];
    let calls = 0;
    // Every field; `name` alone (what a factory's options may hold); a factory's usual options.
    const keySets = [recordKeys, ['name'], ['name', 'placeholder', 'message', 'action', 'mode']];
    for (const { where, fn, position } of sweepTargets()) {
      for (const keys of keySets) {
        for (const first of [undefined, 'mine']) {
          calls++;
          const { record, readTwice } = changingRecord(keys, first);
          // Thrown or not, each field must have been read at most once.
          await thrownBy(fn, position, record);
          const fields = readTwice();
          if (fields.length > 0) twice.push(`${where}: ${fields}`);
        }
      }
    }
    expect(calls).toBeGreaterThan(700);
    expect(twice).toEqual([]);
  }, 120_000);

  it('a factory hashes the options it read: its fingerprint is that of what it uses', () => {
    const { record } = changingRecord(['name'], 'mine');
    const guardrail = main.pii(record as never);
    expect(guardrail.name).toBe('mine');
    expect(guardrail.fingerprint).toBe(main.pii({ name: 'mine' }).fingerprint);
  });

  it('pii writes with the placeholder it read, not the default a later read gives', async () => {
    let reads = 0;
    const options = {
      get placeholder() {
        reads++;
        return reads === 1 ? (type: string) => `<${type}>` : undefined;
      },
    };
    const verdict = await main.pii(options).check('mail jane@example.com', guardContext());
    expect(verdict).toEqual({
      action: 'modify',
      content: 'mail <EMAIL_ADDRESS>',
      info: { types: ['EMAIL_ADDRESS'], spans: [{ type: 'EMAIL_ADDRESS', start: 5, end: 21 }] },
    });
    expect(reads).toBe(1);
  });

  it('toolDefinitionText judges the description it read', () => {
    const { record } = changingRecord(['name', 'description'], 'Looks up the weather');
    expect(main.toolDefinitionText(record as never)).toEqual({
      ok: true,
      text: 'Looks up the weather\nLooks up the weather',
    });
  });
});

/** The error `run` throws (or rejects with), after checking it quotes no secret. */
async function errorOf(run: () => unknown): Promise<Error> {
  try {
    await run();
  } catch (error) {
    expect(quotesSecret(error)).toBe(false);
    return error as Error;
  }
  throw new Error('expected an error');
}

const aString = () => unreadable['a String object whose toString throws']!();
const aProxy = () => unreadable['a Proxy of an object']!();
const NOT_READ = 'could not be read (reading it threw an Error, its message not shown)';

describe('a text argument that is no string is a TypeError, never converted', () => {
  it.each([
    ['findPii', () => main.findPii(aString() as never)],
    ['findSecrets', () => main.findSecrets(aString() as never)],
    ['scorePromptInjection', () => main.scorePromptInjection(aString() as never)],
    ['scoreToolPoisoning', () => main.scoreToolPoisoning(aString() as never)],
    ['findInvisibleText', () => main.findInvisibleText(aString() as never)],
    ['scoreHarmful', () => main.scoreHarmful(aString() as never)],
    ['normalizeText', () => main.normalizeText(aString() as never)],
  ])('%s', async (name, run) => {
    const error = await errorOf(run);
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe(`${name}: text must be a string, received an object`);
  });

  it('isPlaceholderValue and isInvisibleCodePoint name their argument', async () => {
    const placeholder = await errorOf(() => main.isPlaceholderValue(aString() as never));
    expect(placeholder.message).toBe(
      'isPlaceholderValue: value must be a string, received an object',
    );
    const codePoint = await errorOf(() => main.isInvisibleCodePoint(aString() as never));
    expect(codePoint.message).toBe(
      'isInvisibleCodePoint: codePoint must be a number, received an object',
    );
  });

  it('valid calls are unchanged', () => {
    expect(main.findPii('mail jane@example.com')).toEqual([
      { type: 'EMAIL_ADDRESS', start: 5, end: 21 },
    ]);
    expect(main.isInvisibleCodePoint(0x200b)).toBe(true);
    expect(main.normalizeText('a\u200Bb').text).toBe('ab');
    expect(main.findInvisibleText('a\u200Bb')).toEqual([{ type: 'ZERO_WIDTH', start: 1, end: 2 }]);
    expect(config.formatPath(['output', 2, 'threshold'])).toBe('output[2].threshold');
  });
});

describe('a record argument whose reading throws is a TypeError naming it by kind', () => {
  it.each([
    ['collectToolRecords: steps', () => main.collectToolRecords(throwingProxy([]) as never)],
    [
      'mergeGuardrailOutcomes: outcomes',
      () => main.mergeGuardrailOutcomes(throwingProxy([]) as never),
    ],
    ['guardrailOutcomeOf: providerMetadata', () => main.guardrailOutcomeOf(aProxy() as never)],
    ['getGuardrailOutcome: its argument', () => main.getGuardrailOutcome(aProxy() as never)],
    ['defaultRetryFeedback: record', () => main.defaultRetryFeedback(aProxy() as never)],
    ['defaultJudgeTemplate: input', () => main.defaultJudgeTemplate(aProxy() as never)],
    ['hasGuardrailBlockedShape: value', () => main.hasGuardrailBlockedShape(aProxy())],
    ['isGuardrailBlocked: output', () => main.isGuardrailBlocked(aProxy())],
    ['toolDefinitionText: definition', () => main.toolDefinitionText(aProxy() as never)],
    ['toolDefinitionHash: definition', () => main.toolDefinitionHash(aProxy() as never)],
    ['piiMaxMatchLength: options', () => main.piiMaxMatchLength(aProxy() as never)],
    ['formatPath: segments', () => config.formatPath(throwingProxy([]) as never)],
  ])('%s', async (where, run) => {
    const error = await errorOf(run);
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe(`${where} ${NOT_READ}`);
  });

  it('options of a text function are read once and checked (GuardrailConfigError)', async () => {
    const error = await errorOf(() => main.scorePromptInjection('hi', aProxy() as never));
    expect(error.message).toBe(
      'Invalid guardrail configuration at scorePromptInjection.options: expected a value that can be read (reading it threw an Error, its message not shown), received (not read)',
    );
    expect(main.scorePromptInjection('hello there', { mode: 'indirect' }).score).toBeLessThan(0.5);
  });

  it('a record that reads fine gives what it gave before', () => {
    expect(main.defaultRetryFeedback({ guardrail: 'pii', reason: 'an email' } as never)).toBe(
      'Your previous answer was blocked by the "pii" guardrail.\n- an email\nWrite a new answer to the request that follows this rule.',
    );
    expect(main.mergeGuardrailOutcomes([{ status: 'passed', records: [] }])).toEqual({
      status: 'passed',
      records: [],
    });
  });
});

describe("options' name is read once, from the copy", () => {
  it('defineGuardrail runs a `name` getter one time', () => {
    let reads = 0;
    const options = {
      get name() {
        reads++;
        return 'mine';
      },
      check: () => main.allow(),
    };
    expect(defineGuardrail(options).name).toBe('mine');
    expect(reads).toBe(1);
  });
});
