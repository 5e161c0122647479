import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Runs an example the way a user does (`npx tsx examples/...`), offline. */
function runExample(file: string): string {
  const env = { ...process.env };
  delete env.OPENAI_API_KEY; // the scripted model, never the network
  return execFileSync(process.execPath, ['--import', 'tsx', file], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
}

describe('examples run offline', () => {
  it('npm run demo shows a tripwire, a streamed redaction, a passing call and a retry on a non-JSON answer', () => {
    const output = runExample('examples/quickstart.ts');
    expect(output).toContain('Model: built-in scripted model (offline)');
    expect(output).toContain('outcome: BLOCKED [prompt-injection:input:blocked]');
    expect(output).toContain('- Ticket 1041 from [EMAIL_ADDRESS]: billing question, resolved.');
    expect(output).toContain('Deploy key used for the fix: [GITHUB_TOKEN]');
    expect(output).not.toMatch(/jane\.doe@example\.com|ghp_R7vXq/);
    expect(output).toContain('answer:  Paris is the capital of France.');
    expect(output).toMatch(/\((\d+) deltas? of /);
    const deltas = Number(/\((\d+) deltas? of /.exec(output)![1]);
    expect(deltas).toBeGreaterThan(1);
    // Window mode streams: text reaches the user while the model is still writing.
    const streamed =
      /streamed: the first text reached the user when the model had written (\d+) of its 3,142 characters; (\d+) of (\d+) deltas arrived while it was still writing/.exec(
        output,
      );
    expect(streamed).not.toBeNull();
    expect(Number(streamed![1])).toBeLessThan(300); // the window, not the answer
    expect(Number(streamed![3])).toBe(deltas);
    // More than half of the deltas arrive while the model is still writing (the demo prints 44 of 45).
    expect(Number(streamed![2])).toBeGreaterThan(deltas / 2);
    // What the records say happened, not a hard-coded claim.
    expect(output).toContain('   in the text: 36 EMAIL_ADDRESS, 12 PHONE_NUMBER, 1 GITHUB_TOKEN\n');
    expect(output).toMatch(/ {3}record: pii redacted EMAIL_ADDRESS\b.*\n/);
    expect(output).toContain('   record: secrets redacted GITHUB_TOKEN\n');
    expect(output).toContain(
      'outcome: MODIFIED [prompt-injection:input:passed, pii:output:modified, secrets:output:modified]',
    );
    // The retry: the first answer is not JSON, the second (after the feedback) is.
    expect(output).toContain('answer:  {"city":"Paris","country":"France"}');
    expect(output).toContain(
      'record:  attempt 1: output-schema blocked (answer is not valid JSON (unexpected character))',
    );
    expect(output).toContain('record:  attempt 2: output-schema passed');
  }, 60_000);

  it('examples/tools.ts stops the poisoned search result and the DROP TABLE', () => {
    const output = runExample('examples/tools.ts');
    expect(output).toContain('Poisoned text reached the model: false');
    expect(output).toContain("Tripped guardrails: [ 'prompt-injection', 'tool-policy' ]");
  }, 60_000);
});
