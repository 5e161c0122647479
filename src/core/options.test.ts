import { describe, expect, it } from 'vitest';
import { GuardrailConfigError, type GuardrailConfigIssue } from './errors';
import {
  anyOf,
  booleanOption,
  functionOption,
  guardrailList,
  listOf,
  milliseconds,
  nonEmptyString,
  nonNegativeInt,
  noSuchOption,
  numberInRange,
  type OptionRule,
  objectOption,
  oneOf,
  optionIssues,
  positiveInt,
  recordOf,
  regexList,
  required,
  shownValue,
  storeOption,
  stringList,
  validateFactoryOptions,
  validateOptions,
} from './options';
import { NotShown } from './redact-secrets';

function issuesOf(rule: OptionRule, value: unknown, path = 'g.x'): GuardrailConfigIssue[] {
  const issues: GuardrailConfigIssue[] = [];
  rule(value, path, issues);
  return issues;
}

describe('option rules', () => {
  it('skip a missing value unless required', () => {
    expect(issuesOf(positiveInt, undefined)).toEqual([]);
    expect(issuesOf(required(positiveInt, 'a positive integer'), undefined)).toEqual([
      { path: 'g.x', value: undefined, expected: 'a positive integer' },
    ]);
  });

  it('numbers: NaN, Infinity, fractions, strings and null are not numbers of the kind asked', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '5', null]) {
      // A number is quoted (out of range); any other value is hidden later, by GuardrailConfigError.
      const value = typeof bad === 'number' ? new NotShown(String(bad)) : bad;
      expect(issuesOf(positiveInt, bad)).toEqual([
        { path: 'g.x', value, expected: 'a positive integer' },
      ]);
    }
    expect(issuesOf(nonNegativeInt, 0)).toEqual([]);
    expect(issuesOf(nonNegativeInt, -1)[0]!.expected).toBe('a non-negative integer');
    expect(issuesOf(milliseconds, 0.5)).toEqual([]);
    expect(issuesOf(milliseconds, Number.POSITIVE_INFINITY)[0]!.expected).toBe(
      'a positive number of milliseconds',
    );
    expect(issuesOf(numberInRange(0, 1), 1)).toEqual([]);
    expect(issuesOf(numberInRange(0, 1, { minExclusive: true }), 0)[0]!.expected).toBe(
      'a number in (0, 1]',
    );
  });

  it('oneOf lists the alternatives', () => {
    expect(issuesOf(oneOf(['hold', 'window', 'passthrough']), 'fast')).toEqual([
      { path: 'g.x', value: 'fast', expected: "'hold', 'window' or 'passthrough'" },
    ]);
  });

  it('strings, booleans and functions', () => {
    expect(issuesOf(nonEmptyString, '  ')[0]!.expected).toBe('a non-empty string');
    expect(issuesOf(booleanOption, 'false')[0]!.expected).toBe('true or false');
    expect(issuesOf(functionOption('a listener'), 'x')[0]!.expected).toBe('a listener');
  });

  it('a lone string is never a list: it is an error with a hint', () => {
    expect(issuesOf(stringList, 'search')).toEqual([
      {
        path: 'g.x',
        value: 'search',
        expected: 'an array of strings (wrap a single value in [ ])',
      },
    ]);
  });

  it('names each bad item of a list by its index', () => {
    expect(issuesOf(stringList, ['ok', '', 5]).map(issue => issue.path)).toEqual([
      'g.x[1]',
      'g.x[2]',
    ]);
    expect(issuesOf(regexList, [/a/, 'b'])).toEqual([
      { path: 'g.x[1]', value: 'b', expected: 'a RegExp' },
    ]);
    expect(issuesOf(guardrailList, [{ name: 'n', check: () => ({}) }, { name: 'n' }])).toEqual([
      {
        path: 'g.x[1]',
        value: { name: 'n' },
        expected: 'a guardrail (an object with a `name` and a `check` function)',
      },
    ]);
    const handWritten = { name: 'n', check: () => ({}), timeoutMs: -1, parallel: 'yes' };
    expect(issuesOf(guardrailList, [handWritten]).map(issue => issue.path)).toEqual([
      'g.x[0].timeoutMs',
      'g.x[0].parallel',
    ]);
    expect(issuesOf(listOf(positiveInt, 'numbers'), [undefined])[0]!.expected).toBe(
      'a value, not undefined',
    );
  });

  it('a hole in a list is an issue at its index, not skipped', () => {
    // forEach skipped holes: guardrails({ input: [, pii()] }) passed validation and
    // crashed with a TypeError, and output: [, pii()] was accepted.
    // biome-ignore lint/suspicious/noSparseArray: the hole is the input under test
    const sparse = [, { name: 'n', check: () => ({}) }];
    expect(issuesOf(guardrailList, sparse)).toEqual([
      { path: 'g.x[0]', value: undefined, expected: 'a value, not undefined' },
    ]);
  });

  it('objects: unknown keys are named with the known ones, missing required keys too', () => {
    const rule = objectOption({ maxTokens: required(positiveInt), windowMs: positiveInt });
    expect(issuesOf(rule, { windwMs: 5 })).toEqual([
      {
        path: 'g.x.windwMs',
        value: 5,
        expected: "no such option (did you mean 'windowMs'? known: maxTokens, windowMs)",
      },
      { path: 'g.x.maxTokens', value: undefined, expected: 'a value' },
    ]);
    expect(issuesOf(rule, null)[0]!.expected).toBe('an object');
    expect(issuesOf(rule, [1])[0]!.expected).toBe('an object');
    // A class instance is not a plain options object.
    expect(issuesOf(rule, new Date(0))[0]!.expected).toBe('an object');
  });

  it('an unknown option names the one it misspells, only when one is close', () => {
    const known = ['input', 'output', 'onTrip', 'maxAttempts'];
    expect(noSuchOption('ouput', known)).toBe(
      "no such option (did you mean 'output'? known: input, output, onTrip, maxAttempts)",
    );
    expect(noSuchOption('maxattempts', known)).toMatch(
      /^no such option \(did you mean 'maxAttempts'\? /,
    );
    expect(noSuchOption('on_trip', known)).toMatch(/^no such option \(did you mean 'onTrip'\? /);
    expect(noSuchOption('policy', known)).toBe(
      'no such option (known: input, output, onTrip, maxAttempts)',
    );
    // Short names are not "close" to everything of their length.
    expect(noSuchOption('in', known)).toBe(
      'no such option (known: input, output, onTrip, maxAttempts)',
    );
    expect(noSuchOption(`${'output'.repeat(20)}`, known)).toMatch(/^no such option \(known: /);
    expect(noSuchOption('x', [])).toBe('no such option');
  });

  it('a guardrail or a factory in the wrong place is named, not dumped', () => {
    const guardrail = { name: 'pii', check: () => ({ action: 'allow' }), streamSafe: true };
    function pii() {}
    const messageOf = (value: unknown) =>
      new GuardrailConfigError({ path: 'input', value, expected: 'an array of guardrails' })
        .message;
    expect(messageOf(guardrail)).toBe(
      'Invalid guardrail configuration at input: expected an array of guardrails, received the guardrail "pii"',
    );
    expect(messageOf([guardrail, { ...guardrail, name: 'secrets' }])).toBe(
      'Invalid guardrail configuration at input: expected an array of guardrails, received the guardrails ["pii", "secrets"]',
    );
    expect(messageOf(pii)).toBe(
      'Invalid guardrail configuration at input: expected an array of guardrails, received the function pii (not called: pii(...)?)',
    );
    expect(messageOf(() => {})).toBe(
      'Invalid guardrail configuration at input: expected an array of guardrails, received a function',
    );
    // A function of two parameters is not a factory left uncalled.
    expect(messageOf(function check(_text: string, _ctx: unknown) {})).toBe(
      'Invalid guardrail configuration at input: expected an array of guardrails, received a function',
    );
  });

  it('a guardrail passed as the options object is one issue, not one per field of it', () => {
    const guardrail = { name: 'pii', check: () => ({ action: 'allow' }), streamSafe: true };
    const shape = { input: guardrailList, output: guardrailList };
    expect(optionIssues(guardrail, { prefix: '', root: 'guardrails', shape })).toEqual([
      {
        path: 'guardrails',
        value: guardrail,
        expected:
          'an options object, not a guardrail (guardrails go in its lists: { input: [...], output: [...] })',
      },
    ]);
  });

  it('records check every entry, quoting keys that are not plain names', () => {
    const rule = recordOf(stringList, 'word lists');
    expect(issuesOf(rule, { 'self-harm': ['x'], 'two words': 'x' }).map(i => i.path)).toEqual([
      'g.x["two words"]',
    ]);
    expect(issuesOf(rule, 5)[0]!.expected).toBe('word lists');
  });

  it('anyOf reports the one alternative that matched the shape, else the summary', () => {
    const breaker = anyOf(
      [oneOf([false]), objectOption({ failures: required(positiveInt) })],
      'false or { failures }',
    );
    expect(issuesOf(breaker, false)).toEqual([]);
    expect(issuesOf(breaker, { failures: 0 }).map(issue => issue.path)).toEqual(['g.x.failures']);
    expect(issuesOf(breaker, true)).toEqual([
      { path: 'g.x', value: true, expected: 'false or { failures }' },
    ]);
  });

  it('a Store needs every method of the interface', () => {
    expect(issuesOf(storeOption, { get: () => undefined })[0]!.expected).toMatch(/^a Store/);
  });
});

describe('validateOptions', () => {
  const shape = { mode: oneOf(['a', 'b']), size: positiveInt };
  const settings = { prefix: 'thing', root: 'thing', shape };

  it('takes undefined as no options, and returns the options as read (a copy, read once)', () => {
    expect(validateOptions(undefined, settings)).toEqual({});
    const options = { mode: 'a' };
    const read = validateOptions(options, settings);
    expect(read).toEqual({ mode: 'a' });
    expect(read).not.toBe(options);
  });

  it('rejects null and non-objects at the root path', () => {
    for (const bad of [null, 'a', 5, [], new Map()]) {
      expect(optionIssues(bad, settings)).toEqual([
        { path: 'thing', value: bad, expected: 'an options object, or nothing for the defaults' },
      ]);
    }
  });

  it('names the required options when there are any', () => {
    const withRequired = { ...settings, shape: { ...shape, limit: required(positiveInt) } };
    expect(optionIssues(undefined, withRequired)[0]!.expected).toBe('an options object with limit');
  });

  it('throws every problem at once', () => {
    let error: unknown;
    try {
      validateOptions({ mode: 'c', size: -1, sise: 1 }, settings);
    } catch (caught) {
      error = caught;
    }
    expect(GuardrailConfigError.isInstance(error)).toBe(true);
    expect((error as GuardrailConfigError).issues.map(issue => issue.path)).toEqual([
      'thing.sise',
      'thing.mode',
      'thing.size',
    ]);
  });

  it('runs refine across options, also with no options at all', () => {
    const refine = (_options: Record<string, unknown>, issues: GuardrailConfigIssue[]) => {
      issues.push({ path: 'thing', value: {}, expected: 'a limit' });
    };
    expect(optionIssues(undefined, { ...settings, refine })).toHaveLength(1);
    expect(optionIssues({ mode: 'a' }, { ...settings, refine })).toHaveLength(1);
  });

  it('prefixes a factory`s paths with its name, or its default name when the name is bad', () => {
    const factoryShape = { name: nonEmptyString, size: positiveInt };
    const pathsOf = (options: unknown) => {
      try {
        validateFactoryOptions(options as object, 'thing', factoryShape);
        return [];
      } catch (error) {
        return (error as GuardrailConfigError).issues.map(issue => issue.path);
      }
    };
    expect(pathsOf({ name: 'mine', size: 0 })).toEqual(['mine.size']);
    expect(pathsOf({ name: '', size: 0 })).toEqual(['thing.name', 'thing.size']);
  });
});

describe('values in issues', () => {
  it('cuts long strings so an error never echoes a whole document or key', () => {
    const document = `Dear team, ${'the quarterly numbers are attached. '.repeat(5)}`;
    expect(shownValue(document)).toBe(`Dear team, the q… (${document.length} characters)`);
    expect(issuesOf(positiveInt, document)[0]!.value).toBe(shownValue(document));
    // Not even the start of a key survives the cut.
    const key = `sk-proj-${'a1B2c3D4'.repeat(8)}`;
    expect(shownValue(key)).toBe(`[redacted]… (${key.length} characters)`);
    expect(shownValue('short')).toBe('short');
  });
});
