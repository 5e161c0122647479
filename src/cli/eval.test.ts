import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EvalInputError, evaluate, formatEvalResult, type SetReport } from './eval';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

const withoutLatency = ({ latencyP50Ms, latencyP95Ms, ...rest }: SetReport) => rest;

const counts = (tp: number, fp: number, fn: number, tn: number) => ({
  truePositives: tp,
  falsePositives: fp,
  falseNegatives: fn,
  trueNegatives: tn,
});

const perfect = (tp: number) => ({
  ...counts(tp, 0, 0, 0),
  precision: 1,
  recall: 1,
  f1: 1,
  falsePositiveRate: null,
  detectable: true,
});

function tempData(lines: string[]) {
  const path = join(mkdtempSync(join(tmpdir(), 'ai-guardrails-eval-')), 'data.jsonl');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

describe('evaluate', () => {
  it('scores rows per set and for the file, and every gold type, including one pii does not look for', async () => {
    const result = await evaluate({ guardrail: 'pii', data: fixture('pii-small.jsonl') });
    const person = {
      ...counts(0, 0, 1, 0),
      precision: null,
      recall: 0,
      f1: null,
      falsePositiveRate: null,
      detectable: false,
    };
    expect(result.sets.map(withoutLatency)).toEqual([
      {
        set: 'fixture',
        rows: 3,
        ...counts(2, 0, 0, 1),
        precision: 1,
        recall: 1,
        f1: 1,
        falsePositiveRate: 0,
        entities: { CREDIT_CARD: perfect(1), EMAIL_ADDRESS: perfect(1), US_SSN: perfect(1) },
        allSpans: {
          ...counts(3, 0, 0, 0),
          precision: 1,
          recall: 1,
          f1: 1,
          falsePositiveRate: null,
        },
      },
      {
        set: 'names',
        rows: 1,
        ...counts(0, 0, 1, 0),
        precision: null,
        recall: 0,
        f1: null,
        falsePositiveRate: null,
        entities: { PERSON: person },
        allSpans: {
          ...counts(0, 0, 1, 0),
          precision: null,
          recall: 0,
          f1: null,
          falsePositiveRate: null,
        },
      },
    ]);
    expect(withoutLatency(result.overall)).toEqual({
      set: 'all rows',
      rows: 4,
      ...counts(2, 0, 1, 1),
      precision: 1,
      recall: 2 / 3,
      f1: 0.8,
      falsePositiveRate: 0,
      entities: {
        CREDIT_CARD: perfect(1),
        EMAIL_ADDRESS: perfect(1),
        PERSON: person,
        US_SSN: perfect(1),
      },
      allSpans: {
        ...counts(3, 0, 1, 0),
        precision: 1,
        recall: 0.75,
        f1: 6 / 7,
        falsePositiveRate: null,
      },
    });
  });

  it("counts a gold GPE span (presidio-research's name for a place) as pii's LOCATION", async () => {
    const data = tempData([
      '{"text": "She moved from Lyon last year.", "label": 1, "set": "places", "spans": [{"entity_type": "GPE", "start": 15, "end": 19}]}',
    ]);
    const result = await evaluate({ guardrail: 'pii', data, options: { entities: ['LOCATION'] } });
    expect(Object.keys(result.overall.entities ?? {})).toEqual(['LOCATION']);
    expect(result.overall.entities?.LOCATION).toEqual(perfect(1));
  });

  it('prints a row per gold type, marks the ones the configuration does not look for, and an all-spans row', async () => {
    const result = await evaluate({ guardrail: 'pii', data: fixture('pii-small.jsonl') });
    const lines = formatEvalResult(result).split('\n');
    expect(lines[0]).toBe('set\trows\tpos/neg\tprecision\trecall\tf1\tfpr\tp50 ms\tp95 ms');
    expect(lines.slice(1, 4).map(line => line.split('\t').slice(0, 7).join('\t'))).toEqual([
      'fixture\t3\t2/1\t1.000\t1.000\t1.000\t0.000',
      'names\t1\t1/0\t-\t0.000\t-\t-',
      'all rows\t4\t3/1\t1.000\t0.667\t0.800\t0.000',
    ]);
    expect(lines.slice(4)).toEqual([
      '',
      'spans per type, all rows (a prediction counts when it overlaps a gold span of its type)',
      'type\ttp\tfp\tfn\tprecision\trecall\tf1',
      'CREDIT_CARD\t1\t0\t0\t1.000\t1.000\t1.000',
      'EMAIL_ADDRESS\t1\t0\t0\t1.000\t1.000\t1.000',
      'PERSON *\t0\t0\t1\t-\t0.000\t-',
      'US_SSN\t1\t0\t0\t1.000\t1.000\t1.000',
      'all gold spans\t3\t0\t1\t1.000\t0.750\t0.857',
      '* not a type this configuration looks for (recall 0 by construction)',
    ]);
  });

  it('marks every gold type as not looked for when the guardrail flags whole texts (no spans)', async () => {
    const data = tempData([
      '{"text": "Mail jane@example.com", "label": 1, "spans": [{"entity_type": "EMAIL_ADDRESS", "start": 5, "end": 21}]}',
    ]);
    const result = await evaluate({ guardrail: 'harmful-content', data });
    expect(result.overall.entities).toEqual({
      EMAIL_ADDRESS: {
        ...counts(0, 0, 1, 0),
        precision: null,
        recall: 0,
        f1: null,
        falsePositiveRate: null,
        detectable: false,
      },
    });
    expect(formatEvalResult(result).split('\n').slice(-4)).toEqual([
      'type\ttp\tfp\tfn\tprecision\trecall\tf1',
      'EMAIL_ADDRESS *\t0\t0\t1\t-\t0.000\t-',
      'all gold spans\t0\t0\t1\t-\t0.000\t-',
      '* not a type this configuration looks for (recall 0 by construction)',
    ]);
  });

  it('marks a gold type secrets does not report, and the entropy type when entropy is off', async () => {
    const data = tempData([
      '{"text": "key AKIAQ3EGXWZ7PLKM4N2B", "label": 1, "spans": [{"entity_type": "AWS_ACCESS_KEY_ID", "start": 4, "end": 24}]}',
      '{"text": "pin 4471", "label": 1, "spans": [{"entity_type": "PIN_CODE", "start": 4, "end": 8}]}',
      '{"text": "id q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2RtY", "label": 1, "spans": [{"entity_type": "HIGH_ENTROPY_STRING", "start": 3, "end": 41}]}',
    ]);
    const result = await evaluate({ guardrail: 'secrets', data, options: { entropy: false } });
    expect(
      Object.entries(result.overall.entities ?? {}).map(([type, e]) => [
        type,
        e.detectable,
        e.truePositives,
        e.falseNegatives,
      ]),
    ).toEqual([
      ['AWS_ACCESS_KEY_ID', true, 1, 0],
      ['HIGH_ENTROPY_STRING', false, 0, 1],
      ['PIN_CODE', false, 0, 1],
    ]);
    expect(formatEvalResult(result).split('\n').slice(-6)).toEqual([
      'type\ttp\tfp\tfn\tprecision\trecall\tf1',
      'AWS_ACCESS_KEY_ID\t1\t0\t0\t1.000\t1.000\t1.000',
      'HIGH_ENTROPY_STRING *\t0\t0\t1\t-\t0.000\t-',
      'PIN_CODE *\t0\t0\t1\t-\t0.000\t-',
      'all gold spans\t1\t0\t2\t1.000\t0.333\t0.500',
      '* not a type this configuration looks for (recall 0 by construction)',
    ]);
  });

  it('scores secrets rule-aware: a negative of one rule counts only when our detector of that type fires', async () => {
    const { sets } = await evaluate({
      guardrail: 'secrets',
      data: fixture('secrets-small.jsonl'),
      ruleAware: true,
    });
    const [report] = sets;
    // Plain: the Google key (a negative for its rule's allowlist) and the telegram-shaped
    // token flagged by the entropy detector are both false positives.
    expect(report).toMatchObject({ set: 'fixture', rows: 4, recall: 1, falsePositiveRate: 2 / 3 });
    // Rule-aware: the telegram row's rule maps to TELEGRAM_BOT_TOKEN, which did not fire.
    expect(report?.ruleAware).toEqual({
      ...counts(1, 1, 0, 2),
      mappedNegatives: 3,
      precision: 0.5,
      recall: 1,
      f1: 2 / 3,
      falsePositiveRate: 1 / 3,
    });
  });

  it('scores prompt injection per set, in the mode of the kind', async () => {
    const { sets } = await evaluate({
      guardrail: 'prompt-injection',
      data: fixture('injection-small.jsonl'),
    });
    expect(sets.map(withoutLatency)).toEqual([
      {
        set: 'direct',
        rows: 4,
        ...counts(2, 0, 0, 2),
        precision: 1,
        recall: 1,
        f1: 1,
        falsePositiveRate: 0,
      },
      {
        set: 'chat',
        rows: 1,
        ...counts(0, 0, 0, 1),
        precision: null,
        recall: null,
        f1: null,
        falsePositiveRate: 0,
      },
    ]);
  });

  it.each([
    ['invisibleText', 'invisible-small.jsonl', {}, counts(2, 0, 0, 1)],
    ['contentFilter', 'harmful-small.jsonl', {}, counts(1, 0, 0, 1)],
    ['harmful-content', 'harmful-small.jsonl', {}, counts(1, 0, 0, 1)],
    [
      'url-filter',
      'links-small.jsonl',
      { allow: ['example.com'], allowSubdomains: false },
      counts(2, 0, 0, 1),
    ],
  ])('scores %s', async (guardrail, file, options, expected) => {
    const { overall } = await evaluate({ guardrail, data: fixture(file), options });
    expect(overall).toMatchObject(expected);
  });

  it('reads a file that starts with a byte-order mark and has CRLF line ends', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'ai-guardrails-eval-')), 'bom.jsonl');
    writeFileSync(
      path,
      '\uFEFF{"text": "Mail jane@example.com", "label": 1}\r\n{"text": "See you at noon", "label": 0}\r\n',
    );
    const { overall } = await evaluate({ guardrail: 'pii', data: path });
    expect(withoutLatency(overall)).toEqual({
      set: 'all rows',
      rows: 2,
      ...counts(1, 0, 0, 1),
      precision: 1,
      recall: 1,
      f1: 1,
      falsePositiveRate: 0,
    });
  });

  it('lists every invalid row with its line, the keys it has and what was expected', async () => {
    const data = tempData([
      '{"input": "hi", "expected": "x"}',
      '{"text": "a", "label": 2}',
      '',
      'not json',
      '{"text": "abc", "label": 1, "spans": [{"entity_type": "X", "start": 2, "end": 9}]}',
      '{"text": "abc", "label": 1, "spans": {"X": 1}}',
      '{"text": "fine", "label": 0}',
    ]);
    const error = await evaluate({ guardrail: 'pii', data }).catch(caught => caught);
    expect(error).toBeInstanceOf(EvalInputError);
    expect((error as EvalInputError).problems).toEqual([
      `${data}:1: "text" and "label" are missing (the row's keys: input, expected)`,
      `${data}:2: "label" must be 0 or 1, received 2`,
      `${data}:4: not valid JSON (one JSON object per line)`,
      `${data}:5: "spans[0]" must be {"entity_type": string, "start": integer, "end": integer} with 0 <= start < end <= text length (3), received {"entity_type":"X","start":2,"end":9}`,
      `${data}:6: "spans" must be an array, received {"X":1}`,
    ]);
    expect((error as Error).message.split('\n')[0]).toBe(
      `${data}: 5 invalid rows (expected {"text": string, "label": 0 or 1, "set"?: string, "spans"?: [...]}; see https://github.com/ai-guardrails/ai-guardrails/blob/main/docs/evaluation.md)`,
    );
  });

  it('lists the first ten invalid rows and counts the rest', async () => {
    const data = tempData(Array.from({ length: 25 }, () => '{"text": "a"}'));
    const error = (await evaluate({ guardrail: 'pii', data }).catch(
      caught => caught,
    )) as EvalInputError;
    expect(error.problems).toHaveLength(11);
    expect(error.problems.at(-1)).toBe('... and 15 more');
  });

  it.each([
    [
      { guardrail: 'nope' },
      /^Unknown guardrail "nope": expected one of pii, secrets, invisibleText, promptInjection, contentFilter, harmfulContent, urlFilter, toolPoisoning$/,
    ],
    [
      { guardrail: 'pii', kind: 'prompt' },
      /^Unknown kind "prompt": expected one of input, output, tool_input, tool_output, tool_definition$/,
    ],
    [
      { guardrail: 'pii', options: { entities: ['NOPE'] } },
      /^Invalid --options for pii: .*pii\.entities\[0\]/,
    ],
    [
      { guardrail: 'pii', data: '/nonexistent/rows.jsonl' },
      /^Cannot read the data file \/nonexistent\/rows\.jsonl/,
    ],
    [{ guardrail: 'pii', data: tempData(['']) }, /: no rows \(one JSON object per line\)$/],
  ])('rejects %o with a clear error', async (input, message) => {
    await expect(
      evaluate({ data: fixture('pii-small.jsonl'), ...input } as Parameters<typeof evaluate>[0]),
    ).rejects.toThrow(message);
  });
});
