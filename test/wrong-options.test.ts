import { describe, expect, it } from 'vitest';
import {
  findPii,
  type Guardrail,
  type GuardrailContext,
  outputSchema,
  pii,
  toolPolicy,
  urlFilter,
} from '../src';
import { buildGuardrailsConfig } from '../src/config';
import { configIssuesOf } from './helpers';

/*
 * Wrong options the options table (test/options-table.test.ts) does not
 * reach: values of the right type that still make a guardrail judge wrongly
 * (a sticky RegExp, a RegExp's leftover lastIndex), and functions that
 * return or throw what the library did not expect.
 */

const context = (kind: GuardrailContext['kind'], toolName?: string) =>
  ({ kind, toolName, messages: [], metadata: {}, state: new Map() }) as unknown as GuardrailContext;

const STICKY =
  "flags without 'y' (a sticky pattern matches only where a search starts, so it misses a value later in the text; anchor it with ^ instead)";

describe('a sticky (y) RegExp is an options error, not a pattern that only matches at the start', () => {
  // Before: each was accepted, and each let through a value that was not at the start of the text.
  it.each([
    [
      'pii custom',
      () => pii({ custom: [{ type: 'EMP', pattern: /EMP-\d{4}/y }] }),
      'pii.custom[0].pattern.flags',
      'y',
    ],
    [
      'findPii custom',
      () => findPii('id EMP-1234', { custom: [{ type: 'EMP', pattern: /EMP-\d{4}/y }] }),
      'findPii.custom[0].pattern.flags',
      'y',
    ],
    [
      'toolPolicy deny',
      () => toolPolicy({ deny: ['x', /rm\s+-rf/iy] }),
      'tool-policy.deny[1].flags',
      'iy',
    ],
    ['urlFilter deny', () => urlFilter({ deny: [/evil/y] }), 'url-filter.deny[0].flags', 'y'],
    ['urlFilter allow', () => urlFilter({ allow: [/good/gy] }), 'url-filter.allow[0].flags', 'gy'],
    [
      'outputSchema mustNotMatch',
      () => outputSchema({ mustNotMatch: [/as an ai/iy] }),
      'output-schema.mustNotMatch[0].flags',
      'iy',
    ],
  ])('%s', (_name, build, path, flags) => {
    expect(configIssuesOf(build)).toEqual([{ path, value: flags, expected: STICKY }]);
  });

  it('a config file\'s "/source/y" pattern is refused at its entry', () => {
    expect(
      configIssuesOf(() =>
        buildGuardrailsConfig({
          tool_input: [{ type: 'tool-policy', deny: ['/rm\\s+-rf/y'] }],
        }),
      ),
    ).toEqual([{ path: 'tool_input[0].deny[0].flags', value: 'y', expected: STICKY }]);
  });

  it('the same patterns without y still find the value anywhere in the text', async () => {
    const check = (
      guardrail: Guardrail,
      text: string,
      kind: GuardrailContext['kind'],
      tool?: string,
    ) => guardrail.check(text, context(kind, tool));
    expect(findPii('id EMP-1234', { custom: [{ type: 'EMP', pattern: /EMP-\d{4}/ }] })).toEqual([
      { type: 'EMP', start: 3, end: 11 },
    ]);
    expect(
      (
        await check(
          toolPolicy({ deny: [/rm\s+-rf/i] }),
          '{"cmd":"ls; rm -rf /"}',
          'tool_input',
          'sh',
        )
      ).action,
    ).toBe('block');
    expect(
      (await check(urlFilter({ deny: [/evil/] }), 'see https://www.evil.com/', 'output')).action,
    ).toBe('block');
  });
});

describe("a global custom pattern's lastIndex does not hide a value", () => {
  it('findPii and pii find a value before the lastIndex the pattern was left at', async () => {
    const pattern = /EMP-\d{4}/g;
    // The caller's own use of the pattern left it here (as `pattern.test(other)` does).
    pattern.lastIndex = 50;
    expect(
      findPii('id EMP-1234 here', {
        entities: ['EMAIL_ADDRESS'],
        custom: [{ type: 'EMP', pattern }],
      }),
    ).toEqual([{ type: 'EMP', start: 3, end: 11 }]);
    const guardrail = pii({ entities: ['EMAIL_ADDRESS'], custom: [{ type: 'EMP', pattern }] });
    pattern.lastIndex = 50;
    expect(await guardrail.check('id EMP-1234 here', context('input'))).toMatchObject({
      action: 'modify',
      content: 'id [EMP] here',
    });
    // Searching does not move the caller's pattern either.
    expect(pattern.lastIndex).toBe(50);
  });
});
