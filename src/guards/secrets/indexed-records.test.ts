import { generateText, isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { guardContext } from '../../../test/helpers';
import { recordTypes } from '../../../test/helpers/char-codes';
import { turnsModel } from '../../../test/helpers/turns-model';
import { collectToolRecords } from '../../tools/collect-tool-records';
import { guardTools } from '../../tools/guard-tool';
import { secrets } from './secrets';

/**
 * Round 22: a key split over records that carry their place
 * (`[{"k":"ghp_q8Zr4Lm2","n":1},{"k":"Xw9Tb6…","n":2},…]`) was read one
 * record at a time (round 20 joined objects of one string member only):
 * the prefix and short chunks stayed visible. A record of one string and
 * one integer now goes on with the array's run, and the chunks are joined
 * in the order of the integers when every record of the run has one (a
 * model puts them in that order). Records of more fields
 * (`{"id":1,"name":…,"role":…}`) stay apart. Dev and benign texts as
 * `[{"i":n,"w":word},…]`: 13 of 33,549 with a finding, the 13 an array of
 * their words gives (before: none).
 */

const GITHUB = 'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';
const OPENAI = 'sk-proj-Tq7vR2mX9pLw4ZcB8nYd3HsK6fJg1QaE5uVo0iWt';

function redacted(value: unknown): string {
  const json = JSON.stringify(value);
  const verdict = secrets({ action: 'redact' }).check(json, {
    ...guardContext('tool_output'),
    value,
  }) as { action: string; content?: string };
  return verdict.action === 'modify' ? verdict.content! : json;
}

/** What the model reads of a tool returning `{ parts }` through `guardTools` with `secrets`, and the records. */
async function modelReads(parts: unknown[]) {
  const model = turnsModel([{ toolCalls: [{ toolCallId: 'c1', toolName: 'keys', input: {} }] }]);
  const out = await generateText({
    model,
    tools: guardTools(
      { keys: tool({ inputSchema: z.object({}), execute: async () => ({ parts }) }) },
      { output: [secrets({ action: 'redact' })] },
    ),
    prompt: 'Keys',
    stopWhen: isStepCount(2),
  });
  const message = model.doGenerateCalls[1]!.prompt.find(m => m.role === 'tool')!;
  return {
    output: (message.content[0] as { output: unknown }).output,
    records: collectToolRecords(out.steps).map(recordTypes),
  };
}

describe('a key split over records with an index', () => {
  it('guardTools: the model reads every chunk redacted, in any order', async () => {
    const parts = [
      { k: GITHUB.slice(26), n: 3 },
      { k: GITHUB.slice(0, 12), n: 1 },
      { k: GITHUB.slice(12, 26), n: 2 },
    ];
    expect(await modelReads(parts)).toEqual({
      output: {
        type: 'json',
        value: {
          parts: [
            { k: '[GITHUB_TOKEN]', n: 3 },
            { k: '[GITHUB_TOKEN]', n: 1 },
            { k: '[GITHUB_TOKEN]', n: 2 },
          ],
        },
      },
      records: [['secrets', 'modified', ['GITHUB_TOKEN']]],
    });
  });

  it('reads the integer before or after the string', () => {
    expect(
      redacted([
        { i: 0, s: OPENAI.slice(0, 20) },
        { i: 1, s: OPENAI.slice(20) },
      ]),
    ).toBe('[{"i":0,"s":"[OPENAI_API_KEY]"},{"i":1,"s":"[OPENAI_API_KEY]"}]');
  });

  it('leaves records of words as they were', () => {
    // (Records of more fields were left apart, `{id, name, role}` with a key
    // across the names too; since round 24 their columns are read, below.)
    for (const value of [
      [
        { k: 'hello', n: 1 },
        { k: 'world', n: 2 },
      ],
    ]) {
      expect(redacted(value)).not.toContain('[GITHUB_TOKEN]');
    }
    expect(
      redacted([
        { k: 'hello', n: 1 },
        { k: 'world', n: 2 },
      ]),
    ).toBe('[{"k":"hello","n":1},{"k":"world","n":2}]');
  });

  it('guardTools: an index written as a string ({"k":…,"n":"2"}) orders the chunks too (round 23)', async () => {
    const parts = [
      { k: GITHUB.slice(26), n: '3' },
      { n: '1', k: GITHUB.slice(0, 12) },
      { k: GITHUB.slice(12, 26), n: '2' },
    ];
    expect(await modelReads(parts)).toEqual({
      output: {
        type: 'json',
        value: {
          parts: [
            { k: '[GITHUB_TOKEN]', n: '3' },
            { n: '1', k: '[GITHUB_TOKEN]' },
            { k: '[GITHUB_TOKEN]', n: '2' },
          ],
        },
      },
      records: [['secrets', 'modified', ['GITHUB_TOKEN']]],
    });
    // (Records of two strings that are no index were left apart; since
    // round 24 their columns are read, below.)
  });

  it('guardTools: a record without an index, or a repeated index, no longer puts the run in written order (round 23)', async () => {
    const shuffled = [
      { k: GITHUB.slice(26), n: 3 },
      { k: GITHUB.slice(0, 12), n: 1 },
      { k: GITHUB.slice(12, 26), n: 2 },
    ];
    expect(await modelReads([...shuffled, { k: 'end' }])).toEqual({
      output: {
        type: 'json',
        value: {
          parts: [
            { k: '[GITHUB_TOKEN]', n: 3 },
            { k: '[GITHUB_TOKEN]', n: 1 },
            { k: '[GITHUB_TOKEN]', n: 2 },
            { k: 'end' },
          ],
        },
      },
      records: [['secrets', 'modified', ['GITHUB_TOKEN']]],
    });
    expect(redacted([...shuffled, { k: 'x', n: 3 }])).toBe(
      '[{"k":"[GITHUB_TOKEN]","n":3},{"k":"[GITHUB_TOKEN]","n":1},{"k":"[GITHUB_TOKEN]","n":2},{"k":"x","n":3}]',
    );
  });
});

/**
 * Round 24: records of a third field (`{"i":0,"c":"ghp_…","t":"chunk"}`, a
 * length beside the index) or with the chunk one object deeper
 * (`{"i":0,"data":{"v":…}}`) were read one at a time (round 22 joined records
 * of one string and one integer only), and indexes that lie (chunks written
 * in order, `n` 3, 1, 4, 2) joined them in a wrong order only. Each array
 * of records is now also read by its columns, in written order and in the
 * order of each integer member whose values are distinct.
 */
describe('a key split over records of more fields, nested records, decoy indexes', () => {
  const chunks = [
    GITHUB.slice(0, 10),
    GITHUB.slice(10, 20),
    GITHUB.slice(20, 30),
    GITHUB.slice(30),
  ];

  it('guardTools: a third field, a length and a nested chunk, shuffled', async () => {
    const shapes = [
      chunks.map((c, i) => ({ i, c, t: 'chunk' })).reverse(),
      chunks.map((c, i) => ({ i, len: c.length, c })).reverse(),
      chunks.map((v, i) => ({ i, data: { v } })).reverse(),
    ];
    const readAs = [
      chunks.map((_, i) => ({ i, c: '[GITHUB_TOKEN]', t: 'chunk' })).reverse(),
      chunks.map((_, i) => ({ i, len: 10, c: '[GITHUB_TOKEN]' })).reverse(),
      chunks.map((_, i) => ({ i, data: { v: '[GITHUB_TOKEN]' } })).reverse(),
    ];
    for (const [index, parts] of shapes.entries()) {
      expect(await modelReads(parts), String(index)).toEqual({
        output: { type: 'json', value: { parts: readAs[index] } },
        records: [['secrets', 'modified', ['GITHUB_TOKEN']]],
      });
    }
  });

  it('guardTools: indexes that lie (chunks written in order) and a decoy record', async () => {
    const parts = chunks.map((k, i) => ({ k, n: [3, 1, 4, 2][i] }));
    expect(await modelReads([...parts, { k: 'zz', n: 9, note: 'x' }])).toEqual({
      output: {
        type: 'json',
        value: {
          parts: [
            ...parts.map(({ n }) => ({ k: '[GITHUB_TOKEN]', n })),
            { k: 'zz', n: 9, note: 'x' },
          ],
        },
      },
      records: [['secrets', 'modified', ['GITHUB_TOKEN']]],
    });
  });

  it('leaves ordinary records alone: users with teams, commits', async () => {
    const users = [
      { id: 1, name: 'alice', role: 'admin', team: { id: 7, slug: 'core' } },
      { id: 2, name: 'bob', role: 'user', team: { id: 8, slug: 'web' } },
      { id: 3, name: 'carol', role: 'user', team: { id: 7, slug: 'core' } },
    ];
    const commits = [
      { sha: 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0', n: 2, msg: 'fix' },
      { sha: '0f9e8d7c6b5a49382716a5b4c3d2e1f0a9b8c7d6', n: 1, msg: 'feat' },
      { sha: '1234567890abcdef1234567890abcdef12345678', n: 3, msg: 'docs' },
    ];
    for (const parts of [users, commits]) {
      expect(await modelReads(parts)).toEqual({
        output: { type: 'json', value: { parts } },
        records: [['secrets', 'passed', undefined]],
      });
    }
  });
});

/**
 * Round 24: character codes written as strings (`["103","104","112",…]`,
 * `["0x67","0x68",…]`) spelled a key past every detector; round 20 read
 * codes written as numbers only.
 */
describe('a key spelled as character codes in strings', () => {
  const decimal = Array.from(GITHUB, c => String(c.codePointAt(0)));
  const hex = Array.from(GITHUB, c => `0x${c.codePointAt(0)!.toString(16)}`);

  it('guardTools: decimal and hexadecimal code strings are read as the key', async () => {
    for (const parts of [decimal, hex]) {
      expect(await modelReads(parts)).toEqual({
        output: { type: 'json', value: { parts: '[GITHUB_TOKEN]' } },
        records: [['secrets', 'modified', ['GITHUB_TOKEN']]],
      });
    }
  });

  it('leaves zip codes, ids with leading zeros and clean code strings as they were', async () => {
    for (const parts of [
      ['10001', '94105', '60601', '02134', '73301', '30301', '98101', '33101'],
      ['0115', '0107', '045', '0112', '0114', '0111', '0106', '0106'],
      Array.from('Hello, world', c => String(c.codePointAt(0))),
    ]) {
      expect(await modelReads(parts)).toEqual({
        output: { type: 'json', value: { parts } },
        records: [['secrets', 'passed', undefined]],
      });
    }
  });
});

/**
 * Round 24: a decoy string before the key's prefix (`["AAAA","ghp_…",…]`, or
 * a record whose index comes first) glued its letters to the prefix, a
 * decoy after a key of fixed length (`"v2"` after the 36 characters of a
 * `ghp_` token) made the join no key, and a decoy put before the chunk whose
 * index it repeats took that chunk's place: every chunk reached the model.
 */
describe('decoys before and after a split key', () => {
  const chunks = [
    GITHUB.slice(0, 10),
    GITHUB.slice(10, 20),
    GITHUB.slice(20, 30),
    GITHUB.slice(30),
  ];
  const hidden = chunks.map(() => '[GITHUB_TOKEN]');

  it('guardTools: a decoy before, decoys after, a decoy index first', async () => {
    expect(await modelReads(['AAAA', ...chunks])).toMatchObject({
      output: { value: { parts: ['AAAA', ...hidden] } },
      records: [['secrets', 'modified', ['GITHUB_TOKEN']]],
    });
    expect(await modelReads([...chunks, 'v2', 'x1', 'S3'])).toMatchObject({
      output: { value: { parts: [...hidden, 'v2', 'x1', 'S3'] } },
      records: [['secrets', 'modified', ['GITHUB_TOKEN']]],
    });
    const records = [
      { k: 'zzzz', n: 2 },
      ...chunks.map((k, i) => ({ k, n: i + 1 })).reverse(),
      { k: 'AAAA', n: 0 },
    ];
    expect(await modelReads(records)).toMatchObject({
      output: {
        value: {
          parts: [
            // Read in its index's place it makes a token cut short of its
            // checksum (`ghp_` and 30), which is redacted since round 30.
            { k: '[GITHUB_TOKEN]', n: 2 },
            ...chunks.map((_, i) => ({ k: '[GITHUB_TOKEN]', n: i + 1 })).reverse(),
            { k: 'AAAA', n: 0 },
          ],
        },
      },
      records: [['secrets', 'modified', ['GITHUB_TOKEN']]],
    });
  });

  it('leaves words that start like a prefix alone', async () => {
    const parts = ['sk-learn', 'is', 'a', 'library', 'ghp_', 'prefix', 'AKIA', 'docs', 'v2'];
    expect(await modelReads(parts)).toEqual({
      output: { type: 'json', value: { parts } },
      records: [['secrets', 'passed', undefined]],
    });
  });
});
