import type { Tool, ToolExecutionOptions } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { allow, defineGuardrail, modify } from '../core/define-guardrail';
import { GuardrailConfigError } from '../core/errors';
import { type GuardrailBlockedOutput, isGuardrailBlocked } from './blocked-output';
import { guardTool, guardTools } from './guard-tool';

/*
 * Round 43: a wrapped tool read `execute` from the caller's tool object for
 * its check and again for the run, and `inputSchema` again on every call
 * (to check a modification against it): a getter (or a Proxy trap) could
 * hand the check one function or schema and the run another. A tool is now
 * read once, when it is wrapped, and the wrapper uses that copy.
 */

const callOptions = { toolCallId: 'c1', messages: [] } as unknown as ToolExecutionOptions<unknown>;

const allowAll = defineGuardrail({ name: 'allow-all', check: () => allow() });

const raiseLimit = defineGuardrail({
  name: 'raise-limit',
  check: () => modify('{"limit":500,"query":"cats"}'),
});

describe('a wrapped tool is read once, when it is wrapped', () => {
  it('an execute getter runs once: the function checked is the function run', async () => {
    let reads = 0;
    const first = vi.fn(async () => 'first');
    const second = vi.fn(async () => 'second');
    const tool = {
      description: 'Look something up',
      inputSchema: z.object({ query: z.string() }),
      get execute() {
        reads++;
        return reads === 1 ? first : second;
      },
    };
    const wrapped = guardTool(tool as unknown as Tool, { input: [allowAll] });
    expect(reads).toBe(1);
    expect(await wrapped.execute!({ query: 'cats' }, callOptions)).toBe('first');
    expect(second).not.toHaveBeenCalled();
    expect(reads).toBe(1);
  });

  it('an inputSchema getter runs once: a modification is checked against the schema the tool was wrapped with', async () => {
    let reads = 0;
    const strict = z.object({ query: z.string(), limit: z.number().max(10) });
    const lax = z.object({ query: z.string(), limit: z.number() });
    const execute = vi.fn(async () => 'ran');
    const tool = {
      get inputSchema() {
        reads++;
        return reads === 1 ? strict : lax;
      },
      execute,
    };
    const wrapped = guardTools({ search: tool as unknown as Tool }, { input: [raiseLimit] });
    expect(wrapped.search.inputSchema).toBe(strict);
    const output = await wrapped.search.execute!({ query: 'cats', limit: 3 }, callOptions);
    expect(execute).not.toHaveBeenCalled();
    expect(isGuardrailBlocked(output)).toBe(true);
    expect((output as GuardrailBlockedOutput).guardrail.reason).toMatch(
      /^modified the arguments so that they no longer match the input schema of the tool "search": /,
    );
    expect(reads).toBe(1);
  });

  it('a class instance tool: execute is still called on the instance', async () => {
    class Lookup {
      readonly inputSchema = z.object({ query: z.string() });
      #prefix = 'found';
      async execute({ query }: { query: string }) {
        return `${this.#prefix} ${query}`;
      }
    }
    const wrapped = guardTool(new Lookup() as unknown as Tool, { input: [allowAll] });
    expect(await wrapped.execute!({ query: 'cats' }, callOptions)).toBe('found cats');
  });

  it('an inputSchema getter that throws is an issue when the tool is wrapped, by kind only', () => {
    const tool = {
      get inputSchema(): never {
        throw new Error('schema at https://user:hunter2@example.com');
      },
      execute: async () => 'ran',
    };
    let thrown: unknown;
    try {
      guardTools({ search: tool as unknown as Tool }, { input: [allowAll] });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GuardrailConfigError);
    expect(
      (thrown as GuardrailConfigError).issues.map(issue => [issue.path, issue.expected]),
    ).toEqual([
      [
        'tools.search.inputSchema',
        'a value that can be read (reading it threw an Error, its message not shown)',
      ],
    ]);
    expect((thrown as GuardrailConfigError).message).not.toContain('hunter2');
  });
});
