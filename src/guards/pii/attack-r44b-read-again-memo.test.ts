import { describe, expect, it } from 'vitest';
import { findPii } from './find-pii-bundled';
import { findNamedEntities, NER_CHUNK, TaggedChunks } from './ner/find-named-entities';

/*
 * Round 44b, an attacker's read of round 44's second-reading memo (find-named-entities.ts,
 * `TaggedChunks.readAgain`): the spans of the chunks of each text read again as redacted are
 * kept by chunk text across the readings of one `findPii` call (read through, breaks as
 * blanks). Tried: chunks of the same text at other offsets (the memo gives chunk-relative
 * spans), placeholders the text writes itself in repeated chunks (masked to the same chunk text
 * as others), and a text read with a break after one without. Not reproducible: each reading
 * gives a fresh tagging's spans. These keep it so.
 */

const ENTITIES = ['PERSON', 'LOCATION', 'ORGANIZATION'] as const;

/** Lines repeated over three chunks, two with placeholders the user wrote. */
const LINES = [
  'Dear [PERSON], Maria Lopez met Sarah Connor in Paris.\n',
  'the weather is fine today and tomorrow.\n',
  'Hello <PERSON_1> and John Smith from Oslo.\n',
];

function repeated(length: number): string {
  let text = '';
  for (let row = 0; text.length < length; row++) text += LINES[row % LINES.length];
  return text;
}

describe('the second-reading memo on chunks of the same text', () => {
  const text = repeated(2 * NER_CHUNK + 4_000);

  it('a break far into the text changes no span (offsets past it move by one)', () => {
    const plain = findPii(text, { entities: [...ENTITIES] });
    // A zero-width space after a blank in the second chunk: the call reads the text three
    // ways with one memo.
    const at = text.indexOf(' ', NER_CHUNK + 500) + 1;
    const broken = `${text.slice(0, at)}\u200B${text.slice(at)}`;
    const spans = findPii(broken, { entities: [...ENTITIES] }).map(span => ({
      type: span.type,
      start: span.start > at ? span.start - 1 : span.start,
      end: span.end > at ? span.end - 1 : span.end,
    }));
    expect(spans).toEqual(plain);
    // Every line's two people, each at its own line's offsets.
    const persons = findPii(broken, { entities: ['PERSON'] });
    const names = new Set(persons.map(span => broken.slice(span.start, span.end)));
    expect([...names].sort()).toEqual(['John Smith', 'Maria Lopez', 'Sarah Connor']);
    // Rows 0, 3, 6, … hold two of them, rows 2, 5, 8, … one.
    const rows = text.split('\n').length - 1;
    expect(persons.length).toBe(2 * Math.ceil(rows / 3) + Math.floor(rows / 3));
  });

  it('a memo filled by another text gives a fresh tagging of this one', () => {
    const memo = new TaggedChunks();
    const other = `${LINES[1]!.repeat(40)}${text}`;
    findNamedEntities(other, undefined, undefined, memo);
    expect(findNamedEntities(text, undefined, undefined, memo)).toEqual(findNamedEntities(text));
    expect(memo.readAgain.tagged).toBeGreaterThan(0);
  });
});
