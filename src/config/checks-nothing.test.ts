import { describe, expect, it } from 'vitest';
import { configIssuesOf, guardContext, notShownString } from '../../test/helpers';
import { NotShown } from '../core/redact-secrets';
import { contentFilter } from '../guards/content-filter/content-filter';
import { expression } from '../guards/expression/expression';
import { outputSchema } from '../guards/output-schema/output-schema';
import { toolPolicy } from '../guards/tool-policy/tool-policy';
import { urlFilter } from '../guards/url-filter/url-filter';
import { buildGuardrailsConfig } from './load-guardrails-config';

/*
 * A guardrail configured so that it can never block nor modify anything is
 * a silent pass: the application believes it is guarded. Such a
 * configuration is a GuardrailConfigError, in code and in config files.
 */

const OUTPUT_SCHEMA_NOTHING =
  "at least one rule: schema, requiredFields, mode 'json', mustMatch, mustNotMatch, minLength above 0 or maxLength (with none, outputSchema checks nothing)";

describe('a guardrail configured to check nothing is a GuardrailConfigError', () => {
  it('outputSchema with no rule, empty rule lists or minLength 0', () => {
    for (const options of [
      undefined,
      {},
      { name: 'format' },
      { mustNotMatch: [] },
      { mustMatch: [], mustNotMatch: [] },
      { minLength: 0 },
      { mode: 'text' as const, message: 'Bad format.' },
    ]) {
      expect(
        configIssuesOf(() => outputSchema(options)),
        JSON.stringify(options),
      ).toEqual([
        {
          path: options && 'name' in options ? 'format' : 'output-schema',
          value: new NotShown('an object (not shown)'),
          expected: OUTPUT_SCHEMA_NOTHING,
        },
      ]);
    }
  });

  it('outputSchema with an empty JSON Schema (it accepts every JSON value)', () => {
    expect(configIssuesOf(() => outputSchema({ schema: {} }))).toEqual([
      {
        path: 'output-schema.schema',
        value: new NotShown('an object (not shown)'),
        expected:
          "a JSON Schema with at least one keyword ({} accepts every JSON value: to require JSON only, use mode 'json')",
      },
    ]);
  });

  it('outputSchema with any one real rule is fine', () => {
    for (const options of [
      { mode: 'json' as const },
      { requiredFields: ['answer'] },
      { schema: { type: 'object' } },
      { mustMatch: [/\d/] },
      { mustNotMatch: [/as an ai/i] },
      { minLength: 1 },
      { maxLength: 0 },
    ]) {
      expect(outputSchema(options).name, JSON.stringify(options)).toBe('output-schema');
    }
  });

  it('urlFilter with an empty allow list (which admitted every host)', () => {
    expect(configIssuesOf(() => urlFilter({ allow: [] }))).toEqual([
      {
        path: 'url-filter.allow',
        value: [],
        expected:
          'at least one host pattern (an empty allow list would admit every host: leave allow out to allow all hosts not denied)',
      },
    ]);
    // Without lists it still checks schemes, user info, homographs and private hosts.
    expect(urlFilter().name).toBe('url-filter');
    expect(urlFilter({ deny: [] }).name).toBe('url-filter');
  });

  it('toolPolicy with no rule packs, no deny entries, no allow list and no argument schemas', () => {
    for (const options of [{ rules: [] }, { rules: [], deny: [] }, { rules: [], args: {} }]) {
      expect(
        configIssuesOf(() => toolPolicy(options as never)),
        JSON.stringify(options),
      ).toEqual([
        {
          path: 'tool-policy',
          value: new NotShown('an object (not shown)'),
          expected:
            'at least one rule: rules (sql, shell, path), deny, allow or args (with none, toolPolicy checks nothing)',
        },
      ]);
    }
    expect(toolPolicy({ rules: [], deny: [/drop/i] }).name).toBe('tool-policy');
    expect(toolPolicy({ rules: [], allow: ['search'] }).name).toBe('tool-policy');
  });

  it('contentFilter with no entry and no maxLength', () => {
    for (const options of [
      { categories: [] },
      { categories: {} },
      { categories: [], blocklist: [] },
    ]) {
      expect(
        configIssuesOf(() => contentFilter(options)),
        JSON.stringify(options),
      ).toEqual([
        {
          path: 'content-filter.categories',
          value: Array.isArray(options.categories)
            ? options.categories
            : new NotShown('an object (not shown)'),
          expected:
            'at least one entry (blocklist or categories) or maxLength (with none, contentFilter checks nothing)',
        },
      ]);
    }
    // Any entry or a length cap is a check.
    expect(() => contentFilter({ categories: [], blocklist: ['acme internal'] })).not.toThrow();
    expect(() => contentFilter({ categories: { competitors: ['Globex'] } })).not.toThrow();
    expect(() => contentFilter({ categories: [], maxLength: 10_000 })).not.toThrow();
    expect(() => contentFilter()).not.toThrow();
  });

  it('an expression that reads nothing and always allows', () => {
    const EXPECTED =
      'an expression that reads the content or the call (content, kind, metadata, tool, step, now(), today()): one that always allows checks nothing';
    for (const expr of ['true', '1 < 2', '{"allowed": true}', '[1, 2].size() > 0 || false']) {
      expect(
        configIssuesOf(() => expression({ expr })),
        expr,
      ).toEqual([{ path: 'expression.expr', value: notShownString(expr), expected: EXPECTED }]);
    }
    // A constant block (a kill switch) and expressions that read something stay valid.
    for (const expr of [
      'false',
      'size(content) < 100000',
      'now() > timestamp("2020-01-01T00:00:00Z")',
      '[1].all(x, x > 0)',
    ]) {
      expect(expression({ expr }).name, expr).toBe('expression');
    }
  });

  it('an expression that reads the content but whose result cannot depend on it', () => {
    const allows = (detail: string) =>
      `an expression whose result depends on the content or the call: this one is always true (${detail}), so it allows everything and checks nothing`;
    const blocks = (detail: string) =>
      `an expression whose result depends on the content or the call: this one is always false (${detail}), so it blocks everything (write false for a kill switch)`;
    const cases: Array<[string, string]> = [
      ['content == content', allows('`content == content` compares a value with itself')],
      ['content != content', blocks('`content != content` compares a value with itself')],
      [
        'size(content) == size(content)',
        allows('`size(content) == size(content)` compares a value with itself'),
      ],
      [
        'size(content)==content.size() || content.size() >= content.size()',
        allows('`content.size() >= content.size()` compares a value with itself'),
      ],
      [
        'content.contains("x") || !content.contains("x")',
        allows(
          '`content.contains("x") || !content.contains("x")` joins a condition with its negation',
        ),
      ],
      [
        '!(kind == "input") && kind == "input"',
        blocks('`!(kind == "input") && kind == "input"` joins a condition with its negation'),
      ],
      ['content.startsWith("a") || true', allows('`true` is a constant')],
      [
        '!(content == content) ? false : true',
        allows('`content == content` compares a value with itself'),
      ],
      [
        '{"allowed": step == step, "reason": content}',
        'an expression whose result depends on the content or the call: its "allowed" is always true (`step == step` compares a value with itself), so it allows everything and checks nothing',
      ],
      [
        'content',
        'an expression whose result depends on the content or the call: `content` returns the content unchanged, so it allows everything and checks nothing',
      ],
    ];
    for (const [expr, expected] of cases) {
      expect(
        configIssuesOf(() => expression({ expr })),
        expr,
      ).toEqual([{ path: 'expression.expr', value: notShownString(expr), expected }]);
    }
    // Comparisons that can differ, or fail, stay valid: two different values, a double (NaN is
    // not equal to itself), a value that may be missing or may overflow, the clock.
    for (const expr of [
      'metadata.tier == "pro" || (content < content)',
      'content == content.lowerAscii()',
      'double(content) == double(content)',
      'metadata.x == metadata.x',
      'int(content) == int(content)',
      'step + 1 == step + 1',
      'now() == now()',
      'content.contains("x") || !content.contains("y")',
      '[1, 2].all(x, x == x)',
      '{"allowed": true, "modified": content.lowerAscii()}',
      'content.lowerAscii()',
    ]) {
      expect(expression({ expr }).name, expr).toBe('expression');
    }
  });

  it('an expression that still checks nothing: a size against a bound every size meets, the empty string, complementary comparisons', () => {
    const allows = (detail: string) =>
      `an expression whose result depends on the content or the call: this one is always true (${detail}), so it allows everything and checks nothing`;
    const blocks = (detail: string) =>
      `an expression whose result depends on the content or the call: this one is always false (${detail}), so it blocks everything (write false for a kill switch)`;
    const cases: Array<[string, string]> = [
      ['size(content) >= 0', allows('`size(content) >= 0` holds for every size (0 or more)')],
      ['content.size() > -1', allows('`content.size() > -1` holds for every size (0 or more)')],
      ['0 <= size(content)', allows('`0 <= size(content)` holds for every size (0 or more)')],
      ['size(content) < 0', blocks('`size(content) < 0` holds for no size (0 or more)')],
      ['content.contains("")', allows('`content.contains("")` tests for the empty string')],
      [
        'content.lowerAscii().startsWith("")',
        allows('`content.lowerAscii().startsWith("")` tests for the empty string'),
      ],
      ['content.matches("")', allows('`content.matches("")` tests for the empty string')],
      [
        'content == "" || content != ""',
        allows('`content == "" || content != ""` joins a condition with its negation'),
      ],
      [
        'size(content) > 10 && size(content) <= 10',
        blocks('`size(content) > 10 && size(content) <= 10` joins a condition with its negation'),
      ],
      ['content == content + ""', allows('`content == content + ""` compares a value with itself')],
      [
        'content.trim() == content.trim()',
        allows('`content.trim() == content.trim()` compares a value with itself'),
      ],
      // The quote keeps the parentheses the node starts inside.
      [
        '(content == "a") == (content == "a")',
        allows('`(content == "a") == (content == "a")` compares a value with itself'),
      ],
    ];
    for (const [expr, expected] of cases) {
      expect(
        configIssuesOf(() => expression({ expr })),
        expr,
      ).toEqual([{ path: 'expression.expr', value: notShownString(expr), expected }]);
    }
    // Bounds a size may or may not meet, sums that may overflow, a value that may be negative,
    // a needle that is not empty, comparisons of different operands: all stay valid.
    for (const expr of [
      'size(content) > 0',
      'size(content) >= 1',
      'size(content) <= 4000',
      'size(content) == 0',
      'size(content) + 1 > 0',
      'step >= 0',
      'content.contains(" ")',
      'content.matches(".")',
      'content == "" || content != "a"',
      'size(content) > 10 && size(content) <= 20',
      'content + "x" == content',
      'content.trim() == content',
    ]) {
      expect(expression({ expr }).name, expr).toBe('expression');
    }
  });

  it('an expression that checks nothing through two literals, a chain, or a pattern that matches every string', async () => {
    const allows = (detail: string) =>
      `an expression whose result depends on the content or the call: this one is always true (${detail}), so it allows everything and checks nothing`;
    const blocks = (detail: string) =>
      `an expression whose result depends on the content or the call: this one is always false (${detail}), so it blocks everything (write false for a kill switch)`;
    const twoLiterals = '(a value equals at most one of two different literals)';
    const cases: Array<[string, string]> = [
      [
        'content != "a" || content != "b"',
        allows(`\`content != "a"\` and \`content != "b"\` cannot both be false ${twoLiterals}`),
      ],
      [
        'size(content) > 3 || content != "a" || kind == "input" || "b" != content',
        allows(`\`content != "a"\` and \`"b" != content\` cannot both be false ${twoLiterals}`),
      ],
      [
        'content == "a" && step == 1 && content == "b"',
        blocks(`\`content == "a"\` and \`content == "b"\` cannot both be true ${twoLiterals}`),
      ],
      [
        'step != 1 || step != 2',
        allows(`\`step != 1\` and \`step != 2\` cannot both be false ${twoLiterals}`),
      ],
      [
        'content.contains("a") || size(content) > 3 || !content.contains("a")',
        allows('`content.contains("a")` and `!content.contains("a")` cannot both be false'),
      ],
      [
        '!content.contains("a") || step > 1 || content.contains("a")',
        allows('`!content.contains("a")` and `content.contains("a")` cannot both be false'),
      ],
      [
        'size(content) < 5 || kind == "input" || size(content) >= 5',
        allows('`size(content) < 5` and `size(content) >= 5` cannot both be false'),
      ],
      ['content.matches(".*")', allows('`content.matches(".*")` matches every string')],
      ['content.matches("(?:)")', allows('`content.matches("(?:)")` matches every string')],
      ['content.matches("x*")', allows('`content.matches("x*")` matches every string')],
      ['content.matches("^.*")', allows('`content.matches("^.*")` matches every string')],
      [
        'content.matches("^[\\\\s\\\\S]*$")',
        allows('`content.matches("^[\\\\s\\\\S]*$")` matches every string'),
      ],
      ['content.matches("(?s)^.*$")', allows('`content.matches("(?s)^.*$")` matches every string')],
      ['!content.matches(".*")', blocks('`content.matches(".*")` matches every string')],
    ];
    for (const [expr, expected] of cases) {
      expect(
        configIssuesOf(() => expression({ expr })),
        expr,
      ).toEqual([{ path: 'expression.expr', value: notShownString(expr), expected }]);
    }
    // The same literal twice, operands that may fail (a missing metadata key),
    // `^.*$` (its `.` stops at a line break), patterns that need a character: all stay valid.
    for (const expr of [
      'content != "a" || content != "a"',
      'content != "a" || kind != "b"',
      'metadata.user != "a" || metadata.user != "b"',
      'content == "a" || content == "b"',
      'content != "a" && content != "b"',
      'content.matches("^.*$")',
      'content.matches("^a*$")',
      'content.matches(".+")',
      'content.matches("^a")',
    ]) {
      expect(expression({ expr }).name, expr).toBe('expression');
    }
    // `^.*$` is no universal pattern: it fails on a line break, and the guardrail blocks there.
    const anyLine = expression({ expr: 'content.matches("^.*$")', reason: 'not one line' });
    expect(await anyLine.check('a\nb', guardContext('input'))).toMatchObject({
      action: 'block',
      reason: 'not one line',
    });
    expect(await anyLine.check('ab', guardContext('input'))).toEqual({ action: 'allow' });
  });

  it('an expression nested deeper than the parser can read is a clear configuration error', () => {
    for (const [expr, count] of [
      [`${'!'.repeat(100_000)}content.contains("a")`, 100_000],
      [`${'- '.repeat(100_000)}1 < size(content)`, 100_000],
      [`${'!'.repeat(33)}content.contains("a")`, 33],
    ] as const) {
      const issues = configIssuesOf(() => expression({ expr }));
      expect(issues.map(issue => issue.expected)).toEqual([
        `at most 32 levels of nesting (it has ${count} prefix operators ! or - in a row)`,
      ]);
    }
    // 32 in a row are read; `!` and `-` inside a string or a comment are not operators.
    for (const expr of [
      `${'!'.repeat(32)}content.contains("a")`,
      `content.contains("${'!'.repeat(100)}")`,
      `content.contains(r'\\${'-'.repeat(100)}')`,
      `// ${'!'.repeat(100)}\ncontent.contains("a")`,
    ]) {
      expect(expression({ expr }).name, expr).toBe('expression');
    }
  });

  it('an expression that compares a value with itself, through the config loader', () => {
    expect(
      configIssuesOf(() =>
        buildGuardrailsConfig({
          input: [{ type: 'expression', expr: 'content == content' }],
          tool_input: [{ type: 'starlang', expr: 'step > 2 || !(step > 2)' }],
        }),
      ),
    ).toEqual([
      {
        path: 'input[0].expr',
        value: notShownString('content == content'),
        expected:
          'an expression whose result depends on the content or the call: this one is always true (`content == content` compares a value with itself), so it allows everything and checks nothing',
      },
      {
        path: 'tool_input[0].expr',
        value: notShownString('step > 2 || !(step > 2)'),
        expected:
          'an expression whose result depends on the content or the call: this one is always true (`step > 2 || !(step > 2)` joins a condition with its negation), so it allows everything and checks nothing',
      },
    ]);
  });

  it('through the config loader, naming the entry', () => {
    expect(
      configIssuesOf(() =>
        buildGuardrailsConfig({
          output: [
            { type: 'output-schema' },
            { type: 'output-schema', schema: {} },
            { type: 'url-filter', allow: [] },
          ],
          tool_input: [{ type: 'tool-policy', rules: [] }],
        }),
      ).map(issue => [issue.path, issue.expected]),
    ).toEqual([
      ['output[0]', OUTPUT_SCHEMA_NOTHING],
      [
        'output[1].schema',
        "a JSON Schema with at least one keyword ({} accepts every JSON value: to require JSON only, use mode 'json')",
      ],
      [
        'output[2].allow',
        'at least one host pattern (an empty allow list would admit every host: leave allow out to allow all hosts not denied)',
      ],
      [
        'tool_input[0]',
        'at least one rule: rules (sql, shell, path), deny, allow or args (with none, toolPolicy checks nothing)',
      ],
    ]);
  });
});
