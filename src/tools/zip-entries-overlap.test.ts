import { describe, expect, it } from 'vitest';
import { realZip } from '../../test/helpers/binary-files';
import { toolFileSent, userFileOutcome } from '../../test/helpers/tool-file';

/**
 * Round 26. A zip's central directory names where each entry's data is;
 * nothing kept two records from naming the same stored entry, so a
 * directory of 65,535 records naming one 5 MB entry had it read 65,535
 * times (300 GB of text from a 8 MB file). Entries that overlap are no zip
 * a writer makes: such a file fails closed, before any entry is read.
 */
const u16 = (bytes: Uint8Array, at: number) => bytes[at]! | (bytes[at + 1]! << 8);

/** `zip` with its central directory written `times` times (each record naming the same entries). */
function repeatedDirectory(zip: Uint8Array, times: number): Uint8Array {
  const end = zip.length - 22;
  const count = u16(zip, end + 10);
  const start = u16(zip, end + 16) + u16(zip, end + 18) * 0x10000;
  const directory = zip.subarray(start, end);
  const out = new Uint8Array(start + directory.length * times + 22);
  out.set(zip.subarray(0, start));
  for (let k = 0; k < times; k++) out.set(directory, start + k * directory.length);
  const record = zip.slice(end);
  const view = new DataView(record.buffer);
  view.setUint16(8, count * times, true);
  view.setUint16(10, count * times, true);
  view.setUint32(12, directory.length * times, true);
  out.set(record, start + directory.length * times);
  return out;
}

const notes = new TextEncoder().encode('Meeting notes: the figures are as agreed.\n'.repeat(100));
const zip = realZip([{ name: 'notes.txt', data: notes, stored: true }]);

describe('a zip whose directory names one entry many times', () => {
  it("a user's file: fails closed before any entry is read (generateText)", async () => {
    expect(await userFileOutcome(repeatedDirectory(zip, 3), 'application/zip')).toEqual({
      calls: 0,
      records: [
        {
          guardrail: 'input-unreadable',
          kind: 'input',
          status: 'error',
          reason:
            'message 0 (user) was not judged: a zip file whose text could not be read: a zip whose entries overlap',
          part: 'file',
        },
      ],
    });
  });

  it('the same zip with its directory once goes on (guardTools)', async () => {
    expect(await toolFileSent(zip, 'application/zip')).toEqual({
      mediaType: 'application/zip',
      data: zip,
    });
  });
});
