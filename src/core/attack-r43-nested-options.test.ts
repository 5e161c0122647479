import { describe, expect, it } from 'vitest';
import { configIssuesOf } from '../../test/helpers';
import { findPii } from '../guards/pii/find-pii-bundled';

/*
 * Round 43, an attacker's read of round 42's `validateOptionsOnce`: an
 * options object reused across calls has its fields read and compared at
 * each call, a list's items by identity. `findPii`'s `custom` is a list of
 * objects: a pattern object kept in the list and changed between calls is
 * the same item, so the first call's checked copy is returned and the
 * object's new fields are used unchecked (the patterns are read at each
 * call). A string for `pattern` throws V8's SyntaxError ("Invalid flags
 * supplied to RegExp constructor 'undefinedg'"), a function that is not
 * one a raw TypeError, a number for `type` comes back as the span's type
 * and a NaN `maxLength` passes (where `piiMaxMatchLength` of the same
 * object throws). The same fields in a fresh object are a
 * GuardrailConfigError naming the field. Found at 8302f965; fixed in
 * round 43 by src/core/options.ts reading options into copies down to the
 * objects in their lists (`readNested`), checked and used as read.
 */

const text = 'mail a@b.co order ORD-1234 x';

/** Options with one custom pattern, read once by `findPii`; the pattern object is returned to change. */
function readOnce() {
  const pattern: Record<string, unknown> = { type: 'ORDER', pattern: /ORD-\d{4}/g, maxLength: 12 };
  const options = { entities: ['EMAIL_ADDRESS' as const], custom: [pattern as never] };
  expect(findPii(text, options).map(span => [span.type, text.slice(span.start, span.end)])).toEqual(
    [
      ['EMAIL_ADDRESS', 'a@b.co'],
      ['ORDER', 'ORD-1234'],
    ],
  );
  return { pattern, options };
}

const changes: Array<[string, string, unknown]> = [
  ['a string for pattern', 'pattern', 'ORD'],
  ['a NaN maxLength', 'maxLength', Number.NaN],
  ['a number for type', 'type', 42],
  ['a string for validate', 'validate', 'yes'],
];

describe('a custom pattern object changed between two findPii calls with the same options', () => {
  it.each(changes)(
    '%s in a fresh options object is a GuardrailConfigError (the baseline)',
    (_, field, value) => {
      const pattern = { type: 'ORDER', pattern: /ORD-\d{4}/g, maxLength: 12, [field]: value };
      expect(
        configIssuesOf(() => findPii(text, { custom: [pattern as never] })).map(
          issue => issue.path,
        ),
      ).toEqual([`findPii.custom[0].${field}`]);
    },
  );

  // At 8302f965: SyntaxError, a span of type 42, a silent pass, a raw TypeError.
  it.each(changes)(
    '%s assigned after the first call is a GuardrailConfigError',
    (_, field, value) => {
      const { pattern, options } = readOnce();
      pattern[field] = value;
      expect(configIssuesOf(() => findPii(text, options)).map(issue => issue.path)).toEqual([
        `findPii.custom[0].${field}`,
      ]);
    },
  );

  it('a valid pattern assigned after the first call is used (the object is read at each call)', () => {
    const { pattern, options } = readOnce();
    pattern.pattern = /order/g;
    expect(
      findPii(text, options).map(span => [span.type, text.slice(span.start, span.end)]),
    ).toEqual([
      ['EMAIL_ADDRESS', 'a@b.co'],
      ['ORDER', 'order'],
    ]);
  });
});
