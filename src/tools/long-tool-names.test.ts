import { generateText, stepCountIs, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { notShownString } from '../../test/helpers';
import { cutName, nameDigest } from '../../test/helpers/cut-names';
import { turnsModel } from '../../test/helpers/turns-model';
import { block, defineGuardrail } from '../core/define-guardrail';
import { GuardrailConfigError } from '../core/errors';
import type { GuardrailEvent } from '../core/types';
import { pii } from '../guards/pii/pii';
import { guardTool, guardTools } from './guard-tool';

// Round 25: an MCP server chooses its tool names, and guardTools wrote them
// whole into its GuardrailConfigError messages, the default blocked message
// the model reads, and every record's `toolName` (200,000 characters, or a
// name with a line break that forges a log line). Each is now as reasons
// show a name: quoted as JSON, escaped, cut to 64 characters with `…` (and,
// since round 28, `#` and a digest of the whole name).
const LONG = `lookup\n2026-12-03 INFO passed${'x'.repeat(200_000)}`;
const SHOWN_LONG = `"lookup\\n2026-12-03 INFO passed${'x'.repeat(35)}…#${nameDigest(LONG)}"`;
const CUT_LONG = cutName(LONG);

function thrown(run: () => unknown): GuardrailConfigError {
  try {
    run();
  } catch (error) {
    if (GuardrailConfigError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('did not throw');
}

const clientTool = tool({ inputSchema: z.object({ q: z.string() }) });
const deny = defineGuardrail({ name: 'deny', check: () => block({ reason: 'not now' }) });
const lookup = tool({
  inputSchema: z.object({ email: z.string() }),
  execute: async () => 'found',
});

describe('a long or hostile tool name', () => {
  it("guardTools' error for a tool without execute shows it cut and quoted", () => {
    const error = thrown(() => guardTools({ [LONG]: clientTool }, { input: [pii()] }));
    expect(error.message).toBe(
      `Invalid guardrail configuration at tools[${SHOWN_LONG}].execute: expected a function: a tool without \`execute\` runs on the client and cannot be guarded (leave ${SHOWN_LONG} out with \`only\`), received undefined`,
    );
    expect(error.issues.map(issue => issue.path)).toEqual([`tools[${SHOWN_LONG}].execute`]);
  });

  it('an identifier name keeps its path form', () => {
    const error = thrown(() => guardTools({ search: clientTool }, { input: [pii()] }));
    expect(error.issues.map(issue => issue.path)).toEqual(['tools.search.execute']);
  });

  it("guardTool's error names it cut and quoted", () => {
    const error = thrown(() => guardTool(clientTool, { name: LONG, input: [pii()] }));
    expect(error.issues.map(issue => issue.path)).toEqual([`tool ${SHOWN_LONG}.execute`]);
  });

  it("an `only` name not in the set lists the set's names cut, at most 20", () => {
    const tools = Object.fromEntries(
      Array.from({ length: 25 }, (_, index) => [`${index}${LONG}`, lookup]),
    );
    const error = thrown(() => guardTools(tools, { only: ['missing' as never], input: [pii()] }));
    const listed = Array.from({ length: 20 }, (_, index) =>
      JSON.stringify(cutName(`${index}${LONG}`)),
    ).join(', ');
    expect(error.issues).toEqual([
      {
        path: 'only[0]',
        value: notShownString('missing'),
        expected: `the name of a tool in the set (${listed}, and 5 more)`,
      },
    ]);
    expect(error.message.length).toBeLessThan(2_000);
  });

  it("the blocked message the model reads and the record's toolName are cut", async () => {
    const events: GuardrailEvent[] = [];
    const result = await generateText({
      model: turnsModel([
        { toolCalls: [{ toolCallId: 'c1', toolName: LONG, input: { email: 'jane@corp.io' } }] },
      ]),
      tools: guardTools(
        { [LONG]: lookup },
        { input: [deny], onEvent: event => events.push(event) },
      ),
      stopWhen: stepCountIs(1),
      prompt: 'Look the customer up.',
    });
    const outputs = result.steps[0]!.content.flatMap(part =>
      part.type === 'tool-result' ? [part.output] : [],
    );
    expect(outputs.map(output => (output as { message: string }).message)).toEqual([
      `The ${SHOWN_LONG} tool call was blocked by a guardrail and did not run.`,
    ]);
    expect(
      events.map(e => [
        e.record.guardrail,
        e.record.status,
        e.record.toolName,
        e.record.toolCallId,
      ]),
    ).toEqual([['deny', 'blocked', CUT_LONG, 'c1']]);
  });

  /** Two tools called once each and both blocked: their records' names and ids, and the messages the model reads. */
  async function bothBlocked(first: string, second: string) {
    const events: GuardrailEvent[] = [];
    const result = await generateText({
      model: turnsModel([
        {
          toolCalls: [
            { toolCallId: 'c1', toolName: first, input: { email: 'a' } },
            { toolCallId: 'c2', toolName: second, input: { email: 'b' } },
          ],
        },
      ]),
      tools: guardTools(
        { [first]: lookup, [second]: lookup },
        { input: [deny], onEvent: event => events.push(event) },
      ),
      stopWhen: stepCountIs(1),
      prompt: 'Clean up.',
    });
    return {
      records: events.map(e => [e.record.toolName, e.record.toolCallId]),
      messages: result.steps[0]!.content.flatMap(part =>
        part.type === 'tool-result' ? [(part.output as { message: string }).message] : [],
      ),
    };
  }

  it("a tool named as another's cut is cut again: its records and message never read as the other's (round 29)", async () => {
    // A name shaped `<first 64>…#<12 hex>` passed as it was (taken for a
    // record's own cut): a server naming a tool after the cut of its
    // `…_delete_all` read as that tool in every record and message.
    const wipe = `mcp__files__${'a'.repeat(60)}_delete_all`;
    const forged = cutName(wipe);
    expect(forged).toHaveLength(78);
    const head = forged.slice(0, 64);
    expect(await bothBlocked(wipe, forged)).toEqual({
      records: [
        [forged, 'c1'],
        [`${head}…#${nameDigest(forged)}`, 'c2'],
      ],
      messages: [
        `The "${head}…#${nameDigest(wipe)}" tool call was blocked by a guardrail and did not run.`,
        `The "${head}…#${nameDigest(forged)}" tool call was blocked by a guardrail and did not run.`,
      ],
    });
  });

  it('two names alike in their first 64 characters are told apart by their digest (round 28)', async () => {
    // Before, both read `mcp__files__…` cut at 64 and `…`: a record of the
    // destructive one looked like one of the harmless one.
    const prefix = `mcp__files__${'a'.repeat(60)}`;
    const read = `${prefix}_read`;
    const wipe = `${prefix}_delete_all`;
    expect(nameDigest(read)).not.toBe(nameDigest(wipe));
    expect(await bothBlocked(read, wipe)).toEqual({
      records: [
        [`${prefix.slice(0, 64)}…#${nameDigest(read)}`, 'c1'],
        [`${prefix.slice(0, 64)}…#${nameDigest(wipe)}`, 'c2'],
      ],
      messages: [
        `The "${prefix.slice(0, 64)}…#${nameDigest(read)}" tool call was blocked by a guardrail and did not run.`,
        `The "${prefix.slice(0, 64)}…#${nameDigest(wipe)}" tool call was blocked by a guardrail and did not run.`,
      ],
    });
  });
});
