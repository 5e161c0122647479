import { generateText, isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { guardContext } from '../../../test/helpers';
import { toolOutputsIn } from '../../../test/helpers/tool-history';
import { turnsModel } from '../../../test/helpers/turns-model';
import { guardTools } from '../../tools/guard-tool';
import { secrets } from './secrets';
import { secretsAcrossArrayStrings } from './split-array-strings';

const GITHUB = 'ghp_q8Zr4Lm2Xw9Tb6Yp1Kd7Hs3Nf5Vg0Jc7Qe2R';
const AWS = 'AKIAZ7VRSQ5TJN2XMY3K';

/** What `secrets({ action: 'redact' })` lets through at `tool_output` for this JSON text. */
function redacted(json: string): string {
  const verdict = secrets({ action: 'redact' }).check(json, {
    ...guardContext('tool_output'),
    value: JSON.parse(json),
  }) as { action: string; content?: string };
  return verdict.action === 'modify' ? verdict.content! : json;
}

describe('a credential split across adjacent strings of one JSON array', () => {
  it('is found in the strings joined and redacted in each piece (it was read piece by piece)', () => {
    // Before: the prefix chunk and short pieces stayed visible beside an
    // entropy placeholder: ["ghp_q8Zr4Lm2","[HIGH_ENTROPY_STRING]"].
    expect(redacted(JSON.stringify([GITHUB.slice(0, 12), GITHUB.slice(12)]))).toBe(
      '["[GITHUB_TOKEN]","[GITHUB_TOKEN]"]',
    );
    expect(
      redacted(JSON.stringify({ key: [AWS.slice(0, 4), AWS.slice(4, 9), AWS.slice(9)], n: 1 })),
    ).toBe('{"key":["[AWS_ACCESS_KEY_ID]","[AWS_ACCESS_KEY_ID]","[AWS_ACCESS_KEY_ID]"],"n":1}');
    // Only the strings it covers: the array's other strings stay.
    expect(redacted(JSON.stringify(['token:', GITHUB.slice(0, 20), GITHUB.slice(20)]))).toBe(
      '["token:","[GITHUB_TOKEN]","[GITHUB_TOKEN]"]',
    );
    // Joined to a neighbour's letters the token had no word boundary (as
    // `seeghp_…` in prose) and was read piece by piece; since round 24 a run
    // is also read from a string that starts with a prefix.
    expect(redacted(JSON.stringify(['see', GITHUB.slice(0, 20), GITHUB.slice(20), 'ok']))).toBe(
      '["see","[GITHUB_TOKEN]","[GITHUB_TOKEN]","ok"]',
    );
  });

  it('a chunk with an escape is joined decoded: an escape no longer takes a chunk out of the join', () => {
    // A NUL in a chunk (canonical JSON writes it \u0000; the model reads past
    // it) or a letter written \u0071 made the chunk no key chunk: the
    // prefix stayed visible beside an entropy placeholder.
    const withNul = JSON.stringify([
      `${GITHUB.slice(0, 8)}\0${GITHUB.slice(8, 15)}`,
      GITHUB.slice(15),
    ]);
    expect(withNul).toContain('\\u0000');
    expect(redacted(withNul)).toBe('["[GITHUB_TOKEN]","[GITHUB_TOKEN]"]');
    const escaped = `["ghp_\\u0071${GITHUB.slice(5, 12)}","${GITHUB.slice(12)}"]`;
    expect(JSON.parse(escaped)).toEqual([GITHUB.slice(0, 12), GITHUB.slice(12)]);
    expect(redacted(escaped)).toBe('["[GITHUB_TOKEN]","[GITHUB_TOKEN]"]');
    // White space written as an escape still ends a chunk, as white space does.
    expect(
      secretsAcrossArrayStrings(`["${GITHUB.slice(0, 12)}\\n","${GITHUB.slice(12)}"]`),
    ).toEqual([]);
  });

  it('joins the values of one object and skips blank strings between chunks (round 16)', () => {
    // Each left the prefix chunk visible: object values and a " " between
    // chunks kept the pieces apart, though a model joins them.
    expect(redacted(JSON.stringify({ a: GITHUB.slice(0, 12), b: GITHUB.slice(12) }))).toBe(
      '{"a":"[GITHUB_TOKEN]","b":"[GITHUB_TOKEN]"}',
    );
    expect(redacted(JSON.stringify([GITHUB.slice(0, 12), ' ', GITHUB.slice(12)]))).toBe(
      '["[GITHUB_TOKEN]"," ","[GITHUB_TOKEN]"]',
    );
    expect(
      redacted(JSON.stringify({ part1: AWS.slice(0, 8), sep: '', part2: AWS.slice(8), n: 2 })),
    ).toBe('{"part1":"[AWS_ACCESS_KEY_ID]","sep":"","part2":"[AWS_ACCESS_KEY_ID]","n":2}');
    // Keys are never joined: a key and its value are no chunks of one word.
    expect(
      secretsAcrossArrayStrings(JSON.stringify({ [GITHUB.slice(0, 12)]: GITHUB.slice(12) })),
    ).toEqual([]);
  });

  // Round 33: a token past its exact length is read to its end, but a string
  // after one of exactly its length is another value.
  it('a key longer than its exact length is read whole; a string after an exact one is not its', () => {
    expect(redacted(JSON.stringify([GITHUB.slice(0, 20), `${GITHUB.slice(20)}x9Q`]))).toBe(
      '["[GITHUB_TOKEN]","[GITHUB_TOKEN]"]',
    );
    expect(redacted(JSON.stringify([GITHUB.slice(0, 20), GITHUB.slice(20), 'x9Q']))).toBe(
      '["[GITHUB_TOKEN]","[GITHUB_TOKEN]","x9Q"]',
    );
  });

  it('joins only strings of one array or object: nested objects and non-strings between stay apart', () => {
    expect(
      secretsAcrossArrayStrings(JSON.stringify([GITHUB.slice(0, 12), 1, GITHUB.slice(12)])),
    ).toEqual([]);
    // (Arrays in an array are read as their strings in order since round 19:
    // nested-array-strings.test.ts.)
    // (Objects in an array are read as their strings in order since round 20,
    // up to a value in them that is no string: objects-in-arrays.test.ts;
    // since round 22 one integer beside the string is its place, since
    // round 24 records of more fields are read by their columns:
    // indexed-records.test.ts.)
    expect(
      secretsAcrossArrayStrings(
        JSON.stringify([{ a: GITHUB.slice(0, 12) }, 1, { a: GITHUB.slice(12) }]),
      ),
    ).toEqual([]);
    expect(
      secretsAcrossArrayStrings(JSON.stringify([[GITHUB.slice(0, 12)], 1, [GITHUB.slice(12)]])),
    ).toEqual([]);
    // A credential inside one string is the ordinary scan's, not this one's.
    expect(secretsAcrossArrayStrings(JSON.stringify([GITHUB, 'x']))).toEqual([]);
  });

  it('does not join an array of hashes into an entropy finding (only typed credentials count)', () => {
    const shas = Array.from({ length: 40 }, (_, i) =>
      (i * 2654435761).toString(16).padStart(8, '0').repeat(5),
    );
    expect(secretsAcrossArrayStrings(JSON.stringify({ commits: shas }))).toEqual([]);
  });

  it('through guardTools: the model reads no piece of a token returned in chunks', async () => {
    const model = turnsModel([{ toolCalls: [{ toolCallId: 'c1', toolName: 'vault', input: {} }] }]);
    await generateText({
      model,
      tools: guardTools(
        {
          vault: tool({
            inputSchema: z.object({}),
            execute: async () => ({ chunks: [GITHUB.slice(0, 15), GITHUB.slice(15)] }),
          }),
        },
        { output: [secrets({ action: 'redact' })] },
      ),
      prompt: 'Get it.',
      stopWhen: isStepCount(2),
    });
    const sent = JSON.stringify(model.doGenerateCalls[1]!.prompt);
    expect(sent).toContain('[GITHUB_TOKEN]');
    expect(sent).not.toContain(GITHUB.slice(0, 15));
    expect(sent).not.toContain(GITHUB.slice(15));
  });

  it('through guardTools: a token returned as the values of one object reaches the model redacted in each', async () => {
    // Before round 16 the object's values were read one by one: both chunks went on as they came.
    const model = turnsModel([
      { toolCalls: [{ toolCallId: 'c1', toolName: 'vault', input: {} }] },
      { text: 'Done.' },
    ]);
    await generateText({
      model,
      tools: guardTools(
        {
          vault: tool({
            inputSchema: z.object({}),
            execute: async () => ({ head: GITHUB.slice(0, 15), tail: GITHUB.slice(15), n: 1 }),
          }),
        },
        { output: [secrets({ action: 'redact' })] },
      ),
      prompt: 'Get it.',
      stopWhen: isStepCount(2),
    });
    expect(toolOutputsIn(model.doGenerateCalls[1]!.prompt)).toEqual([
      { type: 'json', value: { head: '[GITHUB_TOKEN]', n: 1, tail: '[GITHUB_TOKEN]' } },
    ]);
  });
});
