import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../../test/helpers/cli-run';
import { cliUsage } from './run-cli';

const run = runCliCaptured;

function dataFile(rows: unknown[]): string {
  const path = join(mkdtempSync(join(tmpdir(), 'ai-guardrails-')), 'rows.jsonl');
  writeFileSync(path, rows.map(row => JSON.stringify(row)).join('\n'));
  return path;
}

describe('ai-guardrails: names from the command line and the data file', () => {
  it('a command named like a property of every object is unknown (Object ran with the arguments)', async () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(await run(name, 'x')).toEqual({
        code: 2,
        stdout: '',
        stderr: `Unknown command "${name}": expected one of eval, check-config.\n\n${cliUsage}\n`,
      });
    }
    expect(await run('help', 'constructor')).toEqual({
      code: 0,
      stdout: `${cliUsage}\n`,
      stderr: '',
    });
    // A control character in an unknown name is escaped, not written to the terminal.
    expect((await run('\u001b[2Jeval')).stderr).toMatch(
      /^Unknown command "\\u001b\[2Jeval": expected one of eval, check-config\./,
    );
  });

  it('set names, entity types and keys with line breaks, tabs or ANSI escapes are printed escaped, not as table rows', async () => {
    const forged = 'chat\nall\t100\t50/50\t1.000\t1.000\t1.000\t0.000';
    const path = dataFile([
      {
        text: 'Mail jane@example.com',
        label: 1,
        set: forged,
        spans: [{ entity_type: 'EMAIL_ADDRESS', start: 5, end: 21 }],
      },
      { text: 'See you at noon', label: 0, set: '\u001b[2J\u202eplain', spans: [] },
      {
        text: 'Call 555',
        label: 0,
        set: 'ok',
        spans: [{ entity_type: 'X\r\u001b[1A', start: 0, end: 4 }],
      },
    ]);
    const { code, stdout } = await run('eval', '--guardrail', 'pii', '--data', path);
    expect(code).toBe(0);
    const firstCells = stdout.split('\n').map(line => line.split('\t')[0]);
    expect(firstCells).toEqual([
      'set',
      '"chat\\nall\\t100\\t50/50\\t1.000\\t1.000\\t1.000\\t0.000"',
      '"\\u001b[2J\\u202eplain"',
      'ok',
      'all rows',
      '',
      'spans per type, all rows (a prediction counts when it overlaps a gold span of its type)',
      'type',
      'EMAIL_ADDRESS',
      '"X\\r\\u001b[1A" *',
      'all gold spans',
      '* not a type this configuration looks for (recall 0 by construction)',
      '',
    ]);
    // No control character but the table's own tabs and line ends, no right-to-left override.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: these are what is looked for
    expect(stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u202e]/);

    const bad = dataFile([{ 'text\u001b[2K': 'x', label: 0 }]);
    const invalid = await run('eval', '--guardrail', 'pii', '--data', bad);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain(`"text" is missing (the row's keys: "text\\u001b[2K", label)`);
  });
});
