import { describe, expect, it } from 'vitest';
import { GuardrailConfigError } from '../../core/errors';
import { piiMaxMatchLength } from './find-pii';
import { findPii } from './find-pii-bundled';

/*
 * Round 42, an attacker's read of round 41's `piiMaxMatchLength` (its
 * options read once, a throwing getter a TypeError): the public function
 * that gives a stream window's hold-back for `findPii`'s options checks
 * `entities` (a GuardrailConfigError, as `findPii`), but not the rest. A
 * custom pattern's `maxLength` of NaN or Infinity comes back as the
 * hold-back (NaN, Infinity), and options that are a string, or a `custom`
 * that is a string, give the default 800: silent passes where `findPii`
 * with the same options throws. Found at 285f814f. Not fixed: find-pii.ts
 * is hE's lane this round (the fix: read the options through `findPii`'s
 * own check, `validateOptionsOnce` with its shape).
 */

const pattern = /EMP-\d{6}/;

/** Options `findPii` rejects, by what is wrong with them. */
const rejected: [string, unknown][] = [
  ['a NaN maxLength', { custom: [{ type: 'EMPLOYEE_ID', pattern, maxLength: Number.NaN }] }],
  [
    'an infinite maxLength',
    { custom: [{ type: 'EMPLOYEE_ID', pattern, maxLength: Number.POSITIVE_INFINITY }] },
  ],
  ['a string for options', 'EMAIL_ADDRESS'],
  ['a string for custom', { custom: 'EMP-' }],
];

describe('piiMaxMatchLength: options findPii rejects', () => {
  it('the defaults, every type, and no type', () => {
    expect(piiMaxMatchLength()).toBe(800);
    expect(piiMaxMatchLength({ entities: 'all' })).toBe(1_040);
    expect(piiMaxMatchLength({ entities: [] })).toBe(0);
    expect(piiMaxMatchLength({ custom: [{ type: 'EMPLOYEE_ID', pattern, maxLength: 500 }] })).toBe(
      1_000,
    );
  });

  it('an unknown entity type is a GuardrailConfigError, as for findPii', () => {
    expect(() => piiMaxMatchLength({ entities: ['NOPE' as never] })).toThrow(GuardrailConfigError);
    expect(() => findPii('x', { entities: ['NOPE' as never] })).toThrow(GuardrailConfigError);
  });

  it.each(rejected)('findPii: %s is a GuardrailConfigError', (_, options) => {
    expect(() => findPii('EMP-123456', options as never)).toThrow(GuardrailConfigError);
  });

  // Was a defect (found at 285f814f): NaN, Infinity, 800 and 800 came back, no
  // error. Fixed in round 42: the options go through findPii's own check.
  it.each(rejected)('piiMaxMatchLength: %s is findPii’s GuardrailConfigError', (_, options) => {
    const error = thrown(() => piiMaxMatchLength(options as never));
    expect(error).toBeInstanceOf(GuardrailConfigError);
    expect(error.message).toBe(thrown(() => findPii('EMP-123456', options as never)).message);
  });

  it('the message says what is wrong, as findPii’s does', () => {
    expect(thrown(() => piiMaxMatchLength(rejected[0]![1] as never)).message).toMatch(
      /^Invalid guardrail configuration at findPii\.custom\[0\]\.maxLength: /,
    );
  });

  it('a maxLength getter runs once', () => {
    let reads = 0;
    const custom = [
      {
        type: 'EMPLOYEE_ID',
        pattern,
        get maxLength() {
          reads++;
          return 500;
        },
      },
    ];
    expect(piiMaxMatchLength({ custom })).toBe(1_000);
    expect(reads).toBe(1);
  });
});

/** The error `run` throws. */
function thrown(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('it did not throw');
}
