import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../../test/helpers/cli-run';

/*
 * Round 36: the values a data row or a config file holds, as the CLI prints
 * them in its problems. JSON escapes C0 controls only: a right-to-left
 * override (U+202E), a C1 control (U+009B, the 8-bit CSI of ANSI escapes)
 * or a line separator went to the terminal as written. A row whose value
 * was nested too deep to print was reported as "not valid JSON".
 */

function file(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'ai-guardrails-')), name);
  writeFileSync(path, text);
  return path;
}

const hostile = '\u202Eevil\u009B2J\u2028x';

describe('ai-guardrails: hostile values in problems', () => {
  it('eval prints a bad value with its bidirectional, C1 and line-separator characters escaped', async () => {
    const data = file('rows.jsonl', `${JSON.stringify({ text: 'a', label: hostile })}\n`);
    const { code, stderr } = await runCliCaptured('eval', '--guardrail', 'pii', '--data', data);
    expect(code).toBe(2);
    expect(stderr.split('\n')[1]).toBe(
      `  ${data}:1: "label" must be 0 or 1, received "\\u202eevil\\u009b2J\\u2028x"`,
    );
  });

  it('eval says what is wrong with a valid row whose value is nested too deep to print', async () => {
    const depth = 200_000;
    const data = file(
      'rows.jsonl',
      `{"text": "a", "label": 0, "set": ${'['.repeat(depth)}${']'.repeat(depth)}}\n`,
    );
    const { code, stderr } = await runCliCaptured('eval', '--guardrail', 'pii', '--data', data);
    expect(code).toBe(2);
    expect(stderr.split('\n')[1]).toBe(
      `  ${data}:1: "set" must be a string, received an array too deeply nested to print`,
    );
  });

  it('check-config prints no bad value (round 39), and a key with its bidirectional, C1 and line-separator characters escaped', async () => {
    const config = file(
      'bad.yaml',
      `output:\n  - type: pii\n    action: "${hostile}"\n    "${hostile}": 1\n`,
    );
    const { code, stdout } = await runCliCaptured('check-config', config);
    expect(code).toBe(1);
    expect(stdout.replace(/ \(known: [^)]*\)/, '')).toBe(
      `${config}: 2 problems\n  - output[0].action: expected one of 'redact', 'block', 'pseudonymize', received a string of 10 characters (not shown)\n` +
        `  - output[0]["\\u202eevil\\u009b2J\\u2028x"]: expected no such option, received a number (not shown)\n`,
    );
  });
});
