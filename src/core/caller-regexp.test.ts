import { describe, expect, it } from 'vitest';
import { guardContext } from '../../test/helpers';
import { outputSchema } from '../guards/output-schema/output-schema';
import { findPii } from '../guards/pii/find-pii-bundled';
import { pii } from '../guards/pii/pii';
import { Re2RegExp } from '../guards/shared/re2-regexp';
import { toolPolicy } from '../guards/tool-policy/tool-policy';
import { urlFilter } from '../guards/url-filter/url-filter';
import { callerRegExpCopy } from './caller-regexp';
import { GuardrailConfigError, type GuardrailConfigIssue } from './errors';
import { NotShown } from './redact-secrets';
import type { Guardrail, GuardrailContext } from './types';

/*
 * Round 45: a caller's RegExp is rebuilt once, from its source and flags
 * read once, where the options are read. Each guardrail that takes one
 * searches with its own copy, so a subclass's `exec` (counting, forging a
 * match, throwing) never runs during a check.
 */

/** How often the caller's code ran: each class below counts into it. */
let calls = 0;

class CountingExec extends RegExp {
  override exec(text: string): RegExpExecArray | null {
    calls++;
    return super.exec(text);
  }
}

/** Forges a match of the whole text, then none: answers otherwise on each call. */
class ForgingExec extends RegExp {
  override exec(text: string): RegExpExecArray | null {
    calls++;
    if (calls % 2 === 0) return null;
    const forged = [text] as unknown as RegExpExecArray;
    forged.index = 0;
    forged.input = text;
    return forged;
  }
  override [Symbol.replace](): string {
    calls++;
    return 'forged';
  }
}

class ThrowingExec extends RegExp {
  override exec(): RegExpExecArray | null {
    calls++;
    throw new Error('exec ran: hunter2');
  }
}

const subclasses = [CountingExec, ForgingExec, ThrowingExec];

function toolCall(toolName: string, value: unknown): [string, GuardrailContext] {
  return [JSON.stringify(value), guardContext('tool_input', { toolName, value })];
}

/** The verdicts of `make(pattern)` on `texts`, each checked twice. */
async function verdictsOf(
  make: (pattern: RegExp) => Guardrail,
  pattern: RegExp,
  texts: readonly (readonly [string, GuardrailContext])[],
): Promise<unknown[]> {
  const guard = make(pattern);
  const verdicts: unknown[] = [];
  for (const [text, ctx] of [...texts, ...texts]) verdicts.push(await guard.check(text, ctx));
  return verdicts;
}

const guardrailsTaking: Array<{
  name: string;
  source: string;
  flags: string;
  make: (pattern: RegExp) => Guardrail;
  texts: readonly (readonly [string, GuardrailContext])[];
}> = [
  {
    name: 'urlFilter deny',
    source: 'evil',
    flags: 'g',
    make: pattern => urlFilter({ deny: [pattern] }),
    texts: [
      ['see https://evil.io/a and https://good.io/b', guardContext('output')],
      ['see https://good.io/b', guardContext('output')],
    ],
  },
  {
    name: 'urlFilter allow',
    source: '^good\\.io$',
    flags: '',
    make: pattern => urlFilter({ allow: [pattern], action: 'redact' }),
    texts: [['see https://evil.io/a and https://good.io/b', guardContext('output')]],
  },
  {
    name: 'toolPolicy deny',
    source: 'rm -rf',
    flags: 'i',
    make: pattern => toolPolicy({ deny: [pattern] }),
    texts: [toolCall('shell', { command: 'ls; RM -RF /' }), toolCall('shell', { command: 'ls' })],
  },
  {
    name: 'outputSchema mustNotMatch',
    source: 'as an ai',
    flags: 'i',
    make: pattern => outputSchema({ mustNotMatch: [pattern] }),
    texts: [
      ['Answer: As an AI, no.', guardContext('output')],
      ['Answer: 42', guardContext('output')],
    ],
  },
  {
    name: 'outputSchema mustMatch',
    source: '^Answer:',
    flags: '',
    make: pattern => outputSchema({ mustMatch: [pattern] }),
    texts: [
      ['Answer: 42', guardContext('output')],
      ['42', guardContext('output')],
    ],
  },
  {
    name: 'pii custom',
    source: 'EMP-\\d{4}',
    flags: '',
    make: pattern => pii({ entities: [], custom: [{ type: 'EMPLOYEE_ID', pattern }] }),
    texts: [
      ['ids EMP-1234 and EMP-5678', guardContext('input')],
      ['no id here', guardContext('input')],
    ],
  },
];

describe('a RegExp option is the guardrail’s own copy (round 45)', () => {
  for (const { name, source, flags, make, texts } of guardrailsTaking) {
    for (const Subclass of subclasses) {
      it(`${name}: a ${Subclass.name} subclass answers as the plain RegExp, its exec never run`, async () => {
        const plain = await verdictsOf(make, new RegExp(source, flags), texts);
        calls = 0;
        const given = await verdictsOf(make, new Subclass(source, flags), texts);
        expect(given).toEqual(plain);
        expect(calls).toBe(0);
      });
    }
  }

  it('the verdicts the copies give are the plain patterns’ own', async () => {
    const deny = urlFilter({ deny: [new ForgingExec('evil', 'g')] });
    expect(await deny.check('https://evil.io/a https://good.io', guardContext('output'))).toEqual({
      action: 'block',
      message: 'This content contains a link that is not allowed.',
      reason: 'https://evil.io: host "evil.io" is denied by "/evil/g"',
      severity: 'warning',
      info: {
        count: 1,
        urls: [{ url: 'https://evil.io', rule: 'host "evil.io" is denied by "/evil/g"' }],
      },
    });
    const redact = pii({
      entities: [],
      custom: [{ type: 'EMPLOYEE_ID', pattern: new ForgingExec('EMP-\\d{4}') }],
    });
    expect(await redact.check('ids EMP-1234 and x', guardContext('input'))).toEqual({
      action: 'modify',
      content: 'ids [EMPLOYEE_ID] and x',
      info: { types: ['EMPLOYEE_ID'], spans: [{ type: 'EMPLOYEE_ID', start: 4, end: 12 }] },
    });
    expect(calls).toBe(0);
  });

  it('findPii: a subclass in custom is copied once for the options object, its exec never run', () => {
    let sourceReads = 0;
    class CountedSource extends CountingExec {
      override get source(): string {
        sourceReads++;
        return super.source;
      }
    }
    calls = 0;
    const options = {
      entities: [],
      custom: [{ type: 'ID', pattern: new CountedSource('ID-\\d+') }],
    };
    for (let call = 0; call < 3; call++) {
      expect(findPii('a ID-12 b ID-345', options)).toEqual([
        { type: 'ID', start: 2, end: 7 },
        { type: 'ID', start: 10, end: 16 },
      ]);
    }
    expect(calls).toBe(0);
    expect(sourceReads).toBe(1);
  });

  it('reads source and flags once each: the fingerprint hashes the copy', () => {
    const reads: string[] = [];
    class CountedGetters extends RegExp {
      override get source(): string {
        reads.push('source');
        return super.source;
      }
      override get flags(): string {
        reads.push('flags');
        return super.flags;
      }
    }
    const counted = urlFilter({ deny: [new CountedGetters('evil', 'i')] });
    expect(reads).toEqual(['source', 'flags']);
    expect(counted.fingerprint).toBe(urlFilter({ deny: [/evil/i] }).fingerprint);
  });

  it('a frozen global RegExp is searched as an unfrozen one (its lastIndex was set on each host)', async () => {
    const deny = urlFilter({ deny: [Object.freeze(/evil/g)] });
    for (let call = 0; call < 2; call++) {
      expect((await deny.check('https://evil.io/a', guardContext('output'))).action).toBe('block');
    }
    const policy = toolPolicy({ deny: [Object.freeze(/rm -rf/g)] });
    expect((await policy.check(...toolCall('shell', { command: 'rm -rf /' }))).action).toBe(
      'block',
    );
  });
});

describe('a RegExp option that cannot be copied is a GuardrailConfigError', () => {
  const notRead = {
    value: new NotShown('(not read)'),
    expected: 'a value that can be read (reading it threw an Error, its message not shown)',
  };

  function issuesOf(make: () => unknown): GuardrailConfigIssue[] {
    try {
      make();
    } catch (error) {
      expect(error).toBeInstanceOf(GuardrailConfigError);
      expect(String((error as Error).message)).not.toContain('hunter2');
      return (error as GuardrailConfigError).issues;
    }
    throw new Error('no error');
  }

  class ThrowingSource extends RegExp {
    override get source(): string {
      throw new Error('source getter: hunter2');
    }
  }
  class ThrowingFlags extends RegExp {
    override get flags(): string {
      throw new Error('flags getter: hunter2');
    }
  }

  it('a source or flags getter that throws: the error by kind at the pattern’s path', () => {
    expect(issuesOf(() => urlFilter({ deny: ['ok.io', new ThrowingSource('x')] }))).toEqual([
      { path: 'url-filter.deny[1]', ...notRead },
    ]);
    expect(issuesOf(() => toolPolicy({ deny: [new ThrowingFlags('x')] }))).toEqual([
      { path: 'tool-policy.deny[0]', ...notRead },
    ]);
    expect(issuesOf(() => outputSchema({ mustMatch: [new ThrowingSource('x')] }))).toEqual([
      { path: 'output-schema.mustMatch[0]', ...notRead },
    ]);
    expect(
      issuesOf(() => pii({ custom: [{ type: 'ID', pattern: new ThrowingFlags('x') }] })),
    ).toEqual([{ path: 'pii.custom[0].pattern', ...notRead }]);
    expect(
      issuesOf(() => findPii('x', { custom: [{ type: 'ID', pattern: new ThrowingSource('x') }] })),
    ).toEqual([{ path: 'findPii.custom[0].pattern', ...notRead }]);
  });

  it('a Proxy of a RegExp (its source cannot be read through it)', () => {
    expect(issuesOf(() => urlFilter({ deny: [new Proxy(/evil/, {})] }))).toEqual([
      {
        path: 'url-filter.deny[0]',
        value: new NotShown('(not read)'),
        expected: 'a value that can be read (reading it threw a TypeError, its message not shown)',
      },
    ]);
  });

  it('a source or flags that is no string, or that builds no RegExp', () => {
    class NumberSource extends RegExp {
      override get source(): string {
        return 5 as unknown as string;
      }
    }
    class BadFlags extends RegExp {
      override get flags(): string {
        return 'gg';
      }
    }
    expect(issuesOf(() => urlFilter({ deny: [new NumberSource('x')] }))).toEqual([
      {
        path: 'url-filter.deny[0]',
        value: new NotShown('(a RegExp, not shown)'),
        expected: 'a RegExp whose source and flags are strings',
      },
    ]);
    expect(issuesOf(() => urlFilter({ deny: [new BadFlags('x')] }))).toEqual([
      {
        path: 'url-filter.deny[0]',
        value: new NotShown('(a RegExp, not shown)'),
        expected:
          'a RegExp whose source and flags build one (building it threw a SyntaxError, its message not shown)',
      },
    ]);
  });

  it('a sticky flag is read from the copy, reported at the flags as before', () => {
    expect(issuesOf(() => urlFilter({ deny: [new CountingExec('evil', 'y')] }))).toEqual([
      {
        path: 'url-filter.deny[0].flags',
        value: new NotShown('a string of 1 character (not shown)'),
        expected:
          "flags without 'y' (a sticky pattern matches only where a search starts, so it misses a value later in the text; anchor it with ^ instead)",
      },
    ]);
  });
});

describe('callerRegExpCopy', () => {
  it('keeps the library’s RE2 class (a config pattern stays linear), a subclass of it too', () => {
    class CallerRe2 extends Re2RegExp {
      override exec(text: string): RegExpExecArray | null {
        calls++;
        return super.exec(text);
      }
    }
    for (const given of [new Re2RegExp('(a+)+$', 'i'), new CallerRe2('(a+)+$', 'i')]) {
      const issues: GuardrailConfigIssue[] = [];
      const copy = callerRegExpCopy(given, 'p', issues) as RegExp;
      expect(issues).toEqual([]);
      expect(copy).not.toBe(given);
      expect(copy.constructor).toBe(Re2RegExp);
      expect(String(copy)).toBe('/(a+)+$/i');
    }
    const plain = callerRegExpCopy(new CountingExec('a', 'g'), 'p', []) as RegExp;
    expect(plain.constructor).toBe(RegExp);
    expect(String(plain)).toBe('/a/g');
  });

  it('leaves what is no RegExp as it is, and a copy as it is', () => {
    const object = {};
    expect(callerRegExpCopy(object, 'p', [])).toBe(object);
    expect(callerRegExpCopy('x', 'p', [])).toBe('x');
    const copy = callerRegExpCopy(/x/, 'p', []);
    expect(callerRegExpCopy(copy, 'p', [])).toBe(copy);
  });
});
