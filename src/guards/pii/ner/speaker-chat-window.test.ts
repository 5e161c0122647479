import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../bench/fixtures';
import { windowAndGenerateTexts } from '../../../../test/helpers';
import { pii } from '../pii';

/*
 * Round 47 (hH, issues 16 and 17): `pii` with names on streams transcripts and chat lines in
 * window mode as `generateText` redacts them, for any chunking. A seeded property test:
 * transcripts (listed speakers, unlisted ones, labels such as `IPs:`), chat lines (`omg mateus
 * just called`, `hey priya`, `me and bjorn went`) and capitals, with fillers of every length
 * about the rules' reaches (64 and 96 characters), each streamed in deltas of 1 to 50
 * characters or whole.
 */

const speakers = ['Nicole', 'John', 'Maria', 'Ubul', 'Zork', 'Qwil', 'IPs', 'Note', 'Al'];
const sayings = ['hi', 'yo', 'what a day', 'ok see you at noon', 'fine thanks', 'no idea'];
const chats = [
  'omg mateus just called',
  'did olusegun get the keys',
  'hey priya',
  'thx mateo!!',
  'me and bjorn went fishing',
  'bjorn and i are going',
  'tell ingvild i will be late',
  'Zed said hi',
  'lol ok',
];
const words = ['the', 'a', 'of', 'Paris', 'data', 'we', 'Sam', 'ran', 'xx'];

function filler(next: () => number): string {
  const length = Math.floor(next() * 140);
  let text = '';
  while (text.length < length) text += `${words[Math.floor(next() * words.length)]} `;
  return text.slice(0, length);
}

function sample(next: () => number): string {
  const lines: string[] = [];
  const count = 2 + Math.floor(next() * 5);
  for (let line = 0; line < count; line++) {
    const pick = next();
    if (pick < 0.5) {
      const speaker = speakers[Math.floor(next() * speakers.length)];
      lines.push(`${speaker}: ${sayings[Math.floor(next() * sayings.length)]}`);
    } else if (pick < 0.8) {
      const chat = chats[Math.floor(next() * chats.length)]!;
      lines.push(next() < 0.5 ? chat : `${chat} ${filler(next)}`);
    } else lines.push(filler(next));
  }
  return `${lines.join('\n')}\n`;
}

describe('transcripts and chat lines: window mode equals generate', () => {
  it('for 520 seeded texts, each in deltas of 1 to 50 characters or whole', async () => {
    const next = seededRandom(47);
    const differing: Array<{ text: string; size: number }> = [];
    for (let run = 0; run < 520; run++) {
      const text = sample(next);
      const size = run % 10 === 9 ? text.length : 1 + Math.floor(next() * 50);
      const guard = pii({ entities: ['PERSON'], action: 'redact' });
      const { generated, streamed } = await windowAndGenerateTexts(guard, text, [[size]]);
      if (streamed[0] !== generated) differing.push({ text, size });
    }
    expect(differing).toEqual([]);
  }, 120_000);
});
