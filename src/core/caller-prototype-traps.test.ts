import { describe, expect, it } from 'vitest';
import { buildGuardrailsConfig } from '../config';
import { guardrails, guardTools, pii, secrets, urlFilter } from '../index';
import { redisStore } from '../redis';
import { GuardrailConfigError } from './errors';

/*
 * Round 40: an options object's prototype was read raw (`isPlainObject`),
 * a factory destructured the caller's object after checking it, and the
 * loader read a custom type's guardrail itself: a caller's throwing trap
 * or getter went out with its message. Each is now an issue named by kind.
 */

const SECRET = 'token hunter2';
const NOT_READ =
  'expected a value that can be read (reading it threw an Error, its message not shown), received (not read)';

function throwsFrom<T extends object>(
  target: T,
  trap: keyof ProxyHandler<T>,
  only?: PropertyKey,
): T {
  return new Proxy(target, {
    [trap](...args: unknown[]) {
      if (only === undefined || args[1] === only) throw new Error(SECRET);
      return (Reflect[trap as keyof typeof Reflect] as (...a: unknown[]) => unknown)(...args);
    },
  });
}

function configError(run: () => unknown): GuardrailConfigError {
  try {
    run();
  } catch (error) {
    expect(GuardrailConfigError.isInstance(error)).toBe(true);
    const { message, stack } = error as Error;
    expect(message).not.toContain('hunter2');
    expect(stack).not.toContain('hunter2');
    return error as GuardrailConfigError;
  }
  throw new Error('expected a GuardrailConfigError');
}

describe('a caller trap that throws is an issue, never its message', () => {
  it("guardrails(): the options object's getPrototypeOf trap", () => {
    const error = configError(() => guardrails(throwsFrom({ input: [] }, 'getPrototypeOf')));
    expect(error.message).toBe(`Invalid guardrail configuration at guardrails: ${NOT_READ}`);
  });

  it("a factory: the options object's getPrototypeOf trap", () => {
    const error = configError(() =>
      pii(throwsFrom({ action: 'redact' as const }, 'getPrototypeOf')),
    );
    expect(error.message).toBe(`Invalid guardrail configuration at pii: ${NOT_READ}`);
  });

  it("guardTools(): the options object's getPrototypeOf trap", () => {
    const error = configError(() => guardTools({}, throwsFrom({}, 'getPrototypeOf')));
    expect(error.message).toBe(`Invalid guardrail configuration at guardTools: ${NOT_READ}`);
  });

  it("a factory destructures what it read, not the caller's object again", () => {
    // A get trap that answers the check's read and throws on the second: the factory's destructuring.
    const readOnce = () => {
      let reads = 0;
      return new Proxy(
        { action: 'block' as const },
        {
          get(target, key, receiver) {
            if (key === 'action' && ++reads > 1) throw new Error(SECRET);
            return Reflect.get(target, key, receiver);
          },
        },
      );
    };
    expect(secrets(readOnce()).name).toBe('secrets');
    expect(urlFilter(readOnce()).name).toBe('url-filter');
  });

  it("redisStore: the client's get trap", () => {
    const error = configError(() => redisStore(throwsFrom({}, 'get') as never));
    expect(error.message).toBe(`Invalid guardrail configuration at redisStore.client: ${NOT_READ}`);
  });

  it("the loader reads a custom type's guardrail once, into the copy guardrails() uses", () => {
    const guard = throwsFrom(
      { name: 'mine', check: () => ({ action: 'allow' as const }) },
      'get',
      'parallel',
    );
    const error = configError(() =>
      buildGuardrailsConfig({ output: [{ type: 'mine' }] }, { guardrails: { mine: () => guard } }),
    );
    expect(error.message).toBe(
      `Invalid guardrail configuration at output[0].parallel: ${NOT_READ}`,
    );
  });

  it("a custom type's guardrail read once: a getter is run one time", () => {
    let reads = 0;
    const guard = {
      name: 'mine',
      check: () => ({ action: 'allow' as const }),
      get streamSafe() {
        reads++;
        return true;
      },
    };
    const built = buildGuardrailsConfig(
      { output: [{ type: 'mine' }] },
      { guardrails: { mine: () => guard } },
    );
    expect(built.guardrails.output[0]!.streamSafe).toBe(true);
    expect(Object.isFrozen(built.guardrails.output[0])).toBe(true);
    expect(reads).toBe(1);
  });
});
