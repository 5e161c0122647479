import { generateText, isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { recordTypes } from '../../../test/helpers/char-codes';
import { turnsModel } from '../../../test/helpers/turns-model';
import { collectToolRecords } from '../../tools/collect-tool-records';
import { guardTools } from '../../tools/guard-tool';
import { holdsLiteral, KeyPieces } from './key-pieces';
import { secrets } from './secrets';
import { secretsAcrossArrayStrings } from './split-array-strings';

/**
 * Round 25: the column reading (round 24) is skipped for a JSON text whose
 * strings hold no piece of a key (no rule's literal, in one string or cut
 * between two). A key whose prefix itself is cut over records
 * (`"g"`, `"h"`, `"p_…"`) is still joined.
 */

const GITHUB = 'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';
const AWS = 'AKIAZ7QH3M2KX9TN4LPW';

/** What the model reads of a tool returning `{ rows }` through `guardTools` with `secrets`, and the records. */
async function modelReads(rows: unknown[]) {
  const model = turnsModel([{ toolCalls: [{ toolCallId: 'c1', toolName: 'keys', input: {} }] }]);
  const out = await generateText({
    model,
    tools: guardTools(
      { keys: tool({ inputSchema: z.object({}), execute: async () => ({ rows }) }) },
      { output: [secrets({ action: 'redact' })] },
    ),
    prompt: 'Keys',
    stopWhen: isStepCount(2),
  });
  const message = model.doGenerateCalls[1]!.prompt.find(m => m.role === 'tool')!;
  return {
    output: (message.content[0] as { output: { value: unknown } }).output.value,
    records: collectToolRecords(out.steps).map(recordTypes),
  };
}

/** `token` cut at `cuts`, as three-field records (`{i, c, t}`). */
const records = (token: string, cuts: number[]) =>
  [0, ...cuts].map((from, i) => ({ i, c: token.slice(from, cuts[i]), t: 'chunk' }));

describe('the column reading of records whose strings hold a cut prefix', () => {
  it('guardTools: a prefix cut over records is redacted in every piece', async () => {
    for (const [token, cuts, type] of [
      [GITHUB, [1, 2, 20], 'GITHUB_TOKEN'],
      [GITHUB, [2, 20], 'GITHUB_TOKEN'],
      [GITHUB, [3, 12, 30], 'GITHUB_TOKEN'],
      [AWS, [1, 10], 'AWS_ACCESS_KEY_ID'],
      [AWS, [3, 12], 'AWS_ACCESS_KEY_ID'],
    ] as const) {
      const rows = records(token, [...cuts]);
      expect(await modelReads(rows), `${cuts}`).toEqual({
        output: { rows: rows.map(row => ({ ...row, c: `[${type}]` })) },
        records: [['secrets', 'modified', [type]]],
      });
    }
  });

  it('records of words, ids and addresses hold no piece: nothing to join', () => {
    const rows = Array.from({ length: 50 }, (_, i) => ({
      id: i,
      name: `user ${i}`,
      email: `user${i}@example.com`,
      city: ['Paris', 'Lyon', 'Oslo'][i % 3],
    }));
    const json = JSON.stringify(rows);
    const pieces = new KeyPieces();
    for (const match of json.matchAll(/"([^"\\]*)"/g)) {
      pieces.add(json, match.index + 1, match.index + 1 + match[1]!.length, false);
    }
    expect(pieces.found).toBe(false);
    expect(secretsAcrossArrayStrings(json)).toEqual([]);
  });

  it('pairs a head and a rest in either order, and any escape', () => {
    const seen = (...strings: string[]) => {
      const json = strings.map(string => `"${string}"`).join(',');
      const pieces = new KeyPieces();
      let at = 0;
      for (const string of strings) {
        pieces.add(json, at + 1, at + 1 + string.length, string.includes('\\'));
        at += string.length + 3;
      }
      return pieces.found;
    };
    expect(seen('xg', 'hp_q8Zr')).toBe(true);
    expect(seen('hp_q8Zr', 'xg')).toBe(true);
    expect(seen('g', 'h', 'p_q8Zr')).toBe(true);
    expect(seen('AK', 'IAZ7QH')).toBe(true);
    expect(seen('\\u0067hp_')).toBe(true);
    expect(seen('Paris', 'Lyon', 'Oslo')).toBe(false);
  });
});

/**
 * Round 26: the Discord token's literal is a `.` (left out of the
 * literals: every file name holds one), so a token cut over records of more
 * fields, or one object deeper, was never read by columns: each piece was
 * sent. Its pieces are now told by their shape.
 */
const DISCORD = 'MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs';

describe('a Discord token cut over records', () => {
  it('guardTools: every piece is redacted, at any cut, in any order', async () => {
    for (const cuts of [[20], [24], [25], [28], [31], [32], [10, 27, 45], [26, 29]]) {
      const parts = [0, ...cuts].map((from, i) => DISCORD.slice(from, cuts[i]));
      const rows = parts.map((part, i) => ({ id: `row-${i}`, part, note: 'chunk' }));
      for (const written of [
        rows,
        [...rows].reverse().map((row, i) => ({ ...row, n: rows.length - 1 - i })),
      ]) {
        expect(await modelReads(written), `${cuts}`).toEqual({
          output: { rows: written.map(row => ({ ...row, part: '[DISCORD_TOKEN]' })) },
          records: [['secrets', 'modified', ['DISCORD_TOKEN']]],
        });
      }
      const nested = parts.map(part => ({ meta: { part } }));
      expect(await modelReads(nested), `${cuts} nested`).toEqual({
        output: { rows: nested.map(() => ({ meta: { part: '[DISCORD_TOKEN]' } })) },
        records: [['secrets', 'modified', ['DISCORD_TOKEN']]],
      });
    }
  });

  it('file names, numbers and versions are no pieces of one', () => {
    const seen = (...strings: string[]) => {
      const json = strings.map(string => `"${string}"`).join(',');
      const pieces = new KeyPieces();
      let at = 0;
      for (const string of strings) {
        pieces.add(json, at + 1, at + 1 + string.length, false);
        at += string.length + 3;
      }
      return pieces.found;
    };
    expect(seen('Mozilla', 'index.js', 'report.pdf', '3.14', '2.5', 'v1.2.3', 'Oslo')).toBe(false);
    expect(seen('MTk4NjIy', 'NDgzNDcxOTI1MjQ4.Cl2', 'FMQ.ZnCjm1X')).toBe(true);
    expect(seen('FMQ.ZnCjm1X', 'NDgzNDcxOTI1MjQ4.Cl2', 'MTk4NjIy')).toBe(true);
    expect(seen('MTk4NjIy', 'NDgzNDcxOTI1MjQ4', '.', 'Cl2FMQ', '.', 'ZnCjm1X')).toBe(true);
    expect(seen('MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.Zn', 'Cjm1X')).toBe(true);
    // The dots' pieces without a string that can start the token.
    expect(seen('DgzNDcxOTI1MjQ4.Cl2', 'FMQ.ZnCjm1X')).toBe(false);
  });
});

/**
 * Round 26. The scan folds full-width letters (`ｇｈｐ＿`) and reads through
 * invisible characters (`g\u200bhp_`), but the pre-check looked for the
 * literals as ASCII: such a prefix cut over records was never joined. A
 * string holding a character past ASCII now makes the columns read.
 */
describe('a key prefix written past ASCII, cut over records', () => {
  it('guardTools: every piece is redacted', async () => {
    for (const head of ['ｇｈｐ＿q8Zr4Lm2', 'ｇhp_q8Zr4Lm2', 'g\u200bhp_q8Zr4Lm2']) {
      const rows = [head, GITHUB.slice(12)].map((c, i) => ({ i, c, t: 'chunk' }));
      expect(await modelReads(rows), head).toEqual({
        output: { rows: rows.map(row => ({ ...row, c: '[GITHUB_TOKEN]' })) },
        records: [['secrets', 'modified', ['GITHUB_TOKEN']]],
      });
    }
  });
});

/**
 * Round 27. Any character past ASCII made the columns read, so every tool
 * result with a word of another language (`Zürich`, `москва`, `東京`) paid
 * the column parse (50-110 ms a megabyte) for nothing. A string is now read
 * folded as the scan reads it: a literal or a cut one in it is still found,
 * words are not.
 */
describe('strings past ASCII, read folded', () => {
  const seen = (...strings: string[]) => {
    const json = JSON.stringify(strings);
    const pieces = new KeyPieces();
    for (const match of json.matchAll(/"([^"\\]*)"/g)) {
      pieces.add(json, match.index + 1, match.index + 1 + match[1]!.length, false);
    }
    return pieces.found;
  };

  it('words of other languages hold no piece; folded prefixes and their cuts do', () => {
    expect(seen('Müller', 'Zürich', 'москва', '東京', 'Ελλάδα', 'niño', 'İstanbul')).toBe(false);
    expect(seen('ｇｈｐ＿q8Zr4Lm2')).toBe(true);
    expect(seen('Zürich', 'ｇ', 'hp_q8Zr4Lm2')).toBe(true);
    expect(seen('g\u200b', 'hp_q8Zr4Lm2')).toBe(true);
    expect(seen('ＡＫ', 'IAZ7QH3M')).toBe(true);
    // Failing closed: what may join the string before it, and private-use characters.
    expect(seen('g', '\u200bhp_q8Zr')).toBe(true);
    expect(seen('Zürich', '\u0301x')).toBe(true);
    expect(seen('x\ue000y')).toBe(true);
  });

  it('guardTools: a full-width prefix cut over records among words of other languages is redacted', async () => {
    const rows = ['ｇｈｐ＿q8Zr4Lm2', GITHUB.slice(12)].map((c, i) => ({
      i,
      c,
      city: ['Zürich', 'москва'][i],
    }));
    expect(await modelReads(rows)).toEqual({
      output: { rows: rows.map(row => ({ ...row, c: '[GITHUB_TOKEN]' })) },
      records: [['secrets', 'modified', ['GITHUB_TOKEN']]],
    });
  });
});

/**
 * Round 32: the two-letter literals of Twilio's keys (`SK`, `AC`) were
 * looked for anywhere, so every JSON text with `TASK`, `BACK`, `ACCESS` or
 * `SKU` in it parsed its columns (50-110 ms a megabyte) for nothing. They
 * count only where a key can start: after no token character, followed by
 * a hex digit or the string's end.
 */
const TWILIO = `SK${'3f9a2c7e1b8d4f6a0c5e9b2d7a1f4c8e'}`;

describe('the two-letter literals of Twilio keys', () => {
  it('count only where a key can start', () => {
    const words = ['TASK', 'BACK', 'ACCESS', 'SKU', 'ASK the BACKEND', 'status: ACTIVE'];
    const json = JSON.stringify(words.map((task, id) => ({ id, task, note: 'chunk' })));
    expect(holdsLiteral(json)).toBe(false);
    expect(secretsAcrossArrayStrings(json)).toEqual([]);
    for (const held of [`"${TWILIO}"`, '"SK"', '"x AC0f"', '"%2CSK3f"', '"SK\\u0033"', '"SK é"']) {
      expect(holdsLiteral(`{"a":${held}}`), held).toBe(true);
    }
  });

  it('guardTools: a key cut over records beside such words is redacted in every piece', async () => {
    for (const cuts of [[2], [1, 2], [12], [2, 20]]) {
      const pieces = [0, ...cuts].map((from, i) => TWILIO.slice(from, cuts[i]));
      const rows = [
        { i: 0, c: 'TASK BACK', t: 'ACCESS' },
        ...pieces.map((c, i) => ({ i: i + 1, c, t: 'chunk' })),
      ];
      expect(await modelReads(rows), `${cuts}`).toEqual({
        output: { rows: rows.map((row, i) => (i === 0 ? row : { ...row, c: '[TWILIO_API_KEY]' })) },
        records: [['secrets', 'modified', ['TWILIO_API_KEY']]],
      });
    }
  });
});
