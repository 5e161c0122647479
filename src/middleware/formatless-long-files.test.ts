import { describe, expect, it } from 'vitest';
import { pseudoRandomBytes } from '../../test/helpers/binary-heads';
import { streamedFileOutcome, userFileOutcome } from '../../test/helpers/tool-file';

/**
 * Round 25. A file of no known binary format is judged on its readable runs
 * (round 24); past ~9 MB of random bytes those runs are over 1,000,000
 * characters, and the file failed closed saying `a text file is longer than
 * 1000000 characters`: it is no text file. The reason now says what it is.
 */
const BIG = pseudoRandomBytes(9_500_000);
const WHY =
  'a file of type application/x-data, binary with no known format, has readable text longer than 1000000 characters';

describe('a formatless binary file whose readable text is over the limit', () => {
  it("a user's file: input-unreadable, the reason names a binary file", async () => {
    expect(await userFileOutcome(BIG, 'application/x-data')).toEqual({
      calls: 0,
      records: [
        {
          guardrail: 'input-unreadable',
          kind: 'input',
          status: 'error',
          reason: `message 0 (user) was not judged: ${WHY}`,
          part: 'file',
        },
      ],
    });
  }, 60_000);

  it('a generated file (streamText): withheld, the reason names a binary file', async () => {
    expect(await streamedFileOutcome(BIG, 'application/x-data')).toEqual({
      files: [],
      records: [
        {
          guardrail: 'output-unreadable',
          kind: 'output',
          status: 'error',
          reason: `file 0 of the response was withheld unjudged: ${WHY}`,
          part: 'file',
        },
      ],
    });
  }, 60_000);
});
