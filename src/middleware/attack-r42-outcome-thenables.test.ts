import { describe, expect, it } from 'vitest';
import { getGuardrailOutcome } from './get-guardrail-outcome';

/*
 * Round 42, an attacker's read of round 41's record arguments
 * (`readingCallerArgument`): `getGuardrailOutcome` reads its argument in
 * guarded stretches between its awaits, and a getter that throws there is
 * a TypeError naming it by kind (its message not shown). But what it
 * awaits (a run's `steps`, a step's `providerMetadata`) is read by the
 * `await` itself, outside the stretch: a `then` getter that throws sends
 * the caller's error out as it is, message and all. (A `then` method that
 * throws is a rejection, which the docs pass on as the run's own error.)
 * Found at 285f814f. Not fixed: src/middleware is hC's lane this round
 * (the fix: read `then` inside the stretch before awaiting).
 */

const secret = 'sk-live-hunter2-not-shown';

/** An object whose `then` getter throws an error holding the secret. */
function thenGetterThrows(): object {
  return {
    // biome-ignore lint/suspicious/noThenProperty: the attack is a thenable whose then getter throws
    get then(): never {
      throw new Error(secret);
    },
  };
}

/** The error `getGuardrailOutcome` rejects with for `argument` (undefined when it resolves). */
async function rejection(argument: unknown): Promise<Error | undefined> {
  try {
    await getGuardrailOutcome(argument as never);
    return undefined;
  } catch (error) {
    return error as Error;
  }
}

describe('getGuardrailOutcome: a thenable whose then getter throws', () => {
  it('a steps getter that throws is a TypeError by kind (the round-41 rule)', async () => {
    const error = await rejection({
      get steps(): never {
        throw new Error(secret);
      },
    });
    expect(error).toBeInstanceOf(TypeError);
    expect(error?.message).toBe(
      'getGuardrailOutcome: its argument could not be read (reading it threw an Error, its message not shown)',
    );
  });

  it('a responseMessages thenable that throws is read as a failed run (no records before)', async () => {
    expect(await rejection({ steps: [], responseMessages: thenGetterThrows() })).toBeUndefined();
  });

  // Was a defect (found at 285f814f): the caller's Error went out raw, its
  // message holding the secret. Fixed in round 42: `then` is read in the guard.
  it.each([
    ['steps', () => ({ steps: thenGetterThrows() })],
    ['a step’s providerMetadata', () => ({ steps: [{ providerMetadata: thenGetterThrows() }] })],
  ])('%s: a TypeError that does not show the message', async (_, argument) => {
    const error = await rejection(argument());
    expect(error).toBeInstanceOf(TypeError);
    expect(error?.message).toBe(
      'getGuardrailOutcome: its argument could not be read (reading it threw an Error, its message not shown)',
    );
  });

  it('a thenable that resolves to a thenable whose then getter throws: the same TypeError', async () => {
    const nested = {
      // biome-ignore lint/suspicious/noThenProperty: a thenable steps value, as a caller may give
      then: (resolve: (value: unknown) => void) => resolve(thenGetterThrows()),
    };
    const error = await rejection({ steps: nested });
    expect(error).toBeInstanceOf(TypeError);
    expect(error?.message).toBe(
      'getGuardrailOutcome: its argument could not be read (reading it threw an Error, its message not shown)',
    );
  });

  it('thenables that resolve are awaited; a then method that rejects passes its error on', async () => {
    const outcome = { status: 'passed', records: [] };
    const steps = {
      // biome-ignore lint/suspicious/noThenProperty: a thenable steps value, as a caller may give
      then: (resolve: (value: unknown) => void) =>
        resolve([{ providerMetadata: Promise.resolve({ guardrails: outcome }) }]),
    };
    expect(await getGuardrailOutcome({ steps } as never)).toEqual(outcome);
    const failed = new Error('the run failed');
    const rejecting = {
      // biome-ignore lint/suspicious/noThenProperty: a thenable steps value, as a caller may give
      then: (_: unknown, reject: (error: unknown) => void) => reject(failed),
    };
    expect(await rejection({ steps: rejecting })).toBe(failed);
  });
});
