import { generateText, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { generateResult, guardContext, notShownString } from '../../../test/helpers';
import { GuardrailConfigError } from '../../core/errors';
import { guardrails } from '../../middleware/guardrails-middleware';
import { scriptedModel } from '../../testing/scripted-model';
import { guardTools } from '../../tools/guard-tool';
import { expression } from './expression';

const input = guardContext('input');

describe('expression', () => {
  it('allows on true and blocks on false with the configured reason', async () => {
    const noDrop = expression({
      expr: '!content.contains("drop table")',
      reason: 'destructive SQL blocked',
    });
    expect(await noDrop.check('select 1', input)).toEqual({ action: 'allow' });
    expect(await noDrop.check('please drop table users', input)).toEqual({
      action: 'block',
      reason: 'destructive SQL blocked',
      severity: 'warning',
    });
  });

  it('modifies on a string result, and allows when the string is the content', async () => {
    const lower = expression({ expr: 'content.lowerAscii()' });
    expect(await lower.check('HeLLo', input)).toEqual({ action: 'modify', content: 'hello' });
    expect(await lower.check('hello', input)).toEqual({ action: 'allow' });
  });

  it('reads a map result: allowed, reason, severity, modified', async () => {
    const rule = expression({
      expr: 'content.size() > 10 ? {"allowed": false, "reason": "too long", "severity": "critical"} : {"allowed": true, "modified": content + "!"}',
      message: 'No.',
    });
    expect(await rule.check('a long text here', input)).toEqual({
      action: 'block',
      message: 'No.',
      reason: 'too long',
      severity: 'critical',
    });
    expect(await rule.check('short', input)).toEqual({ action: 'modify', content: 'short!' });
  });

  it('fails closed on a result of another type and on an evaluation error', async () => {
    const untyped = expression({ expr: 'metadata.answer' });
    expect(() => untyped.check('x', guardContext('input', { metadata: { answer: 42 } }))).toThrow(
      'the expression returned a double, expected a bool, a string or a map',
    );
    expect(() => untyped.check('x', input)).toThrow(
      'expression evaluation failed: No such key: answer',
    );
    const badMap = expression({ expr: '{"allowed": "yes"}' });
    expect(() => badMap.check('x', input)).toThrow(
      'the expression returned a map without a boolean "allowed"',
    );
  });

  it('keeps values from the input out of an evaluation error', () => {
    const canary = 'CANARY-9f3';
    for (const expr of ['metadata[content] == "x"', '{"a": 1}[content] == 1', 'int(content) > 0']) {
      let message = '';
      try {
        expression({ expr }).check(canary, input);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/^expression evaluation failed: /);
      expect(message).not.toContain(canary);
    }
    expect(() => expression({ expr: 'metadata[content] == "x"' }).check(canary, input)).toThrow(
      'expression evaluation failed: No such key: (a key from the input)',
    );
  });

  it('sees kind, metadata, step, tool name and arguments', async () => {
    const rule = expression({
      expr: 'kind == "tool_input" && tool.name == "refund" && tool.args.amount > 100 && metadata.role != "admin" && step >= 1 ? false : true',
      reason: 'refund above 100',
    });
    const ctx = guardContext('tool_input', {
      toolName: 'refund',
      value: { amount: 250 },
      metadata: { role: 'user' },
      step: 1,
    });
    expect(await rule.check('{"amount":250}', ctx)).toEqual({
      action: 'block',
      reason: 'refund above 100',
      severity: 'warning',
    });
    expect(await rule.check('{"amount":250}', { ...ctx, metadata: { role: 'admin' } })).toEqual({
      action: 'allow',
    });
    expect(await rule.check('{"amount":250}', { ...ctx, step: undefined })).toEqual({
      action: 'allow',
    });
  });

  it('has now() and today()', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const rule = expression({
      expr: `today() == "${today}" && now().getFullYear() >= 2024`,
    });
    expect(await rule.check('x', input)).toEqual({ action: 'allow' });
  });

  it('runs matches() on RE2: linear on a pattern that backtracks in JavaScript', async () => {
    const rule = expression({ expr: '!content.matches("^(a+)+$")' });
    expect(await rule.check(`${'a'.repeat(100_000)}!`, input)).toEqual({ action: 'allow' });
    expect(await rule.check('aaaa', input)).toEqual({
      action: 'block',
      reason: 'the expression returned false: !content.matches("^(a+)+$")',
      severity: 'warning',
    });
    // JavaScript's engine takes seconds on 28 characters and would not finish
    // 100,001 in the test's time limit; RE2 is linear.
  });

  it.each([
    ['content +', 'a valid CEL expression (Unexpected token: EOF)'],
    ['content + 1', 'a well-typed CEL expression (no such overload: string + int)'],
    ['size(content)', 'a CEL expression of type bool, string or map (it has type int)'],
    ['unknownVar == 1', 'a well-typed CEL expression (Unknown variable: unknownVar)'],
    [
      'content.matches("(?<=a)b")',
      'RE2 syntax in matches() (error parsing regexp: invalid named capture: `(?<=a)b`)',
    ],
    [
      '[1, 2].all(x, [3].exists(y, x == y))',
      "no comprehension (all, exists, exists_one, map, filter) inside another's body: nested loops cost quadratic time",
    ],
  ])('rejects %j at construction', (expr, expected) => {
    try {
      expression({ expr, name: 'rule' });
      expect.unreachable();
    } catch (error) {
      expect(GuardrailConfigError.isInstance(error)).toBe(true);
      expect((error as GuardrailConfigError).issues).toEqual([
        { path: 'rule.expr', value: notShownString(expr), expected },
      ]);
    }
  });

  it('blocks content above maxInputLength without evaluating it', async () => {
    const rule = expression({ expr: '!content.contains("drop table")', maxInputLength: 5 });
    expect(await rule.check('123456', input)).toEqual({
      action: 'block',
      reason: 'text is 6 characters, more than maxInputLength 5',
      severity: 'warning',
    });
  });

  it('is cached by content only when it reads nothing else', () => {
    expect(expression({ expr: 'content != ""' }).cache).toBe('content');
    expect(expression({ expr: 'has(metadata.userId)' }).cache).toBe('none');
    expect(expression({ expr: 'now().getHours() < 23' }).cache).toBe('none');
  });

  it('blocks a generateText call end to end', async () => {
    const model = new MockLanguageModelV4({ doGenerate: async () => generateResult('Done.') });
    const result = await generateText({
      model: wrapLanguageModel({
        model,
        middleware: guardrails({
          input: [expression({ expr: '!content.contains("drop table")', reason: 'no DDL' })],
        }),
      }),
      prompt: 'Please drop table users.',
    });
    expect(result.text).toBe("Sorry, I can't help with that.");
    expect(result.finishReason).toBe('content-filter');
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('judges tool arguments through guardTools', async () => {
    let ran = 0;
    const tools = guardTools(
      {
        runSql: tool({
          inputSchema: z.object({ sql: z.string() }),
          execute: async () => {
            ran++;
            return 'ok';
          },
        }),
      },
      {
        input: [
          expression({
            expr: '!tool.args.sql.lowerAscii().contains("drop ")',
            reason: 'destructive SQL blocked',
            message: 'That statement is not allowed.',
          }),
        ],
      },
    );
    const result = await generateText({
      model: scriptedModel({
        respond: ({ afterToolResult }) =>
          afterToolResult
            ? 'I could not run it.'
            : { toolCalls: [{ toolName: 'runSql', input: { sql: 'DROP TABLE users' } }] },
      }),
      tools,
      stopWhen: stepCountIs(3),
      prompt: 'Clean up.',
    });
    const output = result.steps[0]?.toolResults[0]?.output;
    expect(ran).toBe(0);
    expect(output).toMatchObject({
      status: 'blocked',
      message: 'That statement is not allowed.',
      guardrail: {
        guardrail: 'expression',
        kind: 'tool_input',
        status: 'blocked',
        reason: 'destructive SQL blocked',
        toolName: 'runSql',
      },
    });
    expect(result.text).toBe('I could not run it.');
  });
});
