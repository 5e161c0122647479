import { describe, expect, it } from 'vitest';
import { contentFilterBlocklistGenerate } from '../../../test/helpers/content-filter-cases';
import { foldTermReadings } from '../prompt-injection/fold-text';

/*
 * Round 24 folds a word made only of look-alikes to Latin where no native
 * word stands beside it. A blocklist entry is folded alone, so `бомба`
 * became `bomba`, while the same word in a Russian sentence stays as
 * written: the entry matched none of the sentences it was listed for. An
 * entry is now matched in both readings.
 */

const blocked = contentFilterBlocklistGenerate;

describe('contentFilter: entries in a script with look-alike letters', () => {
  it('a Russian entry matches in a Russian sentence and alone', async () => {
    const block = [
      'This content is not allowed.',
      [['content-filter', 'blocked', 'matched blocklist entry 0']],
    ];
    for (const [entry, answer] of [
      ['бомба', 'купить бомба сейчас'],
      ['бомба', 'бомба'],
      ['мама', 'где мама сейчас'],
      ['сеть', 'новая сеть дома'],
      ['рука', 'моя рука болит'],
      ['бомба', 'Just бомба here'],
    ] as const) {
      expect([entry, answer, await blocked([entry], answer)]).toEqual([entry, answer, block]);
    }
    expect(await blocked(['бомба'], 'купить хлеб сейчас')).toEqual([
      'купить хлеб сейчас',
      [['content-filter', 'passed', undefined]],
    ]);
  });

  it('foldTermReadings: the term alone, and with its look-alike words as written', () => {
    expect(foldTermReadings('Бомба')).toEqual(['bomba', 'бомба']);
    expect(foldTermReadings('сделать бомбу')).toEqual(['сделать бомбу']);
    expect(foldTermReadings('kill')).toEqual(['kill']);
  });
});
