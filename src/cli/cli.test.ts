import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../../test/helpers/cli-run';
import { checkConfigUsage } from './check-config';
import { evalUsage } from './eval-command';
import { cliUsage } from './run-cli';

const entry = fileURLToPath(new URL('./index.ts', import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const { version } = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as { version: string };

/** Runs the real `ai-guardrails` entry in its own Node process. */
function cli(...args: string[]) {
  const { status, stdout, stderr } = spawnSync(
    process.execPath,
    ['--import', 'tsx', entry, ...args],
    { encoding: 'utf8' },
  );
  return { code: status, stdout, stderr };
}

/** Runs `runCli` in this process with captured output. */
const run = runCliCaptured;

// Each spawned run pays Node + tsx start-up (1-3 s on a busy machine).
describe('ai-guardrails (the command)', { timeout: 20_000 }, () => {
  it('--help lists every command and exits 0', () => {
    expect(cli('--help')).toEqual({ code: 0, stdout: `${cliUsage}\n`, stderr: '' });
    expect(cliUsage).toMatch(/^ {2}eval {10}score a built-in guardrail/m);
    expect(cliUsage).toMatch(/^ {2}check-config {2}validate a guardrails configuration file/m);
  });

  it('--version prints the package version', () => {
    expect(cli('--version')).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('<command> --help prints that command’s help and exits 0', async () => {
    expect(cli('check-config', '--help')).toEqual({
      code: 0,
      stdout: `${checkConfigUsage}\n`,
      stderr: '',
    });
    // In this process: the same dispatch, without paying another start-up.
    expect(await run('eval', '--help')).toEqual({ code: 0, stdout: `${evalUsage}\n`, stderr: '' });
  });

  it('eval --help shows the JSONL format and points to the docs', () => {
    expect(evalUsage).toContain(
      '{"text": "Mail jane@example.com", "label": 1, "set": "chat", "spans": [{"entity_type": "EMAIL_ADDRESS", "start": 5, "end": 21}]}',
    );
    expect(evalUsage).toContain(
      'https://github.com/ai-guardrails/ai-guardrails/blob/main/docs/evaluation.md',
    );
    expect(evalUsage).toContain(
      'pii | secrets | invisibleText | promptInjection | contentFilter | harmfulContent | urlFilter',
    );
  });

  it('eval exits 2 and lists the bad rows for a file in another format', () => {
    const data = join(mkdtempSync(join(tmpdir(), 'ai-guardrails-cli-')), 'rows.jsonl');
    writeFileSync(data, '{"input": "Mail jane@example.com", "expected": "block"}\n');
    const { code, stdout, stderr } = cli('eval', '--guardrail', 'pii', '--data', data);
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr.split('\n')).toEqual([
      `${data}: 1 invalid row (expected {"text": string, "label": 0 or 1, "set"?: string, "spans"?: [...]}; see https://github.com/ai-guardrails/ai-guardrails/blob/main/docs/evaluation.md)`,
      `  ${data}:1: "text" and "label" are missing (the row's keys: input, expected)`,
      '',
    ]);
  });

  it('eval runs prompt injection on tool outputs (--kind tool_output) and prints the table', async () => {
    const { code, stdout } = await run(
      'eval',
      '--guardrail',
      'prompt-injection',
      '--data',
      fixture('injection-tool-small.jsonl'),
      '--kind',
      'tool_output',
    );
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toBe('set\trows\tpos/neg\tprecision\trecall\tf1\tfpr\tp50 ms\tp95 ms');
    expect(lines[1]).toMatch(/^tool\t2\t1\/1\t1\.000\t1\.000\t1\.000\t0\.000\t/);
  });

  it('eval of prompt injection on tool-result rows without --kind tool_output prints a hint to stderr', async () => {
    const data = fixture('injection-tool-small.jsonl');
    const direct = await run('eval', '--guardrail', 'prompt-injection', '--data', data);
    expect(direct.code).toBe(0);
    expect(direct.stderr).toBe(
      'hint: 2 of 2 rows look like tool results or documents (a "user_question" field, or "tool" / "indirect" in their set or source); promptInjection judges them as direct prompts with --kind input: add --kind tool_output to judge them as indirect injection\n',
    );
    expect(direct.stdout.split('\n')[1]).toMatch(/^tool\t2\t1\/1\t/);
    const indirect = await run(
      'eval',
      '--guardrail',
      'prompt-injection',
      '--data',
      data,
      '--kind',
      'tool_output',
    );
    expect(indirect.stderr).toBe('');
    // Direct prompts (set "direct", no task field): no hint.
    const prompts = await run(
      'eval',
      '--guardrail',
      'prompt-injection',
      '--data',
      fixture('injection-small.jsonl'),
    );
    expect(prompts.stderr).toBe('');
  });

  it('eval --json prints the result as JSON', async () => {
    const { code, stdout } = await run(
      'eval',
      '--guardrail',
      'pii',
      '--data',
      fixture('pii-small.jsonl'),
      '--json',
    );
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as {
      guardrail: string;
      sets: Array<{ set: string; rows: number; recall: number }>;
      overall: { rows: number; allSpans: { recall: number } };
    };
    expect(result.guardrail).toBe('pii');
    expect(result.sets.map(({ set, rows, recall }) => ({ set, rows, recall }))).toEqual([
      { set: 'fixture', rows: 3, recall: 1 },
      { set: 'names', rows: 1, recall: 0 },
    ]);
    expect(result.overall.allSpans.recall).toBe(0.75);
  });

  it.each([
    [[], 2, '', `${cliUsage}\n`],
    [['help', 'eval'], 0, `${evalUsage}\n`, ''],
    [['-h'], 0, `${cliUsage}\n`, ''],
    [
      ['evaluate'],
      2,
      '',
      `Unknown command "evaluate": expected one of eval, check-config.\n\n${cliUsage}\n`,
    ],
    [['eval', '--data', 'x.jsonl'], 2, '', `Missing --guardrail.\n\n${evalUsage}\n`],
    [
      ['eval', '--guardrail', 'pii', '--data', 'x.jsonl', '--options', '[1]'],
      2,
      '',
      `--options must be a JSON object, e.g. '{"entities":"all"}'; received [1]\n`,
    ],
    [
      ['eval', '--guardrails', 'pii'],
      2,
      '',
      "Unknown option '--guardrails'\nRun ai-guardrails eval --help for the options.\n",
    ],
  ])('%j exits %i', async (args, code, stdout, stderr) => {
    expect(await run(...args)).toEqual({ code, stdout, stderr });
  });
});
