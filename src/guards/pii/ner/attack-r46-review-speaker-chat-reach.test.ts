import { describe, expect, it } from 'vitest';
import { windowAndGenerateTexts } from '../../../../test/helpers';
import { findPii } from '../find-pii-bundled';
import { pii } from '../pii';
import { CHAT_AHEAD } from './chat-names';

/*
 * Round 46 review (hJ): round 46 gave the transcript rule (`speakerNames`,
 * tagger.ts) a reach of 1024 tokens either side and the chat rule
 * (`chatLines`, chat-names.ts) one of 128 tokens either side, far wider than
 * what window mode reads around a name (it holds 128 characters after it and
 * keeps about as many released ones before), so a word whose reading turned on
 * a speaker or a capital hundreds of characters away was read one way by
 * `generateText` and the other by every stream (`Ubul` hidden by generate and
 * shown by the streams; `mateus` the other way). These were it.fails.
 *
 * Round 47 (hH): the rules read what a stream can know. A transcript is two
 * known speakers, ahead within `SPEAKER_AHEAD` = 64 characters (read raw, in
 * the window's hold) or behind within `SPEAKER_BEHIND` = 96 characters made a
 * PERSON (counted as a stream's released context holds them: each entity as a
 * placeholder's 8 characters); a chat line has no capital within
 * `CHAT_AHEAD` = 64 characters ahead and no capital, entity or placeholder
 * ending within `CHAT_BEHIND` = 64 characters behind on its line. Generate
 * now agrees with the streams: the far speakers and the far capital decide
 * nothing.
 */

const persons = (text: string) =>
  findPii(text, { entities: ['PERSON'] }).map(span => text.slice(span.start, span.end));

const streams = async (text: string, chunkings = [[1], [7], [30]]) =>
  windowAndGenerateTexts(pii({ entities: ['PERSON'], action: 'redact' }), text, chunkings);

// 400 characters of lower-case words between the lines.
const FILLER = 'the '.repeat(100);

describe('a transcript decided by speakers out of the window', () => {
  const before = `Ubul: what a day\n${FILLER}\nNicole: hi\nJohn: yo\n`;
  const after = `Nicole: hi\nJohn: yo\n${FILLER}\nUbul: what a day\n`;

  it('generate reads `Ubul` as no speaker when the known ones are 400 characters away', () => {
    expect(persons(before)).toEqual(['Nicole', 'John']);
    expect(persons(after)).toEqual(['Nicole', 'John']);
  });

  it('known speakers after it: every stream releases `Ubul` as generate does', async () => {
    const { generated, streamed } = await streams(before);
    const redacted = `Ubul: what a day\n${FILLER}\n[PERSON]: hi\n[PERSON]: yo\n`;
    expect(generated).toBe(redacted);
    expect(streamed).toEqual([redacted, redacted, redacted]);
  });

  it('known speakers before it: every stream releases `Ubul` as generate does', async () => {
    const { generated, streamed } = await streams(after);
    const redacted = `[PERSON]: hi\n[PERSON]: yo\n${FILLER}\nUbul: what a day\n`;
    expect(generated).toBe(redacted);
    expect(streamed).toEqual([redacted, redacted, redacted]);
  });

  it('known speakers on the lines next to it: generate and every stream hide `Ubul`', async () => {
    const text = 'Nicole: hi\nJohn: yo\nUbul: what a day\nNicole: ok\n';
    const { generated, streamed } = await streams(text, [[1], [7], [30], [text.length]]);
    const redacted = '[PERSON]: hi\n[PERSON]: yo\n[PERSON]: what a day\n[PERSON]: ok\n';
    expect(generated).toBe(redacted);
    expect(streamed).toEqual([redacted, redacted, redacted, redacted]);
  });

  it('`Ubul` first, the known speakers right after it: hidden by generate and every stream', async () => {
    const text = 'Ubul: what a day\nNicole: hi\nJohn: yo\n';
    const { generated, streamed } = await streams(text);
    const redacted = '[PERSON]: what a day\n[PERSON]: hi\n[PERSON]: yo\n';
    expect(generated).toBe(redacted);
    expect(streamed).toEqual([redacted, redacted, redacted]);
  });
});

describe('a chat line decided by a capital out of the window', () => {
  // `Zed` is about 500 characters after `mateus`.
  const text = `omg mateus just called${' the'.repeat(125)} Zed`;

  it('generate: a chat line, `mateus` is a name (the capital is past CHAT_AHEAD)', () => {
    expect(persons(text)).toEqual(['mateus']);
  });

  it('every stream hides `mateus` as generate does', async () => {
    const { generated, streamed } = await streams(text);
    const redacted = text.replace('mateus', '[PERSON]');
    expect(generated).toBe(redacted);
    expect(streamed).toEqual([redacted, redacted, redacted]);
  });

  it('a capital within CHAT_AHEAD characters: no chat line, generate and streams release it', async () => {
    const near = `omg mateus just called the ${'x'.repeat(CHAT_AHEAD - 36)} Zed`;
    const { generated, streamed } = await streams(near);
    expect(persons(near)).toEqual([]);
    expect(generated).toBe(near);
    expect(streamed).toEqual([near, near, near]);
  });
});
