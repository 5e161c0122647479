import { generateText, isStepCount, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fileSent } from '../../test/helpers';
import { turnsModel } from '../../test/helpers/turns-model';
import { pii } from '../guards/pii/pii';
import { guardTools } from './guard-tool';
import { fewestTextCharacters } from './model-output-check';

/*
 * A text file's bytes are refused before they are decoded when even the
 * fewest characters they can decode to are past the limit. That bound was
 * UTF-8's (3 bytes a character), which other encodings a `charset` names
 * undercut: gb18030 writes a character in 4 bytes, ISO-2022-JP spends 6 on
 * two escape sequences for one U+FFFD. A gb18030 file of 750,003 characters
 * was refused as "longer than 1000000 characters".
 */

const EMAIL = 'jane.doe@corp.io';
/** `EMAIL`, a space, then `count` U+0080 characters, each 4 bytes in gb18030 (81 30 81 30). */
function gb18030File(count: number): Uint8Array {
  const head = new TextEncoder().encode(`${EMAIL} `);
  const bytes = new Uint8Array(head.length + count * 4);
  bytes.set(head);
  for (let i = head.length; i < bytes.length; i += 4) bytes.set([0x81, 0x30, 0x81, 0x30], i);
  return bytes;
}
const COUNT = 750_000; // 3,000,017 bytes: more than 3,000,003, the old bound's limit
const redacted = `[EMAIL_ADDRESS] ${'\u0080'.repeat(COUNT)}`;

describe('the fewest characters a text file decodes to, by its charset', () => {
  it('is a lower bound of what TextDecoder gives, in every encoding it reads', () => {
    // Pieces of the longest sequences each encoding has, and bytes between them.
    const pieces = [
      [0x81, 0x30, 0x81, 0x30],
      [0x90, 0x30, 0x81, 0x30],
      [0x1b, 0x28, 0x42],
      [0x1b, 0x24, 0x42],
      [0x30, 0x21],
      [0x41],
      [0x8f, 0xb0, 0xa1],
      [0xfe, 0x39],
      [0xef, 0xbb, 0xbf],
    ];
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (const charset of [
      'gb18030',
      'gbk',
      'iso-2022-jp',
      'euc-jp',
      'big5',
      'utf-16le',
      'utf-8',
    ]) {
      const decoder = new TextDecoder(charset);
      for (let round = 0; round < 3_000; round++) {
        // ISO-2022-JP mostly its escape sequences back to back, the others any piece.
        const pick = () =>
          charset === 'iso-2022-jp' && random() < 0.8
            ? pieces[2 + Math.floor(random() * 2)]!
            : pieces[Math.floor(random() * pieces.length)]!;
        const bytes = Array.from({ length: 1 + Math.floor(random() * 24) }, pick).flat();
        const length = decoder.decode(new Uint8Array(bytes)).length;
        expect(
          fewestTextCharacters(bytes.length, `text/plain; charset=${charset}`),
        ).toBeLessThanOrEqual(length);
      }
    }
    // The worst cases themselves: 4-byte gb18030 characters, escape sequences back to back.
    expect(fewestTextCharacters(4_000, 'text/plain; charset=gb18030')).toBe(1_000);
    expect(
      new TextDecoder('iso-2022-jp').decode(
        new Uint8Array(6_000).fill(0).map((_, i) => [0x1b, 0x28, 0x42][i % 3]!),
      ).length,
    ).toBe(1_000);
    expect(fewestTextCharacters(6_000, 'text/plain; charset=iso-2022-jp')).toBe(1_000);
    expect(fewestTextCharacters(3_003, 'text/plain')).toBe(1_000);
  });

  it('a gb18030 file of 750,000 characters in 3 MB is judged in the prompt, not refused as too long', async () => {
    const sent = await fileSent(
      pii({ action: 'redact' }),
      'text/plain; charset=gb18030',
      gb18030File(COUNT),
    );
    expect(sent).toMatchObject({ mediaType: 'text/plain; charset=utf-8', text: redacted });
  });

  it("and in a guarded tool's model output", async () => {
    const report = tool({
      inputSchema: z.object({}),
      execute: async () => 'ok',
      toModelOutput: () => ({
        type: 'content',
        value: [
          {
            type: 'file',
            mediaType: 'text/plain; charset=gb18030',
            data: { type: 'data', data: gb18030File(COUNT) },
          },
        ],
      }),
    });
    const model = turnsModel([
      { toolCalls: [{ toolCallId: 'c1', toolName: 'report', input: {} }] },
    ]);
    await generateText({
      model,
      tools: guardTools({ report }, { output: [pii({ action: 'redact' })] }),
      prompt: 'Report',
      stopWhen: isStepCount(2),
    });
    const toolMessage = model.doGenerateCalls[1]!.prompt.find(m => m.role === 'tool')!;
    const [file] = (
      toolMessage.content[0] as {
        output: { value: Array<{ mediaType: string; data: { data: Uint8Array } }> };
      }
    ).output.value;
    expect(file!.mediaType).toBe('text/plain; charset=utf-8');
    expect(new TextDecoder().decode(file!.data.data)).toBe(redacted);
  });
});
