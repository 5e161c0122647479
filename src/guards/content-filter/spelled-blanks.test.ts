import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../bench/fixtures';
import { guardContext } from '../../../test/helpers';
import { bareCallGuard } from '../../../test/helpers/window';
import type { Verdict } from '../../core/types';
import { HELD, type ProcessorStep, type StreamPart } from '../../middleware/stream-processor';
import { windowProcessor } from '../../middleware/window-processor';
import { type ContentFilterOptions, contentFilter } from './content-filter';
import { spelledAcrossMarks, withMarksAsSpaces } from './spelled-blanks';

// Round 45 (issue 16): tabs and line breaks between spelled-out letters, or
// as a run's word break, read as the spaces they stand for, in the check
// and in window mode alike.

const ctx = guardContext('output');
const options: ContentFilterOptions = {
  blocklist: ['kill yourself', 'shit', 'make a bomb', 'kill you'],
  categories: [],
};
const actionOf = (text: string) => (contentFilter(options).check(text, ctx) as Verdict).action;

describe('withMarksAsSpaces', () => {
  it('writes each tab and line break as one space, and keeps a text with none', () => {
    expect(withMarksAsSpaces('a\tb\nc\r\nd\u2028e\u000bf')).toBe('a b c  d e f');
    const text = 'no marks\u00a0here';
    expect(withMarksAsSpaces(text)).toBe(text);
  });
});

describe('spelledAcrossMarks', () => {
  it.each([
    ['letters one tab apart', 'ok k\ti\tl\tl now', true],
    ['a word break of two line breaks', 'k i l l\n\ny o u', true],
    ['a mark between the last two of four units', 'x a.b c\nd', true],
    ['a mark at the text start', '\tk i l l', false],
    ['prose with line breaks', 'I have a\ncat and\na dog\n', false],
    // Round 45: on `x = y\nz = 1` (code) the second reading doubled the cost of 2.8% of benign texts.
    ['code: no units the fold spells out', 'x = y\nz = 1\n| 2 | 6 |', false],
    ['three letters', 'a\tb\tc', false],
    ['four blanks (no run)', 'a b c\n\n\n\nd', false],
    ['no mark', 'k i l l', false],
  ])('%s: %s', (_, text, expected) => {
    expect(spelledAcrossMarks(text as string)).toBe(expected);
  });
});

describe('contentFilter with tabs and line breaks in a spelled-out entry', () => {
  it.each([
    ['one tab apart', 'ok so k\ti\tl\tl   y\to\tu\tr\ts\te\tl\tf now', 'block'],
    ['one line break apart', 'k\ni\nl\nl\n\ny\no\nu\nr\ns\ne\nl\nf', 'block'],
    ['CR LF as a word break', 'k i l l\r\ny o u r s e l f', 'block'],
    ['a tab, a space, a tab as a word break', 'm a k e\t \ta\t \tb o m b', 'block'],
    ['one form feed apart, inside a run', 'x\fs\fh\fi\ft', 'block'],
    ['a line separator apart', 's\u2028h\u2028i\u2028t', 'block'],
    ['four line breaks (no word break)', 'k i l l\n\n\n\ny o u', 'allow'],
    ['four spaces (the same)', 'k i l l    y o u', 'allow'],
    ['a one-word entry across a tab word break', 't h i s\t\th i t', 'allow'],
    ['prose on lines', 'we will\nkill\nthe process\nyourself', 'allow'],
  ])('%s: %s', (_, text, action) => {
    expect(actionOf(text)).toBe(action);
  });
});

/** Every text part the window processor releases for `deltas`, and whether it tripped. */
async function streamed(deltas: readonly string[]) {
  const processor = windowProcessor(bareCallGuard(), [contentFilter(options)], 2048, () => true);
  const parts: string[] = [];
  let tripped = false;
  const take = async (step: ProcessorStep | Promise<ProcessorStep>) => {
    if (step === HELD) return;
    const { parts: out, trip } = await step;
    for (const part of out) if (part.type === 'text-delta') parts.push(part.delta);
    if (trip) tripped = true;
  };
  await take(processor.push({ type: 'text-start', id: 't' }));
  for (const delta of deltas) {
    if (tripped) break;
    await take(processor.push({ type: 'text-delta', id: 't', delta }));
  }
  if (!tripped) await take(processor.push({ type: 'text-end', id: 't' } as StreamPart));
  return { text: parts.join(''), tripped };
}

const pick = <T>(next: () => number, items: readonly T[]): T =>
  items[Math.floor(next() * items.length)]!;

/** Single blanks between letters: a space, the compatibility blanks, tabs and line breaks. */
const SINGLE = [' ', ' ', '\t', '\n', '\r', '\f', '\u000b', '\u00a0', '\u3000', '\u2028'];
/** Entries spelled out, and texts around them. */
const ENTRIES = ['kill yourself', 'shit', 'make a bomb', 'kill you'];
const BEFORE = ['', 'ok so ', 'ok so\n', 'q x b a ', 'just\t', 'u ', 'a\tb\t'];
const AFTER = ['', ' now', '\tnow', '\n\nthen more', ' x y', 'n'];

/**
 * `entry` spelled out: each gap between letters one random blank (or, half
 * the time, a space), each word break two or three random blanks.
 */
function spelledRandomly(next: () => number, entry: string): string {
  const gaps = next() < 0.5 ? [' '] : SINGLE;
  return entry
    .split(' ')
    .map(word =>
      [...word].map((letter, index) => (index ? pick(next, gaps) : '') + letter).join(''),
    )
    .join(Array.from({ length: 2 + Math.floor(next() * 2) }, () => pick(next, SINGLE)).join(''));
}

/** `text` cut into deltas of 1 to `most` characters. */
function randomCut(next: () => number, text: string, most: number): string[] {
  const deltas: string[] = [];
  for (let at = 0; at < text.length; ) {
    const size = 1 + Math.floor(next() * most);
    deltas.push(text.slice(at, at + size));
    at += size;
  }
  return deltas;
}

describe('window mode reads those blanks as the check does (property)', () => {
  it('random spelled entries, random blanks, random chunkings: stream == generate, nothing of a blocked entry released', async () => {
    const next = seededRandom(45);
    let blocked = 0;
    for (let round = 0; round < 300; round++) {
      const before = pick(next, BEFORE);
      const text = before + spelledRandomly(next, pick(next, ENTRIES)) + pick(next, AFTER);
      const generateBlocks = actionOf(text) === 'block';
      if (generateBlocks) blocked++;
      for (const deltas of [randomCut(next, text, 1), randomCut(next, text, 5), [text]]) {
        const { text: released, tripped } = await streamed(deltas);
        expect({ text, tripped }).toEqual({ text, tripped: generateBlocks });
        if (generateBlocks) expect(before.startsWith(released), JSON.stringify(text)).toBe(true);
        else expect(released).toBe(text);
      }
    }
    // Most of them are blocked (259; at f45bd334 77, and three streams of
    // those released the entry with a word break of two tabs or line breaks).
    expect(blocked).toBeGreaterThan(200);
  });
});
