import { describe, expect, it } from 'vitest';
import { guardContext } from '../../test/helpers';
import { findPii } from '../guards/pii/find-pii-bundled';
import { pii } from '../guards/pii/pii';
import { GuardrailConfigError } from './errors';
import {
  listOf,
  objectOption,
  positiveInt,
  regexOption,
  required,
  validateOptions,
  validateOptionsOnce,
} from './options';

/*
 * Round 43: an object inside an options list (`findPii`'s `custom`
 * patterns) was compared by identity between calls and read again after
 * its check: a pattern replaced in place, or a getter, was used unchecked.
 * Options are now read once per call into copies (lists and the objects in
 * them), checked, and the copies used (`readNested`, core/options).
 */

const text = 'badge EMP-1234 issued';

function found(given: string, span: { start: number; end: number }): string {
  return given.slice(span.start, span.end);
}

function thrownBy(run: () => unknown): GuardrailConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof GuardrailConfigError) return error;
    throw error;
  }
  throw new Error('did not throw');
}

describe('findPii: a custom pattern changed in place after the first call', () => {
  it('a sticky pattern put in place is a GuardrailConfigError at its flags, not a silent miss', () => {
    const entry: { type: string; pattern: RegExp } = { type: 'EMPLOYEE_ID', pattern: /EMP-\d+/ };
    const options = { entities: [], custom: [entry] };
    expect(findPii(text, options).map(span => found(text, span))).toEqual(['EMP-1234']);
    entry.pattern = /EMP-\d+/y;
    expect(thrownBy(() => findPii(text, options)).issues.map(issue => issue.path)).toEqual([
      'findPii.custom[0].pattern.flags',
    ]);
  });

  it('a string put in place of the pattern is a GuardrailConfigError naming the field', () => {
    const entry: { type: string; pattern: unknown } = { type: 'EMPLOYEE_ID', pattern: /EMP-\d+/ };
    const options = { entities: [], custom: [entry] };
    expect(findPii(text, options as never).map(span => found(text, span))).toEqual(['EMP-1234']);
    entry.pattern = 'EMP-(a+)+$';
    const error = thrownBy(() => findPii(text, options as never));
    expect(error.issues.map(issue => [issue.path, issue.expected])).toEqual([
      ['findPii.custom[0].pattern', 'a RegExp'],
    ]);
  });

  it('a type emptied in place is a GuardrailConfigError', () => {
    const entry = { type: 'EMPLOYEE_ID', pattern: /EMP-\d+/ };
    const options = { entities: [], custom: [entry] };
    findPii(text, options);
    entry.type = '';
    expect(thrownBy(() => findPii(text, options)).issues.map(issue => issue.path)).toEqual([
      'findPii.custom[0].type',
    ]);
  });

  it('a new pattern assigned in place is used (and the old one no longer)', () => {
    const entry = { type: 'EMPLOYEE_ID', pattern: /EMP-\d+/ };
    const options = { entities: [], custom: [entry] };
    expect(findPii('EMP-1 ID-2', options).map(span => found('EMP-1 ID-2', span))).toEqual([
      'EMP-1',
    ]);
    entry.pattern = /ID-\d+/;
    expect(findPii('EMP-1 ID-2', options).map(span => found('EMP-1 ID-2', span))).toEqual(['ID-2']);
  });

  it('a pattern getter is read once per call: the pattern checked is the pattern searched', () => {
    let reads = 0;
    const entry = {
      type: 'EMPLOYEE_ID',
      get pattern() {
        reads++;
        // A good pattern to the first read of each call, a sticky one to any later read.
        return reads % 2 === 1 ? /EMP-\d+/ : /EMP-\d+/y;
      },
    };
    const options = { entities: [], custom: [entry] };
    expect(findPii(text, options).map(span => found(text, span))).toEqual(['EMP-1234']);
    expect(reads).toBe(1);
    // The second call's one read gives the sticky pattern: checked, refused.
    expect(thrownBy(() => findPii(text, options)).issues.map(issue => issue.path)).toEqual([
      'findPii.custom[0].pattern.flags',
    ]);
    expect(reads).toBe(2);
  });

  it('an unchanged entry finds its value on each call (a baseline)', () => {
    const options = { entities: [], custom: [{ type: 'EMPLOYEE_ID', pattern: /EMP-\d+/ }] };
    for (let round = 0; round < 3; round++) {
      expect(findPii(text, options).map(span => found(text, span))).toEqual(['EMP-1234']);
    }
  });
});

describe('pii(): its custom patterns are read once, when it is made', () => {
  it('a pattern the caller replaces afterwards changes nothing', async () => {
    const entry = { type: 'EMPLOYEE_ID', pattern: /EMP-\d+/ };
    const guardrail = pii({ entities: [], custom: [entry] });
    entry.pattern = /nothing-matches-this/;
    expect(await guardrail.check(text, guardContext('input'))).toEqual({
      action: 'modify',
      content: 'badge [EMPLOYEE_ID] issued',
      info: { types: ['EMPLOYEE_ID'], spans: [{ type: 'EMPLOYEE_ID', start: 6, end: 14 }] },
    });
  });
});

const entryShape = {
  entries: listOf(
    objectOption({ pattern: required(regexOption, 'a RegExp'), maxLength: positiveInt }),
    'an array of entries',
  ),
};
const settings = { prefix: 'test', root: 'test.options', shape: entryShape };

describe('validateOptions and validateOptionsOnce read inside lists once', () => {
  it('validateOptions returns the entries as read: a getter runs once, its first answer kept', () => {
    let reads = 0;
    const entry = {
      get maxLength() {
        reads++;
        return reads === 1 ? 8 : -1;
      },
      pattern: /x/,
    };
    const read = validateOptions({ entries: [entry] }, settings);
    expect(reads).toBe(1);
    const copied = read.entries[0] !== entry;
    expect(copied).toBe(true);
    expect(read.entries[0]!.maxLength).toBe(8);
    expect(reads).toBe(1);
  });

  it('validateOptionsOnce: a field of an entry assigned out of range is checked again', () => {
    const entry = { pattern: /x/, maxLength: 8 };
    const options = { entries: [entry] };
    const first = validateOptionsOnce(options, settings);
    expect(validateOptionsOnce(options, settings)).toBe(first);
    expect(Object.isFrozen(first.entries[0])).toBe(true);
    entry.maxLength = -1;
    const error = thrownBy(() => validateOptionsOnce(options, settings));
    expect(error.issues.map(issue => [issue.path, issue.expected])).toEqual([
      ['test.entries[0].maxLength', 'a positive integer'],
    ]);
  });

  it('a getter of an entry that throws is an issue at its path, by kind only', () => {
    const entry = {
      pattern: /x/,
      get maxLength(): number {
        throw new TypeError('secret hunter2');
      },
    };
    const error = thrownBy(() => validateOptionsOnce({ entries: [entry] }, settings));
    expect(error.issues).toEqual([
      {
        path: 'test.entries[0].maxLength',
        value: expect.anything(),
        expected: 'a value that can be read (reading it threw a TypeError, its message not shown)',
      },
    ]);
    expect(error.message).not.toContain('hunter2');
  });
});
