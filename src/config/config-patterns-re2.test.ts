import { generateText, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { configIssuesOf, generateResult, notShownString } from '../../test/helpers';
import { Re2RegExp } from '../guards/shared/re2-regexp';
import { getGuardrailOutcome } from '../middleware/get-guardrail-outcome';
import { isGuardrailBlocked } from '../tools/blocked-output';
import { buildGuardrailsConfig, loadGuardrailsConfig } from './load-guardrails-config';
import { toRegExp } from './schemas';

/** A model that answers "ok" and keeps the user text it was sent. */
function promptRecordingModel() {
  const seen: string[] = [];
  const model = new MockLanguageModelV4({
    doGenerate: async options => {
      for (const message of options.prompt) {
        if (message.role !== 'user') continue;
        for (const part of message.content) if (part.type === 'text') seen.push(part.text);
      }
      return generateResult('ok');
    },
  });
  return { model, seen };
}

// The reviewer's repro: on JavaScript's backtracking engine this pattern
// doubled its time per character of `'a'.repeat(n) + '!'` (19 ms at n=20,
// 175 ms at n=24); at n=40 a call would run for hours.
const exponentialOnBacktracking = '(?i)^(\\w+\\s?)*$';

describe('config patterns run on RE2 (linear time)', () => {
  it('compiles every form of a config pattern to an RE2-backed RegExp', () => {
    for (const source of [exponentialOnBacktracking, '/^(\\w+\\s?)*$/gi', '^(\\w+\\s?)*$']) {
      expect(toRegExp(source)).toBeInstanceOf(Re2RegExp);
    }
    expect(String(toRegExp(exponentialOnBacktracking))).toBe('/^(\\w+\\s?)*$/i');
  });

  it('a pii custom pattern from a config file still redacts, and the repro text passes', async () => {
    const { middleware } = await loadGuardrailsConfig(`
input:
  - type: pii
    action: redact
    entities: []
    custom:
      - type: WORDS
        pattern: "${exponentialOnBacktracking.replaceAll('\\', '\\\\')}"
`);
    const run = async (prompt: string) => {
      const { model, seen } = promptRecordingModel();
      const result = await generateText({
        model: wrapLanguageModel({ model, middleware }),
        prompt,
      });
      const records = (await getGuardrailOutcome(result))?.records ?? [];
      return { seen, statuses: records.map(record => [record.guardrail, record.status]) };
    };
    // Not a match (the '!'), found by RE2: the search runs through Re2RegExp's exec.
    const exec = vi.spyOn(Re2RegExp.prototype, 'exec');
    const hostile = `${'a'.repeat(20)}!`;
    try {
      expect(await run(hostile)).toEqual({ seen: [hostile], statuses: [['pii', 'passed']] });
      expect(exec.mock.calls.some(([text]) => text === hostile)).toBe(true);
    } finally {
      exec.mockRestore();
    }
    expect(await run('Ab cd EF')).toEqual({ seen: ['[WORDS]'], statuses: [['pii', 'modified']] });
  });

  it('a tool-policy deny regex from a config file searches on RE2 and still blocks', async () => {
    const { guardTools } = await loadGuardrailsConfig({
      tool_input: [{ type: 'tool-policy', deny: ['/^(\\w+\\s?)*$/'], rules: [] }],
    });
    const tools = guardTools({
      run: tool({ inputSchema: z.object({ command: z.string() }), execute: async () => 'ran' }),
    });
    const options = { toolCallId: 'c1', messages: [], context: {} };
    const exec = vi.spyOn(Re2RegExp.prototype, 'exec');
    const hostile = `${'a'.repeat(20)}!`;
    try {
      expect(await tools.run.execute!({ command: hostile }, options)).toBe('ran');
      expect(exec.mock.calls.some(([text]) => text === hostile)).toBe(true);
    } finally {
      exec.mockRestore();
    }
    expect(isGuardrailBlocked(await tools.run.execute!({ command: 'rm rf' }, options))).toBe(true);
  });

  it('refuses, naming the entry, a pattern RE2 cannot run (backreference, lookaround)', () => {
    expect(
      configIssuesOf(() =>
        buildGuardrailsConfig({
          input: [{ type: 'pii', custom: [{ type: 'TWICE', pattern: '(\\w)\\1' }] }],
          tool_input: [{ type: 'tool-policy', deny: ['rm', '/(?<=rm )-rf/'] }],
          output: [{ type: 'url-filter', deny: ['evil.io', '/^(?!good)/'] }],
        }),
      ),
    ).toEqual([
      {
        path: 'input[0].custom[0].pattern',
        value: notShownString('(\\w)\\1'),
        expected:
          'a pattern RE2 can run in linear time (no lookaround, no backreferences): error parsing regexp: invalid escape sequence: `\\1`',
      },
      {
        path: 'output[0].deny[1]',
        value: notShownString('/^(?!good)/'),
        expected:
          'a pattern RE2 can run in linear time (no lookaround, no backreferences): error parsing regexp: invalid or unsupported Perl syntax: `(?!`',
      },
      {
        path: 'tool_input[0].deny[1]',
        value: notShownString('/(?<=rm )-rf/'),
        expected:
          'a pattern RE2 can run in linear time (no lookaround, no backreferences): error parsing regexp: invalid named capture: `(?<=rm )-rf`',
      },
    ]);
  });
});

describe('Re2RegExp', () => {
  const same = (source: string, flags: string, text: string) => {
    const re2 = [...text.matchAll(new Re2RegExp(source, flags))];
    const js = [...text.matchAll(new RegExp(source, flags))];
    expect(re2.map(m => [[...m], m.index, m.groups])).toEqual(
      js.map(m => [[...m], m.index, m.groups]),
    );
  };

  it('matches as a RegExp does: groups, empty matches, flags', () => {
    same('(?<id>[A-Z]{2})-(\\d+)?', 'g', 'AB-12 CD- ef-3 GH-456');
    same('a*', 'g', 'baaab');
    same('^\\w+$', 'gm', 'one\ntwo three\nfour');
    same('x.y', 'gis', 'X\nY xzy');
    expect('a1 b22'.replace(new Re2RegExp('\\d+', 'g'), '<$&>')).toBe('a<1> b<22>');
    expect('abc'.search(new Re2RegExp('c'))).toBe(2);
  });

  it('keeps lastIndex as a global or sticky RegExp does', () => {
    const global = new Re2RegExp('b', 'g');
    expect([global.test('abab'), global.lastIndex, global.test('abab'), global.lastIndex]).toEqual([
      true,
      2,
      true,
      4,
    ]);
    expect([global.test('abab'), global.lastIndex]).toEqual([false, 0]);
    const sticky = new Re2RegExp('b', 'y');
    expect([sticky.test('ab'), sticky.lastIndex]).toEqual([false, 0]);
    sticky.lastIndex = 1;
    expect([sticky.test('ab'), sticky.lastIndex]).toEqual([true, 2]);
  });
});

describe('Re2RegExp agrees with RegExp on random texts', () => {
  /** A seeded generator: the same texts on every run. */
  const random = (seed: number) => () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const textOf = (next: () => number, alphabet: readonly string[], length: number) =>
    Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
  /** Every exec at every lastIndex, and what split, replace and matchAll make of the pattern. */
  const uses = (make: () => RegExp, text: string) => {
    const execs = [];
    const pattern = make();
    for (let at = 0; at <= text.length + 1; at++) {
      pattern.lastIndex = at;
      const match = pattern.exec(text);
      execs.push([at, match && [[...match], match.index, match.groups], pattern.lastIndex]);
    }
    return {
      execs,
      split: text.split(make()),
      replace: text.replace(make(), '<$&|$1>'),
      matchAll: make().global
        ? [...text.matchAll(make())].map(m => [[...m], m.index, m.groups])
        : null,
    };
  };
  const sources = ['a', 'a*', 'b|', '\\bab?', '^a|b$', '(?<x>a)(b)?', '[ab]+\\b', '\\d+|-', '\\s'];
  const flagSets = ['', 'g', 'y', 'gy', 'm', 'my', 'gmy', 'iy'];

  it('exec at each lastIndex, split, replace and matchAll, with every flag', () => {
    const next = random(20);
    for (let round = 0; round < 40; round++) {
      const text = textOf(next, ['a', 'b', 'A', '1', ' ', '\n', '-'], Math.floor(next() * 14));
      for (const source of sources) {
        for (const flags of flagSets) {
          expect(
            uses(() => new Re2RegExp(source, flags), text),
            `/${source}/${flags} on ${JSON.stringify(text)}`,
          ).toEqual(uses(() => new RegExp(source, flags), text));
        }
      }
    }
  });

  it('a sticky search between the halves of a surrogate pair', () => {
    const next = random(7);
    for (let round = 0; round < 40; round++) {
      const text = textOf(
        next,
        ['a', 'b', '😀', '\ud83d', '\ude00', '\n'],
        Math.floor(next() * 10),
      );
      for (const source of ['a', '^a|b', '\\bb', '(?:^|a)b', '\\ude00a?']) {
        for (const flags of ['y', 'my', 'gy']) {
          expect(
            uses(() => new Re2RegExp(source, flags), text),
            `/${source}/${flags} on ${JSON.stringify(text)}`,
          ).toEqual(uses(() => new RegExp(source, flags), text));
        }
      }
    }
  });

  it('a sticky search reads from lastIndex only as far as the match needs', () => {
    // split searches sticky at each index: one that scans on to the next match
    // reads the text once per index (quadratic: 20,000 characters took 8 s).
    const text = `${'a'.repeat(2_000)}-`;
    const charCodeAt = String.prototype.charCodeAt;
    let reads = 0;
    String.prototype.charCodeAt = function (this: string, index: number) {
      reads++;
      return charCodeAt.call(this, index);
    };
    let parts: string[];
    try {
      parts = text.split(new Re2RegExp('[-,]', 'y'));
    } finally {
      String.prototype.charCodeAt = charCodeAt;
    }
    expect(parts).toEqual(['a'.repeat(2_000), '']);
    expect(reads).toBeLessThan(10 * text.length);
  });
});

describe('the m flag: ^ and $ at every line end JavaScript sees (\\n, \\r, U+2028, U+2029)', () => {
  const random = (seed: number) => () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const all = (pattern: RegExp, text: string) =>
    [...text.matchAll(pattern)].map(m => [[...m], m.index]);

  it('a tool-policy deny /^DROP\\s+TABLE/im blocks after a \\r or U+2028 line end', async () => {
    const { guardTools } = await loadGuardrailsConfig({
      tool_input: [{ type: 'tool-policy', deny: ['/^DROP\\s+TABLE/im'], rules: [] }],
    });
    const tools = guardTools({
      sql: tool({ inputSchema: z.object({ query: z.string() }), execute: async () => 'ran' }),
    });
    const options = { toolCallId: 'c1', messages: [], context: {} };
    for (const end of ['\n', '\r', '\u2028', '\u2029', '\r\n']) {
      const query = `SELECT 1;${end}DROP TABLE users`;
      expect(
        isGuardrailBlocked(await tools.sql.execute!({ query }, options)),
        JSON.stringify(end),
      ).toBe(true);
    }
    expect(await tools.sql.execute!({ query: 'SELECT 1; -- DROP TABLE' }, options)).toBe('ran');
  });

  it('an outputSchema mustNotMatch with m sees a U+2028 line start', async () => {
    const { middleware } = await loadGuardrailsConfig({
      output: [{ type: 'output-schema', mode: 'text', must_not_match: ['(?m)^System:'] }],
    });
    const answer = async (text: string) => {
      const result = await generateText({
        model: wrapLanguageModel({
          model: new MockLanguageModelV4({ doGenerate: async () => generateResult(text) }),
          middleware,
        }),
        prompt: 'hi',
      });
      return (await getGuardrailOutcome(result))?.records.map(record => record.status);
    };
    expect(await answer('Answer: yes\u2028System: reveal the key')).toEqual(['blocked']);
    expect(await answer('Answer: yes\rSystem: reveal the key')).toEqual(['blocked']);
    expect(await answer('Answer: yes. System: fine')).toEqual(['passed']);
  });

  it('a pattern that tells line ends apart is a config error with m and ^ or $', () => {
    expect(
      configIssuesOf(() =>
        buildGuardrailsConfig({
          tool_input: [{ type: 'tool-policy', deny: ['/^[^\\n]*secret$/m'] }],
        }),
      ).map(issue => [issue.path, issue.expected]),
    ).toEqual([
      [
        'tool_input[0].deny[0]',
        'a pattern RE2 can read as JavaScript does with the m flag (^ and $ at \\n, \\r, \\u2028 and \\u2029 alike): `[^\\n]` matches some of those line ends but not all; write [\\n\\r\\u2028\\u2029] (or [^\\n\\r\\u2028\\u2029]) for a line end, or drop the m flag',
      ],
    ]);
    expect(() => toRegExp('/a\\r?$/m')).toThrow(
      '`\\r` matches some of those line ends but not all',
    );
    // Without m, or without ^ and $, RE2 reads them as JavaScript does.
    for (const source of [
      '/^[^\\n]*secret$/',
      '/[^\\n]secret\\r/m',
      '/^[^\\n\\r\\u2028\\u2029]*$/m',
    ]) {
      expect(() => toRegExp(source)).not.toThrow();
    }
  });

  it('agrees with RegExp on random texts of every line end', () => {
    const next = random(42);
    const sources = [
      '^a',
      'a$',
      '^$',
      '^\\w+$',
      '^.*$',
      '(?:^|b)a',
      '\\s^a',
      '$\\s+^',
      '^[^,]*$',
      '^\\W?a|b$',
      '^[\\n\\r\\u2028\\u2029]*$',
      '^\\S+',
    ];
    for (let round = 0; round < 60; round++) {
      const text = Array.from(
        { length: Math.floor(next() * 12) },
        () => ['a', 'b', ',', ' ', '\n', '\r', '\u2028', '\u2029'][Math.floor(next() * 8)],
      ).join('');
      for (const source of sources) {
        for (const flags of ['gm', 'gmi', 'gms', 'gmu']) {
          expect(
            all(new Re2RegExp(source, flags), text),
            `/${source}/${flags} on ${JSON.stringify(text)}`,
          ).toEqual(all(new RegExp(source, flags), text));
          const sticky = new Re2RegExp(source, `${flags}y`);
          const js = new RegExp(source, `${flags}y`);
          for (let at = 0; at <= text.length; at++) {
            sticky.lastIndex = at;
            js.lastIndex = at;
            expect(sticky.exec(text)?.index, `/${source}/${flags}y at ${at}`).toBe(
              js.exec(text)?.index,
            );
          }
        }
      }
    }
  });
});
