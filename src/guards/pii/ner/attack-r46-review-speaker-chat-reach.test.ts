import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../../test/helpers';
import { findPii } from '../find-pii-bundled';
import { pii } from '../pii';
import { CHAT_REACH } from './chat-names';

/*
 * Round 46 review (hJ): round 46 gave the transcript rule (`speakerNames`,
 * tagger.ts) a reach of SPEAKER_REACH = 1024 tokens either side and the chat
 * rule (`chatLines`, chat-names.ts) one of CHAT_REACH = 128 tokens either
 * side (before: a whole chunk, a whole line). Both reaches are still far
 * wider than what window mode reads around a name (it holds about 127
 * characters after it and keeps a bounded left context), so a word whose
 * reading turns on a speaker or a capital hundreds of characters away is
 * read one way by `generateText` and the other by every stream. The cases
 * below fail at 70dab4f0 (main with r46-hD); the transcript ones fail at
 * c5bdb166 too (no regression of round 46, but its bounds did not close
 * them; there `generateText` read `omg [PERSON] just called [PERSON]` in
 * the chat case). A fix bounds
 * the reach forward to the window's hold and back to its context (a change
 * of detection, to be measured): left as it.fails.
 */

const persons = (text: string) =>
  findPii(text, { entities: ['PERSON'] }).map(span => text.slice(span.start, span.end));

const streams = async (text: string) =>
  windowAndGenerateTexts(pii({ entities: ['PERSON'], action: 'redact' }), text, [[1], [7], [30]]);

// 400 characters of lower-case words between the lines.
const FILLER = 'the '.repeat(100);

describe('a transcript decided by speakers out of the window', () => {
  const before = `Ubul: what a day\n${FILLER}\nNicole: hi\nJohn: yo\n`;
  const after = `Nicole: hi\nJohn: yo\n${FILLER}\nUbul: what a day\n`;

  it('generate reads `Ubul` as a speaker of the transcript either way', () => {
    expect(persons(before)).toEqual(['Ubul', 'Nicole', 'John']);
    expect(persons(after)).toEqual(['Nicole', 'John', 'Ubul']);
  });

  // Leak: generate hides `Ubul`, which every stream releases (known speakers come later).
  it.fails('known speakers after it: the stream hides `Ubul` as generate does', async () => {
    const { generated, streamed } = await streams(before);
    const redacted = `[PERSON]: what a day\n${FILLER}\n[PERSON]: hi\n[PERSON]: yo\n`;
    expect(generated).toBe(redacted);
    expect(streamed).toEqual([redacted, redacted, redacted]);
  });

  // Leak: the known speakers left the window's context before `Ubul:` came.
  it.fails('known speakers before it: the stream hides `Ubul` as generate does', async () => {
    const { generated, streamed } = await streams(after);
    const redacted = `[PERSON]: hi\n[PERSON]: yo\n${FILLER}\n[PERSON]: what a day\n`;
    expect(generated).toBe(redacted);
    expect(streamed).toEqual([redacted, redacted, redacted]);
  });
});

describe('a chat line decided by a capital out of the window', () => {
  // `Zed` is CHAT_REACH tokens after `mateus`, about 500 characters on.
  const text = `omg mateus just called${' the'.repeat(CHAT_REACH - 3)} Zed`;

  it('generate: no chat line, `mateus` is no name', () => {
    expect(persons(text)).toEqual([]);
  });

  // Not a leak (the stream hides more), but stream != generate.
  it.fails('the stream releases `mateus` as generate does', async () => {
    const { generated, streamed } = await streams(text);
    expect(generated).toBe(text);
    expect(streamed).toEqual([text, text, text]);
  });
});
