import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateText, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import {
  configIssuesOf,
  generateResult,
  notShownString,
  textModel,
  withoutTiming,
} from '../../test/helpers';
import { allow, block, defineGuardrail } from '../core/define-guardrail';
import { GuardrailConfigError } from '../core/errors';
import { NotShown } from '../core/redact-secrets';
import { getGuardrailOutcome } from '../middleware/get-guardrail-outcome';
import { memoryStore } from '../store/memory-store';
import { isGuardrailBlocked } from '../tools/blocked-output';
import { guardrailsConfigJsonSchema } from './config-json-schema';
import { buildGuardrailsConfig, loadGuardrailsConfig } from './load-guardrails-config';
import { builtinGuardrailTypes } from './schemas';

const examplePath = new URL('../../examples/config/guardrails.yaml', import.meta.url).pathname;
const schemaPath = new URL('../../schema/guardrails-config.schema.json', import.meta.url).pathname;

function judgeModel(verdict: object) {
  return new MockLanguageModelV4({
    doGenerate: async () => generateResult(JSON.stringify(verdict)),
  });
}

describe('loadGuardrailsConfig', () => {
  it('loads the example file, which uses every built-in type', async () => {
    const { guardrails } = await loadGuardrailsConfig(examplePath, {
      models: { judge: judgeModel({ flagged: false, confidence: 1, reason: 'ok' }) },
    });
    const file = parseYaml(readFileSync(examplePath, 'utf8')) as Record<
      string,
      Array<{ type?: string }>
    >;
    const used = new Set(
      ['input', 'output', 'tool_input', 'tool_output', 'tool_definitions'].flatMap(list =>
        (file[list] ?? []).flatMap(entry => (entry.type ? [entry.type] : [])),
      ),
    );
    expect([...used].sort()).toEqual([...builtinGuardrailTypes].sort());
    expect(guardrails.input.map(g => g.name)).toEqual([
      'rate-limit',
      'token-budget',
      'invisible-text',
      'prompt-injection',
      'pii',
      'on-topic',
    ]);
    expect(guardrails.output.map(g => g.name)).toEqual([
      'token-budget',
      'secrets',
      'content-filter',
      'harmful-content',
      'url-filter',
      'output-schema',
      'no-medical-advice',
    ]);
    // `use: budget` is the very instance declared with `id: budget`.
    expect(guardrails.output[0]).toBe(guardrails.input[1]);
    expect(guardrails.input[5]).toMatchObject({
      parallel: true,
      timeoutMs: 5000,
      onError: 'allow',
    });
  });

  it('builds a working middleware from YAML text: input redaction and output blocks', async () => {
    const { middleware } = await loadGuardrailsConfig(
      `
input:
  - type: pii
    placeholder: "<{type}>"
output:
  - type: output-schema
    mustNotMatch: ["/as an ai language model/i"]
`,
    );
    const inner = textModel('As an AI language model, I cannot.');
    const model = wrapLanguageModel({ model: inner, middleware });
    const result = await generateText({ model, prompt: 'Mail me at jane.doe@example.com' });
    expect(inner.doGenerateCalls[0]?.prompt.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'Mail me at <EMAIL_ADDRESS>' }],
    });
    expect(result.finishReason).toBe('content-filter');
    expect((await getGuardrailOutcome(result))?.records.map(r => [r.guardrail, r.status])).toEqual([
      ['pii', 'modified'],
      ['output-schema', 'blocked'],
    ]);
  });

  it('accepts JSON text and plain objects, and applies on_trip and blocked_message', async () => {
    const json = JSON.stringify({
      output: [{ type: 'content-filter', blocklist: ['acme internal'] }],
      blocked_message: 'Not here.',
    });
    const { middleware } = await loadGuardrailsConfig(json);
    const result = await generateText({
      model: wrapLanguageModel({ model: textModel('See ACME Internal docs.'), middleware }),
      prompt: 'x',
    });
    expect(result.text).toBe('Not here.');

    const throwing = buildGuardrailsConfig({
      output: [{ type: 'content-filter', blocklist: ['acme internal'] }],
      on_trip: 'throw',
    });
    await expect(
      generateText({
        model: wrapLanguageModel({
          model: textModel('acme internal'),
          middleware: throwing.middleware,
        }),
        prompt: 'x',
      }),
    ).rejects.toMatchObject({ name: 'AI_GuardrailTripwireError' });
  });

  it('resolves judge models by name and runs the judge', async () => {
    const judge = judgeModel({ flagged: true, confidence: 0.9, reason: 'medical advice' });
    const { middleware } = await loadGuardrailsConfig(
      { output: [{ type: 'llm-judge', model: 'judge', policy: 'No medical advice.' }] },
      { models: { judge } },
    );
    const result = await generateText({
      model: wrapLanguageModel({ model: textModel('Take aspirin.'), middleware }),
      prompt: 'Headache?',
    });
    expect(result.text).toBe('This content was blocked by a content policy.');
    expect(judge.doGenerateCalls).toHaveLength(1);
  });

  it('an llm-judge with parallel: true under output is an error naming its entry', () => {
    expect(
      configIssuesOf(() =>
        buildGuardrailsConfig(
          {
            output: [
              { type: 'secrets' },
              { type: 'llm-judge', model: 'judge', policy: 'No medical advice.', parallel: true },
            ],
          },
          { models: { judge: judgeModel({}) } },
        ),
      ),
    ).toEqual([
      {
        path: 'output[1]',
        value: 'llm-judge',
        expected:
          'a guardrail without parallel: true ("llm-judge" is parallel, which only input guardrails can be: an output guardrail judges the answer, so it cannot run alongside the call that writes it; use one without parallel here)',
      },
    ]);
  });

  it('an llm-judge with parallel: true in a tool list is an error at load, naming its place in the file', () => {
    const judge = { type: 'llm-judge', model: 'judge', policy: 'No exfiltration.', parallel: true };
    const because = {
      tool_args:
        "a tool's arguments are judged before the tool runs, and what a running tool does cannot be called back",
      tool_output:
        "a tool's result is judged before the model reads it, so there is no call to run alongside",
      tool_definitions:
        'a tool definition is judged before the model call that reads it, so it cannot run alongside that call',
      prompt_tool_outputs:
        'a tool result in the prompt is judged before the model call that reads it, so it cannot run alongside that call',
      output:
        'an output guardrail judges the answer, so it cannot run alongside the call that writes it',
    };
    const issue = (path: string, why: string) => ({
      path,
      value: 'llm-judge',
      expected: `a guardrail without parallel: true ("llm-judge" is parallel, which only input guardrails can be: ${why}; use one without parallel here)`,
    });
    expect(
      configIssuesOf(() =>
        buildGuardrailsConfig(
          {
            input: [{ ...judge, id: 'judge' }],
            // A disabled entry keeps its place: the path is the file's, not the built list's.
            output: [{ type: 'secrets', enabled: false }, { use: 'judge' }],
            tool_args: [judge],
            tool_output: [{ type: 'secrets' }, judge],
            tool_definitions: [judge],
            prompt_tool_outputs: [judge],
          },
          { models: { judge: judgeModel({}) } },
        ),
      ),
    ).toEqual([
      issue('output[1]', because.output),
      issue('tool_args[0]', because.tool_args),
      issue('tool_output[1]', because.tool_output),
      issue('tool_definitions[0]', because.tool_definitions),
      issue('prompt_tool_outputs[0]', because.prompt_tool_outputs),
    ]);
  });

  describe("an expression entry's maxNodes", () => {
    // 150 calls joined by ||: more than the default 500 syntax nodes.
    const words = Array.from({ length: 150 }, (_, i) => `w${i}`);
    const big = `!(${words.map(word => `content.contains("${word}")`).join(' || ')})`;
    const small = '!(content.contains("a") || content.contains("b"))';

    it('a larger maxNodes admits a larger expression, which then judges', async () => {
      const { middleware } = buildGuardrailsConfig({
        input: [{ type: 'expression', expr: big, maxNodes: 2000, reason: 'listed word' }],
      });
      const model = wrapLanguageModel({ model: textModel('Fine.'), middleware });
      const blocked = await generateText({ model, prompt: 'say w149' });
      expect(blocked.text).toBe("Sorry, I can't help with that.");
      expect((await getGuardrailOutcome(blocked))?.records[0]).toMatchObject({
        guardrail: 'expression',
        status: 'blocked',
        reason: 'listed word',
      });
      expect((await generateText({ model, prompt: 'say hello' })).text).toBe('Fine.');
      // The alias too.
      expect(() =>
        buildGuardrailsConfig({ input: [{ type: 'starlang', expr: big, max_nodes: 2000 }] }),
      ).not.toThrow();
    });

    it('without maxNodes the default limit refuses it, once', () => {
      expect(
        configIssuesOf(() => buildGuardrailsConfig({ input: [{ type: 'expression', expr: big }] })),
      ).toEqual([
        {
          path: 'input[0].expr',
          value: notShownString(big),
          expected: 'a valid CEL expression (Exceeded maxAstNodes (500))',
        },
      ]);
    });

    it('a smaller maxNodes refuses an expression the default would admit, once', () => {
      expect(
        configIssuesOf(() =>
          buildGuardrailsConfig({ input: [{ type: 'expression', expr: small, maxNodes: 3 }] }),
        ),
      ).toEqual([
        {
          path: 'input[0].expr',
          value: notShownString(small),
          expected: 'a valid CEL expression (Exceeded maxAstNodes (3))',
        },
      ]);
    });

    it('an invalid maxNodes and an invalid expression are both reported', () => {
      expect(
        configIssuesOf(() =>
          buildGuardrailsConfig({
            input: [{ type: 'expression', expr: 'content ==', maxNodes: -3 }],
          }),
        ),
      ).toEqual([
        { path: 'input[0].maxNodes', value: new NotShown('-3'), expected: 'a number > 0' },
        {
          path: 'input[0].expr',
          value: notShownString('content =='),
          expected: 'a valid CEL expression (Unexpected token: EOF)',
        },
      ]);
    });
  });

  it('guardTools applies the tool_input and tool_output lists', async () => {
    const { guardTools } = await loadGuardrailsConfig({
      tool_input: [{ type: 'tool-policy', deny: ['/drop\\s+table/i'], rules: [] }],
      tool_output: [{ type: 'secrets', action: 'redact' }],
    });
    const tools = guardTools({
      runSql: tool({
        inputSchema: z.object({ query: z.string() }),
        execute: async () => 'key sk-proj-Abc123Def456Ghi789Jkl012Mno345Pqr678Stu901Vwx234',
      }),
    });
    const options = { toolCallId: 'c1', messages: [], context: {} };
    const blocked = await tools.runSql.execute!({ query: 'DROP TABLE users' }, options);
    expect(isGuardrailBlocked(blocked)).toBe(true);
    expect(await tools.runSql.execute!({ query: 'select 1' }, options)).toBe(
      'key [OPENAI_API_KEY]',
    );
  });

  it('reports every problem at once with path, value and expectation, and builds nothing', () => {
    const issues = configIssuesOf(() =>
      buildGuardrailsConfig(
        {
          input: [{ type: 'prompt-injection', threshold: 'high' }],
          output: [
            { type: 'pii', action: 'hide', entities: ['EMAIL_ADDRESS', 'EMAIL'] },
            { type: 'nope' },
            {
              type: 'llm-judge',
              model: 'gpt',
              policy: 'No advice.',
              threshold: 1.5,
              colour: 'red',
            },
          ],
          tool_input: ['pii'],
          stream_mode: 'fast',
          extra: true,
        },
        { models: { judge: judgeModel({}) } },
      ),
    );
    expect(issues).toEqual([
      {
        path: 'stream_mode',
        value: notShownString('fast'),
        expected: "one of 'hold', 'window', 'passthrough', 'synthesize'",
      },
      {
        path: 'extra',
        value: true,
        expected:
          'no such option (known: input, output, tool_input, tool_output, tool_args, tool_result, tool_definitions, toolDefinitions, prompt_tool_outputs, promptToolOutputs, tool_calls, toolCalls, pin_tool_definitions, pinToolDefinitions, on_tool_definition_trip, onToolDefinitionTrip, stream_mode, stream_buffer_tokens, output_scope, on_trip, blocked_message, retry)',
      },
      { path: 'input[0].threshold', value: notShownString('high'), expected: 'a number' },
      {
        path: 'output[0].action',
        value: notShownString('hide'),
        expected: "one of 'redact', 'block', 'pseudonymize'",
      },
      {
        path: 'output[0].entities[1]',
        value: notShownString('EMAIL'),
        expected: expect.stringMatching(/^one of 'EMAIL_ADDRESS', 'PHONE_NUMBER'/),
      },
      {
        path: 'output[1].type',
        value: notShownString('nope'),
        expected: `one of ${builtinGuardrailTypes.join(', ')}, starlang, output-validator`,
      },
      { path: 'output[2].threshold', value: new NotShown('1.5'), expected: 'a number <= 1' },
      {
        path: 'output[2].colour',
        value: notShownString('red'),
        expected: expect.stringMatching(/^no such option \(known: model, policy, threshold/),
      },
      {
        path: 'output[2].model',
        value: notShownString('gpt'),
        expected: 'a model name given in options.models (judge)',
      },
      {
        path: 'tool_input[0]',
        value: 'pii',
        expected: 'an entry { type, ...options } or { use: id }',
      },
    ]);
  });

  it('names the path in the error message', () => {
    expect(() =>
      buildGuardrailsConfig({
        output: [
          { type: 'secrets' },
          { type: 'secrets' },
          { type: 'prompt-injection', threshold: 2 },
        ],
      }),
    ).toThrow(
      'Invalid guardrail configuration at output[2].threshold: expected a number <= 1, received 2',
    );
  });

  it('rejects a timeout longer than a timer can wait (it would fire at once)', () => {
    expect(() =>
      buildGuardrailsConfig({
        input: [{ type: 'rate-limit', limit: 5, window_ms: 60_000, timeout_ms: 2_592_000_000 }],
      }),
    ).toThrow(
      'Invalid guardrail configuration at input[0].timeout_ms: expected a number <= 2147483647, received 2592000000',
    );
  });

  it('rejects a guardrail that is not stream-safe in window mode', () => {
    expect(
      configIssuesOf(() =>
        buildGuardrailsConfig(
          {
            stream_mode: 'window',
            output: [
              { type: 'secrets' },
              { type: 'llm-judge', name: 'medical', model: 'judge', policy: 'No medical advice.' },
            ],
          },
          { models: { judge: judgeModel({}) } },
        ),
      ),
    ).toEqual([
      {
        path: 'output[1]',
        // A name the file gave is none of the loader's words: not shown (the text names it).
        value: notShownString('medical'),
        expected:
          'a stream-safe guardrail in stream_mode window ("medical" needs the whole answer: use stream_mode hold)',
      },
    ]);
  });

  it('reports missing stores, unknown ids and duplicate ids', () => {
    expect(
      configIssuesOf(() =>
        buildGuardrailsConfig(
          {
            input: [
              { type: 'rate-limit', limit: 5, windowMs: 1000, store: 'redis', id: 'limit' },
              { type: 'token-budget', maxInputTokens: 10, id: 'limit' },
            ],
            output: [{ use: 'budget' }, { use: 'limit', limit: 3 }],
          },
          { stores: { memory: memoryStore() } },
        ),
      ),
    ).toEqual([
      {
        path: 'input[0].store',
        value: notShownString('redis'),
        expected: 'a store name given in options.stores (memory)',
      },
      {
        path: 'input[1].id',
        value: notShownString('limit'),
        expected: 'an id not used before (already at input[0])',
      },
      // In file order: output[0] before output[1].
      {
        path: 'output[0].use',
        value: notShownString('budget'),
        expected: 'the id of another entry (limit)',
      },
      {
        path: 'output[1].limit',
        value: new NotShown('a number (not shown)'),
        expected: 'nothing else in a `use` entry (options belong to the entry with the id)',
      },
    ]);
  });

  it('builds caller-registered types and maps their option errors to the entry path', async () => {
    const calls: unknown[] = [];
    const banned = (params: Record<string, unknown>) => {
      calls.push(params);
      const word = params.word;
      if (typeof word !== 'string') {
        throw new GuardrailConfigError({ path: 'banned.word', value: word, expected: 'a string' });
      }
      return defineGuardrail({
        name: 'banned',
        check: text => (text.includes(word) ? block('No.') : allow()),
      });
    };
    const { guardrails } = await loadGuardrailsConfig(
      { output: [{ type: 'banned', word: 'foo' }] },
      { guardrails: { banned } },
    );
    expect(calls).toEqual([{ word: 'foo' }]);
    expect(guardrails.output[0]?.name).toBe('banned');
    expect(
      configIssuesOf(() =>
        buildGuardrailsConfig(
          { output: [{ type: 'banned', word: 3 }] },
          { guardrails: { banned } },
        ),
      ),
    ).toEqual([
      { path: 'output[0].word', value: new NotShown('a number (not shown)'), expected: 'a string' },
    ]);
  });

  it('reports YAML syntax errors and unreadable files', async () => {
    expect(
      configIssuesOf(() => buildGuardrailsConfig('output: [\n  - type: pii'))[0],
    ).toMatchObject({
      path: '(source)',
      expected: expect.stringMatching(/^valid YAML or JSON/),
    });
    await expect(loadGuardrailsConfig('/nonexistent/guardrails.yaml')).rejects.toMatchObject({
      issues: [
        {
          path: '(file)',
          value: '/nonexistent/guardrails.yaml',
          expected: 'a readable config file (ENOENT)',
        },
      ],
    });
  });

  it('rejects an empty file or one of comments only, which loaded as no guardrails at all', async () => {
    const emptyDocument =
      'a configuration: an empty document (no text, or comments only) declares no guardrails; write input: [] for none on purpose';
    const dir = mkdtempSync(join(tmpdir(), 'ai-guardrails-config-'));
    const emptyFile = join(dir, 'guardrails.yaml');
    writeFileSync(emptyFile, '');
    try {
      await expect(loadGuardrailsConfig(emptyFile)).rejects.toMatchObject({
        issues: [
          { path: '(source)', value: '0 characters of text (not shown)', expected: emptyDocument },
        ],
      });
    } finally {
      rmSync(dir, { recursive: true });
    }
    expect(configIssuesOf(() => buildGuardrailsConfig('# guardrails: TODO\n'))).toEqual([
      {
        path: '(source)',
        value: '19 characters of text (not shown)',
        expected: emptyDocument,
      },
    ]);
    // No guardrails on purpose is still written plainly.
    expect(buildGuardrailsConfig('input: []\n').guardrails.input).toEqual([]);
  });

  it('reports records the way the middleware does', async () => {
    const { middleware } = await loadGuardrailsConfig({ input: [{ type: 'invisible-text' }] });
    const result = await generateText({
      model: wrapLanguageModel({ model: textModel('ok'), middleware }),
      prompt: 'hi\u200b there',
    });
    expect(withoutTiming((await getGuardrailOutcome(result))?.records)).toEqual([
      expect.objectContaining({ guardrail: 'invisible-text', kind: 'input', status: 'modified' }),
    ]);
  });
});

describe('config JSON Schema', () => {
  it('the shipped file is generated from the zod schemas (run scripts/build-config-schema.ts)', () => {
    expect(JSON.parse(readFileSync(schemaPath, 'utf8'))).toEqual(guardrailsConfigJsonSchema());
  });

  it('accepts the example file and rejects unknown types and options', () => {
    const validate = new Ajv({ strict: false }).compile(guardrailsConfigJsonSchema());
    expect(validate(parseYaml(readFileSync(examplePath, 'utf8')))).toBe(true);
    expect(validate({ output: [{ type: 'nope' }] })).toBe(false);
    expect(validate({ output: [{ type: 'pii', colour: 'red' }] })).toBe(false);
    expect(validate({ output: [{ type: 'llm-judge', policy: 'x' }] })).toBe(false); // model is required
  });
});
