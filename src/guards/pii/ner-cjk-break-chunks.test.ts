import { afterEach, describe, expect, it, vi } from 'vitest';
import { findPii } from './find-pii-bundled';
import { NER_CHUNK, TaggedChunks } from './ner/find-named-entities';

/**
 * Round 35. With the name tagger's types, a text holding an invisible break
 * is read again with the break as a blank, and round 34 tags again only the
 * chunks whose text changed. The chunks of CJK text, which has no blanks,
 * were cut at a fixed size from the last cut, so the break (dropped by the
 * first reading, a blank in the second) moved every cut after it by one and
 * the whole text after it was tagged again: 1 MB of CJK with one break at
 * 30,000 had 1,000,000 characters tagged twice. Now such chunks are cut at
 * a sentence's end (`。！？`), else at a point their content picks, and a
 * blank or line break alone in the quarter where a cut is looked for (the
 * break's) is none, so the cuts after the break are where they were.
 * Counted, not timed.
 */

/** `length` characters of CJK ideographs (seeded), with `。` after about one in 37 when `sentences`. */
function cjk(length: number, sentences: boolean): string {
  let seed = 12_345;
  let text = '';
  while (text.length < length) {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    text += String.fromCharCode(0x4e00 + ((seed >>> 8) % 0x5000));
    if (sentences && seed % 37 === 0) text += '。';
  }
  return text.slice(0, length);
}

/** How many characters the tagger tags while `run` runs (chunks a memo already held not counted). */
function taggedDuring(run: () => void): number {
  const original = TaggedChunks.prototype.spansOf;
  let tagged = 0;
  vi.spyOn(TaggedChunks.prototype, 'spansOf').mockImplementation(function (
    this: TaggedChunks,
    chunk,
    tag,
  ) {
    return original.call(this, chunk, piece => {
      tagged += piece.length;
      return tag(piece);
    });
  });
  run();
  return tagged;
}

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * How many characters `findPii` (PERSON, LOCATION) tags beyond one reading of 1 MB of CJK text
 * (`kind`) with an invisible break at each of `breaks`, beside digits when `kind` says so. It finds
 * no span there.
 */
function taggedAgain(kind: string, breaks: readonly number[]): number {
  const base = cjk(1_000_000, kind === 'sentences');
  const inserted = kind.endsWith('digits') ? '12\u200B34' : '\u200B';
  let text = '';
  let from = 0;
  for (const at of breaks) {
    text += `${base.slice(from, at)}${inserted}`;
    from = at;
  }
  text += base.slice(from);
  let spans: unknown;
  const tagged = taggedDuring(() => {
    spans = findPii(text, { entities: ['PERSON', 'LOCATION'] });
  });
  expect(spans).toEqual([]);
  // The first reading tags the text once, less the breaks.
  return tagged - (text.length - breaks.length);
}

describe('1 MB of CJK text with one invisible break, read with the name tagger', () => {
  // 60,000 is in the first chunk's last quarter, where its cut is looked for.
  it.each([
    ['sentences', 30_000],
    ['sentences', 60_000],
    ['no punctuation', 60_000],
    ['no punctuation', 500_000],
    // Read again with the break as a line break.
    ['no punctuation, the break between digits', 60_000],
  ])('(%s, at %i) tags again at most two chunks', (kind, at) => {
    // The other readings tag only around the break (before: 1,000,000 characters again,
    // 541,000 for the break at 500,000).
    const again = taggedAgain(kind, [at]);
    expect(again).toBeGreaterThan(0);
    expect(again).toBeLessThanOrEqual(2 * NER_CHUNK);
  });
});

describe('1 MB of CJK text with two invisible breaks in one quarter chunk, read with the name tagger', () => {
  // Round 36 (the bug of round 35's note): two breaks are two blanks (or line breaks) in the
  // second reading, and a quarter holding two took its cut at the last of them, where the
  // first reading (no blank there) had cut after a content point: every later cut moved, and
  // the rest of the text was tagged again (1,000,002 characters; 934,520 in the second chunk).
  it.each([
    ['no punctuation', 55_000, 60_000],
    ['no punctuation', 52_000, 64_000],
    // In the second chunk's quarter (the first is cut within 64 units of 64 Ki).
    ['no punctuation', 120_000, 125_000],
    ['no punctuation', 58_000, 58_010],
    // Read again with the breaks as line breaks.
    ['no punctuation, the breaks between digits', 55_000, 60_000],
  ])('(%s, at %i and %i) tags again at most two chunks', (kind, first, second) => {
    const again = taggedAgain(kind, [first, second]);
    expect(again).toBeGreaterThan(0);
    expect(again).toBeLessThanOrEqual(2 * NER_CHUNK);
  });
});
