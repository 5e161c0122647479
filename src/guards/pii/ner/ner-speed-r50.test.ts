import { describe, expect, it } from 'vitest';
import { bundledNerModel } from './bundled-ner-model';
import { scanText, tokenBounds, WordTable } from './features';
import { findNamedEntities } from './find-named-entities';

/**
 * Round 50 (hB, issue 17, speed), a cut tried and not shipped (cachegrind
 * 0.998 against the round's 0.995 per cut, docs/pii-ner-model.md):
 * `tokenBounds` hashed each token's code units as it read them and
 * `WordTable.idOf` took that hash where it reads the characters again.
 * These pin what such a cut must keep: each token shape the tokenizer reads
 * by another branch (an initial, a joined word, a possessive, a surrogate
 * pair in a word, a lone symbol) gets the id `idOf` gives it from its
 * characters, and a token past `MAX_TOKEN_LENGTH` is one word with its first
 * 40 units. Each case failed on a copy of the cut with that branch left
 * unhashed (the surrogate pair) or the long token hashed whole.
 */
describe('ner speed, round 50 (hB)', () => {
  const text = "J. O'Neil-Brown's café 😀 x𝐀y 😀 § Zoë’s 12,5 ‘ok’";

  it('hashes every branch of the tokenizer as idOf hashes the characters', () => {
    const bounds = tokenBounds(text);
    const tokens = Array.from({ length: bounds.count }, (_, index) =>
      text.slice(bounds.start[index]!, bounds.end[index]!),
    );
    expect(tokens).toEqual([
      'J.',
      "O'Neil-Brown",
      "'s",
      'café',
      '😀',
      'x𝐀y',
      '😀',
      '§',
      'Zoë',
      '’s',
      '12',
      ',',
      '5',
      '‘',
      'ok',
      '’',
    ]);
    const scanned = scanText(
      text,
      bundledNerModel().gazetteers,
      new WordTable(bundledNerModel().gazetteers),
    );
    // A fresh table read without the tokenizer's hashes: the same ids, in the same order.
    const table = new WordTable(bundledNerModel().gazetteers);
    const ids = tokens.map((_, index) =>
      table.idOf(text, bounds.start[index]!, bounds.end[index]!),
    );
    expect([...scanned.word]).toEqual(ids);
    expect(ids).toEqual([0, 1, 2, 3, 4, 5, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    // A word seen again (with the hash) finds its id: no new word is added.
    const again = scanText(`${text} ${text}`, bundledNerModel().gazetteers, table);
    expect(table.size).toBe(15);
    expect([...again.word]).toEqual([...ids, ...ids]);
  });

  it('reads a token past 40 characters as its first 40 (one word for both lengths)', () => {
    const table = new WordTable(bundledNerModel().gazetteers);
    const long = `${'k'.repeat(41)} ${'k'.repeat(45)} ${'k'.repeat(40)}`;
    const scanned = scanText(long, bundledNerModel().gazetteers, table);
    expect([...scanned.word]).toEqual([0, 0, 0]);
    expect(table.size).toBe(1);
  });

  it('finds the same spans around those shapes', () => {
    expect(
      findNamedEntities("Please ask Siobhan O'Neil-Brown's office in Dún Laoghaire 😀."),
    ).toEqual([
      { type: 'PERSON', start: 11, end: 31 },
      { type: 'LOCATION', start: 44, end: 57 },
    ]);
  });
});
