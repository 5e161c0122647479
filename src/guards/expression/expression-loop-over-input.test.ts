import { generateText, tool, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { configIssuesOf, notShownString, textModel } from '../../../test/helpers';
import { turnsModel } from '../../../test/helpers/turns-model';
import { getGuardrailOutcome } from '../../middleware/get-guardrail-outcome';
import { guardrails } from '../../middleware/guardrails-middleware';
import { guardTools } from '../../tools/guard-tool';
import { expression } from './expression';

// A comprehension over the content's words whose body scanned the content
// again ran in quadratic time: `content.split(" ").exists(w, content.contains(w + "!"))`
// took 1.3 s on 24 KB and about 40 minutes on the default maxInputLength
// (1,000,000 characters), with the event loop blocked. The nesting rule
// (no comprehension inside another's body) did not see it: the inner scan
// is a function call, not a macro.
const QUADRATIC =
  'no comprehension over the input (content, tool, metadata) whose body reads the input whole (in a call other than has (size, int, uint and double read a string whole), or startsWith / endsWith with the item or a literal on one side; in a comparison of two input values; or as a list or key): each turn scans it, which costs quadratic time; compare it with the item, or loop over a list the expression spells';

describe('expression: a loop over the input may not read the input whole on each turn', () => {
  it.each([
    'content.split(" ").exists(w, content.contains(w + "!"))',
    'tool.args.items.all(i, tool.args.query.contains(i))',
    'tool.args.items.exists(i, i in tool.args.allowed)',
    'metadata.tags.exists(t, metadata.blocked.contains(t))',
    'content.split(" ").map(w, tool.args[content]).size() == 0',
    // Round 26: both sides of startsWith / == read the input, not the item.
    'tool.args.items.exists(w, tool.args.p.startsWith(tool.args.q))',
    'content.split(" ").exists(w, content.endsWith(content))',
    'tool.args.items.exists(w, w.startsWith(tool.args.p + "x"))',
    'tool.args.items.all(i, tool.args.a == tool.args.b)',
    // Round 27: size, int, uint and double read a string argument whole on each turn
    // (size(content) in a loop over 2,000 items took 2.8 s on 100,000 characters).
    'content.split(" ").all(w, w.size() < 100 && size(content) > 0 && w != content)',
    'tool.args.items.all(i, double(i.price) <= double(tool.args.limit) && has(tool.args.limit))',
    'tool.args.items.all(i, int(tool.args.n) > 0)',
    'tool.args.items.all(i, tool.args.q.size() > 0)',
    'tool.args.items.exists(w, w[size(content)].startsWith("a"))',
  ])('rejects %j at construction, naming the expression', expr => {
    expect(configIssuesOf(() => expression({ expr, name: 'rule' }))).toEqual([
      {
        path: 'rule.expr',
        value: notShownString(expr),
        expected: QUADRATIC,
      },
    ]);
  });

  it('keeps loops that cost linear time, and runs one on 1,000,000 characters through generateText', async () => {
    for (const expr of [
      '["drop", "delete"].exists(w, content.contains(w))', // a loop over what the expression spells
      'content.split(" ").exists(w, w in ["drop", "delete"])', // a body that reads the item alone
      'content.split(" ").all(w, w.size() < 100 && w != content)',
      'tool.args.items.all(i, double(i.price) <= 100.0 && has(tool.args.limit))',
      'size(content) > 0 && tool.args.items.all(i, size(i) < 10 && int(i) > 0)',
    ]) {
      expect(() => expression({ expr })).not.toThrow();
    }
    const noLongWords = expression({
      expr: 'content.split(" ").all(w, w.size() < 50 && w != content)',
      reason: 'a word of 50 characters or more',
    });
    const model = wrapLanguageModel({
      model: textModel('ok'),
      middleware: guardrails({ input: [noLongWords] }),
    });
    const prompt = 'ab '.repeat(333_333);
    const result = await generateText({ model, prompt });
    expect(result.text).toBe('ok');
    expect((await getGuardrailOutcome(result))?.records.map(record => record.status)).toEqual([
      'passed',
    ]);
  });

  it('a comparison with a field of the tool arguments in the body is allowed, through guardTools', async () => {
    const underLimit = expression({
      expr: 'tool.args.items.all(i, i.price <= tool.args.limit)',
      reason: 'an item over the limit',
    });
    const tools = guardTools(
      {
        order: tool({
          inputSchema: z.object({
            items: z.array(z.object({ price: z.number() })),
            limit: z.number(),
          }),
          execute: async () => 'ordered',
        }),
      },
      { input: [underLimit] },
    );
    const model = turnsModel([
      {
        toolCalls: [
          { toolCallId: 'c1', toolName: 'order', input: { items: [{ price: 5 }], limit: 10 } },
        ],
      },
      { text: 'Done.' },
    ]);
    const result = await generateText({ model, tools, prompt: 'Order it.' });
    expect(result.steps[0]?.toolResults[0]?.output).toBe('ordered');
  });

  it('startsWith / endsWith with the item on one side run in linear time: allowed, and run on 1 MB through guardTools', async () => {
    // Round 26: refused as a loop over the input (round 25's rule was
    // conservative): each turn costs at most the item's length.
    for (const expr of [
      'content.split(" ").exists(w, content.endsWith(w + "!"))',
      'tool.args.items.exists(w, tool.args.p.endsWith(w))',
      'tool.args.items.all(i, i.name == tool.args.p)',
    ]) {
      expect(() => expression({ expr }), expr).not.toThrow();
    }
    const noPrefix = expression({
      expr: '!tool.args.items.exists(w, w.startsWith(tool.args.p))',
      reason: 'an item starts with the reserved prefix',
    });
    const calls: unknown[] = [];
    const tools = guardTools(
      {
        tag: tool({
          inputSchema: z.object({ items: z.array(z.string()), p: z.string() }),
          execute: async ({ items }) => {
            calls.push(items.length);
            return 'tagged';
          },
        }),
      },
      { input: [noPrefix] },
    );
    // Arguments near guardTools' limit (1,000,000 characters): 50,000 items
    // and a prefix of 200,000 characters each item shares its start with.
    const p = 'a'.repeat(200_000);
    const items = Array.from({ length: 50_000 }, (_, index) => `aaaa${index % 10}a`);
    const run = async (input: unknown) => {
      const result = await generateText({
        model: turnsModel([
          { toolCalls: [{ toolCallId: 'c1', toolName: 'tag', input }] },
          { text: 'Done.' },
        ]),
        tools,
        stopWhen: ({ steps }) => steps.length >= 2,
        prompt: 'Tag them.',
      });
      return result.steps[0]?.toolResults[0]?.output;
    };
    expect(await run({ items, p })).toBe('tagged');
    expect(await run({ items: [...items.slice(1), `${p}b`], p })).toMatchObject({
      status: 'blocked',
      guardrail: {
        guardrail: 'expression',
        kind: 'tool_input',
        status: 'blocked',
        reason: 'an item starts with the reserved prefix',
      },
    });
    expect(calls).toEqual([50_000]);
  });
});
