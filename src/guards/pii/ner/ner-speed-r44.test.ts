import { describe, expect, it } from 'vitest';
import { findPii } from '../find-pii-bundled';
import { bundledNerModel } from './bundled-ner-model';
import { NER_CHUNK, TaggedChunks, tagNamedEntities } from './find-named-entities';
import type { NerModel } from './ner-model';

/**
 * Round 44: `findPiiInNormalForm` reads a text with invisible breaks more
 * than once (read through, breaks as blanks), with one `TaggedChunks` memo,
 * so each later reading tags only the chunks a break changed. The second
 * reading of each (the text read again as redacted) kept no memo and was
 * tagged whole every time; it now keeps one of its own (`readAgain`), cut
 * where `chunkEnd` cuts as before, so its spans are those of a fresh reading.
 */

/** The bundled model with a count of the tokens it scores. */
function countingModel(): { model: () => NerModel; scored: () => number } {
  let scored = 0;
  let wrapped: NerModel | undefined;
  return {
    model: () => {
      if (wrapped === undefined) {
        const inner = bundledNerModel();
        wrapped = {
          gazetteers: inner.gazetteers,
          score: (buckets, count, scores) => {
            scored++;
            inner.score(buckets, count, scores);
          },
        };
      }
      return wrapped;
    },
    scored: () => scored,
  };
}

const people = ['Maria Lopez', 'Tom Baker', 'Ingrid Holm', 'Kwame Mensah', 'Aiko Tanaka'];
const places = ['Berlin', 'Lagos', 'Osaka', 'Lima', 'Oslo'];

/** Name-dense lines (a name and a place on each), `length` characters, each line its own. */
function prose(length: number): string {
  let text = '';
  for (let line = 0; text.length < length; line++)
    text += `On day ${line} ${people[line % 5]} wrote to the office in ${places[(line * 3) % 5]} about order ${line * 7}.\n`;
  return text;
}

describe('the second reading keeps its chunks across the readings of one call (round 44)', () => {
  const base = prose(3 * NER_CHUNK + 1000);
  // One character changed in the middle chunk, as a break read as a blank changes one.
  const middle = Math.floor(base.length / 2);
  const at = base.indexOf('office', middle);
  const changed = `${base.slice(0, at)}offic  ${base.slice(at + 'office '.length)}`;

  it('finds what a reading without the memo finds', () => {
    const memo = new TaggedChunks();
    const { model } = countingModel();
    const first = tagNamedEntities(model, base, undefined, undefined, memo);
    expect(first).toEqual(tagNamedEntities(model, base));
    expect(first.length).toBeGreaterThan(5000);
    expect(tagNamedEntities(model, changed, undefined, undefined, memo)).toEqual(
      tagNamedEntities(model, changed),
    );
    // Both readings of the same text again: nothing tagged.
    const tagged = memo.tagged;
    const again = memo.readAgain.tagged;
    expect(tagNamedEntities(model, base, undefined, undefined, memo)).toEqual(first);
    expect([memo.tagged, memo.readAgain.tagged]).toEqual([tagged, again]);
  });

  it('scores only the changed chunk of a text read again (old code: every chunk, twice)', () => {
    const memo = new TaggedChunks();
    const counting = countingModel();
    tagNamedEntities(counting.model, base, undefined, undefined, memo);
    const firstCall = counting.scored();
    const chunks = memo.tagged;
    expect(chunks).toBeGreaterThanOrEqual(4);
    tagNamedEntities(counting.model, changed, undefined, undefined, memo);
    const secondCall = counting.scored() - firstCall;
    // One chunk of four or more, read twice: well under half of a whole call.
    expect(secondCall).toBeGreaterThan(0);
    expect(secondCall).toBeLessThan(firstCall / 2);
    expect(memo.tagged).toBe(chunks + 1);
    expect(memo.readAgain.tagged).toBe(chunks + 1);
  });

  it('findPii with a break finds the names of the text without it, the break beside them', () => {
    const broken = `${base.slice(0, at)}\u200B${base.slice(at)}`;
    const plain = findPii(base, { entities: ['PERSON', 'LOCATION'] });
    const spans = findPii(broken, { entities: ['PERSON', 'LOCATION'] });
    expect(spans.length).toBe(plain.length);
    const shifted = plain.map(span =>
      span.start >= at ? { ...span, start: span.start + 1, end: span.end + 1 } : span,
    );
    expect(spans.map(({ type, start, end }) => ({ type, start, end }))).toEqual(
      shifted.map(({ type, start, end }) => ({ type, start, end })),
    );
  });
});
