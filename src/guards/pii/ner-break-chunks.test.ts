import { describe, expect, it } from 'vitest';
import { findPii } from './find-pii-bundled';
import { findNamedEntities, NER_CHUNK, TaggedChunks } from './ner/find-named-entities';

/**
 * Round 34 (issue 17). With the name tagger's types, a text holding an
 * invisible break is read again with the break as a blank, and that reading
 * used to tag the whole text again (twice when a break sits beside a digit):
 * 3.9 MB of dev text took 2.1 s of CPU where the tagger alone takes 0.6 s.
 * Now the readings of one `findPii` call share the chunks they tagged
 * (`TaggedChunks`), so only the chunks whose text a break changed are
 * tagged again; the spans are the same.
 */
const FILLER = 'the weather is fine today and nothing much happens here.\n'.repeat(3_000);

describe('a name split by an invisible break far into a long text', () => {
  it('is found by the reading with the break as a blank, at its offsets in the whole text', () => {
    // 174,000 characters before it: the name is in the tagger's third chunk.
    const text = `${FILLER}Please send it to John\u200BSmith at the office.\n${FILLER}`;
    const at = FILLER.length + 'Please send it to '.length;
    expect(findPii(text, { entities: ['PERSON', 'STREET_ADDRESS', 'LOCATION'] })).toEqual([
      { type: 'PERSON', start: at, end: at + 'John\u200BSmith'.length },
    ]);
    // Without the break the words are one, no name (what the first reading sees).
    expect(
      findPii(text.replace('\u200B', ''), { entities: ['PERSON', 'STREET_ADDRESS', 'LOCATION'] }),
    ).toEqual([]);
  });

  it('a break inside a name keeps the name whole, with the pattern types beside it', () => {
    const line = 'Yesterday Jo\u200Bhn Smith called from +1 415 555 0132 about the lease.';
    const text = `${FILLER}${line}\n${FILLER}`;
    const at = FILLER.length;
    expect(findPii(text, { entities: 'all' })).toEqual([
      { type: 'PERSON', start: at + 10, end: at + 21 },
      { type: 'PHONE_NUMBER', start: at + 34, end: at + 49 },
    ]);
  });
});

describe('TaggedChunks', () => {
  it('a text read again tags only the chunks whose text changed, with the same spans', () => {
    // Numbered lines: no two chunks hold the same text (those would be tagged once).
    const lines = (from: number) =>
      Array.from(
        { length: 3_000 },
        (_, row) => `row ${from + row} of the log: nothing happens.\n`,
      ).join('');
    const before = lines(0);
    const base = `${before}Anna Berg met Ole Hansen in Oslo.\n${lines(3_000)}`;
    const changed = base.replace('Anna Berg', 'Anna Borg');
    expect(base.length).toBeGreaterThan(3 * NER_CHUNK);
    const memo = new TaggedChunks();
    expect(findNamedEntities(base, undefined, undefined, memo)).toEqual(findNamedEntities(base));
    const chunks = memo.tagged;
    expect(chunks).toBe(4);
    // The same text again: nothing tagged.
    expect(findNamedEntities(base, undefined, undefined, memo)).toEqual(findNamedEntities(base));
    expect(memo.tagged).toBe(chunks);
    // One chunk's text changed: that chunk alone is tagged, and the spans are a fresh tagging's.
    const spans = findNamedEntities(changed, undefined, undefined, memo);
    expect(memo.tagged).toBe(chunks + 1);
    expect(spans).toEqual(findNamedEntities(changed));
    const at = before.length;
    // (The tagger's reading of the sentence, whatever it is, is a fresh tagging's: `toEqual` above.)
    expect(spans).toEqual([
      { type: 'PERSON', start: at, end: at + 9 },
      { type: 'ORGANIZATION', start: at + 14, end: at + 24 },
      { type: 'LOCATION', start: at + 28, end: at + 32 },
    ]);
  });

  it('chunks of the same length and different text are told apart', () => {
    const memo = new TaggedChunks();
    const one = memo.spansOf('Anna Berg', () => [{ type: 'PERSON', start: 0, end: 9 }]);
    const other = memo.spansOf('Anna Borg', () => [{ type: 'PERSON', start: 0, end: 4 }]);
    expect(one).toEqual([{ type: 'PERSON', start: 0, end: 9 }]);
    expect(other).toEqual([{ type: 'PERSON', start: 0, end: 4 }]);
    expect(memo.spansOf('Anna Berg', () => [])).toBe(one);
    expect(memo.tagged).toBe(2);
  });
});
