import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { evaluate } from './eval';

const fixture = fileURLToPath(new URL('./fixtures/pii-small.jsonl', import.meta.url));

describe('eval', () => {
  it('scores rows per set and spans per entity type', async () => {
    const reports = await evaluate({ guardrail: 'pii', data: fixture });
    expect(reports.map(({ latencyP50Ms, latencyP95Ms, ...rest }) => rest)).toEqual([
      {
        set: 'fixture',
        rows: 3,
        precision: 1,
        recall: 1,
        f1: 1,
        falsePositiveRate: 0,
        entities: {
          CREDIT_CARD: {
            truePositives: 1,
            falsePositives: 0,
            falseNegatives: 0,
            trueNegatives: 0,
            precision: 1,
            recall: 1,
            f1: 1,
            falsePositiveRate: null,
          },
          EMAIL_ADDRESS: {
            truePositives: 1,
            falsePositives: 0,
            falseNegatives: 0,
            trueNegatives: 0,
            precision: 1,
            recall: 1,
            f1: 1,
            falsePositiveRate: null,
          },
          US_SSN: {
            truePositives: 1,
            falsePositives: 0,
            falseNegatives: 0,
            trueNegatives: 0,
            precision: 1,
            recall: 1,
            f1: 1,
            falsePositiveRate: null,
          },
        },
      },
      {
        set: 'names',
        rows: 1,
        precision: null,
        recall: 0,
        f1: null,
        falsePositiveRate: null,
        entities: {},
      },
    ]);
  });

  it('runs as a command and prints JSON', () => {
    const output = execFileSync(
      'npx',
      ['tsx', 'src/cli/index.ts', 'eval', '--guardrail', 'pii', '--data', fixture, '--json'],
      { encoding: 'utf8' },
    );
    const reports = JSON.parse(output) as Array<{ set: string; rows: number; recall: number }>;
    expect(reports.map(({ set, rows, recall }) => ({ set, rows, recall }))).toEqual([
      { set: 'fixture', rows: 3, recall: 1 },
      { set: 'names', rows: 1, recall: 0 },
    ]);
  });

  it('scores secrets rule-aware: a negative of one rule counts only when our detector of that type fires', async () => {
    const data = fileURLToPath(new URL('./fixtures/secrets-small.jsonl', import.meta.url));
    const [report] = await evaluate({ guardrail: 'secrets', data, ruleAware: true });
    // Plain: the Google key (a negative for its rule's allowlist) and the telegram-shaped
    // token flagged by the entropy detector are both false positives.
    expect(report).toMatchObject({ set: 'fixture', rows: 4, recall: 1, falsePositiveRate: 2 / 3 });
    // Rule-aware: the telegram row's rule maps to TELEGRAM_BOT_TOKEN, which did not fire.
    expect(report?.ruleAware).toEqual({
      truePositives: 1,
      falsePositives: 1,
      falseNegatives: 0,
      trueNegatives: 2,
      mappedNegatives: 3,
      precision: 0.5,
      recall: 1,
      f1: 2 / 3,
      falsePositiveRate: 1 / 3,
    });
  });

  it('scores prompt injection per set, in the mode of the kind', async () => {
    const data = fileURLToPath(new URL('./fixtures/injection-small.jsonl', import.meta.url));
    const reports = await evaluate({ guardrail: 'prompt-injection', data });
    expect(reports.map(({ latencyP50Ms, latencyP95Ms, ...rest }) => rest)).toEqual([
      { set: 'direct', rows: 4, precision: 1, recall: 1, f1: 1, falsePositiveRate: 0 },
      { set: 'chat', rows: 1, precision: null, recall: null, f1: null, falsePositiveRate: 0 },
    ]);
  });

  it('runs prompt injection on tool outputs as a command (--kind tool_output)', () => {
    const data = fileURLToPath(new URL('./fixtures/injection-tool-small.jsonl', import.meta.url));
    const table = execFileSync(
      'npx',
      [
        'tsx',
        'src/cli/index.ts',
        'eval',
        '--guardrail',
        'prompt-injection',
        '--data',
        data,
        '--kind',
        'tool_output',
      ],
      { encoding: 'utf8' },
    );
    expect(table.split('\n')[0]).toBe('set\trows\tprecision\trecall\tf1\tfpr\tp50 ms\tp95 ms');
    expect(table).toMatch(/^tool\t2\t1\.000\t1\.000\t1\.000\t0\.000\t/m);
  }, 60_000);

  it('rejects an unknown guardrail', async () => {
    await expect(evaluate({ guardrail: 'nope', data: fixture })).rejects.toThrow(
      /Unknown guardrail/,
    );
  });
});
