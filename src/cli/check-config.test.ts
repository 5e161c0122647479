import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkConfig } from './check-config';

const example = new URL('../../examples/config/guardrails.yaml', import.meta.url).pathname;

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await checkConfig(argv, {
    stdout: { write: text => (stdout += text) },
    stderr: { write: text => (stderr += text) },
  });
  return { code, stdout, stderr };
}

function tempFile(name: string, text: string) {
  const path = join(mkdtempSync(join(tmpdir(), 'ai-guardrails-')), name);
  writeFileSync(path, text);
  return path;
}

describe('ai-guardrails check-config', () => {
  it('accepts the example file', async () => {
    expect(await run([example])).toEqual({
      code: 0,
      stdout: `${example}: valid (6 input, 7 output, 3 tool_input, 2 tool_output, 3 tool_definitions, 0 prompt_tool_outputs, 0 tool_calls)\n`,
      stderr: '',
    });
  });

  it('prints every problem with its path and exits 1', async () => {
    const file = tempFile(
      'bad.yaml',
      'output:\n  - type: secrets\n  - type: pii\n    action: hide\n  - type: llm-judge\n    model: judge\n    policy: x\n    threshold: 2\n',
    );
    const { code, stdout } = await run([file]);
    expect(code).toBe(1);
    expect(stdout).toBe(
      `${file}: 2 problems\n` +
        "  - output[1].action: expected one of 'redact', 'block', 'pseudonymize', received a string of 4 characters (not shown)\n" +
        '  - output[2].threshold: expected a number <= 1, received 2\n',
    );
  });

  it('prints at most 50 problems, then how many more, and still exits 1', async () => {
    const entries = Array.from({ length: 60 }, () => '  - type: pii\n    action: hide\n').join('');
    const file = tempFile('many.yaml', `output:\n${entries}`);
    const { code, stdout } = await run([file]);
    expect(code).toBe(1);
    const shown = Array.from(
      { length: 50 },
      (_, i) =>
        `  - output[${i}].action: expected one of 'redact', 'block', 'pseudonymize', received a string of 4 characters (not shown)\n`,
    ).join('');
    expect(stdout).toBe(`${file}: 60 problems\n${shown}  … and 10 more (--json lists them all)\n`);
    // --json keeps every problem: a program reads it, not a terminal.
    const json = await run([file, '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).issues).toHaveLength(60);
  });

  it('checks model names against --models and reports one problem on its own line', async () => {
    const file = tempFile(
      'judge.yaml',
      'input:\n  - type: llm-judge\n    model: gpt\n    policy: x\n',
    );
    const { code, stdout } = await run([file, '--models', 'judge']);
    expect(code).toBe(1);
    expect(stdout).toBe(
      `${file}: 1 problem\n  - input[0].model: expected a model name given in options.models (judge), received a string of 3 characters (not shown)\n`,
    );
  });

  it('accepts registered custom types with --types, and prints JSON with --json', async () => {
    const file = tempFile('custom.json', '{"output":[{"type":"banned","word":"x"}]}');
    const { code, stdout } = await run([file, '--types', 'banned', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      file,
      valid: true,
      guardrails: {
        input: 0,
        output: 1,
        tool_input: 0,
        tool_output: 0,
        tool_definitions: 0,
        prompt_tool_outputs: 0,
        tool_calls: 0,
      },
    });
  });

  it('exits 2 with usage without a file', async () => {
    const { code, stderr } = await run([]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^Usage: ai-guardrails check-config/);
  });
});
