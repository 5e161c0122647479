import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { bundledNerModel } from './bundled-ner-model';
import { scanText, tokenBounds, WordTable } from './features';

// V8's own test of two objects' hidden classes, read through natives syntax (allowed from here
// on: a function compiled after the flag is set may use it).
setFlagsFromString('--allow-natives-syntax');
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (
  a: object,
  b: object,
) => boolean;

/**
 * Round 51 (hF, issue 17, speed; docs/pii-ner-model.md): `scanText` built
 * its result as `{ ...bounds, word, flags, placeSpan, words }`, and V8 gave
 * every object so made a hidden class of its own, so each span rule reading
 * a `Scanned` met a new class per chunk (megamorphic property loads, its
 * optimised code thrown away again and again: most of the gap between the
 * bench's median and best). These pin what the cut must keep: one class
 * for every scanned text, whatever its length or table, and the same
 * fields, each the one it was.
 */
describe('ner speed, round 51 (hF)', () => {
  const gazetteers = bundledNerModel().gazetteers;

  it('gives every scanned text one hidden class', () => {
    const table = new WordTable(gazetteers);
    // Many texts: V8 shared a class among the first few objects the spread made, not later.
    const texts = ['Grace Okafor', 'Nicole: hi\nAnna: hey', '', 'x'.repeat(70_000)];
    for (let index = 0; index < 40; index++) texts.push(`Ada Lovelace ${index} in Paris`);
    const scanned = texts.map(text => scanText(text, gazetteers, table));
    scanned.push(scanText('Dr Ada Lovelace lives at 12 Main Street, Dublin.', gazetteers));
    for (const other of scanned.slice(1)) expect(haveSameMap(scanned[0]!, other)).toBe(true);
  });

  it('keeps every field of the tokens and the words', () => {
    const text = 'Ada Lovelace\nlives at 12 Main Street, New Zealand.';
    const table = new WordTable(gazetteers);
    const scanned = scanText(text, gazetteers, table);
    const bounds = tokenBounds(text);
    expect(Object.keys(scanned)).toEqual([
      'count',
      'start',
      'end',
      'newline',
      'word',
      'flags',
      'placeSpan',
      'words',
    ]);
    expect(scanned.count).toBe(11);
    expect(scanned.count).toBe(bounds.count);
    expect([...scanned.start.subarray(0, scanned.count)]).toEqual([
      ...bounds.start.subarray(0, bounds.count),
    ]);
    expect([...scanned.end.subarray(0, scanned.count)]).toEqual([
      ...bounds.end.subarray(0, bounds.count),
    ]);
    expect([...scanned.newline.subarray(0, scanned.count)]).toEqual([
      0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0,
    ]);
    expect(scanned.words).toBe(table);
    expect([...scanned.word]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect([...scanned.placeSpan]).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 3, 7, 0]);
  });

  it('keeps no text alive in the shared word table', () => {
    // Round 51: a new word of 13 or more units was kept as a slice, which V8 makes a view of
    // the whole text: the table (shared, outliving the call) kept each such text, 1 MB here.
    scanText('Grace Okafor', gazetteers);
    collect();
    const before = process.memoryUsage().heapUsed;
    for (let text = 0; text < 8; text++) {
      const scanned = scanText(
        `Ask about Interoperability${text}x today. ${'the cat sat on the mat. '.repeat(42_000)}`,
        gazetteers,
      );
      expect(scanned.words.texts[scanned.word[2]!]).toBe(`Interoperability${text}x`);
    }
    collect();
    collect();
    // 8 MB of text scanned; the table's new words take a few hundred bytes.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(3_000_000);
  }, 60_000);
});
